"""The phones' relay: a paired phone's play goes to the host as its seat reader's pad event.

The seat page (``/pad``) posts each play with its own number; ``PadRelay.play`` turns it into
the ``PadEvent`` a board would send, ``(reader, boot, seq)`` with the reader the club file's
phone reader of the pairing's table and seat (``protocol.phone_reader``) and the boot the
pairing's number, publishes it on the reader's event topic, and waits for the host's ``Ack``
and then its verdict (the seat's ``Feedback``: green, red, or amber with the revoke buzz;
then the ``accepted``/``refused`` event naming the reader, with the host's reason). So the host journals, acknowledges and applies it exactly as a board's; a
second copy is acknowledged and not applied again (no verdict follows: the answer says
``repeat``). No ack in time: the answer says so and the phone keeps the play to send again.
A play is relayed as kept (``PadEvent.kept``) when the page says it kept it (an earlier send got
no answer, or it outlived a reload), when the host is not known to be online, or when another
play of the table still waits for its ack: the host then holds it, if it is not yet in turn,
until the plays placed before it arrive (docs/phones.md), and the relay waits that much longer.
The relay also publishes the reader's retained status (online, firmware ``phone``, what the
page says of its battery and network), so the host counts the phone among the table's readers
online and the fleet page lists it beside the boards.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from tricktable.history.words import action_words
from tricktable.protocol import (
    KEPT_HOLD_S,
    MAX_BOARD_MESSAGE,
    Ack,
    BoardStatus,
    Feedback,
    PadEvent,
    ProtocolError,
    TableEvent,
    Topics,
    decode,
    encode,
    phone_reader,
)
from tricktable.web.feed import Feed
from tricktable.web.pairings import Pairing, seat_words, table_words

ACK_WAIT_S = 4.0  # the host's ack; none in time: the phone keeps the play and sends it again
VERDICT_WAIT_S = 2.0  # after the ack, the verdict (none: a repeat, acknowledged only)


class NotSeated(LookupError):
    """The club file has no phone reader for the pairing's seat (or the host has not said so)."""


@dataclass
class _Waiter:
    key: tuple[int, int]  # (boot, seq)
    table: str
    loop: asyncio.AbstractEventLoop
    acked: asyncio.Event = field(default_factory=asyncio.Event)
    judged: asyncio.Event = field(default_factory=asyncio.Event)
    feedback: dict[str, Any] | None = None
    verdict: dict[str, Any] | None = None


class PadRelay:
    """Relays paired phones' plays over the scoreboard's own broker connection."""

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self.topics = Topics(feed.club.names.prefix)
        self._waiting: dict[str, _Waiter] = {}  # reader -> the play in flight
        self._locks: dict[str, asyncio.Lock] = {}
        feed.tap(self._heard, self.topics.ack("+"), self.topics.feedback("+"))

    def reader(self, pairing: Pairing) -> str:
        """The pairing's reader id; NotSeated when the host serves no such phone seat."""
        reader = phone_reader(pairing.table, pairing.seat)
        with self.feed.lock:
            table = self.feed.club.boards.get(reader, {}).get("table")
        if table != pairing.table:
            raise NotSeated(f"{table_words(pairing.table)} has no phone at "
                            f"{seat_words(pairing.seat)} in the club file (its 'phones' key): "
                            f"ask the director")
        return reader

    async def play(self, pairing: Pairing, seq: int, t: int, uid: str,
                   kept: bool = False) -> dict[str, Any]:
        """Send one play and wait for its ack and verdict: ``{"acked", "repeat", "verdict"}``;
        ProtocolError for a play no board could send (a bad UID, a bad number). ``kept``: the
        page kept it (an earlier send got no answer)."""
        reader = self.reader(pairing)
        event = PadEvent(board=reader, boot=pairing.id, seq=seq, t=t, pad=0, uid=uid.lower(),
                         kept=kept)
        decode(PadEvent, encode(event), MAX_BOARD_MESSAGE)  # what the host would refuse, here
        lock = self._locks.setdefault(reader, asyncio.Lock())
        async with lock:  # one play in flight per reader: its verdict is the next one
            event.kept = kept or not self._host_online() or any(
                w.table == pairing.table and not w.acked.is_set() for w in self._waiting.values())
            waiter = _Waiter((event.boot, event.seq), pairing.table, asyncio.get_running_loop())
            self._waiting[reader] = waiter
            try:
                await asyncio.to_thread(self.feed.publish, self.topics.board_event(reader),
                                        encode(event))
                try:  # a kept play may be held by the host until the plays before it arrive
                    await asyncio.wait_for(waiter.acked.wait(),
                                           ACK_WAIT_S + (KEPT_HOLD_S if event.kept else 0))
                except TimeoutError:
                    return {"acked": False, "repeat": False, "verdict": None}
                try:
                    await asyncio.wait_for(waiter.judged.wait(), VERDICT_WAIT_S)
                except TimeoutError:
                    return {"acked": True, "repeat": True, "verdict": None}
                verdict = dict(waiter.verdict or {}, feedback=waiter.feedback)
                if verdict.get("action"):
                    verdict["words"] = action_words(verdict["action"], self._names(pairing))
                return {"acked": True, "repeat": False, "verdict": verdict}
            finally:
                self._waiting.pop(reader, None)

    def _host_online(self) -> bool:
        """The host's retained status, as this scoreboard last heard it, says online."""
        with self.feed.lock:
            host = self.feed.club.host
        return host is not None and host.online

    def _names(self, pairing: Pairing) -> list[str]:
        """What to call each seat of the pairing's table: "North (Ann)"."""
        with self.feed.lock:
            view = self.feed.club.tables.get(pairing.table)
            players = list((view.state or {}).get("seats") or []) if view is not None else []
        return [f"{seat_words(s)} ({p})" if p else seat_words(s) for s, p in
                enumerate(players or [None] * 4)]

    def status(self, pairing: Pairing, battery: float | None, charging: bool | None,
               network: str | None, verdict_ms: list[int] | None = None) -> None:
        """The phone reader's retained status: online, what the page knows of itself, and
        its plays' card-to-verdict times since its last status (as a board's)."""
        reader = self.reader(pairing)
        status = BoardStatus(online=True, boot=pairing.id, fw="phone", readers=1,
                             battery=None if battery is None else max(0, min(100, round(battery))),
                             charging=charging, network=network,
                             verdict_ms=verdict_ms or None)
        self.feed.publish_retained(self.topics.board_status(reader), encode(status))

    def offline(self, pairing: Pairing) -> None:
        """The reader's status says offline (its pairing was revoked)."""
        reader = phone_reader(pairing.table, pairing.seat)
        self.feed.publish_retained(self.topics.board_status(reader),
                                   encode(BoardStatus(online=False)))

    # --- on the MQTT thread ---------------------------------------------------------------

    def _heard(self, topic: str, payload: bytes) -> None:
        try:
            scope, name, leaf = self.topics.parse(topic)
        except ProtocolError:
            return
        if scope == "board":
            waiter = self._waiting.get(name)
            if waiter is None:
                return
            if leaf == "ack":
                ack = decode(Ack, payload)
                if (ack.boot, ack.seq) == waiter.key:
                    waiter.loop.call_soon_threadsafe(waiter.acked.set)
            elif leaf == "feedback":
                waiter.feedback = json.loads(encode(decode(Feedback, payload)))
        elif scope == "table" and leaf == "events":
            event = decode(TableEvent, payload, 1 << 16)
            waiter = self._waiting.get(event.board or "")
            if waiter is not None and event.table == waiter.table \
                    and event.kind in ("accepted", "refused"):
                waiter.verdict = json.loads(encode(event))
                waiter.loop.call_soon_threadsafe(waiter.judged.set)

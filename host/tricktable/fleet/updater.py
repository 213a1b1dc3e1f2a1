"""Offer a firmware bundle to boards over MQTT, serve its chunks, and follow each board through.

``Updater`` is one MQTT client (its own, beside the host service): it answers every board's
``fetch`` with the chunk asked for, keeps each board's latest status and each table's retained
state, offers the bundle (``FirmwareOffer``) to a board, and waits for the board to say how it
went (``UpdateProgress`` in its status). ``update_tables`` goes table by table: it waits for a
table to be between hands, updates all its boards at once, and stops at the first board that
refuses the bundle, rolls back or does not answer, so a bad bundle reaches one table, not the
club. A board's own "busy" refusal (a card on a pad, a play unacknowledged, a card read in the
last minute) is not a failure: the bundle is offered again until ``busy_timeout``; nor at
first is a board's "not enough heap free" (its heap in pieces just then, with messages coming
in): offered again, the board resumes its download, ``HEAP_OFFERS`` times in all.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec
import paho.mqtt.client as mqtt

from tricktable import protocol
from tricktable.fleet.bundle import Bundle
from tricktable.mqtt.client import new_client, start_client, stop_client
from tricktable.mqtt.url import BrokerURL

log = logging.getLogger("tricktable.fleet")

MANIFEST = "manifest.json"  # the name a board fetches the offer's manifest by
SIGNATURE = "manifest.sig"  # and its signature by
RETRY_BUSY_S = 5.0  # a board busy with a hand is offered the bundle again this often
HEAP_OFFERS = 3  # a board short of heap for the download is offered the bundle this often
SHORT_OF_HEAP = "not enough heap free"  # how such a board's refusal reads (firmware/fwupdate.py)
# An offer no status of the board's has followed this long was lost on the way (a board with
# no piece of heap for a message just then reads it past): it is made again.
OFFER_AGAIN_S = 10.0


class UpdateError(RuntimeError):
    """The updater cannot reach the broker."""


@dataclass
class BoardResult:
    """How one board's update went: ``ok`` (it runs the version), else ``why``."""

    board: str
    ok: bool
    why: str = ""


def between_hands(state: Mapping[str, Any] | None) -> bool:
    """True when a table's retained state shows no hand under way: no game, the game over, or
    a deal with no bid, up card or trick yet (boards refuse too while a card lies on a pad or
    was read in the last minute, which covers hand scans)."""
    if not state or state.get("phase") is None or state.get("game_over"):
        return True
    return (state.get("phase") == "deal" and not state.get("bids") and not state.get("up_card")
            and not (state.get("trick") or {}).get("cards") and not state.get("tricks"))


class Updater:
    """One connection that offers ``bundle`` and serves its chunks."""

    def __init__(self, bundle: Bundle, url: BrokerURL, prefix: str = protocol.DEFAULT_PREFIX, *,
                 ca_file: str | None = None, client_id: str = "") -> None:
        self.bundle = bundle
        self.url = url
        self.topics = protocol.Topics(prefix)
        self.statuses: dict[str, protocol.BoardStatus] = {}
        self.states: dict[str, dict[str, Any]] = {}
        self.chunks_served = 0
        self.files_served: set[str] = set()  # the files (and manifest.json) boards fetched
        self._changed = threading.Condition()
        self._client = new_client(url, client_id=client_id, ca_file=ca_file)
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message
        self._connected = threading.Event()
        self._synced = threading.Event()
        self._marker = f"{self.topics.base}/fleet/marker/{id(self)}"

    # -- the connection ------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> None:
        try:
            start_client(self._client, self.url, keepalive=30)
        except OSError as exc:
            raise UpdateError(f"no MQTT broker at {self.url.host}:{self.url.port}: {exc}") from None
        if not self._connected.wait(timeout):
            self.stop()
            raise UpdateError(f"the broker at {self.url.host}:{self.url.port} did not accept "
                              "the updater (credentials? ACL?)")
        # The broker hands over retained messages in order: once a marker published after the
        # subscriptions comes back, every table's retained state is here (a table mid-hand is
        # never taken for one without state).
        self._client.publish(self._marker, b"1", qos=1)
        if not self._synced.wait(timeout):
            self.stop()
            raise UpdateError("the broker did not return the updater's own message "
                              f"(ACL: the fleet user must read and write {self.topics.base}/fleet/#)")

    def stop(self) -> None:
        stop_client(self._client)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            return
        client.subscribe([(self.topics.fetch("+"), 1), (self.topics.board_status("+"), 1),
                          (self.topics.state("+"), 1), (self._marker, 1)])
        self._connected.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == self._marker:
            self._synced.set()
            return
        try:
            scope, name, leaf = self.topics.parse(msg.topic)
            if scope == "board" and leaf == "fetch":
                self._serve(name, protocol.decode(protocol.FirmwareFetch, msg.payload))
            elif scope == "board" and leaf == "status" and msg.payload:
                status = protocol.decode(protocol.BoardStatus, msg.payload,
                                         protocol.MAX_STATUS_MESSAGE)
                with self._changed:
                    self.statuses[name] = status
                    self._changed.notify_all()
            elif scope == "table" and leaf == "state" and msg.payload:
                state = msgspec.json.decode(msg.payload)
                with self._changed:
                    self.states[name] = state if isinstance(state, dict) else {}
                    self._changed.notify_all()
        except (protocol.ProtocolError, msgspec.DecodeError) as exc:  # a bad message: ignored
            log.warning("ignored a message on %s: %s", msg.topic, exc)

    def _serve(self, board: str, ask: protocol.FirmwareFetch) -> None:
        """Answer a fetch with the chunk (of a file, ``manifest.json`` or ``manifest.sig``); one
        for another
        version or file is not answered."""
        if ask.file == MANIFEST:
            data: bytes | None = self.bundle.manifest.encode()
        elif ask.file == SIGNATURE:
            data = self.bundle.sig
        else:
            data = self.bundle.files.get(ask.file)
        if ask.version != self.bundle.version or data is None or ask.offset >= len(data):
            log.warning("%s asked for %s %s@%d: not in bundle %s", board, ask.version, ask.file,
                        ask.offset, self.bundle.version)
            return
        head = f"{ask.file}\n{ask.offset}\n".encode()
        self._client.publish(self.topics.update_chunk(board),
                             head + data[ask.offset:ask.offset + ask.len], qos=1)
        self.chunks_served += 1
        self.files_served.add(ask.file)

    # -- updating --------------------------------------------------------------------------
    def offer(self, board: str) -> None:
        offer = protocol.FirmwareOffer(version=self.bundle.version,
                                       size=len(self.bundle.manifest.encode()),
                                       sig=self.bundle.offer_sig,
                                       sig_size=len(self.bundle.sig))
        self._client.publish(self.topics.update(board), protocol.encode(offer), qos=1)

    def wait_for(self, condition: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``condition()`` holds (checked at every status or state that comes)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 1.0))
            return True

    def _verdict(self, board: str, since: protocol.BoardStatus | None) -> BoardResult | None:
        """What the board's latest status says about this bundle, or None while undecided."""
        status = self.statuses.get(board)
        if status is None or status is since:
            return None
        version = self.bundle.version
        if status.online and status.fw == version:
            return BoardResult(board, True)
        update = status.update
        if update is None or update.version != version:
            return None
        if update.state == "refused":
            return BoardResult(board, False, f"refused: {update.reason}")
        if update.state == "rolled_back":
            return BoardResult(board, False, f"rolled back to {status.fw}: {update.reason}")
        return None

    def _unanswered(self, board: str, at: float, since: protocol.BoardStatus | None) -> bool:
        """No status of ``board``'s since the offer made at ``at``, ``OFFER_AGAIN_S`` ago."""
        with self._changed:
            return self.statuses.get(board) is since and time.monotonic() - at >= OFFER_AGAIN_S

    def _downgrade(self, board: str) -> BoardResult | None:
        """The host's own refusal to offer a bundle older than the one ``board`` runs (the
        board refuses it too): a way back is ``tricktable fleet rollback``."""
        with self._changed:
            status = self.statuses.get(board)
        if status is None or status.fwc is None or status.fw == self.bundle.version \
                or status.fwc < self.bundle.counter:
            return None
        return BoardResult(board, False, f"not offered: {self.bundle.version} is older than "
                                         f"{status.fw}, which it runs (a downgrade is "
                                         "`tricktable fleet rollback`)")

    def update_boards(self, boards: Iterable[str], timeout: float = 300.0,
                      busy_timeout: float = 600.0) -> list[BoardResult]:
        """Offer the bundle to ``boards`` and wait for each: running it, refused, rolled back,
        or no verdict within ``timeout`` seconds. A board is offered it once its status says
        it is online (an offer to a board still booting would be lost), unless it runs a newer
        bundle (``_downgrade``); a board busy with a hand is offered it again every
        ``RETRY_BUSY_S`` for up to ``busy_timeout`` (one short of heap, ``HEAP_OFFERS`` times in
        all within ``timeout``), and a board that has said nothing since
        the offer is offered it again every ``OFFER_AGAIN_S`` (a repeated offer is one offer
        to a board already fetching it)."""
        pending = list(boards)
        results: dict[str, BoardResult] = {}
        offered: dict[str, tuple[float, protocol.BoardStatus | None]] = {}
        busy: set[str] = set()
        offers = dict.fromkeys(pending, 0)  # made to each board
        start = time.monotonic()
        while pending:
            for board in list(pending):
                if board not in offered:
                    with self._changed:
                        status = self.statuses.get(board)
                    if status is None or not status.online:
                        continue  # not online yet: offered when it is
                    refusal = self._downgrade(board)
                    if refusal is not None:
                        results[board] = refusal
                        pending.remove(board)
                        continue
                if board not in offered or (board in busy
                                            and time.monotonic() - offered[board][0]
                                            >= RETRY_BUSY_S) or self._unanswered(
                                                board, *offered[board]):
                    with self._changed:
                        offered[board] = (time.monotonic(), self.statuses.get(board))
                    busy.discard(board)
                    offers[board] += 1
                    self.offer(board)
            self.wait_for(lambda: any(b not in offered and (s := self.statuses.get(b))
                                      is not None and s.online
                                      or b in offered and self._verdict(b, offered[b][1])
                                      for b in pending), 1.0)
            elapsed = time.monotonic() - start
            with self._changed:
                verdicts = {b: self._verdict(b, offered[b][1]) for b in pending if b in offered}
            for board in [b for b in pending if b not in offered and elapsed > timeout]:
                results[board] = BoardResult(board, False, f"not online within {timeout:.0f} s")
                pending.remove(board)
            for board, verdict in verdicts.items():
                if verdict is None:
                    if elapsed > timeout and board not in busy:
                        results[board] = BoardResult(board, False,
                                                     f"no verdict within {timeout:.0f} s")
                        pending.remove(board)
                elif SHORT_OF_HEAP in verdict.why and offers[board] < HEAP_OFFERS \
                        and elapsed <= timeout:
                    busy.add(board)
                elif verdict.ok or "busy:" not in verdict.why or elapsed > busy_timeout:
                    results[board] = verdict
                    pending.remove(board)
                else:
                    busy.add(board)
        return list(results.values())

    def update_tables(self, tables: Mapping[str, Iterable[str]], timeout: float = 300.0,
                      report: Callable[[str, list[BoardResult]], None] | None = None,
                      ) -> dict[str, list[BoardResult]]:
        """Table by table: wait until the table is between hands, update its boards, and stop
        at the first table where a board failed. Returns the tables done, in order."""
        done: dict[str, list[BoardResult]] = {}
        for table, boards in tables.items():
            if self.wait_for(lambda t=table: between_hands(self.states.get(t)), timeout):
                results = self.update_boards(boards, timeout)
            else:
                results = [BoardResult(b, False, f"table {table} was not between hands within "
                                                 f"{timeout:.0f} s") for b in boards]
            done[table] = results
            if report is not None:
                report(table, results)
            if not all(r.ok for r in results):
                break
        return done

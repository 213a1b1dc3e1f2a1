"""Kept plays held back until the plays placed before them arrive (docs/phones.md, "Plays kept
while the host was away").

A reader keeps a play it could not deliver and sends it again once the host is back
(``PadEvent.kept``). A table read by several readers (four phones, or boards and phones) has
one outbox per reader, so their kept plays can reach the host in another order than they were
placed in. When a kept play is refused for a reason an earlier play could lift (``WAITING``:
not this seat's turn, not this phase yet), the service does not judge it: it stores nothing,
acknowledges nothing, and keeps it here; after each action applied at that table it tries the
held plays again, first held first. A held play is judged as usual (refused, acknowledged,
red at its seat) once it has waited ``hold_s`` since it first arrived. Nothing here is stored:
a host that stops forgets its held plays, which their readers still keep and send again.

Bookkeeping: no MQTT, no journal, no clock (the service gives the time and starts the timers).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass

from tricktable.protocol import PadEvent

# the refusals an earlier play can lift: the seat's turn, the phase (a card before the trump
# is named), the up-card (a bid before the dealer turned it up)
WAITING = frozenset({"not_your_turn", "wrong_phase", "up_card_first"})

Key = tuple[str, int, int]  # PadEvent.key: (board, boot, seq)


@dataclass
class Held:
    """One kept play held back: its last copy, when its first copy arrived, and the service's
    timer that judges it once it has waited its time."""

    table: str
    event: PadEvent
    topic: str
    payload: bytes
    since: float
    timer: threading.Timer | None = None

    @property
    def key(self) -> Key:
        return self.event.key


class HeldPlays:
    """The kept plays each table holds back, in the order they first arrived."""

    def __init__(self, hold_s: float) -> None:
        self.hold_s = hold_s
        self._held: dict[str, dict[Key, Held]] = {}

    def hold(self, table: str, event: PadEvent, topic: str, payload: bytes,
             now: float) -> Held | None:
        """Hold this copy of a kept play refused for a ``WAITING`` reason; None when it has
        waited ``hold_s`` already (judge it now). A second copy keeps the first one's time."""
        plays = self._held.setdefault(table, {})
        key = event.key
        held = plays.get(key)
        if held is None:
            held = plays[key] = Held(table, event, topic, payload, now)
        held.event, held.topic, held.payload = event, topic, payload
        return held if now - held.since < self.hold_s else None

    def get(self, table: str, key: Key) -> Held | None:
        return self._held.get(table, {}).get(key)

    def drop(self, table: str, key: Key) -> None:
        """The play was judged (applied, refused or a second copy): no longer held, its timer
        stopped."""
        held = self._held.get(table, {}).pop(key, None)
        if held is not None and held.timer is not None:
            held.timer.cancel()

    def waiting(self, table: str) -> list[Held]:
        """The table's held plays, first held first (a copy to iterate while judging)."""
        return list(self._held.get(table, {}).values())

    def count(self) -> int:
        return sum(len(plays) for plays in self._held.values())

    def all(self) -> Iterator[Held]:
        for plays in self._held.values():
            yield from plays.values()


def waited_reason(reason: str, hold_s: float) -> str:
    """The refusal of a kept play that waited its time for the plays placed before it."""
    return (f"{reason} (this card was kept while the host was away and waited {hold_s:g} s for "
            f"the cards placed before it, which did not come)")

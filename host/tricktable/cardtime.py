"""Card-to-verdict times measured by the boards of a real table, collected from their status.

A pad board notes when the scan that saw a card began and, when the seat's verdict (green,
red or amber) comes back for that pad, the milliseconds between; each status it publishes
carries the times since the last one as ``verdict_ms`` (firmware/feedback.py, app.py). A
:class:`CardTimes` takes statuses as they come and keeps every board's times, so
``tricktable cardtime`` can print a table's figure (docs/cardpath.md, hardware/bring-up.md).
The retained status a subscriber gets first was said before it came, and is skipped.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field


def percentile(values: list[float], q: float) -> float:
    """The value below which a fraction ``q`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


@dataclass
class CardTimes:
    """Card-to-verdict milliseconds per board, from the boards' statuses."""

    by_board: dict[str, list[int]] = field(default_factory=dict)

    def status(self, board: str, payload: bytes, retained: bool) -> int:
        """Take one status message; return how many new times it carried (0 for a retained
        one, a board that says none, or a payload that is not a status)."""
        if retained:
            return 0
        try:
            times = json.loads(payload).get("verdict_ms") or []
        except (ValueError, AttributeError):
            return 0
        good = [t for t in times if isinstance(t, int) and not isinstance(t, bool) and t >= 0]
        self.by_board.setdefault(board, []).extend(good)
        return len(good)

    def count(self) -> int:
        return sum(len(v) for v in self.by_board.values())

    def lines(self) -> list[str]:
        """The figure, one line per board and one for the whole table."""
        rows = [(board, times) for board, times in sorted(self.by_board.items()) if times]
        every = [t for _, times in rows for t in times]
        if not every:
            return ["no card-to-verdict times yet: play cards on the table's pads"]
        out = [f"{'board':<20} {'plays':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}"]
        for board, times in [*rows, ("all", every)]:
            out.append(f"{board:<20} {len(times):>6} {statistics.median(times):>7.0f} "
                       f"{percentile(times, 0.99):>7.0f} {max(times):>7.0f}")
        out.append("from the scan that saw the card to the seat's light; the card lay on the "
                   "pad up to one scan cycle (scan_ms + the pads' polls) before that scan")
        return out

"""The club night on the scoreboard: the night file read again whenever it changes.

``NightFile(path)`` keeps the standings of a progressive night (``tricktable club``) as JSON
for the web: rank, player, total, games won, high/low marks, and the current round's seating
with each table's score so far. ``refresh()`` looks at the file's modification time, size and
inode (``save_night`` renames a new file over the old) and reloads only when one changed; it
says whether the view changed. A file that cannot be read or is refused by the club package
keeps the last good standings and carries the error, so a half-typed hand edit never blanks
the TV. Imports ``tricktable.club`` only.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tricktable.club import SEATS, ClubError, ProgressiveTournament, load_night, standings

__all__ = ["NightFile", "night_view"]


def night_view(night: ProgressiveTournament) -> dict[str, Any]:
    """The standings and the current seating of ``night`` as JSON-able data. Before the
    first bell nobody has a tally, so nobody is marked high or low."""
    tallied = bool(night.games)
    rows = [{"rank": s.rank, "name": s.name, "total": s.total, "won": s.won,
             "played": s.played, "high": s.high and tallied, "low": s.low and tallied}
            for s in standings(night.tallies())]
    seating = []
    if not night.finished:
        for number, table in enumerate(night.seating, 1):
            a, b = night.table_score(number)
            seating.append({"table": number, "seats": dict(zip(SEATS, table, strict=True)),
                            "score": [a, b], "hands": len(night.hands[number - 1])})
    return {"round": min(night.round, night.last_round), "rounds": night.last_round,
            "games_played": len(night.games), "finished": night.finished,
            "hands_per_round": night.options.hands_per_round, "hands_left": night.hands_left(),
            "standings": rows, "seating": seating}


class NightFile:
    """A night file watched for changes; ``view()`` is the last good standings plus any error."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._stamp: tuple[int, int, int] | None = None
        self._view: dict[str, Any] | None = None
        self._error: str | None = None
        self.refresh()

    def refresh(self) -> bool:
        """Reload the night if the file changed since the last look; True if the view changed."""
        try:
            st = os.stat(self.path)
            stamp: tuple[int, int, int] | None = (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            stamp = None
        if stamp == self._stamp and (stamp is not None or self._error is not None):
            return False
        self._stamp = stamp
        try:
            view, error = night_view(load_night(self.path)), None
        except ClubError as exc:
            view, error = self._view, str(exc)
        changed = (view, error) != (self._view, self._error)
        self._view, self._error = view, error
        return changed

    def view(self) -> dict[str, Any]:
        """The JSON for ``/api/standings`` and the ``standings`` event."""
        base = self._view or {"round": 0, "rounds": 0, "games_played": 0, "finished": False,
                              "hands_per_round": 0, "hands_left": 0, "standings": [],
                              "seating": []}
        return dict(base, night=self.path.name, error=self._error)

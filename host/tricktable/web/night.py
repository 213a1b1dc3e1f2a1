"""The club night on the scoreboard: the night file read again whenever it changes.

``NightFile(path)`` keeps the standings of a progressive night (``tricktable club``) as JSON
for the web: rank, player, total, games won, high/low marks (and, apart, ``unranked``: the
players with nothing on their tally once a game is tallied), and the current round's seating
with each table's score so far, and who sits this game out (``bench``). ``refresh()`` looks at the file's modification time, size and
inode (``save_night`` renames a new file over the old) and reloads only when one changed; it
says whether the view changed. A file that cannot be read or is refused by the club package
keeps the last good standings and carries the error, so a half-typed hand edit never blanks
the TV. Beside the night, the view carries what the live tables keep in the file's ``live``
section (``tricktable.club.live``): ``bell`` (the head table rang: every table finishes its
hand), ``bell_at`` (when it rang), ``closed`` (the tables, by their club ids, that have finished
their hand since; ``tables``: the night's table ids in order, the head table first) and
``round_started`` (when this game of the night began, seconds since the epoch; for a
night kept by hand, when this scoreboard saw the game change, else null), and ``now`` (the
scoreboard's clock, so a TV with a wrong clock still counts right). ``tournament()`` is the
last good night itself, for the results pages; ``game_of(table, game)`` the game of the night
a table's journal game was, with its players and the director's corrections, for the replays.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from tricktable.club import SEATS, ClubError, ProgressiveTournament, standings
from tricktable.club.standings import unranked
from tricktable.club.store import load_night_data

__all__ = ["NightFile", "night_view", "standing_rows"]


def standing_rows(night: ProgressiveTournament) -> list[dict[str, Any]]:
    """The standings of ``night`` as JSON-able rows. Before the first bell nobody has a
    tally, so nobody is marked high or low."""
    tallied = bool(night.games)
    return [{"rank": s.rank, "name": s.name, "total": s.total, "won": s.won,
             "played": s.played, "high": s.high and tallied, "low": s.low and tallied}
            for s in standings(night.tallies())]


def night_view(night: ProgressiveTournament) -> dict[str, Any]:
    """The standings and the current seating of ``night`` as JSON-able data."""
    rows = standing_rows(night)
    seating = []
    if not night.finished:
        for number, table in enumerate(night.seating, 1):
            a, b = night.table_score(number)
            seating.append({"table": number, "seats": dict(zip(SEATS, table, strict=True)),
                            "score": [a, b], "hands": len(night.hands[number - 1])})
    return {"round": min(night.round, night.last_round), "rounds": night.last_round,
            "games_played": len(night.games), "finished": night.finished,
            "hands_per_round": night.options.hands_per_round, "hands_left": night.hands_left(),
            "standings": rows, "unranked": unranked(night.tallies()), "seating": seating,
            "bench": [] if night.finished else list(night.bench)}


class NightFile:
    """A night file watched for changes; ``view()`` is the last good standings plus any error."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._stamp: tuple[int, int, int] | None = None
        self._view: dict[str, Any] | None = None
        self._error: str | None = None
        self._night: ProgressiveTournament | None = None
        self._data: dict[str, Any] = {}  # the file's whole JSON (its live and director sections)
        self._seen: tuple[int, float | None] | None = None  # (round, when this board saw it begin)
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
            night, data = load_night_data(self.path)
            view, error = dict(night_view(night), **self._live(night, data)), None
            self._night, self._data = night, data
        except ClubError as exc:
            view, error = self._view, str(exc)
        changed = (view, error) != (self._view, self._error)
        self._view, self._error = view, error
        return changed

    def _live(self, night: ProgressiveTournament, data: dict[str, Any]) -> dict[str, Any]:
        """The bell and the round's start from the file's ``live`` section (or as seen)."""
        live = data.get("live") if isinstance(data.get("live"), dict) else {}
        started = live.get("round_started")
        if not isinstance(started, int | float) or isinstance(started, bool):
            if self._seen is None or self._seen[0] != night.round:
                self._seen = (night.round, None if self._seen is None else time.time())
            started = self._seen[1]
        bell = live.get("bell") is True and not night.finished
        ids = live.get("tables") if isinstance(live.get("tables"), list) else []
        closed = live.get("closed") if bell and isinstance(live.get("closed"), dict) else {}
        bell_at = live.get("bell_at")
        return {"bell": bell, "round_started": started,
                "bell_at": bell_at if bell and isinstance(bell_at, int | float) else None,
                "tables": [str(t) for t in ids], "closed": sorted(map(str, closed))}

    def corrections(self) -> dict[tuple[int, int], list[str]]:
        """What the director fixed or voided, by (game of the night, table number), in words
        ("hand 1 voided by the director"), from the file's audit log: for the results."""
        tables = (self._data.get("live") or {}).get("tables") or []
        out: dict[tuple[int, int], list[str]] = {}
        for entry in (self._data.get("director") or {}).get("audit") or []:
            if entry.get("refused") or entry.get("table") not in tables or \
                    not isinstance(entry.get("game"), int):
                continue
            words = (f"hand {entry['hand']} voided by the director"
                     if entry.get("cmd") == "void_hand" else
                     f"hand {entry['hand']} scored {entry.get('after')} by the director")
            out.setdefault((entry["game"], tables.index(entry["table"]) + 1), []).append(words)
        return out

    def game_of(self, table: str, game: int) -> dict[str, Any] | None:
        """Which game of the night ``table``'s journal game ``game`` was, as the live tables
        kept it (the file's ``live.rounds``): ``round`` (the night's game number), ``players``
        (the night's players of the table in it, after the director's swaps and substitutes:
        the names the tallies credit) and ``corrected`` ({hand: what the director did to it});
        None when the night does not know that game."""
        night, live = self._night, self._data.get("live") or {}
        tables, rounds = live.get("tables") or [], live.get("rounds") or {}
        if night is None or table not in tables or not isinstance(rounds, dict):
            return None
        mine = [int(r) for r, firsts in rounds.items()
                if isinstance(firsts, dict) and isinstance(firsts.get(table), int)
                and firsts[table] <= game and int(r) <= night.last_round]
        if not mine:
            return None
        number, first = max(mine), rounds[str(max(mine))][table]
        seating = night.games[number - 1].seating if number <= len(night.games) \
            else night.seating
        corrected = {}
        for entry in (self._data.get("director") or {}).get("audit") or []:
            if entry.get("table") == table and entry.get("game") == number and \
                    not entry.get("refused") and game == first:
                done = "voided" if entry.get("cmd") == "void_hand" else \
                    f"scored {entry.get('after')}"
                corrected[int(entry["hand"])] = (f"{done} by the director (it had scored "
                                                 f"{entry.get('before')})")
        return {"round": number, "players": list(seating[tables.index(table)]),
                "corrected": corrected}

    def tournament(self) -> ProgressiveTournament | None:
        """The last good night read from the file (None if it never could be read)."""
        return self._night

    def view(self) -> dict[str, Any]:
        """The JSON for ``/api/standings`` and the ``standings`` event."""
        base = self._view or {"round": 0, "rounds": 0, "games_played": 0, "finished": False,
                              "hands_per_round": 0, "hands_left": 0, "standings": [],
                              "unranked": [],
                              "seating": [], "bench": [], "bell": False,
                              "round_started": None,
                              "bell_at": None, "tables": [], "closed": []}
        return dict(base, night=self.path.name, error=self._error, now=time.time())

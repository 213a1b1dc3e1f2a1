"""Seasons: a set of nights with a ladder of the club's choosing (docs/stats.md, "Seasons").

A ladder ranks the players of a season's nights by one of:

- ``total``: the points of every night added up (a night's points are the player's total on
  the night's standings, byes included, as the night counts them);
- ``best``: the average of the player's best N nights (a player with fewer nights: the
  average of the nights they played);
- ``won``: the games won over every night.

**The tie rule**: equal ladder values are separated by more games won, then more total
points, then fewer nights played (the same result in fewer nights); players level on all of
these share the place (listed by name). Hidden players are shown as Guest on public pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tricktable.players.db import PlayersError
from tricktable.players.roster import GUEST
from tricktable.stats.store import Stats

__all__ = ["LADDERS", "Season", "Seasons", "LadderRow"]

LADDERS = {"total": "total points", "best": "average of the best N nights", "won": "games won"}


@dataclass(frozen=True)
class Season:
    id: int
    name: str
    ladder: str
    best: int
    nights: tuple[int, ...]

    @property
    def ladder_words(self) -> str:
        return f"average of the best {self.best} nights" if self.ladder == "best" \
            else LADDERS[self.ladder]


@dataclass(frozen=True)
class LadderRow:
    place: int
    player: int
    name: str
    value: float
    total: int
    won: int
    played: int
    """Games played."""
    nights: int
    hidden: bool

    def to_json(self, public: bool) -> dict[str, Any]:
        return {"place": self.place, "player": None if public and self.hidden else self.player,
                "name": GUEST if public and self.hidden else self.name,
                "value": self.value, "total": self.total, "won": self.won,
                "played": self.played, "nights": self.nights}


class Seasons:
    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.db = stats.db

    def new(self, name: str, ladder: str, best: int = 0) -> Season:
        clean = name.strip()
        if not clean:
            raise PlayersError("a season needs a name")
        if ladder not in LADDERS:
            raise PlayersError(f"a ladder is one of {', '.join(LADDERS)}, not {ladder!r}")
        if ladder == "best" and best < 1:
            raise PlayersError("the best-nights ladder needs --best N (1 or more)")
        if self.db.query("SELECT 1 FROM seasons WHERE name = ?", (clean,)):
            raise PlayersError(f"there is already a season called {clean!r}")
        with self.db.transaction() as db:
            db.execute("INSERT INTO seasons (name, ladder, best) VALUES (?, ?, ?)",
                       (clean, ladder, best if ladder == "best" else 0))
        return self.get(clean)

    def get(self, which: str | int) -> Season:
        rows = self.db.query("SELECT id, name, ladder, best FROM seasons WHERE name = ? OR id = ?",
                             (str(which), which if isinstance(which, int) else -1))
        if not rows:
            raise PlayersError(f"no season called {which!r} (tricktable season list)")
        sid, name, ladder, best = rows[0]
        nights = tuple(n for (n,) in self.db.query(
            "SELECT night FROM season_nights WHERE season = ? ORDER BY night", (sid,)))
        return Season(sid, name, ladder, best, nights)

    def all(self) -> list[Season]:
        return [self.get(sid) for (sid,) in self.db.query("SELECT id FROM seasons ORDER BY id")]

    def add_night(self, season: str, *nights: str) -> Season:
        """Put ``nights`` in ``season``: all of them, or (one unknown or already there) none."""
        found = self.get(season)
        chosen = [self.stats.night(night) for night in nights]
        for night in chosen:
            if night.id in found.nights or [n.id for n in chosen].count(night.id) > 1:
                raise PlayersError(f"{night.name!r} is already in {found.name!r}")
        with self.db.transaction() as db:
            db.executemany("INSERT INTO season_nights VALUES (?, ?)",
                           [(found.id, night.id) for night in chosen])
        return self.get(found.id)

    def ladder(self, season: Season) -> list[LadderRow]:
        """The season's ladder, best first (see the module docstring for the tie rule)."""
        owners = self.stats.players.key_owners()
        per: dict[int, list[tuple[int, int, int]]] = {}
        marks = ",".join("?" * len(season.nights))
        for _night, name, points, won, played in self.db.query(
                f"SELECT night, name, points, won, played FROM night_results WHERE night IN "
                f"({marks}) ORDER BY night", season.nights):
            player = owners.get(name)
            if player is not None:
                per.setdefault(player, []).append((points, won, played))
        rows = []
        for player, nights in per.items():
            total = sum(n[0] for n in nights)
            won = sum(n[1] for n in nights)
            if season.ladder == "total":
                value: float = total
            elif season.ladder == "won":
                value = won
            else:
                best = sorted((n[0] for n in nights), reverse=True)[:season.best]
                value = round(sum(best) / len(best), 2)
            rows.append((value, won, total, len(nights), player,
                         sum(n[2] for n in nights)))
        rows.sort(key=lambda r: (-r[0], -r[1], -r[2], r[3]))
        out: list[LadderRow] = []
        for i, (value, won, total, count, player, played) in enumerate(rows):
            p = self.stats.players.get(player)
            level = out and (out[-1].value, out[-1].won, out[-1].total, out[-1].nights) == (
                value, won, total, count)
            out.append(LadderRow(out[-1].place if level else i + 1, player, p.name, value,
                                 total, won, played, count, p.hidden))
        # players sharing a place are listed by name
        out.sort(key=lambda r: (r.place, r.name.casefold()))
        return out

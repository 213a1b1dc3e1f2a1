"""Statistics kept in the club database, derived from journals (docs/stats.md).

``Stats(db)`` holds the nights (a night is one journal, and the night file when there is
one), the hands scored in them (``stats.facts``), the counters those hands add
(``stats.counting``), the revokes, each night's results and the ratings.

- **Incremental**: ``record_game`` is called as hands score (``stats.follow`` does it for a
  running service); it adds only the hands not yet recorded (keyed by night, table, game and
  hand), in one transaction, so being told twice counts nothing twice.
- **Rebuild**: ``rebuild()`` forgets everything derived and reads every night's journal again
  (``tricktable stats rebuild``). Counters are sums and ratings are re-rated in a fixed order
  (night, table, game), so a rebuild gives exactly what the incremental path gave: the
  exports are byte-identical (tested).
- **Closing a night** takes its results from its night file (each player's total, games won
  and played, as the night's standings count them) and re-rates every closed night.

Reading gathers a player's counters over every name they were known by (``players``), so a
rename or a merge needs no recount.
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tricktable.club import ClubError, load_night, standings
from tricktable.players.db import ClubDB, PlayersError
from tricktable.players.roster import Player, Players, name_key
from tricktable.protocol import natural_key
from tricktable.serve.journal import Journal, JournalError
from tricktable.stats.counting import hand_counts
from tricktable.stats.facts import HandFacts, journal_game_facts
from tricktable.stats.rating import RatedGame, rate_games

__all__ = ["Stats", "Night", "DERIVED_TABLES"]

DERIVED_TABLES = ("hands", "seats", "counts", "revokes", "ratings", "night_results")
"""What a rebuild forgets and reads again from the journals and night files."""


class Night:
    """A night as the database keeps it."""

    def __init__(self, row: tuple[Any, ...]) -> None:
        self.id, self.name, journal, night_file, self.played, closed = row
        self.journal = Path(journal)
        self.night_file = Path(night_file) if night_file else None
        self.closed = bool(closed)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "played": self.played, "closed": self.closed}


class Stats:
    """The statistics of one club database (see the module docstring)."""

    def __init__(self, db: ClubDB) -> None:
        self.db = db
        self.players = Players(db)

    # --- nights --------------------------------------------------------------------------

    def add_night(self, name: str, journal: Path, night_file: Path | None = None) -> Night:
        """Register a night: its journal (and night file). Refuses a name already used."""
        clean = name.strip()
        if not clean:
            raise PlayersError("a night needs a name")
        if self.db.query("SELECT 1 FROM nights WHERE name = ?", (clean,)):
            raise PlayersError(f"there is already a night called {clean!r}")
        played = _first_day(journal)
        if night_file is not None and not night_file.exists():
            raise PlayersError(f"no night file at {night_file}")
        with self.db.transaction() as db:
            db.execute("INSERT INTO nights (name, journal, night_file, played) VALUES (?,?,?,?)",
                       (clean, str(journal.resolve()),
                        str(night_file.resolve()) if night_file else "", played))
        return self.night(clean)

    def night(self, which: str | int) -> Night:
        rows = self.db.query("SELECT * FROM nights WHERE name = ? OR id = ?",
                             (str(which), which if isinstance(which, int) else -1))
        if not rows:
            raise PlayersError(f"no night called {which!r} (tricktable stats nights lists them)")
        return Night(rows[0])

    def night_of(self, journal: Path, night_file: Path | None) -> Night | None:
        """The night registered with this journal (and night file), if any."""
        rows = self.db.query("SELECT * FROM nights WHERE journal = ? AND night_file = ?",
                             (str(journal.resolve()),
                              str(night_file.resolve()) if night_file else ""))
        return Night(rows[0]) if rows else None

    def nights(self) -> list[Night]:
        return [Night(r) for r in self.db.query("SELECT * FROM nights ORDER BY id")]

    # --- recording -----------------------------------------------------------------------

    def record_game(self, night: int, table: str, game: int, facts: Iterable[HandFacts],
                    rerate: bool = True) -> int:
        """Add the hands of one game not yet recorded; returns how many were new. A hand
        added to a closed night re-rates (unless ``rerate`` is False: the caller will)."""
        have = {h for (h,) in self.db.query(
            "SELECT hand FROM hands WHERE night = ? AND table_id = ? AND game = ?",
            (night, table, game))}
        new = [f for f in facts if f.hand not in have]
        if not new:
            return 0
        for name in {n for f in new for n in f.players}:
            self.players.player_for(name)  # a name met for the first time is a new player
        counted: list[tuple[str, str, str, str, int]] = []
        with self.db.transaction() as db:
            for f in new:
                db.execute("INSERT INTO hands VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (
                    night, table, game, f.hand, f.variant, f.family, json.dumps(f.players),
                    json.dumps(f.sides), json.dumps(f.contract, sort_keys=True),
                    json.dumps(f.bids), json.dumps(f.tricks), json.dumps(f.deltas),
                    json.dumps(f.scores), f.detail))
                db.executemany("INSERT OR IGNORE INTO seats VALUES (?,?,?,?,?,?)", [
                    (name_key(name), night, table, game, f.hand, seat)
                    for seat, name in enumerate(f.players)])
                counted += [(name, partner, f.family, stat, value)
                            for (name, partner), stats in hand_counts(f).items()
                            for stat, value in stats.items()]
                db.executemany("INSERT INTO revokes VALUES (?,?,?,?,?,?,?,?,?,?)", [
                    (night, table, game, f.hand, seat, name_key(f.players[seat]), trick, suit,
                     how, proven) for seat, trick, suit, how, proven in f.revokes])
            db.executemany("INSERT INTO counts VALUES (?,?,?,?,?) ON CONFLICT DO UPDATE "
                           "SET value = value + excluded.value", counted)
        if rerate and self.night(night).closed:  # a hand scored after the night was closed
            self.rerate()
        return len(new)

    def record_journal(self, night: Night, journal: Journal | None = None,
                       tables: Iterable[str] | None = None, from_game: int = 0,
                       rerate: bool = True) -> int:
        """Record every scored hand of the night's journal (or of ``tables``, from game
        ``from_game`` on); returns how many were new."""
        own = journal is None
        try:
            source = journal or Journal(night.journal, readonly=True)
        except JournalError as exc:
            raise PlayersError(f"night {night.name!r}: {exc}") from None
        try:
            new = 0
            for table in tables or source.tables():
                for record in source.games(table):
                    if record.game >= from_game and record.actions:
                        facts = journal_game_facts(record.setup, record.actions, record.game)
                        new += self.record_game(night.id, table, record.game, facts, rerate)
            return new
        finally:
            if own:
                source.close()

    def close_night(self, night: Night, rerate: bool = True) -> None:
        """The night is over: take its results from its night file and re-rate (``rerate``
        False: the caller re-rates once after closing several)."""
        results: list[tuple[str, int, int, int]] = []
        if night.night_file is not None:
            try:
                tournament = load_night(night.night_file)
            except ClubError as exc:
                raise PlayersError(f"night {night.name!r}: {exc}") from None
            results = [(name_key(s.name), s.total, s.won, s.played)
                       for s in standings(tournament.tallies())]
        with self.db.transaction() as db:
            db.execute("DELETE FROM night_results WHERE night = ?", (night.id,))
            db.executemany("INSERT INTO night_results VALUES (?,?,?,?,?)",
                           [(night.id, *r) for r in results])
            db.execute("UPDATE nights SET closed = 1 WHERE id = ?", (night.id,))
        if rerate:
            self.rerate()

    def rerate(self) -> None:
        """Rate every game of every closed night again, in order (``stats.rating``)."""
        owners = self.players.key_owners()
        ratings = rate_games(self._rated_games(owners))
        with self.db.transaction() as db:
            db.execute("DELETE FROM ratings")
            db.executemany("INSERT INTO ratings VALUES (?,?,?,?,?)",
                           [(r.night, r.player, r.mu, r.sigma, r.games) for r in ratings])

    def _rated_games(self, owners: dict[str, int]) -> list[RatedGame]:
        rows = self.db.query(
            "SELECT h.night, h.table_id, h.game, h.hand, h.players, h.sides, h.scores "
            "FROM hands h JOIN nights n ON n.id = h.night WHERE n.closed = 1")
        last: dict[tuple[int, str, int], tuple[int, str, str, str]] = {}
        for night, table, game, hand, players, sides, scores in rows:
            key = (night, table, game)
            if key not in last or hand > last[key][0]:
                last[key] = (hand, players, sides, scores)
        games = []
        for (night, _table, _game), (_hand, players, sides, scores) in sorted(
                last.items(), key=lambda kv: (kv[0][0], natural_key(kv[0][1]), kv[0][2])):
            names = json.loads(players)
            teams = tuple(tuple(owners[name_key(names[s])] for s in seats)
                          for seats in json.loads(sides))
            games.append(RatedGame(night, teams, tuple(json.loads(scores))))
        return games

    def rebuild(self) -> int:
        """Forget everything derived and read every night again; returns the hands counted."""
        with self.db.transaction() as db:
            for table in DERIVED_TABLES:
                db.execute(f"DELETE FROM {table}")
        hands = 0
        for night in self.nights():
            hands += self.record_journal(night, rerate=False)
        for night in self.nights():
            if night.closed:
                self.close_night(night, rerate=False)
        self.rerate()
        return hands

    # --- reading -------------------------------------------------------------------------

    def counts(self, player: Player) -> dict[str, dict[str, int]]:
        """The player's own counters, per family, over every name they were known by."""
        out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        marks = ",".join("?" * len(player.names))
        for family, stat, value in self.db.query(
                f"SELECT family, stat, value FROM counts WHERE partner = '' AND name IN ({marks})",
                player.names):
            out[family][stat] += value
        return {f: dict(sorted(s.items())) for f, s in sorted(out.items())}

    def partnerships(self, player: Player) -> dict[tuple[int, str], dict[str, int]]:
        """The player's partnerships: (partner id, family) -> counters."""
        owners = self.players.key_owners()
        marks = ",".join("?" * len(player.names))
        out: dict[tuple[int, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for name, partner, family, stat, value in self.db.query(
                f"SELECT name, partner, family, stat, value FROM counts WHERE partner != '' "
                f"AND (name IN ({marks}) OR partner IN ({marks}))", player.names * 2):
            other = partner if name in player.names else name
            out[(owners.get(other, 0), family)][stat] += value
        return {k: dict(v) for k, v in sorted(out.items())}

    def ratings(self, player: Player) -> list[dict[str, Any]]:
        """The player's rating after each night they played, oldest first."""
        return [{"night": night, "name": name, "played": played, "mu": round(mu, 3),
                 "sigma": round(sigma, 3), "ordinal": round(mu - 3 * sigma, 3),
                 "games": games}
                for night, name, played, mu, sigma, games in self.db.query(
                    "SELECT n.id, n.name, n.played, r.mu, r.sigma, r.games FROM ratings r "
                    "JOIN nights n ON n.id = r.night WHERE r.player = ? ORDER BY n.id",
                    (player.id,))]

    def recent_hands(self, player: Player, limit: int = 20) -> list[dict[str, Any]]:
        """The player's latest hands, newest first."""
        marks = ",".join("?" * len(player.names))
        rows = self.db.query(
            "SELECT n.id, n.name, h.table_id, h.game, h.hand, h.variant, s.seat, h.sides, "
            "h.contract, h.deltas, h.detail FROM seats s JOIN hands h ON h.night = s.night "
            "AND h.table_id = s.table_id AND h.game = s.game AND h.hand = s.hand "
            f"JOIN nights n ON n.id = h.night WHERE s.name IN ({marks}) "
            "ORDER BY h.night DESC, h.rowid DESC LIMIT ?", (*player.names, limit))
        out = []
        for night, name, table, game, hand, variant, seat, sides, contract, deltas, detail \
                in rows:
            side = next(i for i, s in enumerate(json.loads(sides)) if seat in s)
            out.append({"night": night, "night_name": name, "table": table, "game": game,
                        "hand": hand, "variant": variant, "seat": seat,
                        "contract": json.loads(contract),
                        "points": json.loads(deltas)[side], "detail": detail})
        return out

    def nights_played(self, player: Player) -> list[dict[str, Any]]:
        """Every night the player sat at a scored hand, with their night's results."""
        marks = ",".join("?" * len(player.names))
        rows = self.db.query(
            "SELECT n.id, n.name, n.played, COUNT(*) FROM seats s JOIN nights n "
            f"ON n.id = s.night WHERE s.name IN ({marks}) GROUP BY n.id ORDER BY n.id",
            player.names)
        results = {night: (points, won, played) for night, points, won, played in self.db.query(
            "SELECT night, SUM(points), SUM(won), SUM(played) FROM night_results "
            f"WHERE name IN ({marks}) GROUP BY night", player.names)}
        return [{"night": night, "name": name, "played": day, "hands": hands,
                 "points": results.get(night, (None,))[0],
                 "won": results.get(night, (None, None))[1]}
                for night, name, day, hands in rows]


def _first_day(journal: Path) -> str:
    """The date (UTC) of the journal's first entry; refuses a file that is not a journal."""
    try:
        with Journal(journal, readonly=True) as source:
            first = next(source.entries(), None)
    except JournalError as exc:
        raise PlayersError(str(exc)) from None
    if first is None:
        return ""
    return datetime.datetime.fromtimestamp(first.received, datetime.UTC).date().isoformat()

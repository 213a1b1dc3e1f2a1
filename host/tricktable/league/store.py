"""The league's store: PostgreSQL through a psycopg 3 connection pool (the source of truth).

``LeagueStore(dsn)`` opens a pool and brings the schema up to date (``league.migrations``).
``store(messages)`` writes a batch of league messages in one transaction, each with
``INSERT ... ON CONFLICT DO NOTHING`` on its id, so a message seen twice, by one instance or
two, is stored once; it returns how many were new. The reads (standings per season across
clubs, a club's page, hand records by player and night) are what the league site shows.

A season is a named date range (``add_season``); a night's games count in the season whose
range holds the night's date. Standings rank players (a player is the club plus the league id
the club gives, ``messages.league_player_id``, shown by the name its ``LeaguePlayer`` record
allows) by total score over the season's games, then games won, as a club ranks its own night.

Ratings (``rerate``) are openskill's, with the club's own model and update
(``stats.rating.rate_games``): every table's game of every finished night is one rated game,
its sides ranked by their final scores, in the order date, club, night, table, game (a club's
own order, so a club's players rate as in the club's own database); a game whose record
cannot be rated (its sides and seats do not fit) is left out. Each season is rated on
its own, and the season '' is every game; ``rerate`` rates everything again from the stored
hands in one transaction (the database is the source of truth; ratings are derived).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from tricktable.league.messages import (
    LeagueGame,
    LeagueHand,
    LeagueMessage,
    LeagueNight,
    LeaguePlayer,
)
from tricktable.league.migrations import LeagueStoreError, migrate
from tricktable.protocol import natural_key
from tricktable.stats.rating import RatedGame, rate_games

HANDS_PAGE = 200  # hand records per search
RATINGS_LOCK = 0x7472_7274  # pg_advisory_xact_lock key of rerate ("trrt"): one at a time
EVERY_GAME = ""  # the ratings' season when no season is defined: every game


@dataclass(frozen=True)
class Season:
    name: str
    starts: dt.date
    ends: dt.date


@dataclass(frozen=True)
class PlayerStanding:
    rank: int
    club: str
    player: str
    total: int
    won: int
    played: int
    nights: int
    name: str  # what the league may show: the LeaguePlayer record's name, else the id
    mu: float | None = None  # the rating after the player's last night of the season
    sigma: float | None = None


@dataclass(frozen=True)
class PlayerRating:
    season: str
    night: str
    date: dt.date
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class ClubSummary:
    club: str
    nights: int
    games: int
    hands: int
    players: int


_HAND = ("INSERT INTO hands (club, journal, table_id, game, hand, night, round, variant, seats,"
         " sides, deltas, scores, detail, sent) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
         " ON CONFLICT DO NOTHING RETURNING 1")
_GAME = ("INSERT INTO games (club, night, round, date, sent) VALUES (%s,%s,%s,%s,%s)"
         " ON CONFLICT DO NOTHING")
_TALLY = ("INSERT INTO tallies (club, night, round, player, table_no, seat, score, won, bye)"
          " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING")
_PLAYER = ("INSERT INTO players (club, player, name, sent) VALUES (%s,%s,%s,%s)"
           " ON CONFLICT (club, player) DO UPDATE SET name = excluded.name,"
           " sent = excluded.sent, stored = clock_timestamp()"
           " WHERE players.name <> excluded.name AND players.sent <= excluded.sent")
_NIGHT = ("INSERT INTO nights (club, night, date, games, standings, sent)"
          " VALUES (%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING")


class LeagueStore:
    """The league database (see the module docstring)."""

    def __init__(self, dsn: str, min_size: int = 1, max_size: int = 4) -> None:
        try:
            with psycopg.connect(dsn, autocommit=True) as conn:
                migrate(conn)
        except psycopg.Error as exc:
            raise LeagueStoreError(f"cannot use the league database: {exc}") from None
        self.pool = ConnectionPool(dsn, min_size=min_size, max_size=max_size, open=True,
                                   name="league")
        self._clubs: set[str] = set()  # clubs known to be in the clubs table

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> LeagueStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing -------------------------------------------------------------------------

    def store(self, messages: list[LeagueMessage]) -> int:
        """Store a batch in one transaction; how many messages were new."""
        hands = [m for m in messages if isinstance(m, LeagueHand)]
        games = [m for m in messages if isinstance(m, LeagueGame)]
        nights = [m for m in messages if isinstance(m, LeagueNight)]
        players = [m for m in messages if isinstance(m, LeaguePlayer)]
        new = 0
        with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            clubs = sorted({m.club for m in messages} - self._clubs)
            if clubs:
                cur.executemany("INSERT INTO clubs (club) VALUES (%s) ON CONFLICT DO NOTHING",
                                [(c,) for c in clubs])
            if hands:
                cur.executemany(_HAND, [
                    (h.club, h.journal, h.table, h.game, h.hand, h.night, h.round, h.variant,
                     h.seats, Jsonb(h.sides), h.deltas, h.scores, h.detail, h.sent)
                    for h in hands], returning=True)
                new += self._returned(cur)
            for game in games:
                cur.execute(_GAME, (game.club, game.night, game.round, game.date, game.sent))
                if cur.rowcount:
                    new += 1
                    cur.executemany(_TALLY, [
                        (game.club, game.night, game.round, line.player, line.table, line.seat,
                         line.score, line.won, line.bye) for line in game.lines])
            for night in nights:
                cur.execute(_NIGHT, (night.club, night.night, night.date, night.games,
                                     Jsonb([{"rank": s.rank, "player": s.player,
                                             "total": s.total, "won": s.won,
                                             "played": s.played} for s in night.standings]),
                                     night.sent))
                new += cur.rowcount
            for player in players:
                cur.execute(_PLAYER, (player.club, player.player, player.name, player.sent))
                new += cur.rowcount
        self._clubs.update(clubs)  # committed
        return new

    @staticmethod
    def _returned(cur: psycopg.Cursor[Any]) -> int:
        """After ``executemany(..., returning=True)`` of ``... RETURNING 1``: how many
        statements returned a row (wrote one)."""
        count = 0
        while True:
            count += cur.fetchone() is not None
            if not cur.nextset():
                return count

    def add_season(self, name: str, starts: dt.date, ends: dt.date) -> None:
        """A named season (dates inclusive), rated at once; LeagueStoreError when the dates
        are backwards."""
        if starts > ends:
            raise LeagueStoreError(f"season {name!r} ends ({ends}) before it starts ({starts})")
        with self.pool.connection() as conn:
            conn.execute("INSERT INTO seasons (season, starts, ends) VALUES (%s,%s,%s)"
                         " ON CONFLICT (season) DO UPDATE SET starts = excluded.starts,"
                         " ends = excluded.ends", (name, starts, ends))
        self.rerate()

    def rerate(self) -> int:
        """Rate every season again from the stored games (see the module docstring); how
        many ratings (a player after a night of a season) there are now."""
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (RATINGS_LOCK,))
            games = conn.execute(
                "SELECT DISTINCT ON (h.club, h.journal, h.table_id, h.game)"
                " n.date, h.club, h.night, h.journal, h.table_id, h.game, h.seats, h.sides,"
                " h.scores FROM hands h JOIN nights n ON n.club = h.club AND n.night = h.night"
                " ORDER BY h.club, h.journal, h.table_id, h.game, h.hand DESC").fetchall()
            games.sort(key=lambda g: (g[0], g[1], g[2], g[3], natural_key(g[4]), g[5]))
            seasons = [(EVERY_GAME, dt.date.min, dt.date.max)] + [
                (s.name, s.starts, s.ends) for s in self.seasons()]
            rows = [row for name, starts, ends in seasons
                    for row in _rated(name, [g for g in games if starts <= g[0] <= ends])]
            conn.execute("DELETE FROM ratings")
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO ratings (season, club, player, night, date, mu,"
                                " sigma, games) VALUES (%s,%s,%s,%s,%s,%s,%s,%s)", rows)
        return len(rows)

    # --- reading -------------------------------------------------------------------------

    def seasons(self) -> list[Season]:
        with self.pool.connection() as conn:
            rows = conn.execute("SELECT season, starts, ends FROM seasons"
                                " ORDER BY starts DESC, season").fetchall()
        return [Season(*row) for row in rows]

    def season(self, name: str | None) -> Season | None:
        """The named season, or the latest when ``name`` is None; None when there is none
        (the standings then take every game)."""
        seasons = self.seasons()
        if name is None:
            return seasons[0] if seasons else None
        found = [s for s in seasons if s.name == name]
        if not found:
            raise LeagueStoreError(f"no season {name!r}")
        return found[0]

    def standings(self, season: Season | None, club: str | None = None) -> list[PlayerStanding]:
        """Every player of the season across clubs (or of one club), best total first."""
        where, params = self._season_filter(season, club)
        with self.pool.connection() as conn:
            rows = conn.execute(
                "SELECT t.club, t.player, sum(t.score), count(*) FILTER (WHERE t.won),"
                " count(*) FILTER (WHERE NOT t.bye), count(DISTINCT t.night),"
                " coalesce(p.name, t.player)"
                " FROM tallies t JOIN games g USING (club, night, round)"
                " LEFT JOIN players p ON p.club = t.club AND p.player = t.player"
                f" WHERE {where} GROUP BY t.club, t.player, p.name"
                " ORDER BY 3 DESC, 4 DESC, lower(coalesce(p.name, t.player)), t.club, t.player",
                params).fetchall()
            rated = {(c, p): (mu, sigma) for c, p, mu, sigma in conn.execute(
                "SELECT DISTINCT ON (club, player) club, player, mu, sigma FROM ratings"
                " WHERE season = %s ORDER BY club, player, date DESC, night DESC",
                (season.name if season else EVERY_GAME,)).fetchall()}
        out: list[PlayerStanding] = []
        for i, (club_id, player, total, won, played, nights, name) in enumerate(rows):
            rank = out[-1].rank if out and out[-1].total == total else i + 1
            mu, sigma = rated.get((club_id, player), (None, None))
            out.append(PlayerStanding(rank, club_id, player, int(total), int(won), int(played),
                                      int(nights), name, mu, sigma))
        return out

    def player_name(self, club: str, player: str) -> str | None:
        """What the league may show of the player (None: the league has nothing of them)."""
        with self.pool.connection() as conn:
            row = conn.execute("SELECT name FROM players WHERE club = %s AND player = %s",
                               (club, player)).fetchone()
            if row is None and conn.execute(
                    "SELECT 1 FROM tallies WHERE club = %s AND player = %s UNION ALL"
                    " SELECT 1 FROM hands WHERE club = %s AND seats @> ARRAY[%s]::text[]"
                    " LIMIT 1", (club, player, club, player)).fetchone() is None:
                return None
        return row[0] if row else player

    def player_ratings(self, club: str, player: str) -> list[PlayerRating]:
        """The player's rating after each night they played, per season, oldest first."""
        with self.pool.connection() as conn:
            rows = conn.execute(
                "SELECT season, night, date, mu, sigma, games FROM ratings"
                " WHERE club = %s AND player = %s ORDER BY season, date, night",
                (club, player)).fetchall()
        return [PlayerRating(*row) for row in rows]

    def player_nights(self, club: str, player: str) -> list[dict[str, Any]]:
        """The player's results night by night (newest first): total, games won, played."""
        with self.pool.connection() as conn:
            rows = conn.execute(
                "SELECT t.club, t.night, min(g.date), sum(t.score),"
                " count(*) FILTER (WHERE t.won), count(*) FILTER (WHERE NOT t.bye)"
                " FROM tallies t JOIN games g USING (club, night, round)"
                " WHERE t.club = %s AND t.player = %s GROUP BY t.club, t.night"
                " ORDER BY 3 DESC, 2", (club, player)).fetchall()
        return [{"club": r[0], "night": r[1], "date": r[2].isoformat(), "total": int(r[3]),
                 "won": int(r[4]), "played": int(r[5])} for r in rows]

    @staticmethod
    def _season_filter(season: Season | None, club: str | None) -> tuple[str, list[Any]]:
        where, params = ["TRUE"], []
        if season is not None:
            where.append("g.date BETWEEN %s AND %s")
            params += [season.starts, season.ends]
        if club is not None:
            where.append("g.club = %s")
            params.append(club)
        return " AND ".join(where), params

    def clubs(self) -> list[ClubSummary]:
        with self.pool.connection() as conn:
            rows = conn.execute(
                "SELECT c.club,"
                " (SELECT count(DISTINCT night) FROM games g WHERE g.club = c.club),"
                " (SELECT count(*) FROM games g WHERE g.club = c.club),"
                " (SELECT count(*) FROM hands h WHERE h.club = c.club),"
                " (SELECT count(DISTINCT player) FROM tallies t WHERE t.club = c.club)"
                " FROM clubs c ORDER BY c.club").fetchall()
        return [ClubSummary(*row) for row in rows]

    def nights(self, club: str) -> list[dict[str, Any]]:
        """The club's nights, newest first: id, date, games so far, finished or not."""
        with self.pool.connection() as conn:
            rows = conn.execute(
                "SELECT g.night, min(g.date), count(*), n.night IS NOT NULL"
                " FROM games g LEFT JOIN nights n USING (club, night) WHERE g.club = %s"
                " GROUP BY g.night, n.night ORDER BY 2 DESC, 1", (club,)).fetchall()
        return [{"night": r[0], "date": r[1].isoformat(), "games": r[2], "finished": r[3]}
                for r in rows]

    def hands(self, club: str | None = None, player: str | None = None,
              night: str | None = None, limit: int = HANDS_PAGE) -> list[dict[str, Any]]:
        """Hand records, newest first, by club, player (in any seat: a league id or a shown
        name) and night; ``names``: the seats as the league may show them."""
        where, params = ["TRUE"], []
        for column, value in (("club", club), ("night", night)):
            if value:
                where.append(f"{column} = %s")
                params.append(value)
        if player:  # a league id, or the name the league may show
            where.append("(seats @> ARRAY[%s]::text[] OR seats && ARRAY(SELECT p.player"
                         " FROM players p WHERE lower(p.name) = lower(%s)))")
            params += [player, player]
        with self.pool.connection() as conn:
            rows = conn.execute(
                "SELECT club, table_id, game, hand, night, round, variant, seats, sides,"
                " deltas, scores, detail FROM hands"
                f" WHERE {' AND '.join(where)} ORDER BY stored DESC, club, table_id, game, hand"
                " LIMIT %s", [*params, limit]).fetchall()
            names = dict(((c, p), n) for c, p, n in conn.execute(
                "SELECT club, player, name FROM players WHERE club = ANY(%s)",
                (sorted({r[0] for r in rows}),)).fetchall())
        keys = ("club", "table", "game", "hand", "night", "round", "variant", "seats", "sides",
                "deltas", "scores", "detail")
        return [{**dict(zip(keys, row, strict=True)),
                 "names": [names.get((row[0], seat), seat) for seat in row[7]]} for row in rows]

    def counts(self) -> dict[str, int]:
        """Rows per table (hands, games, tallies, nights): for the bench and the operator."""
        with self.pool.connection() as conn:
            return {table: int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
                    for table in ("hands", "games", "tallies", "nights")}


def _rateable(seats: list[str], sides: list[list[int]], scores: list[int]) -> bool:
    """A game openskill can rate: two sides or more, a score each, every seat someone's,
    nobody on two sides (a club's bad record is left out, never a failure)."""
    taken = [seat for side in sides for seat in side]
    return len(sides) >= 2 and len(scores) == len(sides) and all(sides) \
        and all(0 <= seat < len(seats) for seat in taken) \
        and len({seats[seat] for seat in taken}) == len(taken)


def _rated(season: str, games: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The ratings rows of one season from its games (date, club, night, journal, table,
    game, seats, sides, scores), in the order given."""
    players: dict[tuple[str, str], int] = {}
    nights: dict[tuple[str, str], int] = {}
    rated: list[RatedGame] = []
    for _date, club, night, _journal, _table, _game, seats, sides, scores in games:
        if not _rateable(seats, sides, scores):
            continue
        number = nights.setdefault((club, night), len(nights))
        teams = tuple(tuple(players.setdefault((club, seats[seat]), len(players))
                            for seat in side) for side in sides)
        rated.append(RatedGame(number, teams, tuple(scores)))
    who = {number: key for key, number in players.items()}
    when = {number: key for key, number in nights.items()}
    dates = {(g[1], g[2]): g[0] for g in games}
    return [(season, *who[r.player], when[r.night][1], dates[when[r.night]], r.mu, r.sigma,
             r.games) for r in rate_games(rated)]

"""The league database's schema, as numbered migrations applied in order, each once.

Version 1 holds what clubs send; version 2 the players' public names (``LeaguePlayer``) and
the ratings per season, derived from the stored games (``LeagueStore.rerate``); the season ''
is every game, for a league that has defined no season.

``migrate(conn)`` follows the rule of every store (``tricktable.migrations``, docs/storage.md):
the database's version is the highest row of ``schema_version``; every migration newer than it,
each with its row, is applied in one transaction, under an advisory lock so that several
league services starting at once apply each migration exactly once; a database newer than
this program is refused (``LeagueStoreError``), unchanged. A migration is never edited once
released: a change is a new migration at the end of ``MIGRATIONS``.

Every stored message has a unique key, its id (``league.messages``): ``INSERT ... ON CONFLICT
DO NOTHING`` makes a second copy, from any instance, a no-op. ``stored`` is the database's
clock when the row was written, ``sent`` the club's when it was published.
"""

from __future__ import annotations

import psycopg

from tricktable.migrations import Schema


class LeagueStoreError(RuntimeError):
    """The league database cannot be used; the message says why."""


LOCK_KEY = 0x7472_6C67  # pg_advisory_xact_lock key of the migrations ("trlg")

MIGRATIONS: tuple[str, ...] = (
    # 1: clubs, hands, games of nights (tally lines), nights, seasons
    """
    CREATE TABLE clubs (
        club text PRIMARY KEY,
        first_seen timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE hands (
        club text NOT NULL,
        journal text NOT NULL,
        table_id text NOT NULL,
        game integer NOT NULL,
        hand integer NOT NULL,
        night text,
        round integer,
        variant text NOT NULL,
        seats text[] NOT NULL,
        sides jsonb NOT NULL,
        deltas integer[] NOT NULL,
        scores integer[] NOT NULL,
        detail text NOT NULL,
        sent double precision NOT NULL,
        stored timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (club, journal, table_id, game, hand)
    );
    CREATE INDEX hands_seats ON hands USING gin (seats);
    CREATE INDEX hands_night ON hands (club, night);
    CREATE TABLE games (
        club text NOT NULL,
        night text NOT NULL,
        round integer NOT NULL,
        date date NOT NULL,
        sent double precision NOT NULL,
        stored timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (club, night, round)
    );
    CREATE INDEX games_date ON games (date);
    CREATE TABLE tallies (
        club text NOT NULL,
        night text NOT NULL,
        round integer NOT NULL,
        player text NOT NULL,
        table_no integer NOT NULL,
        seat text NOT NULL,
        score integer NOT NULL,
        won boolean NOT NULL,
        bye boolean NOT NULL,
        PRIMARY KEY (club, night, round, player)
    );
    CREATE TABLE nights (
        club text NOT NULL,
        night text NOT NULL,
        date date NOT NULL,
        games integer NOT NULL,
        standings jsonb NOT NULL,
        sent double precision NOT NULL,
        stored timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (club, night)
    );
    CREATE TABLE seasons (
        season text PRIMARY KEY,
        starts date NOT NULL,
        ends date NOT NULL,
        CHECK (starts <= ends)
    );
    """,
    # 2: players (league id -> the name the club lets the league show), ratings per season
    """
    CREATE TABLE players (
        club text NOT NULL,
        player text NOT NULL,
        name text NOT NULL,
        sent double precision NOT NULL,
        stored timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (club, player)
    );
    CREATE TABLE ratings (
        season text NOT NULL,
        club text NOT NULL,
        player text NOT NULL,
        night text NOT NULL,
        date date NOT NULL,
        mu double precision NOT NULL,
        sigma double precision NOT NULL,
        games integer NOT NULL,
        PRIMARY KEY (season, club, player, night)
    );
    CREATE INDEX ratings_player ON ratings (club, player);
    CREATE INDEX tallies_player ON tallies (club, player);
    """,
)
LEAGUE_SCHEMA = Schema("league database", MIGRATIONS, LeagueStoreError)


def migrate(conn: psycopg.Connection) -> int:
    """Bring the schema up to date (see the module docstring); the version it is at
    afterwards."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                     " version integer PRIMARY KEY,"
                     " applied timestamptz NOT NULL DEFAULT now())")
        row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
        found = LEAGUE_SCHEMA.stored(int(row[0]) if row else 0,
                                     f"the database {conn.info.dbname}")
        for version, sql in LEAGUE_SCHEMA.pending(found):
            conn.execute(sql)
            conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (version,))
    return LEAGUE_SCHEMA.version

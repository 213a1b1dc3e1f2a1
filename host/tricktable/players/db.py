"""The club database: one SQLite file, its schema kept by numbered migrations.

``ClubDB(path)`` opens the file (WAL, so the scoreboard reads while the host writes) and
brings its schema up to ``SCHEMA_VERSION`` by the rule of every store
(``tricktable.migrations``, docs/storage.md): the ``MIGRATIONS`` newer than the file's
``PRAGMA user_version``, in order, in one transaction. A file newer than this program (a
higher version) is refused rather than misread; opened read-only, a file not yet migrated is
refused too (its readers expect the latest tables).

Version 1 holds the players (``players``, ``names``: every name a player was known by, as the
journals spell it; ``tags``: member tag UIDs). Version 2 holds what ``tricktable.stats``
derives from journals: the nights, the hands (and who sat at each), the counters, the
revokes, the ratings and the seasons.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tricktable.migrations import Schema, migrate_sqlite, sqlite_version

__all__ = ["ClubDB", "PlayersError", "MIGRATIONS", "SCHEMA_VERSION", "default_db_path"]

DB_ENV = "TRICKTABLE_CLUB_DB"
DB_NAME = "club.sqlite"

MIGRATIONS: tuple[str, ...] = (
    # 1: the players
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        nickname TEXT NOT NULL DEFAULT '',
        active INTEGER NOT NULL DEFAULT 1,
        hidden INTEGER NOT NULL DEFAULT 0,
        merged_into INTEGER REFERENCES players (id)
    );
    CREATE TABLE names (
        key TEXT PRIMARY KEY,            -- the name casefolded
        name TEXT NOT NULL,
        player INTEGER NOT NULL REFERENCES players (id)
    );
    CREATE TABLE tags (
        uid TEXT PRIMARY KEY,            -- hex, upper case
        player INTEGER NOT NULL REFERENCES players (id)
    );
    """,
    # 2: statistics derived from journals (tricktable.stats), ratings and seasons
    """
    CREATE TABLE nights (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        journal TEXT NOT NULL,
        night_file TEXT NOT NULL DEFAULT '',
        played TEXT NOT NULL DEFAULT '',  -- the date (YYYY-MM-DD) of its first journal entry
        closed INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE hands (
        night INTEGER NOT NULL REFERENCES nights (id),
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        hand INTEGER NOT NULL,
        variant TEXT NOT NULL,
        family TEXT NOT NULL,
        players TEXT NOT NULL,            -- JSON: the names in seat order
        sides TEXT NOT NULL,              -- JSON: the seats of each side
        contract TEXT NOT NULL,           -- JSON or 'null'
        bids TEXT NOT NULL,               -- JSON: [seat, bid] in order
        tricks TEXT NOT NULL,             -- JSON: tricks taken by each seat
        deltas TEXT NOT NULL,             -- JSON: points each side scored
        scores TEXT NOT NULL,             -- JSON: each side's score after the hand
        detail TEXT NOT NULL,
        PRIMARY KEY (night, table_id, game, hand)
    );
    CREATE TABLE seats (
        name TEXT NOT NULL,               -- who sat at a hand (name key), for their pages
        night INTEGER NOT NULL,
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        hand INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        PRIMARY KEY (name, night, table_id, game, hand)
    );
    CREATE TABLE counts (
        name TEXT NOT NULL,               -- a player's name key (casefolded, as in journals)
        partner TEXT NOT NULL,            -- '' for the player alone, else the partner's key
        family TEXT NOT NULL,
        stat TEXT NOT NULL,
        value INTEGER NOT NULL,
        PRIMARY KEY (name, partner, family, stat)
    );
    CREATE INDEX counts_partner ON counts (partner);
    CREATE TABLE revokes (
        night INTEGER NOT NULL,
        table_id TEXT NOT NULL,
        game INTEGER NOT NULL,
        hand INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        trick INTEGER NOT NULL,
        suit TEXT NOT NULL,
        proof TEXT NOT NULL,
        proven_in INTEGER NOT NULL       -- one row per revoke the hand's replay reports
    );
    CREATE TABLE ratings (
        night INTEGER NOT NULL REFERENCES nights (id),
        player INTEGER NOT NULL REFERENCES players (id),
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (night, player)
    );
    CREATE TABLE night_results (
        night INTEGER NOT NULL REFERENCES nights (id),
        name TEXT NOT NULL,               -- the name key
        points INTEGER NOT NULL,
        won INTEGER NOT NULL,
        played INTEGER NOT NULL,
        PRIMARY KEY (night, name)
    );
    CREATE TABLE seasons (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        ladder TEXT NOT NULL,             -- total | best | won
        best INTEGER NOT NULL DEFAULT 0   -- N for the average of the best N nights
    );
    CREATE TABLE season_nights (
        season INTEGER NOT NULL REFERENCES seasons (id),
        night INTEGER NOT NULL REFERENCES nights (id),
        PRIMARY KEY (season, night)
    );
    CREATE TABLE changes (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        serial INTEGER NOT NULL           -- bumped by every write: pages follow it live
    );
    INSERT INTO changes VALUES (1, 0);
    """,
)


class PlayersError(ValueError):
    """Bad input to the club database (an unknown player, a name taken ...), or a file this
    program cannot use: nothing changed."""


CLUB_DB_SCHEMA = Schema("club database", MIGRATIONS, PlayersError)
SCHEMA_VERSION = CLUB_DB_SCHEMA.version


def default_db_path() -> Path:
    """``$TRICKTABLE_CLUB_DB``, else ``club.sqlite`` in the current directory (the club's
    data directory, where the club file and the journal live)."""
    return Path(os.environ.get(DB_ENV) or DB_NAME)


class ClubDB:
    """The club database file (see the module docstring). Thread-safe: one connection
    guarded by a lock; ``readonly`` for pages that only read."""

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        if readonly:
            if not self.path.exists():
                raise PlayersError(f"no club database at {self.path}")
            self.db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                      check_same_thread=False)
            self._check_version(readonly=True)
            return
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.DatabaseError as exc:
            raise PlayersError(f"{self.path} is not a club database: {exc}") from None
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self._check_version(readonly=False)

    def _check_version(self, readonly: bool) -> None:
        try:
            if not readonly:
                migrate_sqlite(self.db, CLUB_DB_SCHEMA, str(self.path))
                return
            version = sqlite_version(self.db, CLUB_DB_SCHEMA, str(self.path))
        except sqlite3.DatabaseError as exc:
            raise PlayersError(f"{self.path} is not a club database: {exc}") from None
        if version < SCHEMA_VERSION:
            raise PlayersError(f"{self.path} is club database version {version}, not "
                               f"{SCHEMA_VERSION}: open it once for writing to migrate it")

    @property
    def version(self) -> int:
        return int(self.query("PRAGMA user_version")[0][0])

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT, rolled back on error); bumps
        ``serial`` so live pages know something changed."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                self.db.execute("UPDATE changes SET serial = serial + 1")
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def serial(self) -> int:
        """A number that grows with every write (pages poll it to refresh)."""
        return int(self.query("SELECT serial FROM changes")[0][0])

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self.db.execute(sql, args).fetchall()

    def close(self) -> None:
        with self._lock:
            self.db.close()

    def __enter__(self) -> ClubDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""The journal: an append-only SQLite (WAL) record of every message the host received.

Three append-only tables (docs/journal.md):

* ``entries``: every incoming message, stored *before* it is applied: pad events (unique
  key ``(board, boot, seq)``, so a second copy is refused), control commands (unique on
  ``(table_id, control_id)`` when the admin gave an id) and unreadable messages (kept for
  the record, never replayed).
* ``games``: a game was started on a table (its setup: variant, options, players, dealer, seed).
* ``actions``: what applying an entry did to the game's action list: an action appended, or
  (undo, void) the list cut back. The live list of a game is derived by folding these rows.

Beside them, ``faults`` counts messages whose handling failed (by a digest of topic and
payload, so the count survives a restart and a poison message can be recognised).

A message and what applying it did are written in one transaction (``transaction()``), so
they are stored together or not at all. Any failure to write (disk full, read-only file
system, I/O error) raises :class:`StorageError`; ``probe()`` tells when writing works again.
A journal that cannot be opened for writing at all can still be opened for reading
(``degraded_ok``), so a service can rebuild its tables and wait for the storage to return.
Refused messages are stored bounded: their first ``REFUSED_KEEP`` bytes, with the size and
SHA-256 of the whole in the note.

On start the service replays each table's ``entries`` through its table session; the
``games``/``actions`` rows written again on replay are ignored by their keys.

``Journal.history(table, game)`` turns a game into a hand-history record
(``tricktable.history``), which ``tricktable export`` writes as text or JSON.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tricktable import history
from tricktable.engine.actions import action_from_json
from tricktable.migrations import Schema, migrate_sqlite, sqlite_version
from tricktable.protocol import Control, PadEvent, phone_reader_seat
from tricktable.rules import recorded_options

EntryKind = Literal["pad", "control", "invalid"]
Sync = Literal["normal", "full"]

REFUSED_KEEP = 256  # bytes of a refused message kept in the journal (its hash keeps the rest)
CACHE_KB = 256  # SQLite's page cache for the journal (its default is 2 MB)

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('pad', 'control', 'invalid')),
    table_id TEXT,
    board TEXT,
    boot INTEGER,
    seq INTEGER,
    control_id TEXT,
    received REAL NOT NULL,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    note TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX IF NOT EXISTS entries_pad_key ON entries (board, boot, seq)
    WHERE kind = 'pad';
CREATE UNIQUE INDEX IF NOT EXISTS entries_control_key ON entries (table_id, control_id)
    WHERE kind = 'control' AND control_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS entries_table ON entries (table_id, id);
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    entry_id INTEGER NOT NULL REFERENCES entries (id),
    setup TEXT NOT NULL,
    PRIMARY KEY (table_id, game)
);
CREATE TABLE IF NOT EXISTS actions (
    entry_id INTEGER NOT NULL REFERENCES entries (id),
    n INTEGER NOT NULL,
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    length INTEGER NOT NULL,
    action TEXT,
    PRIMARY KEY (entry_id, n)
);
CREATE TABLE IF NOT EXISTS faults (
    digest TEXT PRIMARY KEY,
    attempts INTEGER NOT NULL,
    topic TEXT NOT NULL,
    error TEXT NOT NULL,
    last REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS probe (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at REAL NOT NULL
);
"""


class JournalError(RuntimeError):
    """The journal file cannot be used (not ours, corrupt, or from a newer tricktable)."""


# The journal's schema by release (tricktable.migrations, docs/storage.md). Version 1 is
# ``SCHEMA`` above; a journal written before the journal kept a version has that schema at
# version 0 (its CREATE ... IF NOT EXISTS run again changes nothing).
JOURNAL_SCHEMA = Schema("journal", (SCHEMA,), JournalError)
JOURNAL_VERSION = JOURNAL_SCHEMA.version


class StorageError(JournalError):
    """The journal cannot store right now: disk full, read-only file system, I/O error.

    Nothing of the failed write is kept; the same write may succeed once storage is back."""


def digest(topic: str, payload: bytes) -> str:
    """A message's identity for fault counting: SHA-256 over its topic and payload."""
    return hashlib.sha256(topic.encode() + b"\0" + payload).hexdigest()


@dataclass(frozen=True)
class Entry:
    """One stored incoming message."""

    id: int
    kind: EntryKind
    table: str | None
    board: str | None
    boot: int | None
    seq: int | None
    control_id: str | None
    received: float
    topic: str
    payload: bytes
    note: str


@dataclass(frozen=True)
class GameRecord:
    """A game on a table: its setup and its live action list (undos folded in)."""

    table: str
    game: int
    setup: dict[str, Any]
    actions: list[dict[str, Any]]


class Journal:
    """The journal file. Thread-safe: one connection guarded by a lock.

    ``readonly``: for commands that only read (export, replay, the web): the file must exist
    and be a journal; nothing is written to it, not even the tables of an empty one.
    ``degraded_ok``: when the file cannot be opened for writing (a read-only or failing file
    system) but can be read, open it read-only and set ``unwritable`` to why, instead of
    raising; writes then raise StorageError until ``probe()`` reopens it for writing."""

    def __init__(self, path: str | Path, sync: Sync = "normal", *,
                 readonly: bool = False, degraded_ok: bool = False) -> None:
        self.path = str(path)
        self._sync = sync
        self._lock = threading.RLock()
        self.unwritable: str | None = None
        if readonly:
            self.unwritable = f"{self.path} is open read-only"
            self._db = self._open_for_reading("mode=ro")
            return
        try:
            self._db = self._open_for_writing()
        except sqlite3.OperationalError as exc:
            if not degraded_ok or not Path(self.path).exists():
                raise JournalError(f"cannot use {self.path} as a journal: {exc}") from exc
            self.unwritable = f"cannot write {self.path}: {exc}"
            self._db = self._open_for_reading()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot use {self.path} as a journal: {exc}") from exc

    def _open_for_writing(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
            if names and "entries" not in names:
                raise JournalError(f"{self.path} is not a tricktable journal (it holds other "
                                   f"tables)")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={self._sync.upper()}")
            # write-mostly: a small page cache keeps the service's memory flat as the file grows
            db.execute(f"PRAGMA cache_size=-{CACHE_KB}")
            migrate_sqlite(db, JOURNAL_SCHEMA, self.path)
        except (sqlite3.DatabaseError, JournalError):
            db.close()
            raise
        return db

    def _open_for_reading(self, mode: str = "immutable=1") -> sqlite3.Connection:
        """The file for reading only: ``mode=ro`` beside a live writer, ``immutable=1`` on a
        storage that cannot be written (no locks). JournalError unless it is a journal."""
        if not Path(self.path).is_file():
            raise JournalError(f"no journal at {self.path}")
        uri = Path(self.path).resolve().as_uri() + "?" + mode
        try:
            db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
            names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path} is not a tricktable journal: {exc}") from None
        if not {"entries", "games", "actions"} <= names:
            db.close()
            raise JournalError(f"{self.path} is not a tricktable journal (it has no journal "
                               f"tables)")
        try:
            sqlite_version(db, JOURNAL_SCHEMA, self.path)  # an older one reads as it is
        except JournalError:
            db.close()
            raise
        return db

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """The connection for a write; a failure to store becomes StorageError."""
        with self._lock:
            if self.unwritable is not None:
                raise StorageError(self.unwritable)
            try:
                yield self._db
            except sqlite3.OperationalError as exc:
                raise StorageError(f"cannot write {self.path}: {exc}") from exc

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Every write inside is stored together, or (on any exception) none is."""
        with self._writing() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield
                db.execute("COMMIT")
            except BaseException:
                try:
                    db.execute("ROLLBACK")
                except sqlite3.OperationalError:
                    pass  # nothing to roll back: the failed COMMIT already did
                raise

    def probe(self) -> bool:
        """Try a small write (reopening the file first if it was read-only); True if stored."""
        with self._lock:
            if self.unwritable is not None:
                try:
                    db = self._open_for_writing()
                except sqlite3.DatabaseError as exc:
                    self.unwritable = f"cannot write {self.path}: {exc}"
                    return False
                self._db.close()
                self._db, self.unwritable = db, None
            try:
                with self._writing() as db:
                    db.execute("INSERT OR REPLACE INTO probe (id, at) VALUES (1, ?)",
                               (time.time(),))
            except StorageError:
                return False
            return True

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- appending incoming messages -------------------------------------------------

    def _insert(self, kind: EntryKind, table: str | None, topic: str, payload: bytes,
                board: str | None = None, boot: int | None = None, seq: int | None = None,
                control_id: str | None = None, note: str = "") -> Entry | None:
        received = time.time()
        with self._writing() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO entries (kind, table_id, board, boot, seq, control_id,"
                " received, topic, payload, note) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (kind, table, board, boot, seq, control_id, received, topic, payload, note),
            )
            if cur.rowcount == 0:
                return None
            row_id = cur.lastrowid
        assert row_id is not None
        return Entry(row_id, kind, table, board, boot, seq, control_id, received, topic,
                     payload, note)

    def append_pad(self, table: str, event: PadEvent, topic: str, payload: bytes) -> Entry | None:
        """Store a pad event; None when ``(board, boot, seq)`` is already stored (a duplicate)."""
        return self._insert("pad", table, topic, payload, event.board, event.boot, event.seq)

    def append_control(self, table: str, control: Control, topic: str,
                       payload: bytes) -> Entry | None:
        """Store a control command; None when its ``id`` was already stored for this table."""
        return self._insert("control", table, topic, payload, control_id=control.id)

    def append_invalid(self, table: str | None, topic: str, payload: bytes, note: str) -> Entry:
        """Store a message that could not be used, with why (never replayed): its first
        ``REFUSED_KEEP`` bytes, and in the note its size and the SHA-256 of the whole."""
        whole = f"[{len(payload)} bytes, sha256 {hashlib.sha256(payload).hexdigest()}]"
        entry = self._insert("invalid", table, topic, payload[:REFUSED_KEEP],
                             note=f"{note} {whole}")
        assert entry is not None
        return entry

    def record_fault(self, topic: str, payload: bytes, error: str) -> int:
        """Count one more failure to handle this message; how many so far (across restarts)."""
        with self._writing() as db:
            row = db.execute(
                "INSERT INTO faults (digest, attempts, topic, error, last) VALUES (?, 1, ?, ?, ?)"
                " ON CONFLICT (digest) DO UPDATE SET attempts = attempts + 1, error = excluded.error,"
                " last = excluded.last RETURNING attempts",
                (digest(topic, payload), topic, error[:300], time.time())).fetchone()
        return int(row[0])

    def fault_attempts(self, topic: str, payload: bytes) -> int:
        """How many times handling this message has failed so far (0: never)."""
        with self._lock:
            row = self._db.execute("SELECT attempts FROM faults WHERE digest = ?",
                                   (digest(topic, payload),)).fetchone()
        return int(row[0]) if row else 0

    # --- what applying did -------------------------------------------------------------

    def record_game(self, table: str, game: int, entry_id: int, setup: dict[str, Any]) -> None:
        """Game ``game`` of ``table`` was started by entry ``entry_id`` (idempotent)."""
        with self._writing() as db:
            db.execute(
                "INSERT OR IGNORE INTO games (table_id, game, entry_id, setup) VALUES (?,?,?,?)",
                (table, game, entry_id, json.dumps(setup, sort_keys=True)),
            )

    def record_actions(self, table: str, game: int, entry_id: int,
                       steps: list[tuple[int, dict[str, Any] | None]]) -> None:
        """What entry ``entry_id`` did to the game's action list, in order (idempotent).

        Each step is ``(length, action)``: with an action, it is the list's ``length``-th
        item (the list is cut to ``length - 1`` first); without, the list is cut to ``length``.
        """
        with self._writing() as db:
            db.executemany(
                "INSERT OR IGNORE INTO actions (entry_id, n, table_id, game, length, action)"
                " VALUES (?,?,?,?,?,?)",
                [(entry_id, n, table, game, length,
                  None if action is None else json.dumps(action, sort_keys=True))
                 for n, (length, action) in enumerate(steps)],
            )

    # --- reading back ------------------------------------------------------------------

    def tables(self) -> list[str]:
        """Every table that has replayable entries, in order of first appearance."""
        with self._lock:
            rows = self._db.execute(
                "SELECT table_id FROM entries WHERE kind != 'invalid' AND table_id IS NOT NULL"
                " GROUP BY table_id ORDER BY MIN(id)"
            ).fetchall()
        return [r[0] for r in rows]

    def entries(self, table: str | None = None, kinds: tuple[EntryKind, ...] = ("pad", "control"),
                after: int = 0) -> Iterator[Entry]:
        """Stored entries in arrival order (by default the replayable ones), optionally one table's."""
        marks = ",".join("?" * len(kinds))
        sql = f"SELECT * FROM entries WHERE kind IN ({marks}) AND id > ?"
        params: list[Any] = [*kinds, after]
        if table is not None:
            sql += " AND table_id = ?"
            params.append(table)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY id", params).fetchall()
        for row in rows:
            yield Entry(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8],
                        bytes(row[9]), row[10])

    def count(self, kind: EntryKind | None = None) -> int:
        with self._lock:
            if kind is None:
                return int(self._db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])
            return int(self._db.execute(
                "SELECT COUNT(*) FROM entries WHERE kind = ?", (kind,)).fetchone()[0])

    def born(self) -> float | None:
        """When the journal's first entry was received (None while it is empty): with the
        club's id, what tells this journal from another one of the same club."""
        with self._lock:
            row = self._db.execute("SELECT received FROM entries ORDER BY id LIMIT 1").fetchone()
        return None if row is None else float(row[0])

    def game_starts(self, table: str) -> dict[int, str | None]:
        """For each game of ``table``, the id of the control that started it (None when the
        game was started without one)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT games.game, entries.control_id FROM games JOIN entries"
                " ON entries.id = games.entry_id WHERE games.table_id = ?", (table,)).fetchall()
        return {int(game): control_id for game, control_id in rows}

    def games(self, table: str) -> list[GameRecord]:
        """The games played on ``table``, each with its live action list."""
        with self._lock:
            games = self._db.execute(
                "SELECT game, setup FROM games WHERE table_id = ? ORDER BY game", (table,)
            ).fetchall()
            steps = self._db.execute(
                "SELECT game, length, action FROM actions WHERE table_id = ?"
                " ORDER BY entry_id, n", (table,)
            ).fetchall()
        lists: dict[int, list[dict[str, Any]]] = {game: [] for game, _ in games}
        for game, length, action in steps:
            live = lists.setdefault(game, [])
            if action is None:
                del live[length:]
            else:
                del live[length - 1:]
                live.append(json.loads(action))
        return [GameRecord(table, game, _stored_setup(json.loads(setup)), lists[game])
                for game, setup in games]

    def phone_seats(self, table: str, game: int) -> list[int]:
        """The seats of ``table`` whose plays in ``game`` a phone read (docs/phones.md: a
        phone reader's id names its seat), in seat order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT DISTINCT entries.board FROM actions JOIN entries"
                " ON entries.id = actions.entry_id WHERE actions.table_id = ?"
                " AND actions.game = ? AND entries.kind = 'pad'", (table, game)).fetchall()
        seats = {phone_reader_seat(board, table) for (board,) in rows if board}
        return sorted(s for s in seats if s is not None)

    def history(self, table: str, game: int,
                players: list[str] | None = None) -> history.GameRecord:
        """Game ``game`` of ``table`` as a hand-history record (its live actions replayed),
        with a ``[Phones]`` tag naming the players whose seat a phone read; with ``players``
        (one a seat: a club night's, after its director's swaps), those in its seats.

        KeyError when the journal has no such game."""
        for record in self.games(table):
            if record.game == game:
                tags = {"Table": table, "Round": str(game)}
                phones = self.phone_seats(table, game)
                setup = record.setup
                if players is not None and len(players) == len(setup.get("players") or []):
                    setup = setup | {"players": list(players)}
                players = setup.get("players") or []
                if phones and len(players) > max(phones):
                    tags["Phones"] = " | ".join(players[s] for s in phones)
                return history.capture(setup, [action_from_json(a) for a in record.actions],
                                       tags)
        raise KeyError(f"the journal has no game {game} on table {table!r}")


def _stored_setup(setup: dict[str, Any]) -> dict[str, Any]:
    """A journaled setup with the house rules it was played under (``rules.recorded_options``:
    a setup journaled before an option existed states the rule played then)."""
    options = recorded_options(setup.get("variant", ""), setup.get("options"))
    return setup if options == setup.get("options", {}) else setup | {"options": options}

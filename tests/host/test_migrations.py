"""The one rule for schema versions (tricktable.migrations, docs/storage.md), on real SQLite:
pending migrations and the new version are applied together or not at all, each once; a store
newer than the program is refused, unchanged."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from tricktable.migrations import Schema, migrate_sqlite, statements


class StoreError(RuntimeError):
    pass


FIRST = "CREATE TABLE a (x INTEGER);\nINSERT INTO a VALUES (1);"
SECOND = "CREATE TABLE b (note TEXT DEFAULT 'one; two');\nINSERT INTO a VALUES (2);"


def connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def tables(db: sqlite3.Connection) -> list[str]:
    return [name for (name,) in db.execute("SELECT name FROM sqlite_master ORDER BY name")]


def test_a_new_store_gets_every_migration_once_and_records_its_version(tmp_path):
    schema = Schema("test store", (FIRST, SECOND), StoreError)
    db = connect(tmp_path / "s.sqlite")
    assert migrate_sqlite(db, schema, "s.sqlite") == 2
    assert migrate_sqlite(db, schema, "s.sqlite") == 2  # again: nothing to do
    assert db.execute("PRAGMA user_version").fetchone() == (2,)
    assert db.execute("SELECT x FROM a ORDER BY x").fetchall() == [(1,), (2,)]


def test_an_older_store_gets_only_the_migrations_it_lacks(tmp_path):
    db = connect(tmp_path / "s.sqlite")
    migrate_sqlite(db, Schema("test store", (FIRST,), StoreError), "s.sqlite")
    migrate_sqlite(db, Schema("test store", (FIRST, SECOND), StoreError), "s.sqlite")
    assert tables(db) == ["a", "b"]
    assert db.execute("SELECT x FROM a ORDER BY x").fetchall() == [(1,), (2,)]


def test_a_failing_migration_leaves_the_store_as_it_was(tmp_path):
    db = connect(tmp_path / "s.sqlite")
    migrate_sqlite(db, Schema("test store", (FIRST,), StoreError), "s.sqlite")
    broken = Schema("test store", (FIRST, SECOND, "CREATE TABLE a (y INTEGER);"), StoreError)
    with pytest.raises(sqlite3.OperationalError, match="table a already exists"):
        migrate_sqlite(db, broken, "s.sqlite")
    assert not db.in_transaction
    assert tables(db) == ["a"], "the second migration went back with the third"
    assert db.execute("PRAGMA user_version").fetchone() == (1,)
    assert db.execute("SELECT x FROM a").fetchall() == [(1,)]


def test_a_store_newer_than_the_program_is_refused_unchanged(tmp_path):
    db = connect(tmp_path / "s.sqlite")
    migrate_sqlite(db, Schema("test store", (FIRST, SECOND), StoreError), "s.sqlite")
    with pytest.raises(StoreError, match="s.sqlite is at test store version 2; this tricktable "
                                         "knows up to 1: use a newer tricktable"):
        migrate_sqlite(db, Schema("test store", (FIRST,), StoreError), "s.sqlite")
    assert tables(db) == ["a", "b"]


def test_a_script_is_cut_at_statement_ends_not_at_every_semicolon():
    assert statements(SECOND) == ["CREATE TABLE b (note TEXT DEFAULT 'one; two');",
                                  "INSERT INTO a VALUES (2);"]
    with pytest.raises(ValueError, match="without its ';'"):
        statements("CREATE TABLE c (x)")

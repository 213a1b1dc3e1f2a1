"""Schema versions of the host's stores, one rule for all four (docs/storage.md): the journal,
the club database, the deck registry (SQLite) and the league database (PostgreSQL).

A store's ``Schema`` is its ordered list of migration scripts; its version is how many of them
it has had. A store records the version it is at (SQLite: the file's ``PRAGMA user_version``;
PostgreSQL: the ``schema_version`` table). Opening a store for writing applies every migration
newer than its version, and records the new version, in one transaction: the store is at its
old version or the new one, never between. A store at a version newer than this program's is
refused with the schema's own error, saying so, and nothing is changed. A migration is never
edited once released: a change to a schema is a new script at the end of its list.

``migrate_sqlite(db, schema, where)`` is that rule for an SQLite connection (autocommit, as
``isolation_level=None`` opens it); ``Schema.stored(found, where)`` and ``Schema.pending(found)``
are the rule's two halves for a store that keeps its version elsewhere (the league's).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass(frozen=True)
class Schema:
    """A store's migrations, in order (``name``: what the store is called in an error;
    ``error``: the store's exception for a store newer than this program)."""

    name: str
    migrations: tuple[str, ...]
    error: type[Exception]

    @property
    def version(self) -> int:
        """The version this program brings a store to."""
        return len(self.migrations)

    def stored(self, found: int, where: str) -> int:
        """``found``, the version the store at ``where`` records; ``error`` when it is newer
        than this program knows."""
        if found > self.version:
            raise self.error(f"{where} is at {self.name} version {found}; this tricktable knows "
                             f"up to {self.version}: use a newer tricktable")
        return found

    def pending(self, found: int) -> list[tuple[int, str]]:
        """The migrations a store at version ``found`` has not had: (version after it, script)."""
        return list(enumerate(self.migrations[found:], found + 1))


def sqlite_version(db: sqlite3.Connection, schema: Schema, where: str) -> int:
    """The version of the SQLite store ``db`` (its ``PRAGMA user_version``), checked against
    ``schema``."""
    return schema.stored(int(db.execute("PRAGMA user_version").fetchone()[0]), where)


def statements(script: str) -> list[str]:
    """``script`` cut into its SQL statements (SQLite's own test of a complete statement, so a
    ``;`` inside a string, a comment or a trigger does not cut it)."""
    found, statement = [], ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            found.append(statement.strip())
            statement = ""
    if statement.strip():
        raise ValueError(f"an SQL statement without its ';' ends the script: {statement.strip()!r}")
    return found


def migrate_sqlite(db: sqlite3.Connection, schema: Schema, where: str) -> int:
    """Bring the SQLite store ``db`` to ``schema.version``, every pending migration and the new
    ``user_version`` in one transaction; the version it is at afterwards."""
    if not schema.pending(sqlite_version(db, schema, where)):
        return schema.version
    db.execute("BEGIN IMMEDIATE")
    try:
        # read again under the write lock: another program may have migrated it meanwhile
        for _, script in schema.pending(sqlite_version(db, schema, where)):
            for statement in statements(script):
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {schema.version}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return schema.version

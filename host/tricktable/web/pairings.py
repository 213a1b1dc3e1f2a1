"""Phone pairings: which phone reads which seat (docs/phones.md, "Pairing a phone").

A director pairs a seat (``pair``): the store keeps a numbered pairing bound to one table
and seat and hands back its credential once, ``{number}-{secret}`` (only a hash of the secret
is kept), for the seat's QR code. The first phone that opens the seat page with it claims it
(``claim``: the phone's own random device key is bound to it); another phone with the same
credential is refused, naming the phone that has the seat. A seat has one live pairing: a new
QR code for a seat whose phone is still reading is refused until the director revokes that
one (``revoke``); an unclaimed one is replaced. A revoked pairing is refused for good.

The pairing's number is the phone's boot id on the host (``(reader, boot, seq)``, the
journal's key): numbers are never reused (SQLite AUTOINCREMENT), so a new phone on a seat
never repeats an old one's keys. One SQLite file, shared by the console (which pairs and
revokes) and the scoreboard (which checks every play), each opening it per call.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SEAT_WORDS = ("North", "East", "South", "West")
SCHEMA = """
CREATE TABLE IF NOT EXISTS pairings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    secret_hash TEXT NOT NULL,
    made_at REAL NOT NULL,
    made_by TEXT NOT NULL,
    device TEXT,
    device_label TEXT,
    claimed_at REAL,
    revoked_at REAL
);
"""


class PairingRefused(ValueError):
    """A credential that does not speak for a seat (unknown, revoked, another phone's);
    the message says why in a player's words."""


def seat_words(seat: int) -> str:
    """A seat as players call it: North, East, South, West (else "seat 5")."""
    return SEAT_WORDS[seat] if 0 <= seat < len(SEAT_WORDS) else f"seat {seat + 1}"


def table_words(table: str) -> str:
    """A table as players call it: ``t3`` is "Table 3" (as the pages' ``tableName``)."""
    digits = table[1:] if table[:1] in "tT" else table
    return f"Table {int(digits)}" if digits.isdigit() else f"Table {table}"


def _clock(at: float) -> str:
    return time.strftime("%H:%M", time.localtime(at))


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Pairing:
    """One pairing of a seat; ``credential`` only on the pairing just made."""

    id: int
    table: str
    seat: int
    made_at: float
    made_by: str
    device: str | None
    device_label: str | None
    claimed_at: float | None
    revoked_at: float | None
    credential: str | None = None

    @property
    def where(self) -> str:
        """"North at Table 1"."""
        return f"{seat_words(self.seat)} at {table_words(self.table)}"

    @property
    def phone(self) -> str:
        """The phone that claimed it, in words: "the phone (Android · Chrome 120) paired at 19:02"."""
        label = f" ({self.device_label})" if self.device_label else ""
        return f"the phone{label} paired at {_clock(self.claimed_at or self.made_at)}"

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "table": self.table, "seat": self.seat, "where": self.where,
                "made_at": self.made_at, "made_by": self.made_by,
                "device_label": self.device_label, "claimed_at": self.claimed_at,
                "revoked_at": self.revoked_at}


class PairingStore:
    """The pairings file; every call opens, does one transaction and closes."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")  # kept by the file: readers never wait
            db.execute(SCHEMA)
        finally:
            db.close()

    @contextmanager
    def _db(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        finally:
            db.close()

    @staticmethod
    def _row(row: tuple) -> Pairing:
        return Pairing(id=row[0], table=row[1], seat=row[2], made_at=row[3], made_by=row[4],
                       device=row[5], device_label=row[6], claimed_at=row[7],
                       revoked_at=row[8])

    _COLUMNS = ("id, table_id, seat, made_at, made_by, device, device_label, claimed_at, "
                "revoked_at")

    def pair(self, table: str, seat: int, by: str) -> Pairing:
        """A new pairing for the seat, with its credential; PairingRefused while a phone
        still reads the seat (an unclaimed earlier QR code is revoked: this one replaces it)."""
        secret = secrets.token_urlsafe(18)
        now = time.time()
        with self._db() as db:
            live = [self._row(r) for r in db.execute(
                f"SELECT {self._COLUMNS} FROM pairings WHERE table_id=? AND seat=? "
                "AND revoked_at IS NULL", (table, seat))]
            for old in live:
                if old.device is not None:
                    raise PairingRefused(f"{old.where} is read by {old.phone}: revoke that "
                                         f"pairing first")
                db.execute("UPDATE pairings SET revoked_at=? WHERE id=?", (now, old.id))
            cur = db.execute("INSERT INTO pairings (table_id, seat, secret_hash, made_at, "
                             "made_by) VALUES (?, ?, ?, ?, ?)", (table, seat, _hash(secret),
                                                                 now, by))
            number = int(cur.lastrowid or 0)
        return Pairing(id=number, table=table, seat=seat, made_at=now, made_by=by, device=None,
                       device_label=None, claimed_at=None, revoked_at=None,
                       credential=f"{number}-{secret}")

    def _find(self, db: sqlite3.Connection, credential: str) -> Pairing:
        number, _, secret = credential.partition("-")
        row = db.execute(f"SELECT {self._COLUMNS}, secret_hash FROM pairings WHERE id=?",
                         (int(number),) if number.isdigit() else (-1,)).fetchone()
        if row is None or not hmac.compare_digest(row[9], _hash(secret)):
            raise PairingRefused("this phone is not paired: scan the seat's QR code on the "
                                 "director's console")
        pairing = self._row(row[:9])
        if pairing.revoked_at is not None:
            raise PairingRefused(f"the director revoked this phone's pairing for "
                                 f"{pairing.where} at {_clock(pairing.revoked_at)}: ask for "
                                 f"a new QR code")
        return pairing

    def claim(self, credential: str, device: str, label: str) -> Pairing:
        """Bind the pairing to this phone (the first to come); the same phone again is fine."""
        with self._db() as db:
            pairing = self._find(db, credential)
            if pairing.device is None:
                now = time.time()
                db.execute("UPDATE pairings SET device=?, device_label=?, claimed_at=? "
                           "WHERE id=?", (device, label[:60], now, pairing.id))
                return self._row((pairing.id, pairing.table, pairing.seat, pairing.made_at,
                                  pairing.made_by, device, label[:60], now, None))
            self._same_phone(pairing, device)
            return pairing

    def check(self, credential: str, device: str) -> Pairing:
        """The pairing this phone speaks for; PairingRefused saying why not."""
        with self._db(write=False) as db:
            pairing = self._find(db, credential)
        if pairing.device is None:
            raise PairingRefused(f"open the QR code's page again to pair this phone with "
                                 f"{pairing.where}")
        self._same_phone(pairing, device)
        return pairing

    @staticmethod
    def _same_phone(pairing: Pairing, device: str) -> None:
        if not hmac.compare_digest(pairing.device or "", device):
            raise PairingRefused(f"{pairing.where} is already read by {pairing.phone}: one "
                                 f"phone per seat (the director can revoke that one)")

    def revoke(self, number: int) -> Pairing:
        """Revoke a pairing (its phone is refused from its next play); KeyError if none."""
        with self._db() as db:
            db.execute("UPDATE pairings SET revoked_at=? WHERE id=? AND revoked_at IS NULL",
                       (time.time(), number))
            row = db.execute(f"SELECT {self._COLUMNS} FROM pairings WHERE id=?",
                             (number,)).fetchone()
        if row is None:
            raise KeyError(f"no pairing number {number}")
        return self._row(row)

    def live(self) -> list[Pairing]:
        """Every pairing not revoked, by table and seat."""
        with self._db() as db:
            rows = db.execute(f"SELECT {self._COLUMNS} FROM pairings WHERE revoked_at IS NULL "
                              "ORDER BY table_id, seat, id").fetchall()
        return [self._row(r) for r in rows]

"""The deck registry: which tag UID is which card (or token) of which enrolled deck.

One SQLite file holds the club keys, the enrolled decks (id, kind, name), one row per
enrolled tag (UID -> deck, code, copy) and the names of the members of each ``members`` deck
(member number -> name), and when each deck was last checked at the reader (``tricktable deck
check``: ``record_check``, ``last_check``, read by ``tricktable doctor``): a member tag is a player's own tag, slot ``MEMBER:n`` of a members
deck, that the table resolves to the player's name (``Resolved.player``). ``Registry.resolve(uid, record)`` is what the table
calls for every pad event (docs/architecture.md, "Tags and tokens"): a UID enrolled here is
answered from the registry; an unknown UID is accepted only with a record whose MAC checks
against a club key (so a table can read a deck enrolled on another host that shares the key).

The file holds the club keys: it is created readable by its owner only, with its -wal and
-shm (``tricktable.secretfiles``).
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from tricktable import cards
from tricktable.deckkit import tags
from tricktable.migrations import Schema, migrate_sqlite, sqlite_version
from tricktable.secretfiles import keep_private

CARD_DECKS = ("24", "25", "28", "32", "36", "40", "48", "52", "56")  # names of cards.deck()
DECK_KINDS = (*CARD_DECKS, "tokens", "members")
MAX_MEMBERS = 255  # a member number is the record's copy byte


def default_path() -> Path:
    """Where the registry lives: ``$TRICKTABLE_REGISTRY``, else
    ``$XDG_DATA_HOME/tricktable/decks.sqlite`` (``~/.local/share/...``)."""
    explicit = os.environ.get("TRICKTABLE_REGISTRY")
    if explicit:
        return Path(explicit)
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "tricktable" / "decks.sqlite"


class RegistryError(ValueError):
    """A registry operation refused; nothing was changed. The message says why."""


class UnknownTag(LookupError):
    """A tag that is neither enrolled here nor carries a record this host can check."""


class BadRecord(ValueError):
    """A tag whose record is refused (bad MAC, unknown key, wrong deck); see the message."""


class Misread(BadRecord):
    """An enrolled UID came with a record of ours whose MAC does not match it: the UID or the
    record was read wrong (hardware/tag-format.md, "How the host decides"); read it again."""


@dataclass(frozen=True)
class Slot:
    """One place in a deck: a card face with its copy number, a token (copy 0), or a member
    (``tags.MEMBER_CODE``, copy = member number; ``label`` their name, for the enroller)."""

    code: int
    copy: int = 0
    label: str = field(default="", compare=False)

    @property
    def value(self) -> cards.Card | str:
        """The ``cards.Card`` or the token string."""
        return tags.code_value(self.code)

    @property
    def name(self) -> str:
        """The card as printed (``AS``, ``AS'`` for copy 1), the token string, or
        ``MEMBER:n (name)``."""
        if self.code == tags.MEMBER_CODE:
            return f"MEMBER:{self.copy}" + (f" ({self.label})" if self.label else "")
        value = self.value
        return value if isinstance(value, str) else cards.format_card(value, self.copy)


@dataclass(frozen=True)
class Deck:
    """An enrolled (or being enrolled) deck."""

    deck_id: int
    kind: str
    name: str
    key_id: int


@dataclass(frozen=True)
class Resolved:
    """What a tag is: a card (``card`` set, ``token`` None), a token (``token`` set) or a
    member tag (``member`` the number, ``player`` the name).

    ``source`` is ``"registry"`` (UID enrolled here) or ``"record"`` (MAC-checked record).
    """

    deck_id: int
    card: cards.Card | None
    copy: int
    token: str | None
    source: str
    member: int | None = None
    player: str | None = None

    @property
    def is_token(self) -> bool:
        """True for a bid/trump/control token."""
        return self.token is not None

    @property
    def slot(self) -> Slot:
        """The deck slot this tag fills."""
        if self.token is not None:
            return Slot(tags.token_code(self.token))
        if self.member is not None:
            return Slot(tags.MEMBER_CODE, self.member, self.player or "")
        assert self.card is not None
        return Slot(tags.card_code(self.card), self.copy)


def deck_slots(kind: str) -> list[Slot]:
    """The slots of a deck kind, in the order enrollment asks for them.

    Cards in ``cards.deck(kind)`` order (suit by suit, low to high, the joker last; a 48-card
    deck is the 24 as copy 0 and then again as copy 1, a 56 the 28 twice); tokens in
    ``tags.TOKENS`` order. A members deck has the slots of its members (``Registry.slots``).
    """
    if kind == "members":
        raise RegistryError("a members deck has one slot per member: see Registry.slots")
    if kind == "tokens":
        return [Slot(tags.token_code(token)) for token in tags.TOKENS]
    if kind not in CARD_DECKS:
        raise RegistryError(f"unknown deck kind {kind!r}; one of {', '.join(DECK_KINDS)}")
    pack = cards.deck(kind)
    return [Slot(tags.card_code(face), copy) for copy in range(pack.copies) for face in pack.faces]


def new_members(have: dict[int, str], names: list[str]) -> dict[int, str]:
    """The members ``names`` adds to a deck that has ``have`` (number -> name): the names it
    lacks (case-insensitively), numbered on from its last. RegistryError for an empty name, a
    name twice in ``names`` or more than ``MAX_MEMBERS`` in all."""
    known = {name.casefold() for name in have.values()}
    new: dict[int, str] = {}
    number = max(have, default=0)
    for raw in names:
        name = str(raw).strip()
        if not name:
            raise RegistryError("a member's name is empty")
        if name.casefold() in {n.casefold() for n in new.values()}:
            raise RegistryError(f"{name!r} is on the members list twice")
        if name.casefold() in known:
            continue
        number += 1
        if number > MAX_MEMBERS:
            raise RegistryError(f"a members deck holds {MAX_MEMBERS} members; start another "
                                f"deck for {name!r} and the rest")
        new[number] = name
    return new


_HOLDER = "SELECT uid FROM tags WHERE deck_id = ? AND code = ? AND copy = ?"

# The registry's schema by release (tricktable.migrations, docs/storage.md). Version 1: a
# registry written before the registry kept a version is at version 0 with some of these
# tables (``members`` came with member tags, ``checks`` with the doctor's "checked
# recently"); CREATE ... IF NOT EXISTS adds the ones it lacks. Opened read-only, an older
# registry reads as it is (``members`` and ``checks`` answer empty without their table).
REGISTRY_SCHEMA = Schema("deck registry", ("""
    CREATE TABLE IF NOT EXISTS club_keys (
        key_id INTEGER PRIMARY KEY CHECK (key_id BETWEEN 0 AND 255),
        key BLOB NOT NULL CHECK (length(key) = 32));
    CREATE TABLE IF NOT EXISTS decks (
        deck_id INTEGER PRIMARY KEY CHECK (deck_id BETWEEN 1 AND 65535),
        kind TEXT NOT NULL, name TEXT NOT NULL,
        key_id INTEGER NOT NULL REFERENCES club_keys);
    CREATE TABLE IF NOT EXISTS tags (
        uid BLOB PRIMARY KEY,
        deck_id INTEGER NOT NULL REFERENCES decks,
        code INTEGER NOT NULL, copy INTEGER NOT NULL,
        signature BLOB,
        UNIQUE (deck_id, code, copy));
    CREATE TABLE IF NOT EXISTS members (
        deck_id INTEGER NOT NULL REFERENCES decks,
        number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 255),
        name TEXT NOT NULL,
        PRIMARY KEY (deck_id, number));
    CREATE TABLE IF NOT EXISTS checks (
        deck_id INTEGER NOT NULL REFERENCES decks,
        at REAL NOT NULL,
        ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
        PRIMARY KEY (deck_id, at));
    """,), RegistryError)


@dataclass(frozen=True)
class DeckCheck:
    """The last check of a deck at the reader: when (unix time) and whether it was whole and
    clean."""

    at: float
    ok: bool


class Registry:
    """The enrolled decks and tags, in one SQLite file (``":memory:"`` for a throwaway one).

    WAL mode: a host serving tables can read while ``tricktable enroll`` writes. Safe to
    share between threads (one connection behind a lock).
    """

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        """``readonly``: for commands that only read (serve, deck list): the file must exist and
        be a registry; RegistryError otherwise, and nothing is written to it."""
        self.path = str(path)
        self._lock = threading.Lock()
        if readonly:
            self._db = self._open_existing()
            return
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            keep_private(Path(self.path))
        try:
            self._db = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=5
            )
            names = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as exc:
            raise RegistryError(f"{self.path} is not a deck registry: {exc}") from None
        if names and not {"club_keys", "decks", "tags"} <= names:
            self._db.close()
            raise RegistryError(f"{self.path} is not a deck registry (it holds other tables)")
        try:
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA foreign_keys = ON")
            migrate_sqlite(self._db, REGISTRY_SCHEMA, self.path)
        except (sqlite3.DatabaseError, RegistryError):
            self._db.close()
            raise

    def _open_existing(self) -> sqlite3.Connection:
        if not Path(self.path).is_file():
            raise RegistryError(f"no deck registry at {self.path}: enroll a deck first "
                                "(tricktable enroll)")
        uri = Path(self.path).resolve().as_uri() + "?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None,
                                 timeout=5)
            names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as exc:
            raise RegistryError(f"{self.path} is not a deck registry: {exc}") from None
        if not {"club_keys", "decks", "tags"} <= names:
            db.close()
            raise RegistryError(f"{self.path} is not a deck registry (it has no deck tables)")
        try:
            sqlite_version(db, REGISTRY_SCHEMA, self.path)  # an older one reads as it is
        except RegistryError:
            db.close()
            raise
        return db

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def __enter__(self) -> Registry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # club keys

    def keys(self) -> dict[int, bytes]:
        """All club keys by key id."""
        return {
            key_id: bytes(key) for key_id, key in self._query("SELECT key_id, key FROM club_keys")
        }

    def club_key(self) -> int:
        """The id of the newest club key, creating a random one (id 1) if there is none."""
        with self._tx() as db:
            row = db.execute("SELECT max(key_id) FROM club_keys").fetchone()
            if row[0] is not None:
                return row[0]
            db.execute("INSERT INTO club_keys VALUES (1, ?)", (secrets.token_bytes(tags.KEY_LEN),))
            return 1

    def add_key(self, key_id: int, key: bytes) -> None:
        """Add a club key shared from another host; refuses to replace a different key."""
        if len(key) != tags.KEY_LEN or not 0 <= key_id <= 255:
            raise RegistryError(f"a club key is {tags.KEY_LEN} bytes with an id 0..255")
        existing = self.keys().get(key_id)
        if existing is not None and existing != key:
            raise RegistryError(f"club key {key_id} already exists with a different value")
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO club_keys VALUES (?, ?)", (key_id, key))

    # decks

    def create_deck(self, deck_id: int, kind: str, name: str = "") -> Deck:
        """Register a new deck (before its tags are enrolled)."""
        if kind not in DECK_KINDS:
            raise RegistryError(f"unknown deck kind {kind!r}; one of {', '.join(DECK_KINDS)}")
        if not 1 <= deck_id <= 0xFFFF:
            raise RegistryError(f"deck id {deck_id} out of range 1..65535")
        if self.deck(deck_id) is not None:
            raise RegistryError(f"deck {deck_id} already exists")
        key_id = self.club_key()
        with self._tx() as db:
            db.execute("INSERT INTO decks VALUES (?, ?, ?, ?)", (deck_id, kind, name, key_id))
        return Deck(deck_id, kind, name, key_id)

    def deck(self, deck_id: int) -> Deck | None:
        """The deck with this id, or None."""
        rows = self._query(
            "SELECT deck_id, kind, name, key_id FROM decks WHERE deck_id = ?", (deck_id,)
        )
        return Deck(*rows[0]) if rows else None

    def decks(self) -> list[Deck]:
        """All decks, by id."""
        return [
            Deck(*row)
            for row in self._query("SELECT deck_id, kind, name, key_id FROM decks ORDER BY deck_id")
        ]

    # members

    def members(self, deck_id: int) -> dict[int, str]:
        """The members of a members deck: number -> name (empty for any other deck)."""
        try:
            rows = self._query("SELECT number, name FROM members WHERE deck_id = ? "
                               "ORDER BY number", (deck_id,))
        except sqlite3.OperationalError:  # a read-only registry from before member tags
            return {}
        return dict(rows)

    def record_check(self, deck_id: int, ok: bool, at: float | None = None) -> None:
        """Keep that deck ``deck_id`` was checked at the reader (now, or at ``at``)."""
        if self.deck(deck_id) is None:
            raise RegistryError(f"deck {deck_id} does not exist")
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO checks VALUES (?, ?, ?)",
                       (deck_id, time.time() if at is None else at, int(ok)))

    def last_check(self, deck_id: int) -> DeckCheck | None:
        """The deck's last check at the reader, or None if it was never checked here."""
        try:
            rows = self._query("SELECT at, ok FROM checks WHERE deck_id = ? ORDER BY at DESC "
                               "LIMIT 1", (deck_id,))
        except sqlite3.OperationalError:  # a read-only registry from before deck checks
            return None
        return DeckCheck(rows[0][0], bool(rows[0][1])) if rows else None

    def add_members(self, deck_id: int, names: list[str]) -> dict[int, str]:
        """Give the names not yet in members deck ``deck_id`` the next member numbers; returns
        the new ones. Refused (nothing added) for another kind of deck or a list that
        ``new_members`` refuses."""
        deck = self.deck(deck_id)
        if deck is None or deck.kind != "members":
            raise RegistryError(f"deck {deck_id} is not a members deck")
        new = new_members(self.members(deck_id), names)
        with self._tx() as db:
            db.executemany("INSERT INTO members VALUES (?, ?, ?)",
                           [(deck_id, n, name) for n, name in new.items()])
        return new

    def slots(self, deck_id: int) -> list[Slot]:
        """The slots of an existing deck: ``deck_slots(kind)``, or a members deck's members."""
        deck = self.deck(deck_id)
        if deck is None:
            raise RegistryError(f"deck {deck_id} does not exist")
        if deck.kind == "members":
            return [Slot(tags.MEMBER_CODE, n, name) for n, name in self.members(deck_id).items()]
        return deck_slots(deck.kind)

    # tags

    def enrolled(self, deck_id: int) -> dict[bytes, Slot]:
        """The tags enrolled in a deck: UID -> slot."""
        rows = self._query("SELECT uid, code, copy FROM tags WHERE deck_id = ?", (deck_id,))
        return {bytes(uid): Slot(code, copy) for uid, code, copy in rows}

    def lookup(self, uid: bytes) -> tuple[int, Slot] | None:
        """``(deck_id, slot)`` of an enrolled UID, or None."""
        rows = self._query("SELECT deck_id, code, copy FROM tags WHERE uid = ?", (bytes(uid),))
        return (rows[0][0], Slot(rows[0][1], rows[0][2])) if rows else None

    def enroll(self, uid: bytes, deck_id: int, slot: Slot, signature: bytes | None = None) -> None:
        """Record that the tag with this UID is this slot of this deck.

        ``signature`` is the tag's NXP originality signature (READ_SIG), kept so that a later
        check can tell a different chip answering with the same UID.

        Refused if the UID is already enrolled (in this deck or another), if the slot already
        has a tag, or if the slot does not belong to the deck's kind.
        """
        deck = self.deck(deck_id)
        if deck is None:
            raise RegistryError(f"deck {deck_id} does not exist")
        if slot not in self.slots(deck_id):
            raise RegistryError(f"{slot.name} is not part of a {deck.kind} deck")
        self.check_free(uid, deck_id)
        with self._tx() as db:
            taken = db.execute(_HOLDER, (deck_id, slot.code, slot.copy)).fetchone()
            if taken is not None:
                raise RegistryError(
                    f"{slot.name} of deck {deck_id} already has tag {bytes(taken[0]).hex()}"
                )
            db.execute(
                "INSERT INTO tags VALUES (?, ?, ?, ?, ?)",
                (bytes(uid), deck_id, slot.code, slot.copy, signature),
            )

    def signature(self, uid: bytes) -> bytes | None:
        """The originality signature stored when the tag was enrolled (None if none)."""
        rows = self._query("SELECT signature FROM tags WHERE uid = ?", (bytes(uid),))
        return bytes(rows[0][0]) if rows and rows[0][0] is not None else None

    def check_free(self, uid: bytes, deck_id: int) -> None:
        """RegistryError naming where this UID is enrolled, if it is (seen from ``deck_id``)."""
        known = self.lookup(uid)
        if known is not None:
            where = "this deck" if known[0] == deck_id else f"deck {known[0]}"
            raise RegistryError(f"this tag is already enrolled in {where} as {known[1].name}")

    def unenroll(self, uid: bytes) -> None:
        """Forget an enrolled tag (to redo it); refused if it is not enrolled."""
        with self._tx() as db:
            if db.execute("DELETE FROM tags WHERE uid = ?", (bytes(uid),)).rowcount == 0:
                raise RegistryError(f"tag {uid.hex()} is not enrolled")

    def record_for(self, uid: bytes) -> bytes:
        """The 16-byte record to write to an enrolled tag."""
        known = self.lookup(uid)
        if known is None:
            raise RegistryError(f"tag {uid.hex()} is not enrolled")
        deck_id, slot = known
        deck = self.deck(deck_id)
        assert deck is not None  # foreign key
        record = tags.TagRecord(deck_id, slot.code, slot.copy, deck.key_id)
        return tags.encode(record, uid, self.keys()[deck.key_id])

    # the table's question

    def resolve(self, uid: bytes, record: bytes | None = None) -> Resolved:
        """What this tag is, from the registry or else from a MAC-checked record.

        Raises UnknownTag for a UID not enrolled here without a record of ours, BadRecord for
        a record that fails its MAC, names a slot its deck cannot have, or names a slot this
        registry has enrolled with another tag; Misread for an enrolled UID whose record of
        ours (with a key this host holds) has a MAC for another UID.
        """
        uid = bytes(uid)
        known = self.lookup(uid)
        if known is not None:
            if record and tags.is_ours(record):
                self._check_read(uid, bytes(record))
            return self._named(_resolved(known[0], known[1], "registry"))
        if not record or not tags.is_ours(record):
            raise UnknownTag(f"tag {uid.hex()} is not enrolled and carries no tricktable record")
        try:
            fields = tags.decode(bytes(record), uid, self.keys())
        except tags.RecordError as exc:
            raise BadRecord(f"tag {uid.hex()}: {exc}") from None
        slot = Slot(fields.code, fields.copy)
        deck = self.deck(fields.deck_id)
        if deck is not None and slot not in self.slots(deck.deck_id):
            raise BadRecord(
                f"tag {uid.hex()}: {slot.name} is not part of deck {deck.deck_id} ({deck.kind})"
            )
        holder = self._query(_HOLDER, (fields.deck_id, slot.code, slot.copy))
        if holder:
            raise BadRecord(
                f"tag {uid.hex()}: {slot.name} of deck {fields.deck_id} is enrolled here as "
                f"tag {bytes(holder[0][0]).hex()}; this is a second tag claiming it"
            )
        return self._named(_resolved(fields.deck_id, slot, "record"))

    def _check_read(self, uid: bytes, record: bytes) -> None:
        """Misread unless a record of ours read with an enrolled UID has that UID's MAC.

        The board reads the UID and the record in two exchanges; a bit error that slipped
        past the reader's checksums leaves a UID and a MAC that do not agree. A record this
        host cannot check (another version, an unknown key) is left to the registry."""
        try:
            tags.decode(record, uid, self.keys())
        except tags.MacMismatch:
            raise Misread(f"tag {uid.hex()} was misread (its record's MAC is for another "
                          "UID): place the card again") from None
        except tags.RecordError:
            pass

    def _named(self, found: Resolved) -> Resolved:
        """A member tag with its player's name; UnknownTag for a member nobody named here."""
        if found.member is None:
            return found
        name = self.members(found.deck_id).get(found.member)
        if name is None:
            raise UnknownTag(f"member {found.member} of deck {found.deck_id} has no name in "
                             "this registry (enroll --members)")
        return replace(found, player=name)


def _resolved(deck_id: int, slot: Slot, source: str) -> Resolved:
    if slot.code == tags.MEMBER_CODE:
        return Resolved(deck_id, None, 0, None, source, member=slot.copy)
    value = slot.value
    if isinstance(value, str):
        return Resolved(deck_id, None, 0, value, source)
    return Resolved(deck_id, value, slot.copy, None, source)

"""Enrollment at a USB reader: tag a deck card by card, and check a tagged deck.

Three parts, each usable alone:

* ``UsbReader``: a PN532 on a serial port, driven by the Adafruit CircuitPython PN532
  library's ``PN532_UART`` over pyserial (a ``serial.Serial`` has the ``read``/``write``/
  ``in_waiting``/``reset_input_buffer`` that driver needs). Poll for one tag, read the 16-byte
  record at page 4, write it (and the TLV terminator at page 8), read the originality
  signature, read a tag's password configuration, authenticate (PWD_AUTH) and set a password.
* ``TapDetector``: turns polls into taps; a card left lying on the reader is one tap, and
  removal is declared only after several misses in a row (7-byte-UID tags drop out of
  alternate polls).
* ``enroll_uid``: one tag by its UID alone, as the deck's next missing card (a phone's
  enrollment, ``web.enroll_routes``: Web NFC gives a page the UID, not the tag's pages).
* ``enroll_deck`` and ``check_deck``: the sessions. They talk to the person at the reader
  through a small ``SessionUI`` (the CLI gives a rich one; tests give a scripted one).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from tricktable.deckkit import decks, tags

_IN_LIST_PASSIVE_TARGET = 0x4A
_IN_DATA_EXCHANGE = 0x40
_IN_COMMUNICATE_THRU = 0x42
_RF_CONFIGURATION = 0x32
_OPEN_TRIES = 3  # handshakes tried before a reader is taken to be absent
_NTAG_READ_SIG = 0x3C
_NTAG_READ = 0x30
_NTAG_WRITE = 0xA2
_NTAG_GET_VERSION = 0x60
_NTAG_PWD_AUTH = 0x1B
_PROT = 0x80  # ACCESS bit 7: reads need the password too
_CFGLCK = 0x40  # ACCESS bit 6: CFG0/CFG1 locked for good
_NFC_COUNTER_BITS = 0x18  # ACCESS bits 4-3: NFC counter options, left as found
_POLL_REPLY_LEN = 13  # NbTg, Tg, SENS_RES(2), SEL_RES, NFCIDLength, 7-byte UID


class ReaderError(RuntimeError):
    """The reader did not answer, or a tag operation failed (tag moved away, write refused)."""


class TagNak(ReaderError):
    """The tag answered NAK (PN532 status 14h): wrong password, protected or missing page."""


_STATUS_NAK = 0x14


class EnrollError(ValueError):
    """An enrollment or check that cannot start (wrong deck kind, unknown deck ...)."""


@dataclass(frozen=True)
class Protection:
    """A tag's password configuration as read from CFG0 and CFG1 (PWD and PACK read as 00)."""

    cfg0_page: int
    cfg0: bytes  # MIRROR, RFUI, MIRROR_PAGE, AUTH0
    cfg1: bytes  # ACCESS, RFUI x3

    @property
    def protected(self) -> bool:
        """True when rewriting the record needs the password (AUTH0 at or before its pages)."""
        return self.cfg0[3] < tags.RECORD_PAGE + tags.RECORD_LEN // 4

    @property
    def config_locked(self) -> bool:
        """True when CFGLCK locks AUTH0 and ACCESS for good."""
        return bool(self.cfg1[0] & _CFGLCK)


class UsbReader:
    """A PN532 behind a USB serial adapter, through the Adafruit driver.

    ``pn532`` is any ``adafruit_pn532.PN532`` (UART, I2C or SPI); ``open`` builds the UART one.
    """

    def __init__(self, pn532: Any, close: Any = None) -> None:
        self.pn532 = pn532
        self._close = close
        # Bounded passive-activation retries so a poll without a tag ends (NbTg = 0) instead
        # of waiting for a tag for ever: MxRtyATR 0xFF, MxRtyPSL 1, MxRtyPassiveActivation 2.
        self._call(_RF_CONFIGURATION, [0x05, 0xFF, 0x01, 0x02], 0)

    @classmethod
    def open(cls, port: str, baudrate: int = 115200, timeout: float = 0.05) -> UsbReader:
        """Open a PN532 on a serial port (``/dev/ttyUSB0``, a pty from the emulator ...)."""
        import serial
        from adafruit_pn532.uart import PN532_UART

        try:
            ser = serial.Serial(port, baudrate, timeout=timeout)
        except serial.SerialException as exc:
            raise ReaderError(f"cannot open {port}: {exc}") from None
        error: Exception | None = None
        for _ in range(_OPEN_TRIES):  # a reader on a busy USB link may answer late
            try:
                return cls(PN532_UART(ser), close=ser.close)
            except (RuntimeError, OSError) as exc:  # ReaderError is a RuntimeError too
                error = exc
        ser.close()
        raise ReaderError(f"no PN532 answers on {port}: {error}") from None

    answer_s = 0.5
    """How long a command's answer is waited for (a PN532 answers in milliseconds)."""

    def close(self) -> None:
        """Close the port."""
        if self._close is not None:
            self._close()

    def _call(self, command: int, params: list[int], reply_len: int) -> bytes:
        try:
            reply = self.pn532.call_function(
                command, params=params, response_length=reply_len, timeout=self.answer_s
            )
        except RuntimeError as exc:  # the driver's frame errors (BusyError is one too)
            raise ReaderError(f"PN532 command 0x{command:02X} failed: {exc}") from None
        if reply is None:
            raise ReaderError(f"PN532 did not answer command 0x{command:02X}")
        return bytes(reply)

    def poll(self) -> bytes | None:
        """The UID of the tag on the reader, or None (one bounded InListPassiveTarget)."""
        reply = self._call(_IN_LIST_PASSIVE_TARGET, [0x01, 0x00], _POLL_REPLY_LEN)
        if not reply or reply[0] == 0:
            return None
        return reply[6 : 6 + reply[5]]

    def _exchange(self, ntag_command: list[int], reply_len: int, thru: bool = False) -> bytes:
        """An NTAG command to the tag last polled: through InDataExchange, or with ``thru``
        through InCommunicateThru, which hands the bytes to the tag as they are (InDataExchange
        takes a first byte 60h/61h for MIFARE Classic authentication: UM0701-02 7.3.8)."""
        if thru:
            reply = self._call(_IN_COMMUNICATE_THRU, ntag_command, reply_len + 1)
        else:
            reply = self._call(_IN_DATA_EXCHANGE, [0x01, *ntag_command], reply_len + 1)
        if not reply or reply[0] != 0x00:
            status = f"0x{reply[0]:02X}" if reply else "nothing"
            error = TagNak if reply and reply[0] == _STATUS_NAK else ReaderError
            raise error(f"tag refused NTAG command 0x{ntag_command[0]:02X} (status {status})")
        return reply[1:]

    def read_record(self) -> bytes:
        """The 16 bytes at page 4 (pages 4..7) of the tag last polled."""
        data = self._exchange([0x30, tags.RECORD_PAGE], tags.RECORD_LEN)
        if len(data) != tags.RECORD_LEN:
            raise ReaderError(f"NTAG READ returned {len(data)} bytes, expected 16")
        return data

    def write_record(self, record: bytes) -> None:
        """Write a 16-byte record at page 4 and the TLV terminator after it, page by page."""
        if len(record) != tags.RECORD_LEN:
            raise ValueError(f"a record is {tags.RECORD_LEN} bytes, got {len(record)}")
        pages = [record[i : i + 4] for i in range(0, tags.RECORD_LEN, 4)]
        for offset, page in enumerate([*pages, tags.TERMINATOR_PAGE]):
            self._write_page(tags.RECORD_PAGE + offset, page)

    def _write_page(self, page: int, data: bytes) -> None:
        self._exchange([_NTAG_WRITE, page, *data], 0)

    def protection(self) -> Protection:
        """The tag's CFG0/CFG1, found through GET_VERSION (NTAG213/215/216 only)."""
        version = self._exchange([_NTAG_GET_VERSION], 8, thru=True)
        cfg0_page = tags.CFG0_PAGES.get(version[6]) if len(version) == 8 else None
        if cfg0_page is None:
            raise ReaderError(f"not an NTAG213/215/216 (GET_VERSION {version.hex()}): no password")
        data = self._exchange([_NTAG_READ, cfg0_page], 16)
        return Protection(cfg0_page, data[0:4], data[4:8])

    def authenticate(self, pwd: bytes) -> bytes | None:
        """PWD_AUTH: the PACK the tag answers, or None if it refuses the password (NAK).

        A refusal leaves the tag silent until it is polled again (NTAG21x falls back to IDLE).
        Any other failure (the tag moved away) is a ReaderError.
        """
        try:
            pack = self._exchange([_NTAG_PWD_AUTH, *pwd], 2)
        except TagNak:
            return None
        if len(pack) != 2:
            raise ReaderError(f"PWD_AUTH returned {len(pack)} bytes, expected the 2-byte PACK")
        return pack

    def protect(self, secret: tags.Password, found: Protection) -> None:
        """Set PWD and PACK, then ACCESS (PROT 0, AUTHLIM 0) and last AUTH0 = page 4.

        AUTH0 goes last so a write that fails half-way leaves the tag unprotected, never
        protected with a password nobody wrote down (hardware/tag-format.md).
        """
        page = found.cfg0_page
        self._write_page(page + 2, secret.pwd)
        self._write_page(page + 3, secret.pack + b"\x00\x00")
        self._write_page(page + 1, bytes([found.cfg1[0] & _NFC_COUNTER_BITS]) + found.cfg1[1:])
        self._write_page(page, found.cfg0[:3] + bytes([tags.PROTECT_FROM]))

    def signature(self) -> bytes | None:
        """The 32-byte NXP originality signature (READ_SIG), or None if the tag has none."""
        try:
            data = self._exchange([_NTAG_READ_SIG, 0x00], 32)
        except ReaderError:
            return None
        return data if len(data) == 32 else None


class TagSource(Protocol):
    """What ``TapDetector`` needs: one poll at a time."""

    def poll(self) -> bytes | None: ...


class TapDetector:
    """Turns reader polls into taps: each placement of a card is reported once."""

    def __init__(self, reader: TagSource, misses_to_remove: int = 3,
                 silent_polls: int = 8) -> None:
        self.reader = reader
        self.misses_to_remove = misses_to_remove
        self.silent_polls = silent_polls  # unanswered polls in a row before the reader is lost
        self.present: bytes | None = None
        self._misses = 0

    def forget(self) -> None:
        """Treat the card now on the reader as not yet tapped (to read it again)."""
        self.present = None

    def next_tap(self, timeout: float) -> bytes | None:
        """The UID of the next card placed, or None after ``timeout`` seconds without one.

        A card still lying on the reader since the last tap is not a new tap; the same card
        lifted (several empty polls) and put back is.
        """
        deadline = time.monotonic() + timeout
        silent = 0
        while time.monotonic() < deadline:
            try:
                uid = self.reader.poll()
            except ReaderError:  # one poll unanswered (a busy USB link) is not a lost reader
                silent += 1
                if silent >= self.silent_polls:
                    raise
                continue
            silent = 0
            if uid is None:
                self._misses += 1
                if self._misses >= self.misses_to_remove:
                    self.present = None
                continue
            self._misses = 0
            if uid != self.present:
                self.present = uid
                return uid
        return None


class SessionUI(Protocol):
    """The person at the reader, as a session sees them."""

    def next_card(self, slot: decks.Slot | None, done: int, total: int) -> None:
        """Ask for a card to be tapped (``None``: any card of the deck, in a check)."""

    def done_card(self, slot: decks.Slot, uid: bytes) -> None:
        """A card was enrolled (or, in a check, recognised)."""

    def problem(self, message: str) -> None:
        """Something about the last tap is wrong; the session goes on."""

    def choose(self, question: str, choices: dict[str, str]) -> str:
        """Ask a question; return one of the keys of ``choices``."""


@dataclass
class EnrollResult:
    """What an enrollment did."""

    deck: decks.Deck
    enrolled: list[tuple[decks.Slot, bytes]] = field(default_factory=list)
    remaining: list[decks.Slot] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when every slot of the deck has a tag."""
        return not self.remaining


def _conflict(
    registry: decks.Registry, deck_id: int, slot: decks.Slot, uid: bytes, record: bytes | None
) -> tuple[str, bool]:
    """Why this tag should not become ``slot`` (message, may be overwritten), or ("", _)."""
    try:
        registry.check_free(uid, deck_id)
    except decks.RegistryError as exc:
        return str(exc), False
    try:
        found = registry.resolve(uid, record)  # not enrolled: what its record says, if any
    except decks.UnknownTag:
        return "", True
    except decks.BadRecord as exc:
        return f"this tag carries a record this host refuses ({exc})", True
    if found.deck_id != deck_id:
        return f"this tag carries a record of deck {found.deck_id} ({found.slot.name})", True
    if found.slot != slot:
        return (
            f"out of order: this card is {found.slot.name} by its record, {slot.name} was asked",
            True,
        )
    return "", True


def enroll_deck(
    registry: decks.Registry,
    reader: UsbReader,
    deck_id: int,
    kind: str,
    ui: SessionUI,
    *,
    name: str = "",
    redo: tuple[str, ...] = (),
    tap_timeout: float = 120.0,
    genuine_only: bool = False,
    protect: bool = False,
    taps: TapDetector | None = None,
    members: tuple[str, ...] = (),
) -> EnrollResult:
    """Enroll the missing cards (or tokens, or member tags) of a deck, one tap each, in
    ``Registry.slots`` order.

    Creates the deck if new; resumes one left incomplete. For a ``members`` deck, ``members``
    adds the names not yet in it (``Registry.add_members``); each member taps their own tag.
    ``redo`` names slots (``AS``,
    ``AS'``, ``PASS``) to forget and enroll again. Each tag is checked (not enrolled anywhere,
    no foreign or out-of-order record unless the person chooses to overwrite it), written,
    read back and only then recorded, with its originality signature; ``genuine_only`` refuses
    a tag whose signature does not verify with NXP's key. A tag already protected is unlocked
    with the password derived from the club key and its UID (a tag protected with another
    password, or answering the wrong PACK, is refused); ``protect`` sets that password on
    every tag (writes from page 4 on need it, reads stay open). Stops early (``remaining`` not empty) if no card is
    tapped for ``tap_timeout`` seconds or the person quits.
    """
    if members and kind != "members":
        raise EnrollError(f"deck {deck_id} is a {kind} deck: only a members deck has members")
    deck = registry.deck(deck_id)
    if kind == "members" and not members and not registry.members(deck_id):
        raise EnrollError(f"members deck {deck_id} has no members yet: give their names "
                          "(--members FILE, one a line)")
    try:
        decks.new_members(registry.members(deck_id), list(members))  # checked before a change
        if deck is None:
            deck = registry.create_deck(deck_id, kind, name)
        elif deck.kind != kind:
            raise EnrollError(f"deck {deck_id} is a {deck.kind} deck, not {kind}")
        if members:
            registry.add_members(deck_id, list(members))
    except decks.RegistryError as exc:
        raise EnrollError(str(exc)) from None
    slots = registry.slots(deck_id)
    by_name = {slot.name: slot for slot in slots}
    unknown = [n for n in redo if n not in by_name]
    if unknown:
        raise EnrollError(f"not in a {kind} deck: {', '.join(unknown)}")
    enrolled = registry.enrolled(deck_id)
    for uid, slot in list(enrolled.items()):
        if slot.name in redo:
            registry.unenroll(uid)
            del enrolled[uid]
    key = registry.keys()[deck.key_id]
    taps = taps if taps is not None else TapDetector(reader)
    have = set(enrolled.values())
    result = EnrollResult(deck, remaining=[s for s in slots if s not in have])
    interrupted: bytes | None = None  # a tag whose write failed half way: ours to write again
    while result.remaining:
        slot = result.remaining[0]
        ui.next_card(slot, len(slots) - len(result.remaining), len(slots))
        uid = taps.next_tap(tap_timeout)
        if uid is None:
            ui.problem(f"no card tapped for {tap_timeout:g} s: stopping; run again to continue")
            break
        try:
            if not _enroll_one(
                registry, reader, deck, key, slot, uid, ui, genuine_only=genuine_only,
                protect=protect, rewrite=uid == interrupted,
            ):
                continue
        except _Quit:
            break
        except ReaderError as exc:
            ui.problem(f"{exc}: hold the card still and tap {slot.name} again")
            interrupted = uid
            taps.forget()
            continue
        result.enrolled.append((slot, uid))
        result.remaining.pop(0)
        ui.done_card(slot, uid)
    return result


def missing(registry: decks.Registry, deck_id: int) -> list[decks.Slot]:
    """The deck's slots without a tag yet, in the order they are enrolled."""
    have = set(registry.enrolled(deck_id).values())
    return [slot for slot in registry.slots(deck_id) if slot not in have]


def enroll_uid(registry: decks.Registry, deck_id: int, uid: bytes) -> decks.Slot:
    """Enroll a tag by its UID alone as the deck's next missing slot (a phone's enrollment:
    Web NFC gives a page the tag's UID, not its memory pages, so no record is written and
    the host knows the card from the registry). EnrollError saying why a tag is refused (it
    is enrolled already, here or in another deck; the deck is complete); nothing changes."""
    if registry.deck(deck_id) is None:
        raise EnrollError(f"deck {deck_id} does not exist")
    left = missing(registry, deck_id)
    if not left:
        raise EnrollError(f"deck {deck_id} is complete: every card has its tag")
    message, _ = _conflict(registry, deck_id, left[0], uid, None)
    if message:
        raise EnrollError(f"{message}; tap {left[0].name}")
    try:
        registry.enroll(uid, deck_id, left[0])
    except decks.RegistryError as exc:
        raise EnrollError(str(exc)) from None
    return left[0]


class _Quit(Exception):
    """The person chose to stop."""


def _enroll_one(
    registry: decks.Registry,
    reader: UsbReader,
    deck: decks.Deck,
    key: bytes,
    slot: decks.Slot,
    uid: bytes,
    ui: SessionUI,
    *,
    genuine_only: bool,
    protect: bool,
    rewrite: bool = False,
) -> bool:
    """Enroll one tag; ``rewrite``: this session's own write to it failed half way, so a
    record it refuses is that write's, to be written again without asking."""
    try:
        current: bytes | None = reader.read_record()
    except ReaderError:
        current = None
    message, may_overwrite = _conflict(registry, deck.deck_id, slot, uid, current)
    if message and not (rewrite and may_overwrite):
        if not may_overwrite:
            ui.problem(f"{message}; tap {slot.name}")
            return False
        answer = ui.choose(
            f"{message}.",
            {"r": f"redo: tap {slot.name} again", "o": f"overwrite it as {slot.name}", "q": "quit"},
        )
        if answer == "q":
            raise _Quit
        if answer != "o":
            return False
    signature = reader.signature()
    if genuine_only and not (signature and tags.originality_valid(uid, signature)):
        ui.problem(
            f"tag {uid.hex()} is not a genuine NXP NTAG21x (its originality signature does not "
            f"verify): use another tag for {slot.name}"
        )
        return False
    secret = tags.password(key, uid)
    found = _protection_or_none(reader)
    if found is not None and found.protected:
        problem = _unlock(reader, uid, secret)
        if problem:
            ui.problem(f"{problem}: use another tag for {slot.name}")
            return False
    if protect and (found is None or found.config_locked and not found.protected):
        why = "no NTAG21x password" if found is None else "its configuration locked (CFGLCK)"
        ui.problem(f"tag {uid.hex()} has {why}: it cannot be protected; use another tag for {slot.name}")
        return False
    record = tags.encode(tags.TagRecord(deck.deck_id, slot.code, slot.copy, deck.key_id), uid, key)
    reader.write_record(record)
    if reader.read_record() != record:
        raise ReaderError("the record did not read back as written")
    if protect and found is not None and not found.config_locked:
        reader.protect(secret, found)
        if reader.poll() != uid or _unlock(reader, uid, secret):  # a new session proves it
            raise ReaderError("the password did not read back as written")
    registry.enroll(uid, deck.deck_id, slot, signature)
    return True


def _protection_or_none(reader: UsbReader) -> Protection | None:
    """The tag's password configuration, or None for a tag that has none (not NTAG21x)."""
    try:
        return reader.protection()
    except ReaderError:
        return None


def _unlock(reader: UsbReader, uid: bytes, secret: tags.Password) -> str:
    """Authenticate with this club's password for the tag; "" or what is wrong."""
    pack = reader.authenticate(secret.pwd)
    if pack is None:
        return (
            f"tag {uid.hex()} is protected with a password this club key does not give "
            "(another club's, or set by an app)"
        )
    if pack != secret.pack:
        return (
            f"tag {uid.hex()} took the password but answered PACK {pack.hex()}, expected "
            f"{secret.pack.hex()}: not a tag this club protected (a copy?)"
        )
    return ""


@dataclass
class CheckReport:
    """What a deck check found: every tap is in exactly one list."""

    deck: decks.Deck
    seen: dict[decks.Slot, bytes] = field(default_factory=dict)
    missing: list[decks.Slot] = field(default_factory=list)
    extra: list[tuple[bytes, str]] = field(default_factory=list)
    foreign: list[tuple[bytes, str]] = field(default_factory=list)
    warnings: list[tuple[bytes, str]] = field(default_factory=list)
    protected: dict[decks.Slot, bool] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when the whole deck was seen and nothing else was tapped."""
        return not (self.missing or self.extra or self.foreign or self.warnings)


def check_deck(
    registry: decks.Registry,
    reader: UsbReader,
    deck_id: int,
    ui: SessionUI,
    *,
    idle_timeout: float = 15.0,
    genuine_only: bool = False,
    taps: TapDetector | None = None,
) -> CheckReport:
    """Scan the cards of a deck in any order until all are seen or none comes for a while.

    Lists missing cards (enrolled slots never tapped), extra tags (unknown, refused, or a
    second tag for a slot already seen), foreign cards (of another deck) and warnings (a
    record that does not match the registry, an originality signature that changed or, with
    ``genuine_only``, one that does not verify with NXP's key, a tag protected with a password
    or PACK not derived from the club key). ``protected`` says for each card seen whether it
    is password-protected.
    """
    deck = registry.deck(deck_id)
    if deck is None:
        raise EnrollError(f"deck {deck_id} is not enrolled here")
    slots = registry.slots(deck_id)
    report = CheckReport(deck)
    taps = taps if taps is not None else TapDetector(reader)
    while len(report.seen) < len(slots):
        ui.next_card(None, len(report.seen), len(slots))
        uid = taps.next_tap(idle_timeout)
        if uid is None:
            break
        try:
            _check_one(registry, reader, report, uid, ui, genuine_only)
        except ReaderError as exc:
            ui.problem(f"{exc}: tap that card again")
            taps.forget()
    report.missing = [slot for slot in slots if slot not in report.seen]
    return report


def _check_one(
    registry: decks.Registry,
    reader: UsbReader,
    report: CheckReport,
    uid: bytes,
    ui: SessionUI,
    genuine_only: bool,
) -> None:
    record = reader.read_record()
    try:
        found = registry.resolve(uid, record)
    except decks.UnknownTag:
        report.extra.append((uid, "not enrolled and no record"))
        ui.problem(f"tag {uid.hex()}: not enrolled and no record (extra)")
        return
    except decks.BadRecord as exc:
        report.extra.append((uid, str(exc)))
        ui.problem(f"{exc} (extra)")
        return
    slot = found.slot
    if found.deck_id != report.deck.deck_id:
        report.foreign.append((uid, f"{slot.name} of deck {found.deck_id}"))
        ui.problem(f"{slot.name} of deck {found.deck_id}: foreign card")
        return
    if report.seen.get(slot, uid) != uid:
        report.extra.append((uid, f"a second tag for {slot.name}"))
        ui.problem(f"a second tag for {slot.name} (extra)")
        return
    report.seen[slot] = uid
    if found.source == "record":
        report.warnings.append(
            (uid, f"{slot.name}: valid record but not enrolled in this registry")
        )
    elif record != registry.record_for(uid):
        report.warnings.append(
            (uid, f"{slot.name}: record missing or stale; enroll --redo {slot.name}")
        )
    signature = reader.signature()
    stored = registry.signature(uid)
    if stored is not None and signature != stored:
        report.warnings.append((uid, f"{slot.name}: originality signature differs from enrollment"))
    elif genuine_only and not (signature and tags.originality_valid(uid, signature)):
        report.warnings.append((uid, f"{slot.name}: not a genuine NXP chip (signature)"))
    found = _protection_or_none(reader)
    report.protected[slot] = found is not None and found.protected
    if report.protected[slot]:  # last: a refused password leaves the tag silent until polled
        key = registry.keys()[report.deck.key_id]
        problem = _unlock(reader, uid, tags.password(key, uid))
        if problem:
            report.warnings.append((uid, f"{slot.name}: {problem}"))
    ui.done_card(slot, uid)

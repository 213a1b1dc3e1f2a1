"""The tag record: what is written to a tag's user memory, and how it is checked.

A record is 16 bytes (NTAG21x pages 4..7, one NTAG READ), laid out as an NFC Forum Type 2
proprietary TLV so the tag stays well formed (see hardware/tag-format.md)::

    0      0xFD  proprietary TLV tag
    1      0x0E  TLV length (14)
    2      format version (1)
    3      club key id (0..255)
    4..5   deck id, big endian (1..65535)
    6      code: a card (high nibble suit, low nibble rank), a token (0x80 + index) or a
           member tag (0x60)
    7      copy number (0 or 1 in double decks; 0 otherwise); a member tag's member number
           (1..255) in its members deck
    8..15  MAC: HMAC-SHA256(club key, DOMAIN || UID || bytes 0..7), first 8 bytes

The MAC covers the tag's factory UID, so a record copied onto another tag is refused.
``password`` derives the optional NTAG21x write password (PWD, PACK) from the club key and
the UID, so the enroll tool can protect a tag and unlock it again later.
Card codes and token codes are fixed here for ever: new tokens are appended, never reordered.
A member tag (a player's own tag, tapped at a seat to sit there) is code ``MEMBER_CODE`` with
the member number in the copy byte; its deck's registry knows the member's name. A host from
before member tags refuses one as an unassigned code.

Tokens are the strings of docs/architecture.md
(``PASS``, ``BID:3HC``, ``TRUMP:S`` ...).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from tricktable.cards import CARDS, JOKER, Card

RECORD_LEN = 16
RECORD_PAGE = 4  # first user page of NTAG213/215/216
TERMINATOR_PAGE = bytes([0xFE, 0x00, 0x00, 0x00])  # page 8: TLV terminator after the record
FORMAT_VERSION = 1
MAC_LEN = 8
KEY_LEN = 32
DOMAIN = b"tricktable-tag-v1"
_TLV_PROPRIETARY = 0xFD
_TLV_LENGTH = RECORD_LEN - 2

JOKER_CODE = 0x50
MEMBER_CODE = 0x60
MEMBER = "MEMBER"  # the value of MEMBER_CODE (not a token: the table seats, never plays, it)
TOKEN_BASE = 0x80

TOKENS: tuple[str, ...] = (
    "PASS",
    *(f"BID:{n}" for n in range(2, 13)),
    "BID:3HC",
    "BID:4HC",
    "BID:5HC",
    "PEPPER",
    "PEPPER:SMALL",
    "PEPPER:BIG",
    "ALONE",
    "NIL",
    "BLINDNIL",
    "TRUMP:S",
    "TRUMP:H",
    "TRUMP:D",
    "TRUMP:C",
    "TRUMP:NT",
    "HIGH",
    "LOW",
    "SIT_OUT",
    "PLAY",
    "BOTTOMS",
    "MISDEAL",
    "UNDO",
    "ORDER_UP",
    "PICK_UP",
    "DEAL",
    "NEW_GAME",
    "BID:1",
    "BID:13",
    "PFEFFER",
    "ORDER_UP:ALONE",
    "TRUMP:S:ALONE",
    "TRUMP:H:ALONE",
    "TRUMP:D:ALONE",
    "TRUMP:C:ALONE",
    "TIME",
)


class RecordError(ValueError):
    """A record that is not ours, is malformed, or fails its MAC; the message says which."""


class MacMismatch(RecordError):
    """A well-formed record whose MAC, under a key this host holds, is not for this UID."""


def card_code(card: Card) -> int:
    """The code of a card face: high nibble suit (1 spades .. 4 clubs), low nibble rank."""
    if card.is_joker:
        return JOKER_CODE
    return (int(card.suit) + 1) << 4 | card.rank


def token_code(token: str) -> int:
    """The code of a token string (``PASS``, ``BID:3HC`` ...)."""
    if token not in TOKENS:
        raise RecordError(f"not a token: {token!r}")
    return TOKEN_BASE + TOKENS.index(token)


def code_value(code: int) -> Card | str:
    """The card face (a ``Card``), the token (a ``str``) or ``MEMBER`` of a code;
    RecordError if unassigned."""
    if TOKEN_BASE <= code < TOKEN_BASE + len(TOKENS):
        return TOKENS[code - TOKEN_BASE]
    if code == MEMBER_CODE:
        return MEMBER
    if code == JOKER_CODE:
        return JOKER
    suit, rank = code >> 4, code & 0x0F
    if 1 <= suit <= 4 and 2 <= rank <= 14:
        return CARDS[(suit - 1) * 13 + rank - 2]
    raise RecordError(f"code 0x{code:02X} is not assigned to a card or a token")


@dataclass(frozen=True)
class TagRecord:
    """The fields of a record, before the MAC."""

    deck_id: int
    code: int
    copy: int = 0
    key_id: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.deck_id <= 0xFFFF:
            raise RecordError(f"deck id {self.deck_id} out of range 1..65535")
        if not 0 <= self.copy <= 0xFF:
            raise RecordError(f"copy number {self.copy} out of range 0..255")
        if not 0 <= self.key_id <= 0xFF:
            raise RecordError(f"key id {self.key_id} out of range 0..255")
        code_value(self.code)

    def body(self) -> bytes:
        """Bytes 0..7 of the record: everything the MAC covers besides the UID."""
        return bytes(
            [
                _TLV_PROPRIETARY,
                _TLV_LENGTH,
                FORMAT_VERSION,
                self.key_id,
                self.deck_id >> 8,
                self.deck_id & 0xFF,
                self.code,
                self.copy,
            ]
        )


def _check_uid(uid: bytes) -> None:
    if len(uid) not in (4, 7, 10):
        raise RecordError(f"a tag UID is 4, 7 or 10 bytes, got {len(uid)}: {uid.hex()}")


def _check_key(key: bytes) -> None:
    if len(key) != KEY_LEN:
        raise RecordError(f"a club key is {KEY_LEN} bytes, got {len(key)}")


def mac(key: bytes, uid: bytes, body: bytes) -> bytes:
    """The truncated MAC binding a record body to one tag UID."""
    _check_key(key)
    _check_uid(uid)
    return hmac.new(key, DOMAIN + uid + body, hashlib.sha256).digest()[:MAC_LEN]


def encode(record: TagRecord, uid: bytes, key: bytes) -> bytes:
    """The 16 bytes to write at page 4 of the tag with this UID."""
    body = record.body()
    return body + mac(key, uid, body)


def is_ours(raw: bytes) -> bool:
    """True if the bytes start like one of our records (any version); says nothing of the MAC."""
    return len(raw) >= 2 and raw[0] == _TLV_PROPRIETARY and raw[1] == _TLV_LENGTH


def parse(raw: bytes) -> TagRecord:
    """The fields of a record, without checking its MAC; RecordError if malformed."""
    if len(raw) < RECORD_LEN:
        raise RecordError(f"a record is {RECORD_LEN} bytes, got {len(raw)}")
    if not is_ours(raw):
        raise RecordError(f"not a tricktable record (starts {raw[:2].hex()}, expected fd0e)")
    if raw[2] != FORMAT_VERSION:
        raise RecordError(f"record format version {raw[2]} is not supported (this host reads 1)")
    return TagRecord(deck_id=raw[4] << 8 | raw[5], code=raw[6], copy=raw[7], key_id=raw[3])


def decode(raw: bytes, uid: bytes, keys: dict[int, bytes]) -> TagRecord:
    """Parse a record read from the tag with this UID and check its MAC with the club keys.

    Only the first 16 bytes count (a reader may return more). Raises RecordError when the
    record is malformed, its key id is unknown, or its MAC does not match this UID.
    """
    record = parse(raw)
    key = keys.get(record.key_id)
    if key is None:
        raise RecordError(f"record signed with club key {record.key_id}, unknown to this host")
    expected = mac(key, uid, raw[:8])
    if not hmac.compare_digest(expected, bytes(raw[8:RECORD_LEN])):
        raise MacMismatch(
            f"record MAC does not match tag {uid.hex()}: copied from another tag, "
            "altered, or written with another club's key"
        )
    return record


# Password protection (NTAG21x PWD_AUTH): see hardware/tag-format.md, "password protection".
PWD_DOMAIN = b"tricktable-pwd-v1"
PROTECT_FROM = RECORD_PAGE  # AUTH0: writes from the record on need the password
# GET_VERSION storage size byte -> page of CFG0 (then CFG1, PWD, PACK); NXP NTAG213/215/216.
CFG0_PAGES = {0x0F: 0x29, 0x11: 0x83, 0x13: 0xE3}


@dataclass(frozen=True)
class Password:
    """A tag's 4-byte password and the 2-byte acknowledge (PACK) it answers PWD_AUTH with."""

    pwd: bytes
    pack: bytes


def password(key: bytes, uid: bytes) -> Password:
    """The tag's password: HMAC-SHA256(club key, PWD_DOMAIN || UID), bytes 0-3 PWD, 4-5 PACK."""
    _check_key(key)
    _check_uid(uid)
    digest = hmac.new(key, PWD_DOMAIN + uid, hashlib.sha256).digest()
    return Password(pwd=digest[:4], pack=digest[4:6])


# NXP originality signature (READ_SIG): ECDSA over secp128r1 without hashing, message = UID.
# Curve parameters: SEC 2, secp128r1. Public key: NXP AN11350 (NTAG21x).
_P128 = 0xFFFFFFFDFFFFFFFFFFFFFFFFFFFFFFFF
_A128 = 0xFFFFFFFDFFFFFFFFFFFFFFFFFFFFFFFC
_N128 = 0xFFFFFFFE0000000075A30D1B9038A115
_G128 = (0x161FF7528B899B2D0C28607CA52C5B86, 0xCF5AC8395BAFEB13C02DA292DDED7A83)
NXP_NTAG21X_KEY = bytes.fromhex(
    "04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61"
)

_Point = tuple[int, int] | None  # None: the point at infinity


def _add(p: _Point, q: _Point) -> _Point:
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0] and (p[1] + q[1]) % _P128 == 0:
        return None
    if p == q:
        slope = (3 * p[0] * p[0] + _A128) * pow(2 * p[1], -1, _P128)
    else:
        slope = (q[1] - p[1]) * pow(q[0] - p[0], -1, _P128)
    x = (slope * slope - p[0] - q[0]) % _P128
    return x, (slope * (p[0] - x) - p[1]) % _P128


def _mul(k: int, p: _Point) -> _Point:
    result: _Point = None
    while k:
        if k & 1:
            result = _add(result, p)
        p = _add(p, p)
        k >>= 1
    return result


def originality_valid(uid: bytes, signature: bytes, public_key: bytes = NXP_NTAG21X_KEY) -> bool:
    """True if ``signature`` (32 bytes from READ_SIG: r then s) is NXP's signature of ``uid``.

    Proves the UID was issued by NXP to a genuine chip; a clone can replay a signature it
    copied, so it does not prove that the chip answering is that chip (hardware/tag-format.md).
    """
    if len(signature) != 32 or len(public_key) != 33 or public_key[0] != 0x04:
        return False
    r, s = int.from_bytes(signature[:16], "big"), int.from_bytes(signature[16:], "big")
    if not (0 < r < _N128 and 0 < s < _N128):
        return False
    q = (int.from_bytes(public_key[1:17], "big"), int.from_bytes(public_key[17:], "big"))
    w = pow(s, -1, _N128)
    e = int.from_bytes(uid, "big")
    point = _add(_mul(e * w % _N128, _G128), _mul(r * w % _N128, q))
    return point is not None and point[0] % _N128 == r

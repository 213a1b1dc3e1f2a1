"""MQTT protocol v1: topic names and message schemas, with size limits and clear decode errors.

Every payload is a JSON object with ``"v": 1``. Messages are msgspec Structs; ``decode()``
checks the size limit first, then the schema, and raises :class:`ProtocolError` naming the
field at fault. :class:`Topics` builds and parses topic names under a configurable prefix.
The full description, with examples, is docs/protocol.md; the summary table is in
docs/architecture.md.
"""

from __future__ import annotations

import re
import threading
from typing import Annotated, Any, Literal, TypeVar

import msgspec
from msgspec import Meta, Struct

VERSION = 1
DEFAULT_PREFIX = "tricktable"

MAX_BOARD_MESSAGE = 512  # bytes: pad event (a board's messages are small)
MAX_STATUS_MESSAGE = 2048  # bytes: a board's status, with its per-pad health and last error
MAX_MANIFEST = 16384  # bytes: a firmware bundle's manifest (fetched by the board in chunks)
MAX_SIGNATURE = 16384  # bytes: its HSS/LMS signature (4,756 at fleet/signing.py's parameters)
MAX_CONTROL_MESSAGE = 8192  # bytes: admin control commands (a seating or a whole action)
KEPT_HOLD_S = 5.0  # s: how long the host holds a kept pad event that is not yet in turn

_ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$"
_ID_RE = re.compile(_ID)

BoardId = Annotated[str, Meta(pattern=_ID, max_length=32)]
TableId = Annotated[str, Meta(pattern=_ID, max_length=32)]
Boot = Annotated[int, Meta(ge=0, le=0xFFFFFFFF)]
Seq = Annotated[int, Meta(ge=0, le=2**53)]
Pad = Annotated[int, Meta(ge=0, le=15)]
Seat = Annotated[int, Meta(ge=0, le=7)]
UidHex = Annotated[str, Meta(pattern=r"^(?:[0-9a-fA-F]{2}){4,10}$")]
RecordHex = Annotated[str, Meta(pattern=r"^[0-9a-fA-F]{32}$")]
ShortText = Annotated[str, Meta(max_length=64)]
Reason = Annotated[str, Meta(max_length=300)]

Led = Literal["off", "green", "red", "amber", "blue", "white"]
Pattern = Literal["solid", "blink", "pulse"]
Buzz = Literal["none", "ok", "error", "revoke"]
ControlCmd = Literal["new_game", "set_variant", "seat", "undo", "void_hand", "action", "replace"]
NightCmd = Literal["replace_action", "fix_hand", "void_hand", "swap", "settle", "ring", "undo_bell",
                   "arrive", "substitute", "end"]
EventKind = Literal["accepted", "refused", "engine", "control", "invalid"]


class ProtocolError(ValueError):
    """A message or topic that does not follow protocol v1; ``field`` names the culprit."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class _Message(Struct, kw_only=True, omit_defaults=False):
    v: Literal[1] = 1


class PadEvent(_Message, kw_only=True):
    """board -> host: a tag was placed on a pad. ``(board, boot, seq)`` is its unique key."""

    board: BoardId
    boot: Boot  # random per power-up, so seq can restart at 0
    seq: Seq
    t: Annotated[int, Meta(ge=0)]  # board clock, ms since boot
    pad: Pad
    kind: Literal["place"] = "place"
    uid: UidHex
    rec: RecordHex | None = None
    # kept by its reader while the host was unreachable: the host may hold it, when it is
    # not yet in turn, until the plays placed before it arrive (KEPT_HOLD_S at most)
    kept: bool = False

    @property
    def key(self) -> tuple[str, int, int]:
        """``(board, boot, seq)``: the event's unique key (the journal's, the acks')."""
        return (self.board, self.boot, self.seq)

    @property
    def uid_bytes(self) -> bytes:
        return bytes.fromhex(self.uid)

    @property
    def rec_bytes(self) -> bytes | None:
        return None if self.rec is None else bytes.fromhex(self.rec)


UpdateStateName = Literal["fetching", "refused", "current", "installed", "confirmed",
                          "rolled_back"]
PerPad = Annotated[list[Annotated[int, Meta(ge=0)]], Meta(max_length=16)]


class UpdateProgress(Struct, kw_only=True):
    """A board's last firmware update, in its status (docs/protocol.md, "Firmware updates")."""

    state: UpdateStateName
    version: ShortText | None = None
    reason: Reason | None = None


class BoardStatus(_Message, kw_only=True):
    """board -> host, retained: alive or not, and its health. The last will is
    ``{"v": 1, "online": false}``. Per-pad lists are indexed by pad."""

    online: bool
    boot: Boot | None = None
    fw: ShortText | None = None
    fwc: Annotated[int, Meta(ge=0)] | None = None  # the running bundle's counter (fleet/bundle.py)
    heap: Annotated[int, Meta(ge=0)] | None = None
    rssi: int | None = None
    readers: Annotated[int, Meta(ge=0, le=16)] | None = None
    uptime: Annotated[int, Meta(ge=0)] | None = None
    faults: PerPad = []  # the pads whose reader is down
    reads: PerPad = []  # cards read, per pad
    misses: PerPad = []  # misreads: reads of a new card that failed and were read again, per pad
    reader_errors: PerPad = []  # PN532 frames that failed and were sent again, per pad
    reader_resets: PerPad = []  # PN532 resets through its reset pin, per pad
    pending: Annotated[int, Meta(ge=0)] | None = None  # outbox depth: plays not yet acked
    # links the broker ended within a keepalive of connecting since boot: another client
    # with the board's id took its session (MQTT-3.1.4-2), as a second board with its id does
    taken: Annotated[int, Meta(ge=0)] | None = None
    reboot: ShortText | None = None  # why the board last started (power, watchdog, update...)
    error: Reason | None = None
    config: Reason | None = None  # what the board refused of its config.json
    update: UpdateProgress | None = None
    verdict_ms: Annotated[list[int], Meta(max_length=16)] | None = None  # card to verdict, ms
    battery: Annotated[int, Meta(ge=0, le=100)] | None = None  # a phone's battery, percent
    charging: bool | None = None  # a phone on its charger
    network: ShortText | None = None  # a phone's connection as its browser names it ("4g")


class FirmwareOffer(_Message, kw_only=True):
    """host -> board (``board/{id}/update``): take this bundle. ``size`` is the length of its
    signed manifest, which the board fetches like a file (``manifest.json``), ``sig_size`` the
    length of its HSS/LMS signature (``manifest.sig``, fetched the same way); ``sig`` names
    the offer (the signature's SHA-256, in hex) or, in a migration bundle, is the manifest's
    HMAC-SHA256 under the old update key, which boards of the old scheme check."""

    version: ShortText
    size: Annotated[int, Meta(ge=1, le=MAX_MANIFEST)]
    sig: Annotated[str, Meta(pattern=r"^[0-9a-f]{64}$")]
    sig_size: Annotated[int, Meta(ge=1, le=MAX_SIGNATURE)]


class FirmwareFetch(_Message, kw_only=True):
    """board -> host (``board/{id}/fetch``): send ``len`` bytes of ``file`` from ``offset``;
    answered on ``board/{id}/update/chunk`` by ``file\noffset\n`` and the bytes."""

    version: ShortText
    file: Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$")]
    offset: Annotated[int, Meta(ge=0)]
    len: Annotated[int, Meta(ge=1, le=4096)]


class HostStatus(_Message, kw_only=True):
    """host, retained on ``{p}/v1/host/status``: is the service up, and is it well.

    The service's last will is ``{"v": 1, "online": false}``. ``storage`` is ``failing`` while
    the journal cannot store (disk full, read-only, I/O error): plays are then neither applied
    nor acknowledged, and the boards keep them until storage is back. ``faults`` counts messages
    whose handling failed, ``poisoned`` those refused for good after failing again and again;
    ``flooding`` names boards whose refused messages are over the journal's cap; ``club`` is the
    club's name from its club file (the TV's title).
    """

    online: bool
    club: Annotated[str, Meta(max_length=100)] = ""
    storage: Literal["ok", "failing"] = "ok"
    detail: Annotated[str, Meta(max_length=300)] = ""
    faults: Annotated[int, Meta(ge=0)] = 0
    poisoned: Annotated[int, Meta(ge=0)] = 0
    last_fault: Annotated[str, Meta(max_length=300)] = ""
    flooding: list[str] = []


class Ack(_Message, kw_only=True):
    """host -> board: the event ``(boot, seq)`` is journaled; the board may drop it."""

    boot: Boot
    seq: Seq


class Feedback(_Message, kw_only=True):
    """host -> board: light a pad's LED and sound the buzzer (the seat's verdict)."""

    pad: Pad
    led: Led
    pattern: Pattern = "solid"
    ms: Annotated[int, Meta(ge=0, le=60000)] = 1500
    buzz: Buzz = "none"


class PadSeat(Struct, kw_only=True):
    pad: Pad
    seat: Seat


class BoardConfig(_Message, kw_only=True):
    """host -> board, retained: the table the board serves and which pads it scans."""

    table: TableId
    pads: Annotated[list[PadSeat], Meta(max_length=16)]
    display: bool = False  # show the table's display topic on the board's display
    brightness: Annotated[int, Meta(ge=0, le=15)] | None = None  # the display's, 0..15


class Display(_Message, kw_only=True):
    """host, retained: a summary small enough for an 8-digit 7-segment or 4x16 OLED board."""

    text8: Annotated[str, Meta(max_length=8)]
    lines: Annotated[list[Annotated[str, Meta(max_length=16)]], Meta(max_length=4)]


class TableEvent(_Message, kw_only=True):
    """host: one entry of a table's event stream.

    ``kind`` is ``accepted`` (an action applied: ``action``), ``refused`` (an action or tag
    refused: ``code``, ``reason``), ``engine`` (an engine event: ``event``, e.g. a revoke, a
    trick won, a hand scored, game over), ``control`` (an admin command done or refused) or
    ``invalid`` (a message that could not be read at all).
    """

    table: Annotated[str, Meta(max_length=32)]  # the table id, "-" on the host's own topic
    kind: EventKind
    seat: Seat | None = None
    board: str | None = None
    pad: Pad | None = None
    code: str = ""
    reason: str = ""
    action: dict[str, Any] | None = None
    event: dict[str, Any] | None = None
    id: str | None = None  # the control command's id, echoed


class Control(_Message, kw_only=True):
    """admin -> host: a control command for a table; answered by a ``control`` event."""

    cmd: ControlCmd
    args: dict[str, Any] = {}
    id: Annotated[str, Meta(max_length=64)] | None = None


class NightCommand(_Message, kw_only=True):
    """director -> host: a correction to the club night (``{p}/v1/night/control``); answered
    by a ``NightAnswer``. ``id`` makes it idempotent; ``by`` names the director."""

    cmd: NightCmd
    args: dict[str, Any] = {}
    id: Annotated[str, Meta(pattern=_ID, max_length=32)]
    by: Annotated[str, Meta(min_length=1, max_length=32)]


class NightAnswer(_Message, kw_only=True):
    """host -> director (``{p}/v1/night/events``): a night command done (``ok``, with its
    audit ``entry``) or refused (``code``, ``reason``; nothing changed)."""

    id: str
    ok: bool
    code: str = ""
    reason: Reason = ""
    entry: dict[str, Any] | None = None


class MessageTooLarge(ProtocolError):
    """A message over its size limit (refused before parsing)."""


M = TypeVar("M", bound=Struct)

_encoder = msgspec.json.Encoder()
_decoders: dict[type[Struct], msgspec.json.Decoder[Any]] = {}
_building = threading.Lock()


def _decoder(kind: type[M]) -> msgspec.json.Decoder[M]:
    """The decoder of ``kind``, built once. msgspec builds a type's decoding information on
    first use, and two threads building it at once can crash the process (a segmentation
    fault, seen with the service's and the scoreboard's MQTT threads meeting their first
    BoardStatus together): so one thread at a time builds, and protocol's own messages are
    built at import."""
    decoder = _decoders.get(kind)
    if decoder is None:
        with _building:
            decoder = _decoders.get(kind)
            if decoder is None:
                decoder = _decoders[kind] = msgspec.json.Decoder(kind)
    return decoder


def encode(message: Struct | dict[str, Any]) -> bytes:
    """The JSON bytes of a message (a dict is sent as is, e.g. the table state)."""
    return _encoder.encode(message)


def decode(kind: type[M], payload: bytes, limit: int = MAX_BOARD_MESSAGE) -> M:
    """Decode ``payload`` as ``kind``; raise ProtocolError naming the field on any fault.

    Nothing else escapes, whatever the bytes: the service hands board messages straight here.
    """
    name = kind.__name__
    if len(payload) > limit:
        raise MessageTooLarge(f"{name} too large: {len(payload)} bytes (limit {limit})", "$")
    try:
        return _decoder(kind).decode(payload)
    except msgspec.ValidationError as exc:
        text = str(exc)
        field = text.rsplit(" - at `", 1)[1].rstrip("`") if " - at `" in text else "$"
        detail = text.split(" - at `", 1)[0]
        raise ProtocolError(f"bad {name}: field {field}: {detail}", field) from None
    except msgspec.DecodeError as exc:
        if "UTF-8" in str(exc):  # msgspec 0.23 and later check UTF-8 as they parse
            raise ProtocolError(f"bad {name}: not UTF-8: {exc}", "$") from None
        raise ProtocolError(f"bad {name}: not JSON: {exc}", "$") from None
    except UnicodeDecodeError as exc:  # msgspec 0.22 checks it lazily, inside string values
        raise ProtocolError(f"bad {name}: not UTF-8 at byte {exc.start}: {exc.reason}",
                            "$") from None
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise ProtocolError(f"bad {name}: unreadable: {exc}", "$") from None


def natural_key(value: str) -> tuple[tuple[int, int | str], ...]:
    """How ids sort for people: ``t2`` before ``t10``, ``7`` before ``11`` (digits as numbers)."""
    return tuple((0, int(part)) if part.isdigit() else (1, part)
                 for part in re.split(r"(\d+)", value) if part)


def valid_id(value: str) -> bool:
    """True for a board or table id usable in a topic (letters, digits, ``_ . -``; 1-32)."""
    return bool(_ID_RE.match(value))


def phone_reader(table: str, seat: int) -> str:
    """The reader id under which a phone reads ``seat`` of ``table`` (docs/phones.md): the
    host sees it as a board with one pad, pad 0; the web server relays the phone's plays
    under it. ``{table}.phone{seat}``: a club file refuses a table id that makes it too long."""
    return f"{table}.phone{seat}"


def phone_reader_seat(reader: str, table: str) -> int | None:
    """The seat ``reader`` reads as ``table``'s phone reader, or None (a board's id)."""
    head, mark, seat = reader.rpartition(".phone")
    return int(seat) if mark and head == table and seat.isdigit() and \
        reader == phone_reader(table, int(seat)) else None


class Topics:
    """Topic names under ``{prefix}/v1``; ``parse()`` turns a topic back into its parts."""

    def __init__(self, prefix: str = DEFAULT_PREFIX) -> None:
        if not prefix or any(c in prefix for c in "+#") or prefix.endswith("/"):
            raise ProtocolError(f"bad topic prefix {prefix!r}: no wildcards, no trailing '/'")
        self.prefix = prefix
        self.base = f"{prefix}/v{VERSION}"

    def board(self, board: str, leaf: str) -> str:
        return f"{self.base}/board/{board}/{leaf}"

    def table(self, table: str, leaf: str) -> str:
        return f"{self.base}/table/{table}/{leaf}"

    def board_event(self, board: str) -> str:
        return self.board(board, "event")

    def board_status(self, board: str) -> str:
        return self.board(board, "status")

    def ack(self, board: str) -> str:
        return self.board(board, "ack")

    def feedback(self, board: str) -> str:
        return self.board(board, "feedback")

    def config(self, board: str) -> str:
        return self.board(board, "config")

    def update(self, board: str) -> str:
        """host -> board: a ``FirmwareOffer``."""
        return self.board(board, "update")

    def update_chunk(self, board: str) -> str:
        """host -> board: a chunk of a bundle's file, answering a ``FirmwareFetch``."""
        return f"{self.board(board, 'update')}/chunk"

    def fetch(self, board: str) -> str:
        """board -> host: a ``FirmwareFetch``."""
        return self.board(board, "fetch")

    def state(self, table: str) -> str:
        return self.table(table, "state")

    def display(self, table: str) -> str:
        return self.table(table, "display")

    def events(self, table: str) -> str:
        return self.table(table, "events")

    def control(self, table: str) -> str:
        return self.table(table, "control")

    def host_events(self) -> str:
        """Events about messages that belong to no table (unseated board, unknown table)."""
        return f"{self.base}/host/events"

    def host_status(self) -> str:
        """The service's own retained status (``HostStatus``); its last will goes here too."""
        return f"{self.base}/host/status"

    def night_control(self) -> str:
        """Director's corrections to the club night (``NightCommand``), for ``serve --night``."""
        return f"{self.base}/night/control"

    def night_events(self) -> str:
        """The night's answers to them (``NightAnswer``)."""
        return f"{self.base}/night/events"

    def host_subscriptions(self) -> list[str]:
        """What the host service subscribes to."""
        return [
            self.board("+", "event"),
            self.board("+", "status"),
            self.table("+", "control"),
        ]

    def parse(self, topic: str) -> tuple[str, str, str]:
        """``(scope, id, leaf)``: scope ``board``/``table`` (or ``host``, id ""); ProtocolError if not ours."""
        if topic == self.host_events():
            return "host", "", "events"
        if topic == self.host_status():
            return "host", "", "status"
        head = self.base + "/"
        parts = topic[len(head) :].split("/") if topic.startswith(head) else []
        if len(parts) != 3 or parts[0] not in ("board", "table") or not valid_id(parts[1]):
            raise ProtocolError(f"not a {self.base} topic: {topic!r}", "topic")
        return parts[0], parts[1], parts[2]


for _kind in _Message.__subclasses__():  # every message's decoder, before any thread decodes
    _decoder(_kind)

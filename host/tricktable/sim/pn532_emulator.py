"""A byte-faithful PN532 NFC controller emulator with NTAG21x tags (CPython and MicroPython).

No dataclasses; the annotations
are never evaluated at run time by MicroPython (it ignores them).

The chip speaks normal information frames::

    00 00 FF LEN LCS TFI DATA... DCS 00      TFI D4 host->chip, D5 chip->host
    ACK   00 00 FF 00 FF 00                  NACK 00 00 FF FF 00 00 (host: "send again")
    error 00 00 FF 01 FF 7F 81 00            (syntax error: unknown or malformed command)

A frame with a bad LCS or DCS is ignored (no ACK), as the real chip does; the host times out
and resends. A host ACK aborts the command in progress; a host NACK repeats the last answer.

Commands: GetFirmwareVersion (02), SAMConfiguration (14), RFConfiguration (32, item 05
MaxRetries; others accepted), InListPassiveTarget (4A, 106 kbps type A, 4- and 7-byte UIDs; InitiatorData = a UID
selects that tag only),
InDataExchange (40) carrying NTAG commands READ (30: 16 bytes = 4 pages, rolls over at the
end), WRITE (A2: one page; pages 0..3, the dynamic lock page and beyond the configuration
pages refused), READ_SIG (3C: 32 bytes), PWD_AUTH (1B), InCommunicateThru (42: the same
commands and GET_VERSION (60), passed to the tag as they are), and InRelease (52).
InDataExchange to a MIFARE-class target (an NTAG is one: SEL_RES 00) takes its first byte
for a MIFARE command (UM0701-02 7.3.8: 60h/61h are MIFARE Classic authentication with key
A/B, which needs a key and the UID): GET_VERSION (60) sent that way is refused with status
14h (MIFARE authentication error) and the tag, sent garbage, drops to IDLE. NTAG's
GET_VERSION goes through InCommunicateThru.

Frames as real chips send them (``chip.preamble``, ``chip.postamble``, ``chip.ack_late_ms``,
class defaults, so a test sets them on one chip): UM0701-02 6.2.1.1 draws one preamble byte
(00) before the start code 00 FF and one postamble byte after the checksum; chips send more
zeros before the start code (after a wake-up, on I2C reads; Adafruit's adafruit_pn532
``_read_frame`` skips every 00 before FF for that reason) and may add or drop postamble
bytes. ``preamble = 3`` sends ``00 00 00 00 FF ...``; ``postamble = 0`` drops the trailing
00, ``postamble = 3`` sends three. ``ack_late_ms`` makes the ACK's ready bit come that late
(a chip still waking up; with ``clock``).

Password protection, as the NXP NTAG213/215/216 data sheet (Rev. 3.2) describes it: the four
configuration pages after the dynamic lock page (NTAG213 29h-2Ch, NTAG215 83h-86h, NTAG216
E3h-E6h) hold CFG0 (MIRROR, RFUI, MIRROR_PAGE, AUTH0; shipped 04 00 00 FF), CFG1 (ACCESS,
RFUI x3; shipped 00 05 00 00), PWD (shipped FF FF FF FF) and PACK (shipped 00 00, RFUI x2).
From page AUTH0 on, WRITE needs a PWD_AUTH (1B + PWD, answered with PACK) earlier in the same
session; with ACCESS.PROT (bit 7) set, READ does too. ACCESS.CFGLCK (bit 6) locks CFG0/CFG1
for good (PWD and PACK stay writable). PWD and PACK always read back as 00. A tag that
answers NAK falls back to IDLE (data sheet, state diagram): it answers nothing more until it
is selected again, so the PN532 reports a timeout (01) for what follows. A NAK itself shows
as status 14 in the InDataExchange answer. The session (authentication, IDLE) ends when the
tag leaves the field (``remove``, ``place`` of another tag), at InRelease, and at every new
InListPassiveTarget (a new selection). AUTHLIM (failed-attempt limit) is not modeled. InListPassiveTarget with no tag answers NbTg=0
after MxRtyPassiveActivation+1 attempts; with 0xFF (retry forever) it never answers.

API::

    chip = PN532(clock=None)          # clock: callable -> microseconds; None = answers at once
    tag = Tag(b"\\x04\\x11\\x22\\x33\\x44\\x55\\x66", kind="ntag215", miss_every=2)
    chip.place(tag); chip.remove()    # one antenna field, one tag at a time
    chip.hang()                       # answers nothing, never ready, until a reset pulse
    chip.late_ms = 500                # ACKs at once, answers each command 500 ms late (clock)
    chip.preamble = 3; chip.postamble = 0; chip.ack_late_ms = 10   # frames as chips send them
                                      # P70_IRQ (wired by sim/virtual.py) = not ready()
    chip.set_reset(0); chip.set_reset(1)   # RSTPDN pin: low then high = power-on reset
    chip.model_us                     # modeled busy time (commands + bytes on the bus), us
    chip.commands                     # count of command frames processed

    spi = SPIPort(chip)               # PN532 SPI: op byte 02 status / 01 write / 03 read
    spi.select(); rx = spi.transfer(tx, msb_first=True); spi.deselect()
    i2c = I2CPort(chip)               # write(frame); read(n) -> ready byte (01) + frame;
                                      # read(1) polls the ready byte without taking the frame
    uart = UARTPort(chip)             # write(bytes) (55 55 00 .. wakeup tolerated);
                                      # read(n) -> bytes available (<= n);
                                      # in_waiting (property), any()

``SPIPort.transfer`` takes the bytes as the master's shift register holds them: the PN532
clocks least significant bit first, so a master shifting MSB first (``msb_first=True``)
delivers bit-reversed bytes and reads bit-reversed answers; an LSB-first master does not.
Within one select/deselect the first byte is the operation; later bytes are the frame
(write) or the answer (status byte, or the pending frame, popped as clocked out).
Every transport adds its byte time to ``chip.model_us`` (SPI 1 MHz, I2C 400 kHz, UART
115200 baud by default); ``TIMING_US`` holds the modeled command durations.

Several tags in the field at once (stacked cards, anticollision) and injected read faults
are ``pn532_field.FieldPN532``, a subclass kept apart so this module stays small on a
board-sized heap.
"""

try:  # for the annotations only; MicroPython has no collections.abc and never reads them
    from collections.abc import Callable
except ImportError:
    pass

ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
FIRMWARE = b"\x32\x01\x06\x07"  # IC PN532, version 1.6, supports ISO14443A/B + ISO18092

# Modeled chip busy time per command, microseconds (a model, not a measurement).
TIMING_US = {
    "frame": 150,  # parse a frame and answer a simple command
    "activation_try": 1000,  # one passive activation attempt that finds no tag
    "activation_ok": 2500,  # anticollision + select of a present tag
    "ntag_read": 1900,  # NTAG READ on air: command, turnaround, 16 bytes + CRC_A at 106 kbps
    "ntag_write": 4800,  # NTAG21x tPROG 4.1 ms + exchange
    "ntag_sig": 1800,
}

# (total pages, last user page, GET_VERSION storage size byte); the dynamic lock page follows
# the last user page, then CFG0, CFG1, PWD, PACK.
NTAG_KINDS = {"ntag213": (45, 39, 0x0F), "ntag215": (135, 129, 0x11), "ntag216": (231, 225, 0x13)}

ST_OK = 0x00
ST_TIMEOUT = 0x01  # target did not answer (gone from the field)
ST_CRC = 0x02  # the tag's answer failed its CRC_A
ST_NAK = 0x14  # tag answered NAK (page out of range, locked page, protected page, bad PWD)
ST_MIFARE_AUTH = 0x14  # MIFARE authentication error (UM0701-02 7.1; the same code as a NAK)
ST_CONTEXT = 0x27  # no such activated target
MIFARE_AUTH = (0x60, 0x61)  # InDataExchange takes these for MIFARE Classic authentication


def checksum(data: bytes) -> int:
    """Return the byte that makes sum(data) + byte == 0 mod 256."""
    return (-sum(data)) & 0xFF


def build_frame(tfi: int, data: bytes) -> bytes:
    """Encode a normal information frame with TFI and data."""
    body = bytes([tfi]) + bytes(data)
    n = len(body)
    return b"\x00\x00\xff" + bytes([n, (-n) & 0xFF]) + body + bytes([checksum(body), 0])


class Tag:
    """An NTAG21x tag: UID, memory pages, signature, and an optional miss pattern."""

    def __init__(self, uid: bytes, kind: str = "ntag215", miss_every: int = 0,
                 signature: bytes | None = None) -> None:
        uid = bytes(uid)
        if len(uid) not in (4, 7):
            raise ValueError(f"a type A UID is 4 or 7 bytes, got {len(uid)}")
        if kind not in NTAG_KINDS:
            raise ValueError(f"unknown tag kind {kind!r} (one of {sorted(NTAG_KINDS)})")
        self.uid = uid
        self.kind = kind
        self.pages, self.last_user_page, self.size_byte = NTAG_KINDS[kind]
        self.miss_every = miss_every  # 2 = vanishes on every second poll
        self.polls = 0
        self.memory = bytearray(self.pages * 4)
        if len(uid) == 7:
            bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
            bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
            self.memory[0:9] = uid[0:3] + bytes([bcc0]) + uid[3:7] + bytes([bcc1])
        else:
            self.memory[0:4] = uid
        self.memory[12:16] = bytes([0xE1, 0x10, (self.last_user_page - 3) // 2, 0x00])
        if signature is None:
            signature = bytes((uid[i % len(uid)] * 7 + i) & 0xFF for i in range(32))
        self.signature = bytes(signature)
        self.cfg0_page = self.last_user_page + 2
        self.memory[self.cfg0_page * 4 : self.cfg0_page * 4 + 16] = (
            b"\x04\x00\x00\xff" + b"\x00\x05\x00\x00" + b"\xff\xff\xff\xff" + bytes(4)
        )
        self.authenticated = False
        self.idle = False  # answered NAK: silent until selected again

    def new_session(self) -> None:
        """The tag was (re)selected or left the field: not authenticated, not idle."""
        self.authenticated = False
        self.idle = False

    def set_password(self, pwd: bytes, pack: bytes, auth0: int = 4, prot: bool = False) -> None:
        """Configure password protection directly (for setting up tests)."""
        base = self.cfg0_page * 4
        self.memory[base + 3] = auth0
        self.memory[base + 4] = (self.memory[base + 4] & 0x7F) | (0x80 if prot else 0)
        self.memory[base + 8 : base + 12] = bytes(pwd)
        self.memory[base + 12 : base + 14] = bytes(pack)

    def auth0(self) -> int:
        """The first page that needs the password (AUTH0)."""
        return self.memory[self.cfg0_page * 4 + 3]

    def access(self) -> int:
        """The ACCESS byte (bit 7 PROT, bit 6 CFGLCK, bits 2-0 AUTHLIM)."""
        return self.memory[self.cfg0_page * 4 + 4]

    def _nak(self):
        self.idle = True
        return ST_NAK, b""

    def _read(self, page):
        if page >= self.pages:
            return self._nak()
        if self.access() & 0x80 and page >= self.auth0() and not self.authenticated:
            return self._nak()
        secret = range((self.cfg0_page + 2) * 4, (self.cfg0_page + 4) * 4)  # PWD, PACK
        out = bytearray(16)
        for i in range(16):
            at = (page * 4 + i) % len(self.memory)
            out[i] = 0 if at in secret else self.memory[at]
        return ST_OK, bytes(out)

    def _write(self, page, data):
        user = 4 <= page <= self.last_user_page
        config = self.cfg0_page <= page <= self.cfg0_page + 3
        if not (user or config):
            return self._nak()
        if page >= self.auth0() and not self.authenticated:
            return self._nak()
        if page <= self.cfg0_page + 1 and config and self.access() & 0x40:
            return self._nak()  # CFGLCK: configuration locked for good
        self.memory[page * 4 : page * 4 + 4] = data
        return ST_OK, b""

    def _pwd_auth(self, pwd):
        base = self.cfg0_page * 4
        if pwd != bytes(self.memory[base + 8 : base + 12]):
            return self._nak()
        self.authenticated = True
        return ST_OK, bytes(self.memory[base + 12 : base + 14])

    def sens_res(self) -> bytes:
        """ATQA as the PN532 reports it (two bytes, MSB first)."""
        return b"\x00\x44" if len(self.uid) == 7 else b"\x00\x04"

    def answers_poll(self) -> bool:
        """Count a poll and say whether the tag answers it (miss pattern)."""
        self.polls += 1
        return not (self.miss_every and self.polls % self.miss_every == 0)

    def user_bytes(self) -> bytes:
        """The user memory (page 4 to the last user page)."""
        return bytes(self.memory[16 : (self.last_user_page + 1) * 4])

    def write_user(self, data: bytes) -> None:
        """Write bytes into user memory from page 4 (for setting up tests)."""
        if len(data) > (self.last_user_page - 3) * 4:
            raise ValueError(f"record of {len(data)} bytes does not fit {self.kind}")
        self.memory[16 : 16 + len(data)] = data

    def command(self, cmd: bytes) -> tuple[int, bytes, int]:
        """Run one NTAG command; return (status, answer bytes, modeled microseconds)."""
        if self.idle:
            return ST_TIMEOUT, b"", TIMING_US["activation_try"]
        if not cmd:
            return self._nak() + (TIMING_US["frame"],)
        op = cmd[0]
        if op == 0x30 and len(cmd) == 2:
            return self._read(cmd[1]) + (TIMING_US["ntag_read"],)
        if op == 0xA2 and len(cmd) == 6:
            return self._write(cmd[1], bytes(cmd[2:6])) + (TIMING_US["ntag_write"],)
        if op == 0x1B and len(cmd) == 5:
            return self._pwd_auth(bytes(cmd[1:5])) + (TIMING_US["ntag_read"],)
        if op == 0x3C and len(cmd) == 2:
            return ST_OK, self.signature, TIMING_US["ntag_sig"]
        if op == 0x60 and len(cmd) == 1:
            version = bytes([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, self.size_byte, 0x03])
            return ST_OK, version, TIMING_US["ntag_read"]
        return self._nak() + (TIMING_US["frame"],)


class PN532:
    """The controller: frame parser, command set, antenna field, reset pin, timing model."""

    late_ms = 0  # set on a chip to make it answer late (a class default: one less slot each)
    ack_late_ms = 0  # the ACK's ready bit this late (with a clock)
    preamble = 1  # 00 bytes before the start code 00 FF of every frame sent
    postamble = 1  # 00 bytes after the data checksum

    def __init__(self, clock: "Callable[[], int] | None" = None) -> None:
        self.clock = clock
        self.tag = None
        self.model_us = 0
        self.commands = 0
        self._reset_state()

    def _reset_state(self):
        self.hung = False
        self.sam_configured = False
        self.max_retries_activation = 0xFF
        self.active = False  # a target is activated (Tg 1)
        self.out = []  # frames waiting to be read, in order
        self.last_answer = None
        self.ready_at = 0
        self.ack_at = 0
        self.in_reset = False

    # -- the physical world --------------------------------------------------------------
    def place(self, tag: Tag) -> None:
        """Put a tag on the antenna (replacing any)."""
        self.remove()
        self.tag = tag
        tag.new_session()

    def remove(self) -> None:
        """Take the tag off the antenna (it loses power: its session ends)."""
        if self.tag is not None:
            self.tag.new_session()
        self.tag = None
        self.active = False

    def hang(self) -> None:
        """Stop answering (no ACK, never ready) until the reset pin is pulsed."""
        self.hung = True
        self.out = []

    def set_reset(self, level: int) -> None:
        """Drive RSTPDN: low holds the chip in reset; the rising edge boots it afresh."""
        if not level:
            self.in_reset = True
            self.out = []
        elif self.in_reset:
            self._reset_state()

    # -- frames --------------------------------------------------------------------------
    def _now(self):
        return self.clock() if self.clock else 0

    def ready(self) -> bool:
        """True when a frame waits to be read (the status byte's ready bit)."""
        if self.hung or self.in_reset or not self.out:
            return False
        if self.clock and self.out[0] is ACK:
            return self._now() >= self.ack_at
        if len(self.out) == 1 and self.clock:
            return self._now() >= self.ready_at
        return True

    def pop_frame(self) -> bytes:
        """Take the next pending frame (or b"" when none is ready), with the preamble and
        postamble this chip sends."""
        if not self.ready():
            return b""
        frame = self.out.pop(0)
        if self.preamble != 1 or self.postamble != 1:
            frame = bytes(self.preamble - 1) + frame[:-1] + bytes(self.postamble)
        return frame

    def receive(self, data: bytes) -> None:
        """Handle one complete frame written by the host (SPI/I2C: one write transaction)."""
        if self.hung or self.in_reset:
            return
        data = bytes(data)
        start = data.find(b"\x00\xff")
        if start < 0:
            return
        data = data[start + 2 :]
        if data[:3] == b"\x00\xff\x00" or data[:2] == b"\x00\xff":
            self.out = []  # host ACK: abort the command in progress
            return
        if data[:2] == b"\xff\x00":
            if self.last_answer:
                self.out = [self.last_answer]
            return
        if len(data) < 3:
            return
        n, lcs = data[0], data[1]
        if (n + lcs) & 0xFF or len(data) < n + 3:
            return  # bad length checksum or truncated: ignored, no ACK
        body = data[2 : 2 + n]
        if sum(body) + data[2 + n] & 0xFF:
            return  # bad data checksum: ignored, no ACK
        self.commands += 1
        self.out = [ACK]
        self.ack_at = self._now() + self.ack_late_ms * 1000
        if body[0] != 0xD4 or n < 2:
            self._answer(ERROR_FRAME, TIMING_US["frame"])
            return
        result = self._command(body[1], body[2:])
        if result is None:
            return  # retrying forever: never answers
        answer, busy = result
        self._answer(answer, busy)

    def _answer(self, frame, busy_us):
        self.model_us += busy_us
        self.ready_at = self._now() + busy_us + self.late_ms * 1000
        self.last_answer = frame
        self.out.append(frame)

    def _command(self, code, args):
        reply = code + 1
        if code == 0x02:
            return build_frame(0xD5, bytes([reply]) + FIRMWARE), TIMING_US["frame"]
        if code == 0x14 and 1 <= len(args) <= 3 and 1 <= args[0] <= 4:
            self.sam_configured = True
            return build_frame(0xD5, bytes([reply])), TIMING_US["frame"]
        if code == 0x32 and len(args) >= 2:
            if args[0] == 0x05:
                if len(args) != 4:
                    return ERROR_FRAME, TIMING_US["frame"]
                self.max_retries_activation = args[3]
            return build_frame(0xD5, bytes([reply])), TIMING_US["frame"]
        if code == 0x4A and len(args) >= 2 and args[0] in (1, 2):
            return self._list_passive(reply, args[1], bytes(args[2:]))
        if code == 0x40 and len(args) >= 2:
            return self._data_exchange(reply, args[0], args[1:])
        if code == 0x42 and args:
            return self._exchange(reply, args)
        if code == 0x52 and len(args) == 1:
            self.active = False
            if self.tag is not None:
                self.tag.new_session()
            return build_frame(0xD5, bytes([reply, ST_OK])), TIMING_US["frame"]
        return ERROR_FRAME, TIMING_US["frame"]

    def _list_passive(self, reply, baud, uid):
        self.active = False
        tag = self.tag
        found = baud == 0x00 and tag is not None and tag.answers_poll()
        found = found and tag.uid[: len(uid)] == uid
        if tag is not None:
            tag.new_session()  # a new selection (or the tag is not selected at all)
        if found:
            self.active = True
            target = tag.sens_res() + b"\x00" + bytes([len(tag.uid)]) + tag.uid
            data = bytes([reply, 1, 1]) + target
            return build_frame(0xD5, data), TIMING_US["activation_ok"]
        if self.max_retries_activation == 0xFF:
            return None
        tries = self.max_retries_activation + 1
        return build_frame(0xD5, bytes([reply, 0])), tries * TIMING_US["activation_try"]

    def _data_exchange(self, reply, target, cmd):
        if target != 1:
            return build_frame(0xD5, bytes([reply, ST_CONTEXT])), TIMING_US["frame"]
        if cmd[0] in MIFARE_AUTH and self.active and self.tag is not None:
            self.tag.idle = True  # the tag got a garbled command: back to IDLE
            return build_frame(0xD5, bytes([reply, ST_MIFARE_AUTH])), TIMING_US["frame"]
        return self._exchange(reply, cmd)

    def _exchange(self, reply, cmd):
        """The tag command ``cmd`` to the activated target, as it is."""
        if not self.active:
            return build_frame(0xD5, bytes([reply, ST_CONTEXT])), TIMING_US["frame"]
        if self.tag is None:
            self.active = False
            return build_frame(0xD5, bytes([reply, ST_TIMEOUT])), TIMING_US["activation_try"]
        status, out, busy = self.tag.command(cmd)
        return build_frame(0xD5, bytes([reply, status]) + out), busy


def _reverse_bits(b):
    r = 0
    for _ in range(8):
        r = (r << 1) | (b & 1)
        b >>= 1
    return r


REVERSED = bytes(_reverse_bits(i) for i in range(256))


class SPIPort:
    """The PN532's SPI interface as seen on the wire, one chip select."""

    def __init__(self, chip: PN532, hz: int = 1000000) -> None:
        self.chip = chip
        self.byte_us = 8000000 // hz
        self.selected = False
        self._op = None
        self._frame = bytearray()
        self._reading = None
        self._read_pos = 0

    def select(self) -> None:
        self.selected = True
        self._op = None
        self._frame = bytearray()
        self._reading = None

    def deselect(self) -> None:
        if self.selected and self._op == 0x01 and self._frame:
            self.chip.receive(bytes(self._frame))
        self.selected = False
        self._op = None

    def transfer(self, tx: bytes, msb_first: bool = True) -> bytes:
        """Clock len(tx) bytes both ways; return what MISO carried."""
        if not self.selected:
            raise RuntimeError("SPI transfer with chip select high")
        rx = bytearray(len(tx))
        self.chip.model_us += len(tx) * self.byte_us
        for i in range(len(tx)):
            b = REVERSED[tx[i]] if msb_first else tx[i]
            out = self._clock(b)
            rx[i] = REVERSED[out] if msb_first else out
        return bytes(rx)

    def _clock(self, b):
        chip = self.chip
        if chip.hung or chip.in_reset:
            return 0x00
        if self._op is None:
            self._op = b
            return 0x00
        if self._op == 0x02:
            return 0x01 if chip.ready() else 0x00
        if self._op == 0x01:
            self._frame.append(b)
            return 0x00
        if self._op == 0x03:
            if self._reading is None:
                self._reading = chip.pop_frame()
                self._read_pos = 0
            if self._read_pos < len(self._reading):
                self._read_pos += 1
                return self._reading[self._read_pos - 1]
            return 0x00
        return 0x00


class I2CPort:
    """The PN532's I2C interface (address 0x24): reads start with the ready byte."""

    ADDRESS = 0x24

    def __init__(self, chip: PN532, hz: int = 400000) -> None:
        self.chip = chip
        self.byte_us = 9000000 // hz

    def write(self, data: bytes) -> None:
        self.chip.model_us += (len(data) + 1) * self.byte_us
        if self.chip.hung or self.chip.in_reset:
            raise OSError(19)  # ENODEV: no ACK on the bus
        self.chip.receive(bytes(data))

    def read(self, n: int) -> bytes:
        self.chip.model_us += (n + 1) * self.byte_us
        chip = self.chip
        if chip.hung or chip.in_reset:
            raise OSError(19)
        if not chip.ready():
            return bytes(n)
        if n == 1:
            return b"\x01"  # a status-only read leaves the frame in place
        frame = chip.pop_frame()
        out = (b"\x01" + frame)[:n]
        return out + bytes(n - len(out))


class UARTPort:
    """The PN532's high-speed UART: a byte stream both ways, wake-up preamble tolerated."""

    def __init__(self, chip: PN532, baud: int = 115200) -> None:
        self.chip = chip
        self.byte_us = 10000000 // baud
        self._rx = bytearray()  # bytes from the host not yet parsed
        self._tx = bytearray()  # bytes for the host

    def write(self, data: bytes) -> int:
        self.chip.model_us += len(data) * self.byte_us
        self._rx.extend(data)
        self._parse()
        return len(data)

    def _parse(self):
        while True:
            i = self._rx.find(b"\x00\x00\xff")
            if i < 0:
                keep = 2 if len(self._rx) >= 2 else len(self._rx)
                self._rx = self._rx[len(self._rx) - keep :]
                return
            rest = self._rx[i + 3 :]
            if len(rest) < 2:
                return
            if rest[0] == 0x00 and rest[1] == 0xFF or rest[0] == 0xFF and rest[1] == 0x00:
                if len(rest) < 3:
                    return
                frame = bytes(self._rx[i : i + 6])
                self._rx = self._rx[i + 6 :]
            else:
                end = i + 3 + 2 + rest[0] + 2
                if len(self._rx) < end:
                    if (rest[0] + rest[1]) & 0xFF:
                        self._rx = self._rx[i + 3 :]  # bad LCS: drop, resync
                        continue
                    return
                frame = bytes(self._rx[i:end])
                self._rx = self._rx[end:]
            self.chip.receive(frame)

    def _pull(self):
        while self.chip.ready():
            self._tx.extend(self.chip.pop_frame())

    @property
    def in_waiting(self) -> int:
        """Bytes ready for the host (pyserial's name)."""
        self._pull()
        return len(self._tx)

    def any(self) -> int:
        """Bytes ready for the host (machine.UART's name)."""
        return self.in_waiting

    def read(self, n: int) -> bytes:
        self._pull()
        out = bytes(self._tx[:n])
        self._tx = self._tx[n:]
        return out

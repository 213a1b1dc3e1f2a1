"""PN532 driver: frames, ACK/NACK/error handling, resends, time-outs, reset-pin recovery.

Imports compat, and for a reader's bring-up (``begin``, ``recover``) pn532boot.py, dropped
again once it is over: a scanning board holds none of that code. The bus comes in as a
transport object (pn532_spi.SPITransport, pn532_i2c.I2CTransport, pn532_uart.UARTTransport:
one small module per bus, so a board loads only its own) built from machine.SPI/I2C/UART-like
objects, so the driver runs unchanged on a board, on the unix port and in the host's
simulator.
Every wait is an ``await``: a reader never blocks the event loop. Every command has one
deadline (``timeout_ms``, the whole call: ACK, resends and answer), so a chip that answers
late or never costs its caller that much and no more (stock drivers block 1-6 s in a detect
call on some boards). Where the chip's IRQ line is wired (``irq``: a Pin, low = a frame is
ready), the driver asks the bus only once the line is low, so a busy chip costs no bus
traffic; elsewhere it asks the bus's ready flag once a millisecond.

Transport interface: ``wakeup()``, ``write(frame)``, ``ready() -> bool``,
``read_frame(max_len) -> bytes`` (one whole frame, preamble included).

Frames are read as chips send them, not only as UM0701-02 6.2.1.1 draws them (one preamble
byte 00, start code 00 FF, one postamble byte): every 00 before the start code's FF is
preamble (chips send more after a wake-up and on I2C, as Adafruit's adafruit_pn532
``_read_frame`` allows), and the postamble is not needed.
"""

from compat import borrowed, const, sleep_ms, ticks_diff, ticks_ms

_ACK = const(b"\x00\x00\xff\x00\xff\x00")
_NACK = const(b"\x00\x00\xff\xff\x00\x00")
_ERROR_BODY = const(b"\x01\xff\x7f\x81")  # the error frame after its start code: LEN LCS TFI DCS

_CMD_DATA_EXCHANGE = const(0x40)
_CMD_LIST_PASSIVE = const(0x4A)

_NTAG_READ = const(0x30)


class PN532Error(Exception):
    """The reader answered, but not with what was asked (error frame, bad checksum)."""


class PN532Timeout(PN532Error):
    """The reader did not ACK or did not answer in time."""


class TagError(PN532Error):
    """The tag refused or did not answer an InDataExchange: ``args[0]`` is the PN532 status
    byte (01 time-out, 02 CRC error, 14 NAK ...)."""


def build_frame(data):
    """A host->PN532 normal information frame (TFI D4) around command bytes."""
    n = len(data) + 1
    total = 0xD4 + sum(data)
    return b"\x00\x00\xff" + bytes([n, (-n) & 0xFF, 0xD4]) + data + bytes([(-total) & 0xFF, 0])


def body(frame):
    """Where a frame's LEN byte is: after any number of preamble 00s and the start code
    00 FF; -1 when there is no start code."""
    i = 0
    end = len(frame)
    while i < end and frame[i] == 0:
        i += 1
    return i + 1 if 0 < i < end and frame[i] == 0xFF else -1


def is_ack(frame):
    i = body(frame)
    return i > 0 and frame[i : i + 2] == b"\x00\xff"


def is_error(frame):
    """The PN532's error frame (a syntax error in the command it was sent)."""
    i = body(frame)
    return i > 0 and frame[i : i + 4] == _ERROR_BODY


def parse_frame(frame):
    """Return the data after TFI D5 of an answer frame; PN532Error if it is not one whole
    good frame (start code, length and its checksum, TFI, data checksum)."""
    i = body(frame)
    n = frame[i] if 0 < i < len(frame) - 3 else 0
    if (not n or (n + frame[i + 1]) & 0xFF or len(frame) < i + n + 3
            or (sum(frame[i + 2 : i + 3 + n])) & 0xFF or frame[i + 2] != 0xD5):
        raise PN532Error("bad answer frame %r" % frame)
    return frame[i + 3 : i + 2 + n]


class PN532:
    """One reader: commands as coroutines, with resend on a missing ACK and recovery."""

    ACK_TIMEOUT_MS = 15
    TRIES = 3
    TIMEOUT_MS = 50  # a command's whole deadline by default: one pad's scan budget (I2C: 3 x 14 ms)
    irq = None  # callable() -> level of P70_IRQ (0 = frame ready) where the line is wired

    MAX_RETRIES = 1  # passive activation retries: an empty pad answers "no tag" at once

    def __init__(self, transport, reset=None, irq=None):
        self.t = transport
        self.reset_pin = reset  # callable(level) driving RSTPDN, or None
        if irq is not None:
            self.irq = irq
        self.errors = 0
        self.resets = 0
        self.firmware = None

    async def _wait_ready(self, ms):
        start = ticks_ms()
        irq = self.irq
        # IRQ high: nothing to read, the bus is left alone
        while (irq is not None and irq()) or not self.t.ready():
            if ticks_diff(ticks_ms(), start) >= ms:
                return False
            await sleep_ms(1)
        return True

    def _write(self, frame):
        try:
            self.t.write(frame)
            return True
        except OSError:  # I2C address not ACKed: chip in reset or hung
            return False

    def _read(self, max_len):
        try:
            return self.t.read_frame(max_len)
        except OSError:
            return b""

    async def call(self, code, args=b"", timeout_ms=None, max_len=48):
        """Send a command, wait for ACK then the answer; return the answer data after code.

        The whole call ends within ``timeout_ms`` (PN532Timeout, the command aborted)."""
        frame = build_frame(bytes([code]) + args)
        start = ticks_ms()
        budget = timeout_ms or self.TIMEOUT_MS
        for _ in range(self.TRIES):
            left = budget - ticks_diff(ticks_ms(), start)
            if left <= 0:
                break
            if not self._write(frame) or not await self._wait_ready(min(left, self.ACK_TIMEOUT_MS)):
                continue  # no ACK: send again
            if not is_ack(self._read(6)):
                continue
            for _ in range(self.TRIES):
                left = budget - ticks_diff(ticks_ms(), start)
                if left <= 0 or not await self._wait_ready(left):
                    self._write(_ACK)  # abort the command in progress
                    self.errors += 1
                    raise PN532Timeout("PN532 command 0x%02x: no answer in %d ms" % (code, budget))
                frame = self._read(max_len)
                if is_error(frame):
                    self.errors += 1
                    raise PN532Error("PN532 error frame (syntax error) for command 0x%02x" % code)
                try:
                    data = parse_frame(frame)
                except PN532Error:
                    self.errors += 1
                    self._write(_NACK)  # ask for the answer again
                    continue
                if not data or data[0] != code + 1:
                    self.errors += 1
                    raise PN532Error("wrong answer %r to command 0x%02x" % (data, code))
                return data[1:]
            raise PN532Error("PN532 command 0x%02x: answer corrupt %d times" % (code, self.TRIES))
        self.errors += 1
        raise PN532Timeout("PN532 command 0x%02x: no ACK in %d ms" % (code, budget))

    def begin(self):
        """Reset (if wired), wake, check the firmware, configure SAM and bounded retries
        (a coroutine; pn532boot.py, loaded for the call and dropped again)."""
        return borrowed("pn532boot").setup(self, True)  # boot only: not kept in RAM

    def recover(self):
        """Bring a hung or confused reader back (a coroutine): with a reset pin, a reset pulse
        and the whole of ``begin``; without one, a wake-up and SAM configuration."""
        return borrowed("pn532boot").setup(self, self.reset_pin is not None)

    async def poll(self, timeout_ms=None, uid=b""):
        """One InListPassiveTarget (MaxTg 1) for a 106 kbps type A tag: its UID, or None.

        With ``uid``, only the tag with that UID is selected (whatever else lies in the
        field): it answers with its UID if it is still there."""
        data = await self.call(_CMD_LIST_PASSIVE, b"\x01\x00" + uid, timeout_ms=timeout_ms)
        if not data or data[0] == 0:
            return None
        # NbTg, Tg, SENS_RES(2), SEL_RES, NFCIDLength, NFCID1
        n = data[5] if len(data) > 5 else 0
        found = data[6 : 6 + n]
        if len(found) != n or n not in (4, 7, 10):
            raise PN532Error("malformed target data")
        return found

    async def exchange(self, cmd, max_len=48, timeout_ms=None):
        """InDataExchange with target 1: the tag's answer; TagError with its status."""
        data = await self.call(_CMD_DATA_EXCHANGE, b"\x01" + cmd, timeout_ms=timeout_ms,
                               max_len=max_len)
        if not data or data[0] != 0:
            raise TagError(data[0] if data else 0xFF)
        return data[1:]

    async def read16(self, page, timeout_ms=None):
        """NTAG READ: 16 bytes (4 pages) from page, all kept."""
        data = await self.exchange(bytes([_NTAG_READ, page]), timeout_ms=timeout_ms)
        if len(data) != 16:
            raise PN532Error("NTAG READ returned %d bytes, not 16" % len(data))
        return data


"""PN532 driver: frames, ACK/NACK/error handling, resends, time-outs, reset-pin recovery.

Imports compat only. The bus comes in as a transport object (pn532_spi.SPITransport,
pn532_i2c.I2CTransport, pn532_uart.UARTTransport: one small module per bus, so a board
loads only its own) built from machine.SPI/I2C/UART-like objects, so the driver runs
unchanged on a board, on the unix port and in the host's simulator.
Every wait is an ``await``: a reader never blocks the event loop.

Transport interface: ``wakeup()``, ``write(frame)``, ``ready() -> bool``,
``read_frame(max_len) -> bytes`` (one whole frame, preamble included).
"""

from compat import sleep_ms, ticks_diff, ticks_ms

ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"

CMD_FIRMWARE = 0x02
CMD_SAM = 0x14
CMD_RF_CONFIG = 0x32
CMD_DATA_EXCHANGE = 0x40
CMD_LIST_PASSIVE = 0x4A
CMD_RELEASE = 0x52

NTAG_READ = 0x30
NTAG_WRITE = 0xA2
NTAG_READ_SIG = 0x3C


class PN532Error(Exception):
    """The reader answered, but not with what was asked (error frame, bad checksum)."""


class PN532Timeout(PN532Error):
    """The reader did not ACK or did not answer in time."""


class TagError(PN532Error):
    """The tag refused or did not answer an InDataExchange (status byte in .status)."""

    def __init__(self, status):
        super().__init__("tag exchange failed, PN532 status 0x%02x" % status)
        self.status = status


def build_frame(data):
    """A host->PN532 normal information frame (TFI D4) around command bytes."""
    n = len(data) + 1
    total = 0xD4 + sum(data)
    return b"\x00\x00\xff" + bytes([n, (-n) & 0xFF, 0xD4]) + data + bytes([(-total) & 0xFF, 0])


def parse_frame(frame):
    """Return b"ACK", b"NACK" or the data after TFI D5; PN532Error if malformed."""
    if frame == ACK:
        return b"ACK"
    if frame == NACK:
        return b"NACK"
    if len(frame) < 7 or frame[0:3] != b"\x00\x00\xff":
        raise PN532Error("no frame preamble in %r" % frame)
    n = frame[3]
    if (n + frame[4]) & 0xFF or len(frame) < n + 6:
        raise PN532Error("bad frame length checksum")
    body = frame[5 : 5 + n]
    if (sum(body) + frame[5 + n]) & 0xFF:
        raise PN532Error("bad frame data checksum")
    if body[0] != 0xD5:
        raise PN532Error("frame TFI 0x%02x is not D5" % body[0])
    return body[1:]


class PN532:
    """One reader: commands as coroutines, with resend on a missing ACK and recovery."""

    ACK_TIMEOUT_MS = 15
    TRIES = 3

    def __init__(self, transport, reset=None, max_retries=1):
        self.t = transport
        self.reset_pin = reset  # callable(level) driving RSTPDN, or None
        self.max_retries = max_retries
        self.errors = 0
        self.resets = 0
        self.firmware = None

    async def _wait_ready(self, ms):
        start = ticks_ms()
        while not self.t.ready():
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

    async def call(self, code, args=b"", timeout_ms=100, max_len=48):
        """Send a command, wait for ACK then the answer; return the answer data after code."""
        frame = build_frame(bytes([code]) + args)
        for _ in range(self.TRIES):
            if not self._write(frame) or not await self._wait_ready(self.ACK_TIMEOUT_MS):
                continue  # no ACK: send again
            if self._read(6) != ACK:
                continue
            for _ in range(self.TRIES):
                if not await self._wait_ready(timeout_ms):
                    self._write(ACK)  # abort the command in progress
                    self.errors += 1
                    raise PN532Timeout("PN532 command 0x%02x: no answer" % code)
                frame = self._read(max_len)
                if frame[:8] == ERROR_FRAME:
                    self.errors += 1
                    raise PN532Error("PN532 error frame (syntax error) for command 0x%02x" % code)
                try:
                    data = parse_frame(frame)
                except PN532Error:
                    self.errors += 1
                    self._write(NACK)  # ask for the answer again
                    continue
                if not data or data[0] != code + 1:
                    self.errors += 1
                    raise PN532Error("wrong answer %r to command 0x%02x" % (data, code))
                return data[1:]
            raise PN532Error("PN532 command 0x%02x: answer corrupt %d times" % (code, self.TRIES))
        self.errors += 1
        raise PN532Timeout("PN532 command 0x%02x: no ACK after %d tries" % (code, self.TRIES))

    async def begin(self):
        """Reset (if wired), wake, check the firmware, configure SAM and bounded retries."""
        if self.reset_pin is not None:
            await self.hard_reset()
        self.t.wakeup()
        data = await self.call(CMD_FIRMWARE)
        if len(data) != 4 or data[0] != 0x32:
            raise PN532Error("not a PN532: firmware answer %r" % data)
        self.firmware = "%d.%d" % (data[1], data[2])
        await self.call(CMD_SAM, b"\x01\x14\x01")
        await self.call(CMD_RF_CONFIG, bytes([0x05, 0xFF, 0x01, self.max_retries]))

    async def hard_reset(self):
        """Pulse RSTPDN low then high and let the chip boot."""
        if self.reset_pin is None:
            raise PN532Error("reader has no reset pin wired")
        self.resets += 1
        self.reset_pin(0)
        await sleep_ms(2)
        self.reset_pin(1)
        await sleep_ms(10)

    async def recover(self):
        """Bring a hung or confused reader back: reset pulse and full configuration."""
        if self.reset_pin is None:
            self.t.wakeup()
            await self.call(CMD_SAM, b"\x01\x14\x01")
            return
        await self.begin()

    async def poll(self):
        """One InListPassiveTarget for a 106 kbps type A tag: its UID, or None."""
        data = await self.call(CMD_LIST_PASSIVE, b"\x01\x00")
        if not data or data[0] == 0:
            return None
        # Tg, SENS_RES(2), SEL_RES, NFCIDLength, NFCID1
        n = data[5]
        uid = data[6 : 6 + n]
        if len(uid) != n or n not in (4, 7, 10):
            raise PN532Error("malformed target data")
        return uid

    async def exchange(self, cmd, max_len=48):
        data = await self.call(CMD_DATA_EXCHANGE, b"\x01" + cmd, max_len=max_len)
        if data[0] != 0:
            raise TagError(data[0])
        return data[1:]

    async def read16(self, page):
        """NTAG READ: 16 bytes (4 pages) from page, all kept."""
        data = await self.exchange(bytes([NTAG_READ, page]))
        if len(data) != 16:
            raise PN532Error("NTAG READ returned %d bytes, not 16" % len(data))
        return data

    async def write_page(self, page, data):
        """NTAG WRITE of one 4-byte page."""
        if len(data) != 4:
            raise ValueError("an NTAG page is 4 bytes, got %d" % len(data))
        await self.exchange(bytes([NTAG_WRITE, page]) + data)

    async def read_signature(self):
        """NTAG READ_SIG: the 32-byte originality signature."""
        return await self.exchange(bytes([NTAG_READ_SIG, 0x00]), max_len=64)

    async def release(self):
        """InRelease of target 1."""
        await self.call(CMD_RELEASE, b"\x01")

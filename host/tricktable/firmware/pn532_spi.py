"""PN532 over SPI: mode 0, least significant bit first, one chip select per reader.

Imports nothing. Several readers share one bus, each with its own chip-select Pin. Ports
whose SPI cannot shift LSB first (RP2040) flip every byte through a 256-entry table. A frame
is clocked out in one transaction: zeros are read on until the start code's FF (chips send
more than UM0701-02's one preamble byte; pn532.py), then its length says how much follows.
"""

PREAMBLE_MAX = 8  # zeros read before a frame's start code is given up for (not ready)

def _reverse(b):
    r = 0
    for _ in range(8):
        r = (r << 1) | (b & 1)
        b >>= 1
    return r


# For SPI ports that can only shift MSB first (RP2040): the PN532 wants LSB first.
LSB_TABLE = bytes(_reverse(i) for i in range(256))


class SPITransport:
    """PN532 SPI (mode 0, LSB first): op byte 02 status, 01 data write, 03 data read."""

    def __init__(self, spi, cs, lsb_first_in_hardware=False):
        self.spi = spi
        self.cs = cs
        self.flip = not lsb_first_in_hardware
        cs(1)

    def _xfer(self, data):
        if self.flip:
            data = bytes(LSB_TABLE[b] for b in data)
        rx = bytearray(len(data))
        self.spi.write_readinto(data, rx)
        if self.flip:
            return bytes(LSB_TABLE[b] for b in rx)
        return bytes(rx)

    def wakeup(self):
        self.cs(0)
        self._xfer(b"\x00")
        self.cs(1)

    def write(self, frame):
        self.cs(0)
        self._xfer(b"\x01" + frame)
        self.cs(1)

    def ready(self):
        self.cs(0)
        status = self._xfer(b"\x02\x00")[1]
        self.cs(1)
        return status & 1 == 1

    def read_frame(self, max_len):
        self.cs(0)
        try:
            head = self._xfer(b"\x03\x00\x00\x00\x00\x00")[1:]  # 00 00 FF LEN LCS, as drawn
            zeros = _zeros(head)
            while zeros == len(head) and zeros < PREAMBLE_MAX:  # more preamble: read on
                head += self._xfer(b"\x00")
                zeros = _zeros(head)
            short = zeros + 3 - len(head)  # FF, LEN and LCS not read yet
            if short > 0:
                head += self._xfer(bytes(short))
            n = head[zeros + 1]
            if n == 0x00 or n == 0xFF:
                rest = self._xfer(b"\x00")  # ACK or NACK: one postamble byte
            else:
                rest = self._xfer(bytes(min(n + 2, max_len)))
        finally:
            self.cs(1)
        return head + rest


def _zeros(data):
    i = 0
    while i < len(data) and data[i] == 0:
        i += 1
    return i

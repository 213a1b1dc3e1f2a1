"""PN532 over SPI: mode 0, least significant bit first, one chip select per reader.

Imports nothing. Several readers share one bus, each with its own chip-select Pin. Ports
whose SPI cannot shift LSB first (RP2040) flip every byte through a 256-entry table.
"""

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
            head = self._xfer(b"\x03\x00\x00\x00\x00\x00")[1:]
            n = head[3]
            if n == 0x00 or n == 0xFF:
                rest = self._xfer(b"\x00")  # ACK or NACK: one postamble byte
            else:
                rest = self._xfer(bytes(min(n + 2, max_len)))
        finally:
            self.cs(1)
        return head + rest

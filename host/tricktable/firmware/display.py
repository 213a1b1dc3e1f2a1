"""Score display drivers: MAX7219 8-digit 7-segment (SPI) and SSD1306 128x64 OLED (I2C).

Imports framebuf (SSD1306 only, at construction) and nothing else of ours; the buses come
from the hardware layer. Both take the table's retained display message with ``show(msg)``:
``text8`` (8 characters) for the 7-segment, ``lines`` (up to 4 x 16 characters) for the
OLED. A bad message raises ValueError and leaves the display as it was. ``brightness(level)``
sets 0 (dimmest, still lit) .. 15 (brightest), the host's BoardConfig ``brightness``.
"""

# 7-segment patterns, bit order DP A B C D E F G (MAX7219 no-decode mode).
SEGMENTS = {
    "0": 0x7E, "1": 0x30, "2": 0x6D, "3": 0x79, "4": 0x33, "5": 0x5B, "6": 0x5F, "7": 0x70,
    "8": 0x7F, "9": 0x7B, "A": 0x77, "B": 0x1F, "C": 0x4E, "D": 0x3D, "E": 0x4F, "F": 0x47,
    "G": 0x5E, "H": 0x37, "I": 0x06, "J": 0x3C, "L": 0x0E, "N": 0x15, "O": 0x1D, "P": 0x67,
    "R": 0x05, "S": 0x5B, "T": 0x0F, "U": 0x3E, "Y": 0x3B, "-": 0x01, "_": 0x08, " ": 0x00,
    # letters a 7-segment cannot draw well, shown as their nearest shape
    "K": 0x37, "M": 0x76, "Q": 0x73, "V": 0x3E, "W": 0x3E, "X": 0x37, "Z": 0x6D,
}


def text8_check(msg):
    text = msg.get("text8")
    if not isinstance(text, str):
        raise ValueError("display message needs text8 (a string)")
    return text


def segments(text):
    """Eight MAX7219 digit bytes, leftmost first; '.' lights the previous digit's point."""
    out = []
    for ch in text.upper():
        if ch == "." and out:
            out[-1] |= 0x80
            continue
        if ch not in SEGMENTS:
            raise ValueError("character %r cannot be shown on 7 segments" % ch)
        out.append(SEGMENTS[ch])
    if len(out) > 8:
        raise ValueError("text8 %r is longer than 8 digits" % text)
    return bytes(out + [0] * (8 - len(out)))


class MAX7219:
    """One MAX7219 driving 8 digits, digit register 8 is the leftmost."""

    def __init__(self, spi, cs, intensity=4):
        self.spi = spi
        self.cs = cs
        cs(1)
        for reg, value in ((0x0F, 0), (0x09, 0), (0x0B, 7), (0x0A, intensity), (0x0C, 1)):
            self._write(reg, value)
        self.digits = bytes(8)

    def _write(self, reg, value):
        self.cs(0)
        self.spi.write(bytes([reg, value]))
        self.cs(1)

    def show(self, msg):
        digits = segments(text8_check(msg))
        for i in range(8):
            self._write(8 - i, digits[i])
        self.digits = digits

    def brightness(self, level):
        self._write(0x0A, level)  # intensity register, 16 steps


class SSD1306:
    """SSD1306 128x64 over I2C, four 16-character lines in the 8x8 font, double-spaced."""

    WIDTH = 128
    HEIGHT = 64
    INIT = (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0x00, 0xDA, 0x12, 0xD5, 0x80,
            0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF)

    def __init__(self, i2c, address=0x3C):
        import framebuf

        self.i2c = i2c
        self.address = address
        self.buffer = bytearray(self.WIDTH * self.HEIGHT // 8)
        self.fb = framebuf.FrameBuffer(self.buffer, self.WIDTH, self.HEIGHT, framebuf.MONO_VLSB)
        for c in self.INIT:
            self._cmd(c)
        self.lines = []

    def _cmd(self, c):
        self.i2c.writeto(self.address, bytes([0x80, c]))

    def brightness(self, level):
        self._cmd(0x81)  # contrast, 0..255
        self._cmd(level * 17)

    def show(self, msg):
        lines = msg.get("lines")
        if lines is None:
            lines = [text8_check(msg)]
        if not isinstance(lines, list) or len(lines) > 4:
            raise ValueError("display lines must be a list of at most 4 strings")
        for line in lines:
            if not isinstance(line, str) or len(line) > 16:
                raise ValueError("display line %r is not a string of at most 16 chars" % line)
        self.fb.fill(0)
        for i in range(len(lines)):
            self.fb.text(lines[i], 0, i * 16, 1)
        for c in (0x21, 0, self.WIDTH - 1, 0x22, 0, self.HEIGHT // 8 - 1):
            self._cmd(c)
        self.i2c.writevto(self.address, (b"\x40", self.buffer))  # no 1 KB copy
        self.lines = lines

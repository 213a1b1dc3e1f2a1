"""A display board for the config cases and config_run.py: LinkBoard plus a NeoPixel strip
and a MAX7219 score display on recording stand-ins (kept out of casekit, whose size every
96k link test pays).
"""

from casekit import LinkBoard


class Strip:
    """NeoPixel's interface: what was last written out is ``shown``."""

    def __init__(self, n):
        self.n = n
        self.pixels = [(0, 0, 0)] * n
        self.shown = list(self.pixels)

    def __setitem__(self, i, rgb):
        self.pixels[i] = rgb

    def write(self):
        self.shown = list(self.pixels)


class SPIWires:
    """A MAX7219 on an SPI bus: every register write (a chip-select cycle) is recorded."""

    def __init__(self):
        self.transactions = []

    def write(self, data):
        self.transactions.append(bytes(data))

    def cs(self, level):
        pass


def config_board(chips):
    """A LinkBoard with a NeoPixel per pad and a MAX7219 score display."""
    from display import MAX7219

    board = LinkBoard(chips)
    board.pixels = Strip(len(chips))
    spi = SPIWires()
    board.display = MAX7219(spi, spi.cs)
    return board, spi

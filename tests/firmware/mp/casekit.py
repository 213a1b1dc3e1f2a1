"""Small helpers shared by the firmware cases (MicroPython and CPython alike).

A case is a function ``case_<rule>(tmp)`` (plain or async) in a ``cases_*`` module; it
raises AssertionError when the rule is broken and returns "skip: why" when it cannot run
on this interpreter. ``reader(bus)`` builds one emulated PN532 wired to a firmware driver
through the virtual machine module; ``LinkBoard`` is the lightest whole pad board (readers
on emulator UART ports, nothing else), so a 96k heap holds the firmware, not the harness.
"""

import sys

import pn532_emulator as E
from pn532 import PN532

UID7 = b"\x04\x11\x22\x33\x44\x55\x66"
UID4 = b"\xde\xad\xbe\xef"
BUSES = ("spi", "i2c", "uart")


def waiting(box):
    """How many events an Outbox holds for the host's ack: its window and those on flash."""
    return len(box.pending) + box.queued


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def reader(bus="spi", lsb_first_in_hardware=False, chip=None):
    """(chip, driver) on a fresh virtual bus, reset pin wired (a new emulated chip, or
    ``chip``)."""
    import virtual
    from pn532_i2c import I2CTransport
    from pn532_spi import SPITransport
    from pn532_uart import UARTTransport

    virtual.unwire()
    chip = chip or E.PN532()
    if bus == "spi":
        virtual.wire_spi(0, 5, E.SPIPort(chip))
        firstbit = virtual.SPI.LSB if lsb_first_in_hardware else virtual.SPI.MSB
        spi = virtual.SPI(0, firstbit=firstbit)
        transport = SPITransport(spi, virtual.Pin(5, virtual.Pin.OUT, value=1),
                                 lsb_first_in_hardware)
    elif bus == "i2c":
        virtual.wire_i2c(0, 0x24, E.I2CPort(chip))
        transport = I2CTransport(virtual.I2C(0))
    else:
        virtual.wire_uart(0, E.UARTPort(chip))
        transport = UARTTransport(virtual.UART(0))
    virtual.wire_reset(6, chip)
    return chip, PN532(transport, reset=virtual.Pin(6, virtual.Pin.OUT, value=1))


def tag(uid, **kw):
    return E.Tag(uid, kind=kw.pop("kind", "ntag213"), **kw)


async def raises(exc, coro):
    try:
        await coro
    except exc as e:
        return e
    raise AssertionError(f"expected {exc.__name__}")


class LinkBoard:
    """A pad board for app.App whose readers hang on PN532 emulator UART ports."""

    def __init__(self, chips):
        from pn532_uart import UARTTransport

        self.readers = [PN532(UARTTransport(E.UARTPort(c)), reset=c.set_reset) for c in chips]
        self.pixels = self.leds = self.buzzer = self.display = None
        self.feeds = 0

    def network_up(self):
        return True

    def rssi(self):
        return -60

    def feed(self):
        self.feeds += 1


def boards_json():
    """boards.json from the firmware directory on the path (copied beside the .mpy build)."""
    for d in sys.path:
        path = (d or ".") + "/boards.json"
        try:
            with open(path):
                return path
        except OSError:
            pass
    raise AssertionError("boards.json not found on the path")


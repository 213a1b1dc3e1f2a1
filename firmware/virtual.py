"""Virtual hardware for tests and the host simulator (not deployed to boards).

Imports pn532 and its transports only (for ``pad_board``). This one module stands in for
``machine``, ``network`` and ``neopixel``: put it in ``sys.modules`` under those names
before importing hw, or build a board directly with ``pad_board``. Pins are shared by
number, as on a real board: a chip-select Pin driven low selects the SPI device wired to it,
a reset Pin drives the chip's RSTPDN. Devices are PN532 emulator ports
(host/tricktable/sim/pn532_emulator.py) or the recorders below, wired with
``wire_spi``/``wire_i2c``/``wire_uart``/``wire_reset``/``wire_irq``.
"""

from pn532 import PN532
from pn532_i2c import I2CTransport
from pn532_spi import SPITransport
from pn532_uart import UARTTransport

LEVELS = {}  # pin number -> level
SOURCES = {}  # pin number -> callable() -> level, for a pin a device drives (a PN532's IRQ)
WATCHERS = {}  # pin number -> [callable(level)]
BUSES = {}  # ("spi", id) -> [device], ("i2c", id) -> {address: device}, ("uart", id) -> device
LINK = {"up": True, "rssi": -58, "ssids": None}  # the Wi-Fi world (ssids in range; None: any)


class Reboot(Exception):
    """machine.reset() was called."""


def unwire():
    """Forget every wire (between tests)."""
    LEVELS.clear()
    SOURCES.clear()
    WATCHERS.clear()
    BUSES.clear()
    LINK["up"] = True
    LINK["ssids"] = None


def _watch(pin, fn):
    WATCHERS.setdefault(pin, []).append(fn)


def wire_spi(bus, cs, device):
    """Put an SPI device (select/deselect/transfer) on bus ``bus`` behind chip select ``cs``."""
    BUSES.setdefault(("spi", bus), []).append(device)
    _watch(cs, lambda level: device.deselect() if level else device.select())


def wire_i2c(bus, address, device):
    BUSES.setdefault(("i2c", bus), {})[address] = device


def wire_uart(bus, device):
    BUSES[("uart", bus)] = device


def wire_reset(pin, chip):
    _watch(pin, chip.set_reset)


def wire_irq(pin, chip):
    """The chip's P70_IRQ output drives input ``pin``: low while a frame waits to be read."""
    SOURCES[pin] = lambda: 0 if chip.ready() else 1


# -- machine ------------------------------------------------------------------------------
class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if level is None:
            if self.id in SOURCES:
                return SOURCES[self.id]()
            return LEVELS.get(self.id, 0)
        level = 1 if level else 0
        if LEVELS.get(self.id) != level:
            LEVELS[self.id] = level
            for fn in WATCHERS.get(self.id, ()):
                fn(level)

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class SPI:
    MSB = 0
    LSB = 1

    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0, sck=None,
                 mosi=None, miso=None):
        if polarity or phase:
            raise ValueError("PN532 and MAX7219 need SPI mode 0")
        self.id = id
        self.baudrate = baudrate
        self.firstbit = firstbit

    def _device(self):
        chosen = [d for d in BUSES.get(("spi", self.id), ()) if d.selected]
        if len(chosen) > 1:
            raise RuntimeError("SPI bus %d: two chip selects low at once" % self.id)
        return chosen[0] if chosen else None

    def write_readinto(self, out, into):
        dev = self._device()
        if dev is None:
            rx = b"\xff" * len(out)  # MISO pulled up, nobody drives it
        else:
            rx = dev.transfer(bytes(out), msb_first=self.firstbit == SPI.MSB)
        into[:] = rx

    def write(self, out):
        self.write_readinto(out, bytearray(len(out)))

    def readinto(self, into, write=0):
        self.write_readinto(bytes([write]) * len(into), into)


class I2C:
    def __init__(self, id, scl=None, sda=None, freq=400000):
        self.id = id

    def _device(self, address):
        dev = BUSES.get(("i2c", self.id), {}).get(address)
        if dev is None:
            raise OSError(19)  # ENODEV: no ACK
        return dev

    def writeto(self, address, buf):
        self._device(address).write(bytes(buf))

    def writevto(self, address, bufs):
        self._device(address).write(b"".join(bytes(b) for b in bufs))

    def readfrom(self, address, n):
        return self._device(address).read(n)


class UART:
    def __init__(self, id, baudrate=9600, tx=None, rx=None, timeout=0, **kw):
        self.id = id

    def _device(self):
        return BUSES[("uart", self.id)]

    def write(self, buf):
        return self._device().write(bytes(buf))

    def any(self):
        return self._device().any()

    def read(self, n=None):
        dev = self._device()
        data = dev.read(n if n is not None else dev.any())
        return data or None  # machine.UART returns None when nothing came


class PWM:
    def __init__(self, pin, freq=1000, duty_u16=0):
        self.history = []
        self._freq = freq
        self._duty = duty_u16

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        self.history.append((self._freq, d))


class WDT:
    last = None

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        WDT.last = self

    def feed(self):
        self.feeds += 1


def reset():
    raise Reboot("machine.reset()")


PWRON_RESET, HARD_RESET, WDT_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 3, 4, 5
CAUSE = {"now": WDT_RESET}  # what reset_cause() says (a test sets it)


def reset_cause():
    return CAUSE["now"]


# -- network ------------------------------------------------------------------------------
STA_IF = 0
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_GOT_IP = 3


class WLAN:
    PM_NONE = 0x10
    PM_PERFORMANCE = 0xA11142
    PM_POWERSAVE = 0x111022
    last = None

    def __init__(self, interface=STA_IF):
        self.joined = None
        self.tried = []
        self.settings = {}
        WLAN.last = self

    def config(self, **settings):
        self.settings.update(settings)

    def active(self, on=None):
        return True

    def connect(self, ssid, password=""):
        self.tried.append(ssid)
        in_range = LINK["ssids"] is None or ssid in LINK["ssids"]
        self.joined = ssid if in_range else None
        self.joined_with = dict(self.settings)

    def isconnected(self):
        return self.joined is not None and LINK["up"]

    def status(self, param=None):
        if param == "rssi":
            return LINK["rssi"]
        return STAT_GOT_IP if self.isconnected() else STAT_IDLE


# -- neopixel -----------------------------------------------------------------------------
class NeoPixel:
    def __init__(self, pin, n):
        self.n = n
        self.pixels = [(0, 0, 0)] * n
        self.shown = list(self.pixels)
        self.writes = 0

    def __setitem__(self, i, rgb):
        self.pixels[i] = rgb

    def __getitem__(self, i):
        return self.pixels[i]

    def __len__(self):
        return self.n

    def write(self):
        self.shown = list(self.pixels)
        self.writes += 1


# -- recorders for output-only devices ----------------------------------------------------
class SPIRecorder:
    """An SPI device that keeps each chip-select transaction's bytes (e.g. a MAX7219)."""

    def __init__(self):
        self.selected = False
        self.transactions = []

    def select(self):
        self.selected = True
        self.transactions.append(bytearray())

    def deselect(self):
        self.selected = False

    def transfer(self, data, msb_first=True):
        self.transactions[-1].extend(data)
        return bytes(len(data))


class I2CRecorder:
    """An I2C device that keeps every write (e.g. an SSD1306)."""

    def __init__(self):
        self.writes = []

    def write(self, data):
        self.writes.append(data)

    def read(self, n):
        return bytes(n)


# -- a whole board ------------------------------------------------------------------------
class VirtualBoard:
    """A pad board on virtual hardware: what app.App needs, nothing physical."""

    def __init__(self, readers, display=None, watchdog=None):
        self.readers = readers
        self.pixels = NeoPixel(None, len(readers))
        self.leds = None
        self.buzzer = PWM(None)
        self.display = display
        self.wdt = watchdog
        self.feeds = 0

    def network_up(self):
        return LINK["up"]

    def rssi(self):
        return LINK["rssi"]

    def feed(self):
        self.feeds += 1


def pad_board(chips, emulator, bus="spi", first_pin=100, irq=False):
    """A VirtualBoard with one PN532 driver per emulator chip, wired on ``bus``.

    ``emulator`` is the pn532_emulator module (its ports speak the chip's bus protocols).
    Pins are numbered from ``first_pin`` so several boards can share one process; with
    ``irq`` each chip's IRQ line is wired too (pins after the chip selects and resets).
    """
    readers = []
    spi = SPI(first_pin)
    for i in range(len(chips)):
        cs, rst = first_pin + 2 * i, first_pin + 2 * i + 1
        if bus == "spi":
            wire_spi(first_pin, cs, emulator.SPIPort(chips[i]))
            transport = SPITransport(spi, Pin(cs, Pin.OUT, value=1))
        elif bus == "i2c":
            wire_i2c(first_pin + i, 0x24, emulator.I2CPort(chips[i]))
            transport = I2CTransport(I2C(first_pin + i))
        elif bus == "uart":
            wire_uart(first_pin + i, emulator.UARTPort(chips[i]))
            transport = UARTTransport(UART(first_pin + i))
        else:
            raise ValueError("bus must be spi, i2c or uart, got %r" % bus)
        wire_reset(rst, chips[i])
        line = None
        if irq:
            line = Pin(first_pin + 2 * len(chips) + i, Pin.IN)
            wire_irq(line.id, chips[i])
        readers.append(PN532(transport, reset=Pin(rst, Pin.OUT, value=1), irq=line))
    return VirtualBoard(readers)

"""Virtual hardware for tests and the host simulator (not deployed to boards).

This one module stands in for
``machine``, ``network`` and ``neopixel``: put it in ``sys.modules`` under those names
before importing hw, or build a board directly with ``pad_board``. Pins are shared by
number, as on a real board: a chip-select Pin driven low selects the SPI device wired to it,
a reset Pin drives the chip's RSTPDN. Devices are PN532 emulator ports
(host/tricktable/sim/pn532_emulator.py) or the recorders below, wired with
``wire_spi``/``wire_i2c``/``wire_uart``/``wire_reset``/``wire_irq``.
"""

import os
import time

import compat
from pn532 import PN532
from pn532_i2c import I2CTransport
from pn532_spi import SPITransport
from pn532_uart import UARTTransport

LEVELS = {}  # pin number -> level
SOURCES = {}  # pin number -> callable() -> level, for a pin a device drives (a PN532's IRQ)
WATCHERS = {}  # pin number -> [callable(level)]
BUSES = {}  # ("spi", id) -> [device], ("i2c", id) -> {address: device}, ("uart", id) -> device
# the Wi-Fi world (wifi_world() sets it per test): access points on the air, signal, networks in
# range (None: any), passwords, association and DHCP times on the virtual clock, the port
LINK = {"up": True, "rssi": -58, "ssids": None, "passwords": {}, "join_ms": 0, "dhcp_ms": 0,
        "port": "rp2", "flaky": None, "lost": "JOIN"}


class Reboot(Exception):
    """machine.reset() was called."""


def unwire():
    """Forget every wire (between tests)."""
    LEVELS.clear()
    SOURCES.clear()
    WATCHERS.clear()
    BUSES.clear()
    wifi_world()
    NOW["ms"] = 0


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
    """machine.WDT (MicroPython docs, machine.WDT: once started it cannot be stopped; the
    RP2040's runs at most 8.3 s). A chip has one watchdog: a second WDT() reconfigures and
    feeds the same one (ports/rp2/machine_wdt.c: ``watchdog_enable``; ports/esp32/machine_wdt.c:
    ``esp_task_wdt_reconfigure``), and a soft reset leaves it running (``soft_reset``). With
    ``WDT.bites`` (a board booting its main.py: mp/boot_run.py) a thread watches it as the
    chip does: unfed for its timeout, it prints ``watchdog reset`` and ends the process (the
    board resets), whatever runs, the REPL included."""

    last = None
    bites = False
    watching = False
    fed = 0  # the chip's: when it was last fed, and its timeout
    timeout_ms = 0

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        WDT.timeout_ms = timeout
        WDT.fed = compat.ticks_ms()
        WDT.last = self
        if WDT.bites and not WDT.watching:
            import _thread  # here: a port without threads (the 32-bit VM) never bites

            WDT.watching = True
            _thread.start_new_thread(WDT._watch, ())

    def feed(self):
        self.feeds += 1
        WDT.fed = compat.ticks_ms()

    @staticmethod
    def _watch():
        while True:
            time.sleep(0.05)
            starved = compat.ticks_diff(compat.ticks_ms(), WDT.fed)
            if starved > WDT.timeout_ms:
                print("watchdog reset: not fed for %d ms" % starved)
                os.system("kill -9 $PPID")  # the shell's parent: this board


TIMERS = []  # the Timers running, which a soft reset stops


class Timer:
    """machine.Timer, periodic (MicroPython docs, machine.Timer): ``callback(timer)`` every
    ``period`` ms until deinit() or a soft reset. On a board the scheduler runs it (at the
    REPL too); here a thread does."""

    PERIODIC = 1

    def __init__(self, id=-1, mode=PERIODIC, period=1000, callback=None):
        import _thread  # here, as in WDT: only a board that uses a Timer needs threads

        self.running = True
        TIMERS.append(self)
        _thread.start_new_thread(self._run, (period, callback))

    def _run(self, period, callback):
        while self.running:
            time.sleep(period / 1000)
            if self.running:
                callback(self)

    def deinit(self):
        self.running = False
        if self in TIMERS:
            TIMERS.remove(self)


def soft_reset():
    """A soft reset as mpremote, Thonny and ``tricktable board setup`` cause it (Ctrl-D at the
    raw REPL), after ports/rp2/main.c's ``soft_reset_exit`` (``soft_timer_deinit``: every
    Timer stops; the watchdog, hardware, runs on) and its restart (the heap and every module
    gone, then ``pyexec_file_if_exists("boot.py")``: boot.py runs in the raw REPL too, main.py
    only in the friendly one); ports/esp32/main.c does the same. The flash is the working
    directory."""
    import sys

    for timer in list(TIMERS):
        timer.deinit()
    for name in list(sys.modules):
        if sys.modules[name] is not sys.modules["virtual"] and name not in ("sys", "os", "time"):
            del sys.modules[name]
    try:
        with open("boot.py") as f:
            code = f.read()
    except OSError:
        return
    exec(code, {"__name__": "__main__"})


def reset():
    raise Reboot("machine.reset()")


PWRON_RESET, HARD_RESET, WDT_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 3, 4, 5
CAUSE = {"now": WDT_RESET}  # what reset_cause() says (a test sets it)


def reset_cause():
    return CAUSE["now"]


# -- network ------------------------------------------------------------------------------
STA_IF = 0
NOW = {"ms": 0}  # the Wi-Fi world's clock: a test moves it with tick(); hw may be given it too


def ticks_ms():
    return NOW["ms"]


def tick(ms):
    NOW["ms"] += ms


# network.WLAN.status() as each port reports it (MicroPython docs, network.WLAN.status; the
# ports' network modules). The Pico W returns the CYW43 driver's link state (cyw43.h:
# CYW43_LINK_DOWN 0, JOIN 1, NOIP 2, UP 3, FAIL -1, NONET -2, BADAUTH -3); its network module
# names all but NOIP, "joined, waiting for DHCP". The ESP32 port says STAT_CONNECTING from
# connect() until DHCP has given an address, then STAT_GOT_IP; after a failure the reason
# (STAT_NO_AP_FOUND 201, STAT_WRONG_PASSWORD 202, ...).
PORTS = {
    "rp2": {"STAT_IDLE": 0, "STAT_CONNECTING": 1, "JOIN": 1, "NOIP": 2, "STAT_GOT_IP": 3,
            "STAT_CONNECT_FAIL": -1, "STAT_NO_AP_FOUND": -2, "STAT_WRONG_PASSWORD": -3},
    "esp32": {"STAT_IDLE": 1000, "STAT_CONNECTING": 1001, "JOIN": 1001, "NOIP": 1001, "STAT_GOT_IP": 1010,
              "STAT_CONNECT_FAIL": 203, "STAT_NO_AP_FOUND": 201, "STAT_WRONG_PASSWORD": 202},
}
STAT_IDLE = STAT_CONNECTING = STAT_GOT_IP = STAT_CONNECT_FAIL = 0
STAT_NO_AP_FOUND = STAT_WRONG_PASSWORD = 0


def wifi_port(port):
    """Make this module's network constants and WLAN behave as ``port``'s ("rp2", "esp32")."""
    LINK["port"] = port
    codes = PORTS[port]
    g = globals()
    for name in codes:
        if name.startswith("STAT_"):
            g[name] = codes[name]


wifi_port("rp2")


def wifi_world(port="rp2", join_ms=0, dhcp_ms=0, ssids=None, passwords=None, up=True,
               flaky=None, lost="JOIN"):
    """Set the Wi-Fi world for one test: the port, how long association and DHCP take (ms of
    the virtual clock), the networks in range (None: any), their passwords (ssid -> password;
    a network not named takes any), whether the access points are on the air, a transient
    failure in every join (``flaky`` = (status name, from ms, for ms) after connect(), e.g.
    ("STAT_WRONG_PASSWORD", 150, 300): a crowded room's bad auth event that a good one
    follows) and what a Pico W says once its link is lost ("JOIN" or "STAT_IDLE": DOWN)."""
    LINK.update({"join_ms": join_ms, "dhcp_ms": dhcp_ms, "ssids": ssids,
                 "passwords": passwords or {}, "up": up, "flaky": flaky, "lost": lost})
    wifi_port(port)


class WLAN:
    """A station interface whose status() follows the port's documented sequence over the
    virtual clock (MicroPython docs, network.WLAN.connect/status/isconnected):

    * Pico W (CYW43): connect() -> JOIN (1) for ``join_ms`` -> NOIP (2) for ``dhcp_ms`` ->
      UP (3); a network not in range (or access points off the air) -> NONET (-2), a wrong
      password -> BADAUTH (-3). The cyw43-driver (src/cyw43_ctrl.c, the AUTH and PSK_SUP
      event handling) sets BADAUTH on *any* auth event with a bad status and goes back to
      JOIN when a good auth follows, so in a crowded room a join that will succeed can say
      BADAUTH (or FAIL, a SET_SSID event's other failure) for a moment: ``flaky`` in
      wifi_world. Once the link is lost the join state is left as it was (link down keeps
      ACTIVE: ``cyw43_wifi_link_status`` says JOIN) or cleared by a deauth (DOWN, 0), never
      NONET, until connect() is called again (the firmware rejoins by itself: nothing relies
      on the driver doing so).
    * ESP32: connect() -> STAT_CONNECTING through association and DHCP -> STAT_GOT_IP; no
      network -> STAT_NO_AP_FOUND, a wrong password -> STAT_WRONG_PASSWORD. A lost link is
      rejoined by the port itself (STAT_CONNECTING again), and connect() called while it is
      connecting raises ``OSError("Wifi Internal Error")`` (esp_wifi_connect's
      ESP_ERR_WIFI_CONN, as the port reports it); disconnect() stops the attempt.
    """

    PM_NONE = 0x10
    PM_PERFORMANCE = 0xA11142
    PM_POWERSAVE = 0x111022
    last = None

    def __init__(self, interface=STA_IF):
        self.joined = None
        self.tried = []
        self.settings = {}
        self.ssid = None  # the network asked for (None: idle)
        self.password = ""
        self.since = 0
        self.was_up = False  # got an address since connect()
        self.lost = False  # had one, then the access point went off the air
        WLAN.last = self

    def config(self, **settings):
        self.settings.update(settings)

    def active(self, on=None):
        return True

    def _codes(self):
        return PORTS[LINK["port"]]

    def connect(self, ssid, password=""):
        if LINK["port"] == "esp32" and self.status() == self._codes()["STAT_CONNECTING"]:
            raise OSError("Wifi Internal Error")
        self.tried.append(ssid)
        self.ssid, self.password, self.since = ssid, password, NOW["ms"]
        self.was_up = self.lost = False
        self.joined_with = dict(self.settings)
        self.joined = ssid if self.status() == self._codes()["STAT_GOT_IP"] else None

    def disconnect(self):
        self.ssid = self.joined = None
        self.was_up = self.lost = False

    def _in_range(self):
        return LINK["up"] and (LINK["ssids"] is None or self.ssid in LINK["ssids"])

    def status(self, param=None):
        if param == "rssi":
            return LINK["rssi"]
        c = self._codes()
        esp32 = LINK["port"] == "esp32"
        if self.ssid is None:
            return c["STAT_IDLE"]
        if not self._in_range():
            self.lost = self.lost or self.was_up
            self.was_up = False
            if self.lost:  # the ESP32 rejoins by itself; the CYW43 says JOIN or DOWN
                return c["STAT_CONNECTING"] if esp32 else c[LINK["lost"]]
            return c["STAT_NO_AP_FOUND"]
        if self.lost:
            if not esp32:
                return c[LINK["lost"]]  # CYW43: JOIN or DOWN until connect() is called again
            self.lost, self.since = False, NOW["ms"]  # the ESP32 port's own rejoin starts
        want = LINK["passwords"].get(self.ssid)
        if want is not None and want != self.password:
            return c["STAT_WRONG_PASSWORD"]
        elapsed = NOW["ms"] - self.since
        flaky = LINK["flaky"]
        if flaky and flaky[1] <= elapsed < flaky[1] + flaky[2]:
            return c[flaky[0]]  # a bad auth event in the crowd; a good one follows
        if elapsed < LINK["join_ms"]:
            return c["STAT_CONNECTING"]
        if elapsed < LINK["join_ms"] + LINK["dhcp_ms"]:
            return c["NOIP"]
        self.was_up = True
        return c["STAT_GOT_IP"]

    def isconnected(self):
        up = self.status() == self._codes()["STAT_GOT_IP"]
        self.joined = self.ssid if up else None
        return up


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

"""The hardware layer: the only firmware module that imports machine, network or neopixel.

Builds a ``Board`` from config.json and the pin map in boards.json: PN532 readers (SPI with
one chip select each, or one per I2C bus or UART), their reset and IRQ pins, NeoPixels or plain LEDs
and the buzzer, the score display, Wi-Fi and the watchdog. The application sees only the
Board's attributes and methods, so tests and the simulator inject another board
(virtual.py) or fake ``machine``/``network`` modules. ``reset()`` resets the board for
main.py's last line of defence and ``reset_cause()`` for the status, so no other module
touches ``machine``. Annotated (strings: MicroPython never reads them) so that mypy checks
every call into ``machine`` and ``network`` against each port's own stubs
(tests/firmware/test_fw_types.py).
"""

import json

import machine
import network
from compat import ticks_diff, ticks_ms
from pn532 import PN532

JOIN_MS = 15000  # a network still joining after this long is given up for the next one
# a failure status (wrong password, no network, FAIL) is final once it has held this long: the
# CYW43 says BADAUTH for any bad auth event in a crowded room and JOIN again when a good one
# follows (cyw43-driver, cyw43_ctrl.c), so a moment of it is no wrong password
FAIL_HOLD_MS = 3000
CYW43_LINK_NOIP = 2  # Pico W status(): joined, waiting for DHCP (rp2's network names no constant)


def load_pins(name: str, path: str = "boards.json") -> dict:
    with open(path) as f:
        maps = json.load(f)
    if name not in maps:
        raise ValueError("no pin map %r in %s (have %s)" % (name, path, sorted(maps)))
    return maps[name]


def _out(pin: "int | str", level: int = 1) -> "machine.Pin":
    return machine.Pin(pin, machine.Pin.OUT, value=level)


BUS_PINS = {"spi": "cs", "i2c": "i2c", "uart": "uart"}  # the pin map's list of readers per bus


def wired_pads(cfg: dict, pins: dict) -> "tuple[int, str | None]":
    """(pads the pin map wires on the configured bus, what the board refused of its config or
    None): a config asking for more pads than that (config.json written by hand: the host
    refuses it at setup) runs the wired ones and says so in the status's "error"."""
    bus = cfg["reader_bus"]
    wired = len(pins[BUS_PINS[bus]])
    if cfg["pads"] <= wired:
        return cfg["pads"], None
    return wired, "pads %d refused: the %s map wires %d %s readers" % (
        cfg["pads"], cfg["pins"], wired, bus)


def make_readers(cfg: dict, pins: dict, n: int) -> "list[PN532]":
    """One PN532 driver for each of the first ``n`` pads on the configured bus."""
    readers: list[PN532] = []
    transports: list = []
    bus = cfg["reader_bus"]
    if n == 0:
        return readers  # a display board
    if bus == "spi":
        from pn532_spi import SPITransport

        s = pins["spi"]
        firstbit = machine.SPI.LSB if s["lsb_first"] else machine.SPI.MSB
        spi = machine.SPI(s["id"], baudrate=s["baudrate"], polarity=0, phase=0, firstbit=firstbit,
                          sck=machine.Pin(s["sck"]), mosi=machine.Pin(s["mosi"]),
                          miso=machine.Pin(s["miso"]))
        transports = [SPITransport(spi, _out(pins["cs"][i]), s["lsb_first"]) for i in range(n)]
    elif bus == "i2c":
        from pn532_i2c import I2CTransport

        for i in range(n):
            c = pins["i2c"][i]
            i2c = machine.I2C(c["id"], sda=machine.Pin(c["sda"]), scl=machine.Pin(c["scl"]),
                              freq=400000)
            transports.append(I2CTransport(i2c))
    else:
        from pn532_uart import UARTTransport

        for i in range(n):
            c = pins["uart"][i]
            uart = machine.UART(c["id"], baudrate=115200, tx=machine.Pin(c["tx"]),
                                rx=machine.Pin(c["rx"]), timeout=0)
            transports.append(UARTTransport(uart))
    # config.json "irq": true when the IRQ lines are wired (a floating line would stall)
    irq = pins.get("irq", {}).get(bus, []) if cfg.get("irq") is True else []
    for i in range(n):
        line = machine.Pin(irq[i], machine.Pin.IN) if i < len(irq) else None
        readers.append(PN532(transports[i], reset=_out(pins["reset"][i]), irq=line))
    return readers


def make_display(kind: str, pins: dict):
    from display import MAX7219, SSD1306

    if kind == "max7219":
        d = pins["max7219"]
        spi = machine.SPI(d["spi"], baudrate=1000000, polarity=0, phase=0,
                          sck=machine.Pin(d["sck"]), mosi=machine.Pin(d["mosi"]),
                          miso=machine.Pin(d["miso"]))
        return MAX7219(spi, _out(d["cs"]))
    d = pins["ssd1306"]
    i2c = machine.I2C(d["i2c"], sda=machine.Pin(d["sda"]), scl=machine.Pin(d["scl"]),
                      freq=400000)
    return SSD1306(i2c, d["address"])


def joining(wlan: "network.WLAN") -> bool:
    """True while the interface is associating or waiting for DHCP."""
    return wlan.status() in (network.STAT_CONNECTING, CYW43_LINK_NOIP)


class Board:
    """What the application may touch: readers, lights, buzzer, display, network, watchdog."""

    def __init__(self, cfg: dict, pins: dict, watchdog: bool = True) -> None:
        pads, self.problem = wired_pads(cfg, pins)
        self.readers = make_readers(cfg, pins, pads)
        self.pixels = None
        self.leds = None
        self.buzzer = None
        if pads and cfg["feedback"] == "neopixel":
            from neopixel import NeoPixel

            self.pixels = NeoPixel(machine.Pin(pins["neopixel"]), pads)
        elif pads and cfg["feedback"] == "leds":
            self.leds = [(_out(p[0], 0), _out(p[1], 0)) for p in pins["leds"][:pads]]
        if pads and cfg["feedback"] != "none":
            self.buzzer = machine.PWM(machine.Pin(pins["buzzer"]), freq=2000, duty_u16=0)
        self.display = make_display(cfg["display"], pins) if cfg["display"] else None
        self.wlan: network.WLAN | None = None
        self.wifi: list[dict] | None = cfg["wifi"]  # networks tried in order (config.wifi_networks)
        self.wifi_index = 0
        self.wifi_joined = False
        self.joining_since = ticks_ms()
        self.failing = False  # this join has shown a failure status, since failing_since
        self.failing_since = self.joining_since
        self.wifi_pm = pins.get("wifi_pm")
        self.wdt: machine.WDT | None = None
        if watchdog:
            self.wdt = machine.WDT(timeout=cfg["watchdog_ms"])

    def connect_wifi(self) -> None:
        """Start joining the first configured network (returns at once; network_up() tells)."""
        if self.wifi is None:
            return
        self.wlan = wlan = network.WLAN(network.STA_IF)
        wlan.active(True)
        self.power_save_off(wlan)
        self.join(wlan, 0)

    def join(self, wlan: "network.WLAN", index: int) -> None:
        """Start joining network ``index`` of the configured list. An attempt still under way
        is stopped first: the ESP32 port raises OSError("Wifi Internal Error") for connect()
        while it is connecting (or rejoining a lost link by itself); should connect() raise
        all the same, the next network_up() tries again."""
        if self.wifi is None:
            return
        self.wifi_index = index
        self.joining_since = ticks_ms()
        self.failing = False
        net = self.wifi[index]
        try:
            if joining(wlan):
                wlan.disconnect()
            wlan.connect(net["ssid"], net.get("password", ""))
        except OSError:
            pass

    def power_save_off(self, wlan: "network.WLAN") -> None:
        """Wi-Fi power save off (the pin map's ``wifi_pm``): with it on, messages to a Pico W
        were seen 5-8 s late and ESP32 pings took up to 4 s; off, a verdict is milliseconds.
        A number is written as is (the Pico W's CYW43 register, 0xa11140: power management
        disabled); a name is the port's WLAN constant (``PM_NONE`` on the ESP32)."""
        pm = self.wifi_pm
        if isinstance(pm, str):
            pm = getattr(network.WLAN, pm, None)
        if pm is not None:
            wlan.config(pm=pm)

    def network_up(self) -> bool:
        """True when the link can carry sockets; rejoins Wi-Fi when it was lost."""
        wlan = self.wlan
        if self.wifi is None:
            return True  # wired or host-side: the socket layer decides
        if wlan is None:
            return False
        if wlan.isconnected():
            self.wifi_joined = True
            return True
        if self.wifi_joined:  # the link was lost: start again from the first network
            self.wifi_joined = False
            self.join(wlan, 0)
        elif self.join_failed(wlan):
            self.join(wlan, (self.wifi_index + 1) % len(self.wifi))  # failed: the next one
        return False

    def join_failed(self, wlan: "network.WLAN") -> bool:
        """True once this join has failed for good: a failure status that has held
        ``FAIL_HOLD_MS`` without the join going on, or the join's deadline (``JOIN_MS``)."""
        now = ticks_ms()
        if ticks_diff(now, self.joining_since) > JOIN_MS:
            return True
        if joining(wlan):
            self.failing = False
            return False
        if not self.failing:
            self.failing, self.failing_since = True, now
        return ticks_diff(now, self.failing_since) >= FAIL_HOLD_MS

    def dns_server(self) -> "tuple | None":
        """The DNS server the network gave, (ip, 53), for resolving the broker's name without
        blocking (dns.py); None while there is no address."""
        wlan = self.wlan
        if wlan is None:  # no Wi-Fi (a board on Ethernet or the host's simulator)
            return None
        try:
            return (wlan.ifconfig()[3], 53) if wlan.isconnected() else None
        except (AttributeError, OSError):  # a network module without ifconfig, or just down
            return None

    def rssi(self) -> "int | None":
        try:
            return self.wlan.status("rssi") if self.wlan is not None else None
        except (OSError, ValueError):
            return None

    def feed(self) -> None:
        if self.wdt is not None:
            self.wdt.feed()


SETUP_BLUE = (0, 0, 80)


class SetupSignal:
    """Setup mode (no usable config.json): the NeoPixels glow blue, the board's own LED blinks
    and a score display says SETUP. The pin map is the port's own (no config names one); a
    display or strip that is not fitted is skipped (an I2C display that does not answer
    raises OSError; SPI and NeoPixel writes to nothing are harmless)."""

    def __init__(self, why: str, path: str = "boards.json") -> None:
        import sys

        from neopixel import NeoPixel

        pins = load_pins("esp32" if sys.platform == "esp32" else "pico_w", path)
        self.pixels = NeoPixel(machine.Pin(pins["neopixel"]), 4)
        for i in range(4):
            self.pixels[i] = SETUP_BLUE
        self.pixels.write()
        self.led = _out("LED" if sys.platform == "rp2" else 2, 0)
        self.displays: list = []
        for kind, msg in (("max7219", {"text8": "SETUP"}),
                          ("ssd1306", {"lines": ["tricktable", "SETUP MODE", why[:16]]})):
            try:
                d = make_display(kind, pins)
                d.show(msg)
                self.displays.append(d)
            except (OSError, ImportError):
                pass  # not fitted (or, for the OLED, a port without framebuf)

    def blink(self, on: bool) -> None:
        self.led(1 if on else 0)


def keep_fed() -> None:
    """The watchdog fed from a timer (maintenance.py) for a board whose main.py predates
    maintenance.py (set up before issue 33, updated over the air since): its main.py calls
    this after Ctrl-C."""
    import maintenance

    maintenance.begin()


def reset() -> None:
    """Reset the board (main.py's last line of defence after a fatal error)."""
    machine.reset()


CAUSES = (("PWRON_RESET", "power"), ("HARD_RESET", "reset"), ("WDT_RESET", "watchdog"),
          ("DEEPSLEEP_RESET", "deepsleep"), ("SOFT_RESET", "soft"))


def reset_cause() -> str:
    """Why the board started, in a word for the status's ``reboot`` (machine.reset_cause())."""
    cause = machine.reset_cause()
    for name, word in CAUSES:
        if getattr(machine, name, None) == cause:
            return word
    return "unknown"

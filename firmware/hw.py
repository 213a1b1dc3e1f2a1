"""The hardware layer: the only firmware module that imports machine, network or neopixel.

Builds a ``Board`` from config.json and the pin map in boards.json: PN532 readers (SPI with
one chip select each, or one per I2C bus or UART), their reset and IRQ pins, NeoPixels or plain LEDs
and the buzzer, the score display, Wi-Fi and the watchdog. The application sees only the
Board's attributes and methods, so tests and the simulator inject another board
(virtual.py) or fake ``machine``/``network`` modules. ``reset()`` resets the board for
main.py's last line of defence and ``reset_cause()`` for the status, so no other module
touches ``machine``.
"""

import json

import machine
from compat import ticks_diff, ticks_ms
from pn532 import PN532

JOIN_MS = 15000  # a network still "connecting" after this long is given up for the next one


def load_pins(name, path="boards.json"):
    with open(path) as f:
        maps = json.load(f)
    if name not in maps:
        raise ValueError("no pin map %r in %s (have %s)" % (name, path, sorted(maps)))
    return maps[name]


def _out(pin, level=1):
    return machine.Pin(pin, machine.Pin.OUT, value=level)


def make_readers(cfg, pins):
    """One PN532 driver per pad on the configured bus."""
    readers = []
    bus = cfg["reader_bus"]
    n = cfg["pads"]
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

        transports = []
        for i in range(n):
            c = pins["i2c"][i]
            i2c = machine.I2C(c["id"], sda=machine.Pin(c["sda"]), scl=machine.Pin(c["scl"]),
                              freq=400000)
            transports.append(I2CTransport(i2c))
    else:
        from pn532_uart import UARTTransport

        transports = []
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


def make_display(kind, pins):
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


class Board:
    """What the application may touch: readers, lights, buzzer, display, network, watchdog."""

    def __init__(self, cfg, pins, watchdog=True):
        self.readers = make_readers(cfg, pins)
        self.pixels = None
        self.leds = None
        self.buzzer = None
        if cfg["pads"] and cfg["feedback"] == "neopixel":
            from neopixel import NeoPixel

            self.pixels = NeoPixel(machine.Pin(pins["neopixel"]), cfg["pads"])
        elif cfg["pads"] and cfg["feedback"] == "leds":
            self.leds = [(_out(p[0], 0), _out(p[1], 0)) for p in pins["leds"][: cfg["pads"]]]
        if cfg["pads"] and cfg["feedback"] != "none":
            self.buzzer = machine.PWM(machine.Pin(pins["buzzer"]), freq=2000, duty_u16=0)
        self.display = make_display(cfg["display"], pins) if cfg["display"] else None
        self.wlan = None
        self.network = None
        self.wifi = cfg["wifi"]  # networks tried in order (config.wifi_networks)
        self.wifi_index = 0
        self.wifi_joined = False
        self.joining_since = 0
        self.wifi_pm = pins.get("wifi_pm")
        self.wdt = machine.WDT(timeout=cfg["watchdog_ms"]) if watchdog else None

    def connect_wifi(self):
        """Start joining the first configured network (returns at once; network_up() tells)."""
        if self.wifi is None:
            return
        import network

        self.network = network
        self.wlan = network.WLAN(network.STA_IF)
        self.wlan.active(True)
        self.power_save_off()
        self.join(0)

    def join(self, index):
        """Start joining network ``index`` of the configured list."""
        self.wifi_index = index
        self.joining_since = ticks_ms()
        net = self.wifi[index]
        self.wlan.connect(net["ssid"], net.get("password", ""))

    def power_save_off(self):
        """Wi-Fi power save off (the pin map's ``wifi_pm``): with it on, messages to a Pico W
        were seen 5-8 s late and ESP32 pings took up to 4 s; off, a verdict is milliseconds.
        A number is written as is (the Pico W's CYW43 register, 0xa11140: power management
        disabled); a name is the port's WLAN constant (``PM_NONE`` on the ESP32)."""
        pm = self.wifi_pm
        if isinstance(pm, str):
            pm = getattr(self.network.WLAN, pm, None)
        if pm is not None:
            self.wlan.config(pm=pm)

    def network_up(self):
        """True when the link can carry sockets; rejoins Wi-Fi when it was lost."""
        if self.wifi is None:
            return True  # wired or host-side: the socket layer decides
        if self.wlan is None:
            return False
        if self.wlan.isconnected():
            self.wifi_joined = True
            return True
        if self.wifi_joined:  # the link was lost: start again from the first network
            self.wifi_joined = False
            self.join(0)
        elif (self.wlan.status() != self.network.STAT_CONNECTING
              or ticks_diff(ticks_ms(), self.joining_since) > JOIN_MS):
            self.join((self.wifi_index + 1) % len(self.wifi))  # failed: the next one, in order
        return False

    def dns_server(self):
        """The DNS server the network gave, (ip, 53), for resolving the broker's name without
        blocking (dns.py); None while there is no address."""
        try:
            return (self.wlan.ifconfig()[3], 53) if self.wlan.isconnected() else None
        except (AttributeError, OSError):  # no Wi-Fi (None), or it went down just now
            return None

    def rssi(self):
        try:
            return self.wlan.status("rssi") if self.wlan is not None else None
        except (OSError, ValueError):
            return None

    def feed(self):
        if self.wdt is not None:
            self.wdt.feed()


SETUP_BLUE = (0, 0, 80)


class SetupSignal:
    """Setup mode (no usable config.json): the NeoPixels glow blue, the board's own LED blinks
    and a score display says SETUP. The pin map is the port's own (no config names one); a
    display or strip that is not fitted is skipped (an I2C display that does not answer
    raises OSError; SPI and NeoPixel writes to nothing are harmless)."""

    def __init__(self, why, path="boards.json"):
        import sys

        from neopixel import NeoPixel

        pins = load_pins("esp32" if sys.platform == "esp32" else "pico_w", path)
        self.pixels = NeoPixel(machine.Pin(pins["neopixel"]), 4)
        for i in range(4):
            self.pixels[i] = SETUP_BLUE
        self.pixels.write()
        self.led = _out("LED" if sys.platform == "rp2" else 2, 0)
        self.displays = []
        for kind, msg in (("max7219", {"text8": "SETUP"}),
                          ("ssd1306", {"lines": ["tricktable", "SETUP MODE", why[:16]]})):
            try:
                d = make_display(kind, pins)
                d.show(msg)
                self.displays.append(d)
            except (OSError, ImportError):
                pass  # not fitted (or, for the OLED, a port without framebuf)

    def blink(self, on):
        self.led(1 if on else 0)


def reset():
    """Reset the board (main.py's last line of defence after a fatal error)."""
    machine.reset()


CAUSES = (("PWRON_RESET", "power"), ("HARD_RESET", "reset"), ("WDT_RESET", "watchdog"),
          ("DEEPSLEEP_RESET", "deepsleep"), ("SOFT_RESET", "soft"))


def reset_cause():
    """Why the board started, in a word for the status's ``reboot`` (machine.reset_cause())."""
    cause = machine.reset_cause()
    for name, word in CAUSES:
        if getattr(machine, name, None) == cause:
            return word
    return "unknown"

"""The hardware layer: the only firmware module that imports machine, network or neopixel.

Builds a ``Board`` from config.json and the pin map in boards.json: PN532 readers (SPI with
one chip select each, or one per I2C bus or UART), their reset pins, NeoPixels or plain LEDs
and the buzzer, the score display, Wi-Fi and the watchdog. The application sees only the
Board's attributes and methods, so tests and the simulator inject another board
(virtual.py) or fake ``machine``/``network`` modules. ``reset()`` resets the board for
main.py's last line of defence, so no other module touches ``machine``.
"""

import json

import machine
from pn532 import PN532


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
    for i in range(n):
        readers.append(PN532(transports[i], reset=_out(pins["reset"][i])))
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
        self.wifi = cfg["wifi"]
        self.wifi_pm = pins.get("wifi_pm")
        self.wdt = machine.WDT(timeout=cfg["watchdog_ms"]) if watchdog else None

    def connect_wifi(self):
        """Start joining the configured network (returns at once; network_up() tells)."""
        if self.wifi is None:
            return
        import network

        self.network = network
        self.wlan = network.WLAN(network.STA_IF)
        self.wlan.active(True)
        self.power_save_off()
        self.wlan.connect(self.wifi["ssid"], self.wifi.get("password", ""))

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
            return True
        if self.wlan.status() != self.network.STAT_CONNECTING:
            self.wlan.connect(self.wifi["ssid"], self.wifi.get("password", ""))
        return False

    def rssi(self):
        try:
            return self.wlan.status("rssi") if self.wlan is not None else None
        except (OSError, ValueError):
            return None

    def feed(self):
        if self.wdt is not None:
            self.wdt.feed()


def reset():
    """Reset the board (main.py's last line of defence after a fatal error)."""
    machine.reset()

"""config.json: load, fill defaults, and refuse a bad file with a message naming the key.

Imports json only. See firmware/README.md for every key.
"""

import json

DEFAULTS = {
    "prefix": "tricktable",
    "table": "t1",
    "pins": "pico_w",
    "pads": 1,
    "reader_bus": "spi",
    "feedback": "neopixel",
    "display": None,
    "wifi": None,
    "misses_to_remove": 3,
    "scan_ms": 5,
    "resend_ms": 3000,
    "status_s": 30,
    "watchdog_ms": 8000,
    "outbox_bytes": 8192,
    "outbox_max": 2048,  # a whole night with the host gone (README.md, "Outbox")
    "backoff_ms": [250, 8000],
    "heal_s": 900,
    "update_key": None,  # the old scheme's HMAC key: boards set up before public keys
    "update_pub": None,  # the host's firmware signing public key (HSS/LMS, hex): takes updates
}
BROKER_DEFAULTS = {"port": 1883, "keepalive": 30, "user": None, "password": None,
                   "tls": False, "ca": None}
CHOICES = {
    "reader_bus": ("spi", "i2c", "uart"),
    "feedback": ("neopixel", "leds", "none"),
    "display": (None, "max7219", "ssd1306"),
}
POSITIVE = ("misses_to_remove", "scan_ms", "resend_ms", "status_s", "watchdog_ms",
            "outbox_bytes", "outbox_max")


def validate(raw):
    """Return a complete config dict from a parsed config.json; ValueError on bad input."""
    if not isinstance(raw, dict):
        raise ValueError("config.json must hold a JSON object")
    cfg = dict(DEFAULTS)
    cfg.update(raw)
    board = cfg.get("board")
    if not isinstance(board, str) or not board or "/" in board or "+" in board or "#" in board:
        raise ValueError("config 'board' must be a plain non-empty name, got %r" % board)
    broker = cfg.get("broker")
    if not isinstance(broker, dict) or not isinstance(broker.get("host"), str):
        raise ValueError("config 'broker' must be an object with a 'host' string")
    full = dict(BROKER_DEFAULTS)
    full.update(broker)
    cfg["broker"] = full
    if not isinstance(full["tls"], bool):
        raise ValueError("config broker.tls must be true or false, got %r" % full["tls"])
    if full["tls"] and not isinstance(full["ca"], str):
        raise ValueError("config broker.ca must name the CA certificate file (DER) when "
                         "broker.tls is true")
    if full["tls"] and "port" not in broker:
        full["port"] = 8883
    if not full["tls"]:
        full["ca"] = None  # the MQTT client speaks TLS when it is given a CA file
    if not isinstance(full["port"], int) or not 0 < full["port"] < 65536:
        raise ValueError("config broker.port must be 1..65535, got %r" % full["port"])
    for key in CHOICES:
        if cfg[key] not in CHOICES[key]:
            raise ValueError("config %r must be one of %r, got %r" % (key, CHOICES[key], cfg[key]))
    for key in POSITIVE:
        if not isinstance(cfg[key], int) or cfg[key] <= 0:
            raise ValueError("config %r must be a positive integer, got %r" % (key, cfg[key]))
    if not isinstance(cfg["heal_s"], int) or isinstance(cfg["heal_s"], bool) or cfg["heal_s"] < 0:
        raise ValueError("config 'heal_s' must be a whole number of seconds, 0 for never")
    if not isinstance(cfg["pads"], int) or not 0 <= cfg["pads"] <= 4:
        raise ValueError("config 'pads' must be 0..4, got %r" % cfg["pads"])
    back = cfg["backoff_ms"]
    if not isinstance(back, list) or len(back) != 2 or not 0 < back[0] <= back[1]:
        raise ValueError("config 'backoff_ms' must be [first, max] with 0 < first <= max")
    cfg["wifi"] = wifi_networks(cfg["wifi"])
    for key, digits in (("update_key", 64), ("update_pub", 120)):
        value = cfg[key]
        if value is not None and not (isinstance(value, str) and len(value) == digits
                                      and not [c for c in value if c not in "0123456789abcdef"]):
            raise ValueError("config %r must be null or %d lower-case hex digits" % (key, digits))
    return cfg


def wifi_networks(wifi):
    """The Wi-Fi networks to try, in order: a list of {"ssid", "password"} (one object is a
    list of one; null means the network is already up: unix port, simulator)."""
    if wifi is None:
        return None
    if isinstance(wifi, dict):
        wifi = [wifi]
    if not isinstance(wifi, list) or not wifi:
        raise ValueError("config 'wifi' must be null or a non-empty list of networks")
    for net in wifi:
        if not (isinstance(net, dict) and isinstance(net.get("ssid"), str) and net["ssid"]):
            raise ValueError("config 'wifi' networks need an 'ssid' string, got %r" % (net,))
        if not isinstance(net.get("password", ""), str):
            raise ValueError("config 'wifi' password for %r must be a string" % net["ssid"])
    return wifi


def load(path="config.json"):
    """Read and validate a config file."""
    try:
        with open(path) as f:
            raw = json.load(f)
    except OSError:
        raise ValueError("no config file at %s" % path) from None
    return validate(raw)

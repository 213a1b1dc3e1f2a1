"""A board's config.json, built from what the operator gives and checked before it is written.

``board_config()`` returns the config.json content for one board: its id, table, Wi-Fi
networks (tried in order), broker address, TLS (checked against the club's CA, ``ca.der``
beside it: ``ca_der`` turns a PEM or DER CA file into it) and per-board credentials, pads, reader bus,
feedback, display and pin map. It is checked by the firmware's own ``config.validate``
(firmware/config.py, loaded from the firmware directory, so the host and the board agree on
what a valid file is) and then by what only the host can know: the pin map exists in
boards.json and has a pin for every pad, Wi-Fi passwords WPA2 accepts, an id mosquitto's
password file can hold. Any problem raises ConfigError naming the field: nothing is written.
"""

from __future__ import annotations

import importlib.util
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

BOARD_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
BUS_PINS = {"spi": "cs", "i2c": "i2c", "uart": "uart"}
CA_FILE = "ca.der"  # the club's CA on the board (DER: what MicroPython's mbedTLS reads)


class ConfigError(ValueError):
    """A board configuration that must not be written; the message names the field."""


@dataclass(frozen=True)
class BoardSpec:
    """What ``tricktable board setup`` is told about one board."""

    board: str
    broker_host: str
    broker_port: int
    password: str
    wifi: list[dict[str, str]] = field(default_factory=list)
    table: str = "t1"
    prefix: str = "tricktable"
    pins: str = "pico_w"
    pads: int = 1
    reader_bus: str = "spi"
    feedback: str = "neopixel"
    display: str | None = None
    update_pub: str | None = None  # `tricktable fleet key`: the board takes signed updates
    tls: bool = False  # mqtts: the board checks the broker against the club's CA (CA_FILE)


def firmware_config_module(firmware_dir: Path) -> ModuleType:
    """firmware/config.py as a module of its own (not on sys.path: no name clash)."""
    path = firmware_dir / "config.py"
    spec = importlib.util.spec_from_file_location("tricktable_firmware_config", path)
    if spec is None or spec.loader is None or not path.exists():
        raise ConfigError(f"no firmware config module at {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ca_der(path: Path) -> bytes:
    """The CA certificate in ``path`` (PEM, as `tricktable broker certs` writes ca.crt, or
    DER) as DER; ConfigError when it is neither."""
    import ssl

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"CA file {path}: {exc}") from None
    if data.lstrip().startswith(b"-----BEGIN CERTIFICATE-----"):
        try:
            return ssl.PEM_cert_to_DER_cert(data.decode("ascii"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise ConfigError(f"CA file {path}: not a PEM certificate ({exc})") from None
    if not data.startswith(b"\x30"):
        raise ConfigError(f"CA file {path}: neither a PEM nor a DER certificate")
    return data


def read_wifi_file(path: Path) -> list[dict[str, str]]:
    """The Wi-Fi networks file: a JSON list of {"ssid", "password"}, in the order to try."""
    try:
        networks = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"Wi-Fi file {path}: {exc}") from None
    if not isinstance(networks, list):
        raise ConfigError(f"Wi-Fi file {path}: must hold a JSON list of "
                          '{"ssid": ..., "password": ...}')
    return networks


def board_config(spec: BoardSpec, firmware_dir: Path) -> dict[str, Any]:
    """The config.json content for ``spec``; ConfigError when any field is wrong."""
    if not BOARD_ID.match(spec.board):
        raise ConfigError(f"board id {spec.board!r}: use 1-64 of A-Z a-z 0-9 _ . - "
                          "(it is the MQTT client id and the broker user name)")
    if not spec.wifi:
        raise ConfigError("wifi: give at least one network (a board joins them in order)")
    for net in spec.wifi:
        password = net.get("password", "") if isinstance(net, dict) else ""
        if isinstance(password, str) and password and not 8 <= len(password) <= 63:
            raise ConfigError(f"wifi password for {net.get('ssid')!r}: WPA2 needs 8-63 "
                              "characters (or none for an open network)")
    raw: dict[str, Any] = {
        "board": spec.board, "table": spec.table, "prefix": spec.prefix, "pins": spec.pins,
        "pads": spec.pads, "reader_bus": spec.reader_bus, "feedback": spec.feedback,
        "display": spec.display, "wifi": spec.wifi, "update_pub": spec.update_pub,
        "broker": {"host": spec.broker_host, "port": spec.broker_port, "user": spec.board,
                   "password": spec.password, "tls": spec.tls,
                   "ca": CA_FILE if spec.tls else None},
    }
    if not spec.table or any(c in spec.table for c in "/+#"):
        raise ConfigError(f"table {spec.table!r}: a plain name without / + #")
    try:
        firmware_config_module(firmware_dir).validate(json.loads(json.dumps(raw)))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    check_pins(spec, json.loads((firmware_dir / "boards.json").read_text()))
    return raw


def check_pins(spec: BoardSpec, maps: dict[str, Any]) -> None:
    """The pin map exists and wires every pad on the chosen bus (and LED, if plain LEDs)."""
    if spec.pins not in maps:
        raise ConfigError(f"pins {spec.pins!r}: no such map in boards.json (have "
                          f"{', '.join(sorted(maps))})")
    pins = maps[spec.pins]
    wired = len(pins[BUS_PINS[spec.reader_bus]])
    if spec.pads > wired:
        raise ConfigError(f"pads {spec.pads}: the {spec.pins} map wires only {wired} "
                          f"{spec.reader_bus} readers")
    if spec.feedback == "leds" and spec.pads > len(pins["leds"]):
        raise ConfigError(f"feedback 'leds': the {spec.pins} map has LED pins for only "
                          f"{len(pins['leds'])} pads")

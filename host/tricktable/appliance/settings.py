"""What ``tricktable up`` runs for a club: the club file's ``[host]`` section and the data dir.

``load_settings(club_file, data_dir)`` reads the club file (checked whole by
``clubfile.load_club``) and its optional ``[host]`` section, every key checked and every
path taken relative to the club file, and returns :class:`Settings`. A mistake is a
:class:`SettingsError` naming the key. The keys are listed in docs/appliance.md; none is
required: a club file without ``[host]`` runs on this machine alone (loopback only).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tricktable.clubfile import Club, ClubFileError, load_club
from tricktable.mqtt.url import BrokerConfigError, BrokerURL
from tricktable.textfiles import TextFileError, read_text

DATA_ENV = "TRICKTABLE_DATA"
KEYS = {"night", "broker", "listen", "tls", "tls_port", "passwd", "web", "console", "club_db",
        "backups", "keep", "firmware", "min_free_mb", "deck_check_days", "web_cert",
        "web_key"}


class SettingsError(ValueError):
    """The ``[host]`` section says something ``up`` cannot use; the message names the key."""


def default_data_dir() -> Path:
    """``$TRICKTABLE_DATA``, else ``~/.local/share/tricktable/host``."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    return Path.home() / ".local" / "share" / "tricktable" / "host"


@dataclass(frozen=True)
class Address:
    """Where a web program listens."""

    host: str
    port: int


@dataclass(frozen=True)
class Settings:
    """Everything ``up``, ``doctor`` and the backups need to know about the club's host."""

    club_file: Path
    club: Club
    data: Path
    night: Path | None
    broker: BrokerURL
    listen: str  # where the boards reach the mosquitto ``up`` starts (when none answers)
    tls: bool  # the boards' listener is TLS (on ``tls_port``); False: plain MQTT (opt-out)
    tls_port: int
    passwd: Path | None  # the boards' mosquitto password file (tricktable board setup)
    web: Address
    console: Address
    club_db: Path | None
    backups: Path
    keep: int
    firmware: str | None  # the firmware version every board should run (doctor)
    min_free_mb: int
    deck_check_days: int  # a deck not checked at the reader for longer is named (doctor)
    web_cert: Path | None = None  # the club's own certificate for the pages (a real domain's)
    web_key: Path | None = None

    @property
    def phones(self) -> Path | None:
        """The phones' pairings file, when a table of the club file has phone seats."""
        if any(t.phones for t in self.club.tables.values()):
            return self.data / "phones.sqlite"
        return None

    @property
    def web_https(self) -> tuple[Path, Path, Path | None] | None:
        """What the pages are served over HTTPS with, for phones (Web NFC needs it): the
        club's own certificate (``web_cert``/``web_key``), else the broker's from the club's
        CA (then the CA too, offered at /ca); None: plain HTTP."""
        if self.web_cert is not None and self.web_key is not None:
            return self.web_cert, self.web_key, None
        if self.phones is not None and self.tls:
            certs = self.data / "broker" / "certs"
            return certs / "server.crt", certs / "server.key", certs / "ca.crt"
        return None

    @property
    def journal(self) -> Path:
        return self.club.journal or self.data / "journal.sqlite"

    @property
    def log(self) -> Path:
        return self.data / "up.log"


def _address(raw: Any, key: str, default: Address) -> Address:
    if raw is None:
        return default
    if not isinstance(raw, str):
        raise SettingsError(f"host.{key}: expected \"HOST:PORT\", got {raw!r}")
    host, sep, port = raw.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SettingsError(f"host.{key}: {raw!r} is not HOST:PORT (e.g. 0.0.0.0:8080)")
    return Address(host, int(port))


def _int(raw: Any, key: str, default: int, low: int, high: int | None = None) -> int:
    if raw is None:
        return default
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < low or \
            (high is not None and raw > high):
        bounds = f">= {low}" if high is None else f"from {low} to {high}"
        raise SettingsError(f"host.{key}: expected a whole number {bounds}, got {raw!r}")
    return raw


def _bool(raw: Any, key: str, default: bool) -> bool:
    if raw is None:
        return default
    if not isinstance(raw, bool):
        raise SettingsError(f"host.{key}: expected true or false, got {raw!r}")
    return raw


def _str(raw: Any, key: str) -> str | None:
    if raw is not None and not isinstance(raw, str):
        raise SettingsError(f"host.{key}: expected a string, got {raw!r}")
    return raw


def load_settings(club_file: Path, data: Path | None = None, night: Path | None = None) -> Settings:
    """The club's host settings; ``night`` overrides the ``[host]`` section's night file."""
    try:
        club = load_club(club_file)
        raw = tomllib.loads(read_text(club_file, "club file")).get("host", {})
    except (ClubFileError, TextFileError) as exc:
        raise SettingsError(str(exc)) from None
    if not isinstance(raw, dict):
        raise SettingsError(f"{club_file}: [host] must be a table")
    for key in raw:
        if key not in KEYS:
            raise SettingsError(f"{club_file}: host.{key}: unknown key; known: "
                                f"{', '.join(sorted(KEYS))}")
    base = club_file.parent

    def path(key: str) -> Path | None:
        value = _str(raw.get(key), key)
        return None if value is None else base / value

    data = data or default_data_dir()
    try:
        broker = BrokerURL.parse(_str(raw.get("broker"), "broker") or "mqtt://127.0.0.1:1883")
    except BrokerConfigError as exc:
        raise SettingsError(f"host.broker: {exc}") from None
    tls = _bool(raw.get("tls"), "tls", True)
    tls_port = _int(raw.get("tls_port"), "tls_port", 8883, 1, 65535)
    if tls and tls_port == broker.port:
        raise SettingsError(f"host.tls_port: {tls_port} is host.broker's port too: the boards' "
                            f"TLS listener needs a port of its own")
    return Settings(
        club_file=club_file, club=club, data=data,
        night=night or path("night"),
        broker=broker,
        listen=_str(raw.get("listen"), "listen") or "127.0.0.1",
        tls=tls,
        tls_port=tls_port,
        passwd=path("passwd"),
        web=_address(raw.get("web"), "web", Address("127.0.0.1", 8080)),
        console=_address(raw.get("console"), "console", Address("127.0.0.1", 8081)),
        club_db=path("club_db"),
        backups=path("backups") or data / "backups",
        keep=_int(raw.get("keep"), "keep", 10, 1),
        firmware=_str(raw.get("firmware"), "firmware"),
        min_free_mb=_int(raw.get("min_free_mb"), "min_free_mb", 200, 0),
        deck_check_days=_int(raw.get("deck_check_days"), "deck_check_days", 30, 1),
        **_web_cert(path("web_cert"), path("web_key")),
    )


def _web_cert(cert: Path | None, key: Path | None) -> dict[str, Path | None]:
    if (cert is None) != (key is None):
        raise SettingsError("host.web_cert and host.web_key go together: the club's own "
                            "certificate for the pages and its private key")
    return {"web_cert": cert, "web_key": key}

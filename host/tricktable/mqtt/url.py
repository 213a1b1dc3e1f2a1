"""Broker URLs: ``BrokerURL.parse("mqtt://[user:pass@]host[:port]")`` (or ``mqtts://`` for
TLS, default port 8883), and the error for a broker setting that cannot be used.
``tricktable.mqtt.client`` builds the clients that connect to one.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit


class BrokerConfigError(RuntimeError):
    """A broker URL or CA file that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class BrokerURL:
    """Where the broker is: ``mqtt://[user:pass@]host[:port]`` or ``mqtts://`` (TLS)."""

    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> BrokerURL:
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise BrokerConfigError(
                f"bad broker URL {url!r}: use mqtt://[user:pass@]host[:port] or mqtts://")
        tls = parts.scheme == "mqtts"
        try:
            port = parts.port or (8883 if tls else 1883)
        except ValueError:
            raise BrokerConfigError(
                f"bad broker URL {url!r}: the port is not a number 1..65535") from None
        return cls(parts.hostname, port, tls,
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None)


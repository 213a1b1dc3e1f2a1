"""Broker URLs and the MQTT client setup they imply, shared by serve, web, watch and demo.

``BrokerURL.parse("mqtt://[user:pass@]host[:port]")`` (or ``mqtts://`` for TLS, default
port 8883) and ``configure_client(client, url, ca_file)``, which sets the credentials and,
for ``mqtts``, TLS verified against ``ca_file`` (the system CAs when it is None).
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as mqtt


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


def configure_client(client: mqtt.Client, url: BrokerURL, ca_file: str | None = None) -> None:
    """Give ``client`` the URL's credentials and, for ``mqtts``, TLS checked against ``ca_file``."""
    if url.username is not None:
        client.username_pw_set(url.username, url.password)
    if url.tls:
        try:
            client.tls_set(ca_certs=ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        except (OSError, ssl.SSLError) as exc:
            raise BrokerConfigError(f"cannot use CA file {ca_file!r}: {exc}") from exc

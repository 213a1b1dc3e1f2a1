"""The one place the host builds, starts and stops its MQTT clients (serve, web, console,
league, fleet, doctor, cardtime, the demo).

``new_client(url, ...)`` is paho's client with callbacks of API version 2, the client id, the
protocol (MQTT 3.1.1, or 5 for the league's shared subscriptions), the URL's credentials and,
for ``mqtts``, TLS checked against a CA file (``configure_client``), and what a part asks for
beside: a persistent session, a last will, reconnect delays, limits on the messages in flight
and queued, manual acknowledgement, Nagle off (``no_delay``). The caller sets its callbacks
(``client.on_message = ...``) and uses paho's client as paho documents it.

``start_client(client, url)`` connects (``background``: ``connect_async``, retrying until the
broker answers) and starts paho's network thread; ``stop_client(client)`` disconnects and joins
it. A broker that cannot be reached raises what paho raises (``OSError``, ``ssl.SSLError`` for
a refused TLS handshake); each part says so in its own words.
"""

from __future__ import annotations

import socket
import ssl
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt

from tricktable.mqtt.url import BrokerConfigError, BrokerURL

KEEPALIVE_S = 60  # paho's own default: seconds between PINGREQs on an idle connection


@dataclass(frozen=True)
class Will:
    """What the broker publishes for a client that vanishes without a DISCONNECT."""

    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = True


def configure_client(client: mqtt.Client, url: BrokerURL, ca_file: str | None = None) -> None:
    """Give ``client`` the URL's credentials and, for ``mqtts``, TLS checked against ``ca_file``
    (the system CAs when it is None); BrokerConfigError for a CA file that cannot be used."""
    if url.username is not None:
        client.username_pw_set(url.username, url.password)
    if url.tls:
        try:
            client.tls_set(ca_certs=ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        except (OSError, ssl.SSLError) as exc:
            raise BrokerConfigError(f"cannot use CA file {ca_file!r}: {exc}") from exc


def no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    """Turn Nagle off on the client's socket (paho's ``on_socket_open``): our messages are
    small and latency matters."""
    if isinstance(sock, socket.socket) and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def new_client(url: BrokerURL, *, client_id: str = "", ca_file: str | None = None,
               mqtt5: bool = False, persistent: bool = False, manual_ack: bool = False,
               will: Will | None = None, reconnect: tuple[float, float] | None = None,
               max_inflight: int | None = None, max_queued: int | None = None,
               nodelay: bool = False) -> mqtt.Client:
    """A paho client for the broker at ``url`` (see the module docstring).

    ``persistent``: an MQTT 3.1.1 session the broker keeps across connections (clean session
    off); under MQTT 5 a session is kept by ``start_client(..., clean_start=False)`` instead.
    ``reconnect``: the least and most seconds between attempts after a lost connection.
    ``max_queued`` 0 queues without limit. BrokerConfigError for a CA file it cannot use."""
    if persistent and mqtt5:
        raise ValueError("under MQTT 5 keep a session with start_client(..., clean_start=False)")
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=None if mqtt5 else not persistent,
                         protocol=mqtt.MQTTv5 if mqtt5 else mqtt.MQTTv311, manual_ack=manual_ack)
    configure_client(client, url, ca_file)
    if will is not None:
        client.will_set(will.topic, will.payload, qos=will.qos, retain=will.retain)
    if reconnect is not None:
        client.reconnect_delay_set(min_delay=reconnect[0], max_delay=reconnect[1])
    if max_inflight is not None:
        client.max_inflight_messages_set(max_inflight)
    if max_queued is not None:
        client.max_queued_messages_set(max_queued)
    if nodelay:
        client.on_socket_open = no_delay
    return client


def start_client(client: mqtt.Client, url: BrokerURL, *, keepalive: int = KEEPALIVE_S,
          background: bool = False, **connect: Any) -> None:
    """Connect ``client`` to ``url`` and start paho's network thread. ``background``: return at
    once and keep trying until the broker answers (``on_connect`` says when). ``connect``:
    paho's further connect arguments (MQTT 5's ``clean_start``, ``properties``)."""
    if background:
        client.connect_async(url.host, url.port, keepalive, **connect)
    else:
        client.connect(url.host, url.port, keepalive, **connect)
    client.loop_start()


def stop_client(client: mqtt.Client, **disconnect: Any) -> None:
    """Disconnect (``disconnect``: paho's arguments, MQTT 5's ``properties``) and stop the
    network thread."""
    client.disconnect(**disconnect)
    client.loop_stop()

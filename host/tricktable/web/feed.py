"""The MQTT side of the scoreboard: a paho client that keeps a ``Club`` model current.

``Feed`` subscribes to the host's retained table state, table events, board status and
config topics and the host's own status, applies each message to a ``tricktable.web.model.Club`` under a lock, and
tells its listeners which table changed. It can also publish an admin control message.
Credentials and TLS (``mqtts``, a CA file) are set up by ``tricktable.mqtt.url``, as for
``tricktable serve``. Used by the web app and by ``tricktable watch``.
"""

from __future__ import annotations

import logging
import ssl
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from tricktable import protocol
from tricktable.mqtt.url import BrokerURL, configure_client
from tricktable.web.model import EVERY_TABLE, BadMessage, Club

log = logging.getLogger(__name__)

Listener = Callable[[str | None], None]


class Feed:
    """A live ``Club`` fed from one broker. Call ``start()``, then read under ``lock``."""

    def __init__(self, host: str, port: int, prefix: str = protocol.DEFAULT_PREFIX, *,
                 username: str | None = None, password: str | None = None,
                 tls: bool = False, ca_file: str | None = None) -> None:
        """``tls`` connects over TLS checked against ``ca_file`` (system CAs when None);
        raises ``tricktable.mqtt.url.BrokerConfigError`` for a CA file it cannot read."""
        self.host, self.port = host, port
        self.club = Club(prefix)
        self.lock = threading.Lock()
        self.bad_messages = 0
        self._listeners: list[Listener] = []
        self._routes: dict[str, Callable[[bytes], None]] = {}
        self._routing = threading.Lock()  # a route added while connecting is subscribed once
        self._connected = threading.Event()
        self._answered = threading.Event()  # the broker accepted or refused us
        self._refusal = ""  # why the broker refused us (bad credentials ...)
        self._client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        configure_client(self._client, BrokerURL(host, port, tls, username, password), ca_file)
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message

    def route(self, topic: str, handler: Callable[[bytes], None]) -> None:
        """Also take ``topic`` (a plain topic) on this connection and hand each message's
        payload to ``handler`` (on the MQTT thread): a program is one client of the broker,
        since the club's broker binds a client id to its user (docs/operations.md,
        "Security")."""
        with self._routing:
            self._routes[topic] = handler
            if self._client.is_connected():
                self._client.subscribe(topic, qos=1)

    @property
    def connected(self) -> bool:
        """The broker answers now (False for a scoreboard serving a night from its files)."""
        return self._client.is_connected()

    def publish(self, topic: str, payload: bytes) -> None:
        """Publish ``payload`` at QoS 1 on this connection."""
        self._client.publish(topic, payload, qos=1)

    def add_listener(self, listener: Listener) -> None:
        """``listener(table)`` runs on the MQTT thread after every applied message."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def start(self, timeout: float = 10.0) -> None:
        """Connect and subscribe; raise ``ConnectionError`` if the broker does not answer,
        refuses the TLS handshake (wrong CA) or refuses the credentials."""
        where = f"{self.host}:{self.port}"
        try:
            self._client.connect(self.host, self.port, keepalive=30)
        except ssl.SSLError as exc:
            raise ConnectionError(
                f"TLS with the MQTT broker at {where} failed: {exc.reason or exc} (is the CA "
                f"file the one that signed the broker's certificate?)") from None
        except OSError as exc:
            raise ConnectionError(f"no MQTT broker answered at {where}: {exc}") from None
        self._client.loop_start()
        self._answered.wait(timeout)
        if not self._connected.is_set():
            self.stop()
            if self._refusal:
                raise ConnectionError(f"the MQTT broker at {where} refused us: {self._refusal}")
            raise ConnectionError(f"no MQTT broker answered at {where}")

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def publish_control(self, table: str, cmd: str, args: dict[str, Any]) -> None:
        """Send an admin command to the host (``{p}/v1/table/{table}/control``)."""
        message = protocol.Control(cmd=cmd, args=args)
        topic = self.club.names.control(table)
        self._client.publish(topic, protocol.encode(message), qos=1).wait_for_publish(5.0)

    def blink(self, board: str, pads: int, ms: int = 10000) -> None:
        """Blink every pad of ``board`` blue, with a chirp, so a director can find it."""
        for pad in range(max(pads, 1)):
            message = protocol.Feedback(pad=pad, led="blue", pattern="blink", ms=ms,
                                        buzz="ok" if pad == 0 else "none")
            self._client.publish(self.club.names.feedback(board), protocol.encode(message),
                                 qos=1).wait_for_publish(5.0)

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any,
                    reason: Any, _props: Any = None) -> None:
        if reason.is_failure:
            log.error("broker refused the scoreboard: %s", reason)
            self._refusal = str(reason)
            self._answered.set()
            return
        with self._routing:
            client.subscribe([(topic, 1) for topic in [*self.club.subscriptions(), *self._routes]])
        self._connected.set()
        self._answered.set()

    def _on_message(self, _client: mqtt.Client, _userdata: Any, msg: mqtt.MQTTMessage) -> None:
        routed = self._routes.get(msg.topic)
        if routed is not None:
            routed(msg.payload)
            return
        try:
            with self.lock:
                table = self.club.handle(msg.topic, msg.payload)
        except BadMessage as exc:
            self.bad_messages += 1
            log.warning("ignored: %s", exc)
            return
        if table == EVERY_TABLE:
            with self.lock:
                changed: list[str | None] = list(self.club.tables)
        else:
            changed = [table]
        for listener in list(self._listeners):
            for name in changed:
                listener(name)

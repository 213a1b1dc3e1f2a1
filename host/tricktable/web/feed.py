"""The MQTT side of the scoreboard: a paho client that keeps a ``Club`` model current.

``Feed`` subscribes to the host's retained table state, table events, board status and
config topics and the host's own status, applies each message to a ``tricktable.web.model.Club`` under a lock, and
tells its listeners which table changed. A bad message is counted and logged, at most
``ratelog.PER_MINUTE`` lines a minute per topic. It can also publish an admin control message.
Its client (credentials, TLS: ``mqtts``, a CA file) is built by ``tricktable.mqtt.client``,
as for ``tricktable serve``. Used by the web app and by ``tricktable watch``.
"""

from __future__ import annotations

import logging
import ssl
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from tricktable import protocol
from tricktable.mqtt.client import new_client, start_client, stop_client
from tricktable.mqtt.ratelog import RateLog
from tricktable.mqtt.url import BrokerURL
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
        self._bad_log = RateLog(log)  # per topic: the ACL makes a board's topics its own
        self._listeners: list[Listener] = []
        self._taps: list[Callable[[str, bytes], None]] = []
        self._tapped: list[str] = []  # filters whose messages only the taps see
        self._routes: dict[str, Callable[[bytes], None]] = {}
        self._routing = threading.Lock()  # a route added while connecting is subscribed once
        self._connected = threading.Event()
        self._answered = threading.Event()  # the broker accepted or refused us
        self._refusal = ""  # why the broker refused us (bad credentials ...)
        self._url = BrokerURL(host, port, tls, username, password)
        self._client = new_client(self._url, ca_file=ca_file, nodelay=True)  # a phone's play waits on it
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

    def tap(self, handler: Callable[[str, bytes], None], *filters: str) -> None:
        """``handler(topic, payload)`` sees every message this feed takes, on the MQTT thread
        before the model; ``filters`` (wildcards allowed) are also taken, for the taps alone
        (the phones' relay reads the acks and feedback of the readers it speaks for so)."""
        with self._routing:
            self._taps.append(handler)
            self._tapped.extend(filters)
            if filters and self._client.is_connected():
                self._client.subscribe([(f, 1) for f in filters])

    def publish_retained(self, topic: str, payload: bytes) -> None:
        """Publish ``payload`` at QoS 1, retained, on this connection."""
        self._client.publish(topic, payload, qos=1, retain=True)

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
            start_client(self._client, self._url, keepalive=30)
        except ssl.SSLError as exc:
            raise ConnectionError(
                f"TLS with the MQTT broker at {where} failed: {exc.reason or exc} (is the CA "
                f"file the one that signed the broker's certificate?)") from None
        except OSError as exc:
            raise ConnectionError(f"no MQTT broker answered at {where}: {exc}") from None
        self._answered.wait(timeout)
        if not self._connected.is_set():
            self.stop()
            if self._refusal:
                raise ConnectionError(f"the MQTT broker at {where} refused us: {self._refusal}")
            raise ConnectionError(f"no MQTT broker answered at {where}")

    def stop(self) -> None:
        stop_client(self._client)

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
            client.subscribe([(topic, 1) for topic in [*self.club.subscriptions(), *self._routes,
                                                       *self._tapped]])
        self._connected.set()
        self._answered.set()

    def _on_message(self, _client: mqtt.Client, _userdata: Any, msg: mqtt.MQTTMessage) -> None:
        for tap in list(self._taps):
            try:
                tap(msg.topic, msg.payload)
            except Exception:  # a broken tap must not stop the scoreboard
                log.exception("tap failed on %s", msg.topic)
        if any(mqtt.topic_matches_sub(f, msg.topic) for f in self._tapped):
            return
        routed = self._routes.get(msg.topic)
        if routed is not None:
            routed(msg.payload)
            return
        try:
            with self.lock:
                table = self.club.handle(msg.topic, msg.payload)
        except BadMessage as exc:
            self.bad_messages += 1
            self._bad_log.warning(msg.topic, f"ignored: {exc}")
            return
        if table == EVERY_TABLE:
            with self.lock:
                changed: list[str | None] = list(self.club.tables)
        else:
            changed = [table]
        for listener in list(self._listeners):
            for name in changed:
                listener(name)

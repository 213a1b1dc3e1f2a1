"""The director console's line to ``serve --night``: send a night command, wait for its answer.

``NightLink`` is a paho client that publishes ``NightCommand`` messages on
``{p}/v1/night/control`` (QoS 1; with ``mqtt/mosquitto/acl.template`` only the director
user may) and hears the night's ``NightAnswer`` on ``{p}/v1/night/events``. ``send()`` gives a
command a fresh id and returns its answer, or raises ``TimeoutError`` when ``serve --night``
does not answer (not running, or running without a night). Given the console's ``Feed``, it
rides on the feed's connection: the club's broker binds a client id to its user, so a program
with two connections under one user would throw itself off.
"""

from __future__ import annotations

import logging
import secrets
import threading
from typing import Any

import paho.mqtt.client as mqtt

from tricktable.mqtt.client import new_client, start_client, stop_client
from tricktable.mqtt.url import BrokerURL
from tricktable.protocol import (
    MAX_CONTROL_MESSAGE,
    NightAnswer,
    NightCommand,
    ProtocolError,
    Topics,
    decode,
    encode,
)
from tricktable.web.feed import Feed

log = logging.getLogger(__name__)


class NightLink:
    """Send the director's commands to the night and wait for the answers."""

    def __init__(self, broker: BrokerURL, prefix: str, ca_file: str | None = None,
                 feed: Feed | None = None) -> None:
        """``feed``: send and hear on the feed's connection instead of one of its own."""
        self.broker = broker
        self.topics = Topics(prefix)
        self._feed = feed
        self._answers: dict[str, NightAnswer] = {}
        self._arrived = threading.Condition()
        self._subscribed = threading.Event()
        self._client = new_client(broker, ca_file=ca_file)
        self._client.on_connect = self._on_connect
        self._client.on_subscribe = lambda *_: self._subscribed.set()
        self._client.on_message = self._on_message

    def start(self, timeout: float = 10.0) -> None:
        """Connect and subscribe; ``ConnectionError`` when the broker does not take us."""
        if self._feed is not None:
            self._feed.route(self.topics.night_events(), self._answer)
            return
        where = f"{self.broker.host}:{self.broker.port}"
        try:
            start_client(self._client, self.broker, keepalive=30)
        except OSError as exc:
            raise ConnectionError(f"no MQTT broker answered at {where}: {exc}") from None
        if not self._subscribed.wait(timeout):
            self.stop()
            raise ConnectionError(f"the MQTT broker at {where} did not take the console")

    def stop(self) -> None:
        if self._feed is not None:
            return  # the feed's connection: the feed stops it
        stop_client(self._client)

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any,
                    _p: Any = None) -> None:
        if reason.is_failure:
            log.error("the broker refused the console: %s", reason)
            return
        client.subscribe(self.topics.night_events(), qos=1)

    def _on_message(self, _c: mqtt.Client, _u: Any, msg: mqtt.MQTTMessage) -> None:
        self._answer(msg.payload)

    def _answer(self, payload: bytes) -> None:
        try:
            answer = decode(NightAnswer, payload, 1 << 16)
        except ProtocolError as exc:
            log.warning("ignored a night answer: %s", exc)
            return
        with self._arrived:
            self._answers[answer.id] = answer
            self._arrived.notify_all()

    def send(self, cmd: str, args: dict[str, Any], by: str, timeout: float = 15.0) -> NightAnswer:
        """Send one command (``ProtocolError`` if it is malformed) and return its answer."""
        command = NightCommand(cmd=cmd, args=args, by=by, id=secrets.token_hex(8))  # type: ignore[arg-type]
        payload = encode(command)
        decode(NightCommand, payload, MAX_CONTROL_MESSAGE)  # checked here as the night will check it
        if self._feed is not None:
            self._feed.publish(self.topics.night_control(), payload)
        else:
            self._client.publish(self.topics.night_control(), payload, qos=1)
        with self._arrived:
            if not self._arrived.wait_for(lambda: command.id in self._answers, timeout):
                raise TimeoutError(f"the night did not answer within {timeout:g} s: is "
                                   "`tricktable serve --night` running on this broker?")
            return self._answers.pop(command.id)

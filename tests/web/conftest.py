"""Fixtures for the scoreboard tests: a scoreboard on a free port and a state publisher."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from tricktable.broker import BrokerHandle
from tricktable.web.server import Scoreboard

ADMIN_TOKEN = "let-me-in"


class Publisher:
    """Publishes table states and board messages like the host does (QoS 1, retained)."""

    def __init__(self, broker: BrokerHandle, prefix: str) -> None:
        self.prefix = prefix
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()

    def state(self, state: dict[str, Any]) -> None:
        self.send(f"{self.prefix}/v1/table/{state['table']}/state", state, retain=True)

    def send(self, topic: str, message: dict[str, Any], retain: bool = False) -> None:
        self.client.publish(topic, json.dumps(message), qos=1, retain=retain).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def publisher(mqtt_broker: BrokerHandle, topic_prefix: str) -> Iterator[Publisher]:
    pub = Publisher(mqtt_broker, topic_prefix)
    yield pub
    pub.close()


@pytest.fixture
def scoreboard(mqtt_broker: BrokerHandle, topic_prefix: str) -> Iterator[Scoreboard]:
    board = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                       admin_token=ADMIN_TOKEN)
    board.start()
    yield board
    board.stop()

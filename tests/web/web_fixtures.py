"""Helpers for the scoreboard tests (imported by tests/web/conftest.py and the tests)."""

from __future__ import annotations

import json
from typing import Any

import paho.mqtt.client as mqtt
from tricktable.broker import BrokerHandle

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

"""Helpers for the scoreboard tests (imported by tests/web/conftest.py and the tests)."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

import httpx
import paho.mqtt.client as mqtt
from tricktable.mqtt.broker import BrokerHandle

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


def read_stream(url: str, into: queue.Queue, stop: threading.Event, timeout: float = 10.0) -> None:
    """Put each server-sent event of ``url`` into ``into`` as ``(kind, data)`` until ``stop``."""
    with httpx.stream("GET", url, timeout=timeout) as response:
        kind = None
        for line in response.iter_lines():
            if stop.is_set():
                return
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                into.put((kind, json.loads(line[6:])))

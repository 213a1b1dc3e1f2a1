"""``tricktable cardtime``: a live table's card-to-verdict figure from its boards' statuses
(docs/cardpath.md, "Measure a real table"; hardware/bring-up.md, step 7)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import paho.mqtt.client as mqtt
import pytest
from tricktable.cardtime import CardTimes

pytestmark = pytest.mark.timeout(60)


def test_times_come_from_fresh_statuses_only() -> None:
    times = CardTimes()
    assert times.status("n1", b'{"v":1,"verdict_ms":[999]}', retained=True) == 0
    assert times.status("n1", b'{"v":1,"verdict_ms":[12, 30, "x", -1]}', retained=False) == 2
    assert times.status("e1", b"not json", retained=False) == 0
    assert times.status("e1", b'{"v":1}', retained=False) == 0
    lines = times.lines()
    assert lines[1].split() == ["n1", "2", "21", "30", "30"]
    assert lines[2].split()[:2] == ["all", "2"]


def test_the_command_prints_the_figure_of_a_live_table(mqtt_broker, topic_prefix) -> None:
    status = f"{topic_prefix}/v1/board/north-1/status"
    board = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{topic_prefix}-board")
    board.connect(mqtt_broker.host, mqtt_broker.port)
    board.loop_start()
    board.publish(status, json.dumps({"v": 1, "verdict_ms": [999]}), qos=1, retain=True)
    proc = subprocess.Popen(
        [sys.executable, "-c", "from tricktable.cli import main; main()", "cardtime",
         "--broker", f"mqtt://{mqtt_broker.host}:{mqtt_broker.port}", "--prefix", topic_prefix,
         "--plays", "5", "--seconds", "50"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        while proc.poll() is None:  # a board keeps reporting until the command has enough
            board.publish(status, json.dumps({"v": 1, "verdict_ms": [30]}), qos=1)
            time.sleep(0.05)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        board.loop_stop()
        board.disconnect()
    assert proc.returncode == 0, f"{out}\n{err}"
    figure = [line.split() for line in out.splitlines() if line.startswith(("north-1 ", "all "))]
    assert figure and figure[-1][0] == "all" and int(figure[-1][1]) >= 5, out
    assert figure[-1][2:] == ["30", "30", "30"], f"the retained 999 is not counted:\n{out}"

"""The host moves a display board to another table through mosquitto (docs/protocol.md,
BoardConfig), the real App under MicroPython (96k heap and the emulator's) and CPython: the board UNSUBSCRIBEs
the old table's display topic and SUBSCRIBEs the new one at once, without reconnecting, and
applies the pads and brightness of the same config.
"""

from __future__ import annotations

import json

import pytest
from fwkit import CASE_HEAP, HostSide, board_output_on_failure, last_json

pytestmark = [pytest.mark.micropython, pytest.mark.timeout(120)]


def test_a_pushed_table_moves_the_display_at_once(interpreter, mqtt_broker, topic_prefix,
                                                  tmp_path):
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    table = f"{topic_prefix}/v1/table"
    publish = host.client.publish
    proc = None
    try:
        publish(f"{table}/t1/display", json.dumps({"v": 1, "text8": "T1"}), qos=1, retain=True)
        publish(f"{table}/t2/display", json.dumps({"v": 1, "text8": "T2"}), qos=1, retain=True)
        (tmp_path / "flash").mkdir()
        spec = tmp_path / "spec.json"
        spec.write_text(json.dumps({
            "config": {"board": "north", "prefix": topic_prefix, "pads": 2, "table": "t1",
                       "display": "max7219", "backoff_ms": [100, 500],
                       "broker": {"host": mqtt_broker.host, "port": mqtt_broker.port}},
            "storage": str(tmp_path / "flash"), "to": "t2"}))
        # the PN532 emulator runs in this board's heap: a board's and its (fwkit.CASE_HEAP)
        proc = interpreter.start("config_run.py", str(spec), heap=CASE_HEAP)
        status = lambda: host.said.get("north", {})  # noqa: E731
        with board_output_on_failure(proc):
            host.wait(lambda: status().get("shows") == "T1", "the board showing table 1")
        config = {"v": 1, "table": "t2", "pads": [{"pad": 1, "seat": 3}], "display": True,
                  "brightness": 9, "future": "a field this firmware does not know"}
        publish(f"{topic_prefix}/v1/board/north/config", json.dumps(config), qos=1, retain=True)
        with board_output_on_failure(proc):
            host.wait(lambda: status().get("moved_to") == "t2", "the moved board's status")
        publish(f"{table}/t1/display", json.dumps({"v": 1, "text8": "OLD"}), qos=1)
        publish(f"{table}/t2/display", json.dumps({"v": 1, "text8": "NEW"}), qos=1)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, out + err
        summary = last_json(out)
        assert summary["seen"] == [f"{table}/t2/display"] * 2  # retained T2, then NEW; no OLD
        assert summary["table"] == "t2" and summary["enabled"] == [1]
        assert summary["brightness"] == 9 and summary["bad_messages"] == 0
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.communicate()
        host.client.publish(f"{topic_prefix}/v1/board/north/config", b"", retain=True)
        host.close()

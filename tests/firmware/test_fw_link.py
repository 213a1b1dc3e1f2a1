"""The firmware's link to the host, end to end: the real App (outbox, MQTT client, scanner,
PN532 driver) on the PN532 emulator, under MicroPython with a 96k heap, through mosquitto,
with a stand-in host that acks like the service. The design's data path (DESIGN.md, "The
data path"): a play is never lost and never applied twice.
"""

from __future__ import annotations

import asyncio
import json
import time

import paho.mqtt.client as mqtt
import pytest
from fwkit import HostSide, last_json
from tricktable.broker import free_port

pytestmark = [pytest.mark.micropython, pytest.mark.timeout(120)]

# Seats 0..3 on pads 0..3; 7-byte NTAG UIDs (they vanish on alternate polls) and 4-byte ones.
HAND = [
    [[(seat + lead) % 4, f"04{trick:02x}{seat:02x}a1b2c3d4" if seat % 2 else f"de{trick:02x}{seat:02x}01"]
     for seat in range(4)]
    for trick, lead in zip(range(6), (1, 3, 0, 2, 1, 3), strict=True)
]
PLAYS = [tuple(card) for trick in HAND for card in trick]


def spec_file(tmp_path, broker_port: int, prefix: str, storage, keepalive: int = 5,
              **extra) -> str:
    storage.mkdir(exist_ok=True)
    spec = {"config": {"board": "north", "prefix": prefix, "pads": 4, "scan_ms": 10,
                       "resend_ms": 1500, "backoff_ms": [100, 500],
                       "broker": {"host": "127.0.0.1", "port": broker_port,
                                  "keepalive": keepalive}},
            "storage": str(storage), **extra}
    path = tmp_path / f"spec-{time.monotonic_ns()}.json"
    path.write_text(json.dumps(spec))
    return str(path)


def played(host: HostSide) -> list[tuple[int, str]]:
    return [(e["pad"], e["uid"]) for e in host.events()]


def test_a_whole_hand_reaches_the_host_once_each_in_order(interpreter, mqtt_broker, topic_prefix,
                                                          tmp_path):
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    try:
        spec = spec_file(tmp_path, mqtt_broker.port, topic_prefix, tmp_path / "flash",
                         tricks=HAND)
        summary = last_json(interpreter.run("board_run.py", spec))
        assert summary["pending"] == 0 and summary["seq"] == 24
        events = host.events()
        boot = summary["boot"]
        assert [(e["boot"], e["seq"]) for e in events] == [(boot, n) for n in range(1, 25)]
        assert played(host) == PLAYS
        assert all(e["kind"] == "place" and len(e["rec"]) == 32 for e in events)
        host.wait(lambda: "north" in host.statuses, "retained status")
        status = host.statuses["north"]
        assert status["online"] is True and status["boot"] == boot
        assert status["readers"] == 4 and status["faults"] == []
    finally:
        host.close()


def test_bad_host_messages_are_counted_and_change_nothing(micropython, mqtt_broker, topic_prefix,
                                                          tmp_path):
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    board = f"{topic_prefix}/v1/board/north"
    try:
        spec = spec_file(tmp_path, mqtt_broker.port, topic_prefix, tmp_path / "flash",
                         tricks=HAND[:1], pace_ms=300)
        proc = micropython.start("board_run.py", spec)
        host.wait(lambda: len(host.events()) >= 1, "first play")
        host.client.publish(f"{board}/ack", b"{not json", qos=1)
        host.client.publish(f"{board}/feedback", json.dumps({"v": 1, "pad": 9, "led": "green"}),
                            qos=1)
        host.client.publish(f"{board}/ack", json.dumps({"v": 1, "boot": 1}), qos=1)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, out + err
        summary = last_json(out)
        assert summary["bad_messages"] == 3
        assert summary["pending"] == 0 and len(host.events()) == 4
    finally:
        host.close()


def test_broker_restart_mid_hand_loses_and_doubles_nothing(micropython, fresh_broker,
                                                           topic_prefix, tmp_path):
    host = HostSide(fresh_broker.host, fresh_broker.port, topic_prefix)
    try:
        spec = spec_file(tmp_path, fresh_broker.port, topic_prefix, tmp_path / "flash",
                         tricks=HAND, pace_ms=120, end="cut", linger_ms=200, wait_s=40)
        proc = micropython.start("board_run.py", spec)
        host.wait(lambda: len(host.events()) >= 6, "six plays before the restart")
        fresh_broker.restart(down_for=1.5)
        out, err = proc.communicate(timeout=90)
        assert proc.returncode == 0, out + err
        summary = last_json(out)
        assert summary["connects"] >= 2, "the board reconnected after the restart"
        assert summary["pending"] == 0
        host.wait(lambda: len(host.events()) == 24, "all 24 plays journaled")
        boot = summary["boot"]
        assert [(e["boot"], e["seq"]) for e in host.events()] == [(boot, n) for n in range(1, 25)]
        assert played(host) == PLAYS, "each placement is one event, in play order"
        # The board went away without DISCONNECT: its last will is the retained status.
        host.wait(lambda: host.statuses.get("north", {}).get("online") is False, "last will")
    finally:
        host.close()


def test_plays_unsent_at_a_power_cut_are_sent_after_reboot(micropython, mqtt_broker,
                                                           topic_prefix, tmp_path):
    flash = tmp_path / "flash"
    dead_port = free_port()  # no broker there: nothing can leave the board
    first = spec_file(tmp_path, dead_port, topic_prefix, flash, tricks=HAND[:2],
                      leave_last=True, end="cut_now", offline=True)
    summary = last_json(micropython.run("board_run.py", first))
    boot = summary["boot"]
    assert summary["pending"] == 8 and summary["published"] == 0

    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    try:
        # After the reboot the last trick's cards still lie on their pads.
        second = spec_file(tmp_path, mqtt_broker.port, topic_prefix, flash,
                           lying=HAND[1], end="disconnect")
        summary = last_json(micropython.run("board_run.py", second))
        assert summary["boot"] == boot + 1 and summary["pending"] == 0
        assert summary["seq"] == 0, "cards lying across the reboot are not reported again"
        assert [(e["boot"], e["seq"]) for e in host.events()] == [(boot, n) for n in range(1, 9)]
        assert played(host) == PLAYS[:8]
    finally:
        host.close()


def test_last_will_marks_a_vanished_board_offline(micropython, mqtt_broker, topic_prefix,
                                                  tmp_path):
    seen: dict[str, dict] = {}
    watcher = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    watcher.on_message = lambda c, u, m: seen.__setitem__(m.topic, json.loads(m.payload))
    watcher.connect(mqtt_broker.host, mqtt_broker.port)
    watcher.subscribe(f"{topic_prefix}/v1/board/+/status", qos=1)
    watcher.loop_start()
    try:
        host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
        spec = spec_file(tmp_path, mqtt_broker.port, topic_prefix, tmp_path / "flash",
                         tricks=HAND[:1], end="cut")
        micropython.run("board_run.py", spec)
        host.close()
        topic = f"{topic_prefix}/v1/board/north/status"
        host.wait(lambda: seen.get(topic) == {"v": 1, "online": False}, "will published")
    finally:
        watcher.loop_stop()
        watcher.disconnect()


def test_keepalive_pings_hold_an_idle_link(micropython, mqtt_broker, topic_prefix, tmp_path):
    """With a 1 s keepalive the broker drops a client silent for 1.5 s; the board pings."""
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    try:
        spec = spec_file(tmp_path, mqtt_broker.port, topic_prefix, tmp_path / "flash",
                         keepalive=1, tricks=HAND[:1], idle_ms=4000)
        summary = last_json(micropython.run("board_run.py", spec))
        assert summary["connects"] == 1, "never dropped while idle"
        assert summary["pending"] == 0 and len(host.events()) == 4
    finally:
        host.close()


def test_the_link_waits_for_wifi_then_connects(mqtt_broker, topic_prefix) -> None:
    """No socket while Wi-Fi is down; once it is up the client connects and publishes."""
    from mqtt import MQTTClient

    wifi = {"up": False}
    client = MQTTClient(mqtt_broker.host, mqtt_broker.port, f"{topic_prefix}-wifi",
                        keepalive=5, backoff_ms=(50, 200))
    client.network_up = lambda: wifi["up"]

    async def scenario() -> tuple[int, int]:
        runner = asyncio.create_task(client.run())
        await asyncio.sleep(0.5)
        before = client.connects
        wifi["up"] = True
        while not client.connected:
            await asyncio.sleep(0.02)
        pid = await client.publish(f"{topic_prefix}/wifi", b"hello", qos=1)
        while pid in client.inflight:  # PUBACK clears it
            await asyncio.sleep(0.02)
        await client.stop()
        await runner
        return before, client.connects

    before, after = asyncio.run(scenario())
    assert (before, after) == (0, 1)

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
from fwkit import HAND, HostSide, board_output_on_failure, last_json
from readerhost import ReaderHost
from tricktable.mqtt.broker import free_port

pytestmark = [pytest.mark.micropython, pytest.mark.timeout(120)]

PLAYS = [tuple(card) for trick in HAND for card in trick]


def spec_file(tmp_path, broker_port: int, prefix: str, storage, readers: ReaderHost,
              keepalive: int = 5, **extra) -> str:
    """board_run.py's spec; the readers are ``readers``' emulated PN532s, outside the board's
    heap (a board has no emulator in its RAM; readerhost.py)."""
    storage.mkdir(exist_ok=True)
    spec = {"config": {"board": "north", "prefix": prefix, "pads": 4, "scan_ms": 10,
                       "resend_ms": 1500, "backoff_ms": [100, 500],
                       "broker": {"host": "127.0.0.1", "port": broker_port,
                                  "keepalive": keepalive}},
            "storage": str(storage), "readers_port": readers.port, **extra}
    path = tmp_path / f"spec-{time.monotonic_ns()}.json"
    path.write_text(json.dumps(spec))
    return str(path)


def played(host: HostSide) -> list[tuple[int, str]]:
    return [(e["pad"], e["uid"]) for e in host.events()]


def test_a_whole_hand_reaches_the_host_once_each_in_order(reader_host, interpreter, mqtt_broker, topic_prefix,
                                                          tmp_path):
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    try:
        spec = spec_file(tmp_path, mqtt_broker.port, topic_prefix, tmp_path / "flash", reader_host,
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


def test_bad_host_messages_are_counted_and_change_nothing(reader_host, micropython, mqtt_broker, topic_prefix,
                                                          tmp_path):
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    board = f"{topic_prefix}/v1/board/north"
    try:
        spec = spec_file(tmp_path, mqtt_broker.port, topic_prefix, tmp_path / "flash", reader_host,
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


def test_broker_restart_mid_hand_loses_and_doubles_nothing(reader_host, micropython, fresh_broker,
                                                           topic_prefix, tmp_path):
    host = HostSide(fresh_broker.host, fresh_broker.port, topic_prefix)
    try:
        spec = spec_file(tmp_path, fresh_broker.port, topic_prefix, tmp_path / "flash", reader_host,
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


def test_plays_unsent_at_a_power_cut_are_sent_after_reboot(reader_host, micropython, mqtt_broker,
                                                           topic_prefix, tmp_path):
    flash = tmp_path / "flash"
    dead_port = free_port()  # no broker there: nothing can leave the board
    first = spec_file(tmp_path, dead_port, topic_prefix, flash, reader_host, tricks=HAND[:2],
                      leave_last=True, end="cut_now", offline=True)
    summary = last_json(micropython.run("board_run.py", first))
    boot = summary["boot"]
    assert summary["pending"] == 8 and summary["published"] == 0

    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    try:
        # After the reboot the last trick's cards still lie on their pads.
        second = spec_file(tmp_path, mqtt_broker.port, topic_prefix, flash, reader_host,
                           lying=HAND[1], end="disconnect")
        out = micropython.run("board_run.py", second)
        summary = last_json(out)
        assert summary["boot"] == boot + 1 and summary["pending"] == 0, out
        assert summary["seq"] == 0, "cards lying across the reboot are not reported again"
        assert [(e["boot"], e["seq"]) for e in host.events()] == [(boot, n) for n in range(1, 9)]
        assert played(host) == PLAYS[:8]
    finally:
        host.close()


def test_a_power_cut_while_plays_are_held_off_flash_loses_and_doubles_nothing(
        reader_host, micropython, mqtt_broker, topic_prefix, tmp_path):
    """Publish first, write after (docs/cardpath.md): the board is cut right after the last
    card of a trick, while its event (and pad state) may still be held off flash. After the
    reboot, with the cards still lying, a card whose state never reached flash is reported
    again under the new boot's key: always a card the host already has (the rules refuse it
    as played; tricktable's journal dedupes by key), never a new or a lost play."""
    flash = tmp_path / "flash"
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    try:
        first = spec_file(tmp_path, mqtt_broker.port, topic_prefix, flash, reader_host,
                          tricks=HAND[:2], leave_last=True, end="cut_now")
        boot = last_json(micropython.run("board_run.py", first))["boot"]
        # The cut may fall before the last event left the board (its publish awaited).
        host.wait(lambda: len(host.events()) >= 7, "the plays published before the cut")
        second = spec_file(tmp_path, mqtt_broker.port, topic_prefix, flash, reader_host,
                           lying=HAND[1], end="disconnect")
        out = micropython.run("board_run.py", second)
        summary = last_json(out)
        assert summary["boot"] == boot + 1 and summary["pending"] == 0, out
        before = [e for e in host.events() if e["boot"] == boot]
        again = [e for e in host.events() if e["boot"] == boot + 1]
        assert [e["seq"] for e in before] == list(range(1, len(before) + 1))
        assert [(e["pad"], e["uid"]) for e in before] == PLAYS[:len(before)]
        assert len(again) == summary["seq"] <= 4, again
        assert {(e["pad"], e["uid"]) for e in again} <= set(PLAYS[4:8]), \
            "only cards of the trick left lying come again"
        assert set(PLAYS[:8]) <= set(played(host)), "no play lost"
    finally:
        host.close()


def test_last_will_marks_a_vanished_board_offline(reader_host, micropython, mqtt_broker, topic_prefix,
                                                  tmp_path):
    seen: dict[str, dict] = {}
    watcher = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    watcher.on_message = lambda c, u, m: seen.__setitem__(m.topic, json.loads(m.payload))
    watcher.connect(mqtt_broker.host, mqtt_broker.port)
    watcher.subscribe(f"{topic_prefix}/v1/board/+/status", qos=1)
    watcher.loop_start()
    try:
        host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
        spec = spec_file(tmp_path, mqtt_broker.port, topic_prefix, tmp_path / "flash", reader_host,
                         tricks=HAND[:1], end="cut")
        micropython.run("board_run.py", spec)
        host.close()
        topic = f"{topic_prefix}/v1/board/north/status"
        host.wait(lambda: seen.get(topic) == {"v": 1, "online": False}, "will published")
    finally:
        watcher.loop_stop()
        watcher.disconnect()


def test_keepalive_pings_hold_an_idle_link(reader_host, micropython, mqtt_broker, topic_prefix, tmp_path):
    """With a 1 s keepalive the broker drops a client silent for 1.5 s; the board pings."""
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    try:
        spec = spec_file(tmp_path, mqtt_broker.port, topic_prefix, tmp_path / "flash", reader_host,
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


def test_a_packet_too_big_for_the_heap_is_read_past_acked_and_the_link_stays_up(
        mqtt_broker, topic_prefix) -> None:
    """mqtt.py's ``max_packet``: a QoS 1 message longer than the board has room for is read
    past in small pieces and PUBACKed (the broker does not send it again when the board comes
    back), and the next message arrives on the same connection."""
    from mqtt import MQTTClient

    topic = f"{topic_prefix}/big"
    got: list[bytes] = []

    def client() -> MQTTClient:
        c = MQTTClient(mqtt_broker.host, mqtt_broker.port, f"{topic_prefix}-big", keepalive=5,
                       backoff_ms=(50, 200))
        c.subscribe(topic)
        c.on_message = lambda t, payload: got.append(bytes(payload))
        return c

    def messages() -> list[bytes]:
        return [p for p in got if not p.startswith(b"probe")]

    sender = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    sender.connect(mqtt_broker.host, mqtt_broker.port)
    sender.loop_start()

    async def until(condition) -> None:
        for _ in range(500):
            if condition():
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"timed out; got {[len(p) for p in got]}")

    async def subscribed(c: MQTTClient) -> None:
        """Probe until one comes back: the broker has made the client's subscription."""
        await until(lambda: c.connected)
        for n in range(100):
            sender.publish(topic, b"probe %d" % n, qos=1).wait_for_publish(5)
            for _ in range(10):
                if [p for p in got if p.startswith(b"probe")]:
                    return
                await asyncio.sleep(0.02)
        raise AssertionError("the client's subscription never took")

    async def session(c: MQTTClient, *payloads: bytes) -> None:
        runner = asyncio.create_task(c.run())
        await subscribed(c)
        for payload in payloads:
            sender.publish(topic, payload, qos=1).wait_for_publish(5)
        await until(lambda: got and got[-1] == payloads[-1])
        await c.stop()
        await runner

    try:
        first = client()
        asyncio.run(session(first, b"x" * (MQTTClient.max_packet + 100), b"small"))
        assert messages() == [b"small"] and first.skipped == 1 and first.connects == 1
        again = client()
        again.max_packet = 1 << 20  # room enough now: the big one would come again if unacked
        asyncio.run(session(again, b"marker"))
        assert messages() == [b"small", b"marker"] and again.skipped == 0
    finally:
        sender.loop_stop()
        sender.disconnect()


def test_a_stalled_link_is_shown_on_the_seats_and_every_play_arrives_once_after_it(
        reader_host, micropython, mqtt_broker, topic_prefix, tmp_path):
    """A Wi-Fi stall under a board (link_faults.FaultProxy: no byte either way for 12 s; the board's
    send buffer a board's few KB) while
    cards are placed: the pads are read all along, the seats show the link is down within 1.5
    keepalive periods of the broker's last word, and once the link is back every play reaches
    the host exactly once (a board that wrote from five tasks without a lock went silent
    for good here, still showing online)."""
    from tricktable.sim.link_faults import FaultProxy

    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    try:
        with FaultProxy(mqtt_broker.host, mqtt_broker.port) as proxy:
            spec = spec_file(tmp_path, proxy.port, topic_prefix, tmp_path / "flash", reader_host,
                             keepalive=2, tricks=HAND[:3], pace_ms=400, watch=True, wait_s=40,
                             sndbuf=4096)
            spec_json = json.loads(open(spec).read())
            spec_json["config"]["status_s"] = 1  # a status a second: more to write in the stall
            open(spec, "w").write(json.dumps(spec_json))
            proc = micropython.start("board_run.py", spec)
            with board_output_on_failure(proc):
                host.wait(lambda: len(host.events()) >= 2, "two plays before the stall")
                proxy.stall(12)
                out, err = proc.communicate(timeout=100)
            assert proc.returncode == 0, out + err
        summary = last_json(out)
        assert summary["pending"] == 0 and summary["connects"] >= 2, summary
        host.wait(lambda: len(host.events()) == 12, "all 12 plays journaled")
        boot = summary["boot"]
        assert [(e["boot"], e["seq"]) for e in host.events()] == [(boot, n) for n in range(1, 13)]
        assert played(host) == PLAYS[:12]
        assert summary["offline_after_ms"], "the seats showed the link down"
        assert max(summary["offline_after_ms"]) <= 1.5 * 2000, summary["offline_after_ms"]
        assert summary["scan_gap_ms"] < 4000, "the pads were read all along (half the watchdog)"
    finally:
        host.close()

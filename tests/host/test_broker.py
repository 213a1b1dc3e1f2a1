"""The broker helper: mosquitto or amqtt on a free port, restart on the same port, auth + ACL."""

from __future__ import annotations

import queue
import socket
import subprocess
import sys
import uuid

import paho.mqtt.client as mqtt
import pytest
from tricktable.mqtt.broker import BrokerAuth, BrokerError, mosquitto_available, start_broker
from waiting import eventually

needs_mosquitto = pytest.mark.skipif(not mosquitto_available(), reason="mosquitto not installed")


def _client(port: int, user: str | None = None, password: str | None = None) -> mqtt.Client:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"t-{uuid.uuid4().hex[:8]}")
    if user is not None:
        client.username_pw_set(user, password)
    return client


def _roundtrip(port: int, topic: str, user: str | None = None, password: str | None = None,
               publisher: tuple[str, str] | None = None) -> bytes | None:
    """Subscribe as (user, password), publish as ``publisher`` (default: same), return what arrived."""
    got: queue.Queue[bytes] = queue.Queue()
    subscribed: queue.Queue[object] = queue.Queue()
    sub = _client(port, user, password)
    sub.on_message = lambda c, u, m: got.put(m.payload)
    sub.on_subscribe = lambda c, u, mid, codes, p: subscribed.put(codes)
    assert sub.connect("127.0.0.1", port) == 0
    sub.loop_start()
    try:
        sub.subscribe(topic, qos=1)
        subscribed.get(timeout=5)
        pub = _client(port, *(publisher or (user, password)))
        pub.connect("127.0.0.1", port)
        pub.loop_start()
        info = pub.publish(topic, b"hello", qos=1)
        info.wait_for_publish(timeout=5)
        pub.disconnect()
        pub.loop_stop()
        try:
            return got.get(timeout=1.5)
        except queue.Empty:
            return None
    finally:
        sub.disconnect()
        sub.loop_stop()


def test_session_broker_carries_messages(mqtt_broker, topic_prefix):
    assert mqtt_broker.host == "127.0.0.1"
    assert mqtt_broker.url == f"mqtt://127.0.0.1:{mqtt_broker.port}"
    assert _roundtrip(mqtt_broker.port, f"{topic_prefix}/x") == b"hello"


@pytest.mark.parametrize("kind", ["amqtt", pytest.param("mosquitto", marks=needs_mosquitto)])
def test_restart_keeps_the_port(kind):
    with start_broker(kind) as broker:
        port = broker.port
        broker.restart()
        assert broker.port == port and broker.running
        assert _roundtrip(port, "t/restart") == b"hello"
        broker.stop()
        assert not broker.running


def test_unknown_kind_is_refused():
    with pytest.raises(BrokerError, match="unknown broker kind 'rabbit'"):
        start_broker("rabbit")  # type: ignore[arg-type]


def test_amqtt_refuses_auth():
    with pytest.raises(BrokerError, match="need mosquitto"):
        start_broker("amqtt", auth=BrokerAuth(users={"a": "b"}))


@needs_mosquitto
def test_mosquitto_auth_and_acl():
    acl = "user host\ntopic readwrite #\n\nuser board1\ntopic write t/board1/#\ntopic read t/board1/#\n"
    auth = BrokerAuth(users={"host": "hpw", "board1": "b1pw"}, acl=acl)
    with start_broker("mosquitto", auth=auth) as broker:
        # a wrong password is refused by the broker
        refused = _client(broker.port, "board1", "wrong")
        rc: queue.Queue[object] = queue.Queue()
        refused.on_connect = lambda c, u, f, reason, p: rc.put(reason)
        refused.connect("127.0.0.1", broker.port)
        refused.loop_start()
        assert rc.get(timeout=5).is_failure
        refused.loop_stop()
        assert _roundtrip(broker.port, "t/board1/event", "host", "hpw",
                          publisher=("board1", "b1pw")) == b"hello"
        # board1 may not publish as board2: the broker drops it
        assert _roundtrip(broker.port, "t/board2/event", "host", "hpw",
                          publisher=("board1", "b1pw")) is None


@needs_mosquitto
def test_a_mosquitto_dies_with_the_program_that_started_it():
    """A demo or host killed with SIGKILL leaves no broker listening behind it."""
    starter = subprocess.Popen(
        [sys.executable, "-c",
         "from tricktable.mqtt.broker import start_broker; import time; "
         "b = start_broker('mosquitto'); print(b.port, flush=True); time.sleep(600)"],
        stdout=subprocess.PIPE, text=True)
    try:
        port = int(starter.stdout.readline())
        assert _listening(port)
    finally:
        starter.kill()
        starter.wait()
    eventually(lambda: not _listening(port), "mosquitto stopping with the process that started it")


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0

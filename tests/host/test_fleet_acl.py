"""Under the club's ACL (mqtt/mosquitto/acl.template and each board's block) only the fleet user offers firmware: an
offer the host's user publishes on a board's ``update`` topic never reaches the board, on the
real mosquitto; the same offer from ``tricktable-fleet`` does (the positive control).
"""

from __future__ import annotations

import queue

import pytest
from hostkit import mqtt_client
from tricktable.mqtt.broker import BrokerAuth, mosquitto_available, start_broker
from tricktable.provision.acl import acl_text

pytestmark = pytest.mark.skipif(not mosquitto_available(), reason="needs mosquitto")

PASSWORDS = {"tricktable-host": "host-pw", "tricktable-fleet": "fleet-pw", "t1-n": "n-pw"}


def connected(port: int, user: str, on_message=None):
    client = mqtt_client(port, user)
    client.username_pw_set(user, PASSWORDS[user])
    answers: queue.Queue[object] = queue.Queue()
    client.on_connect = lambda c, u, f, reason, p: answers.put(reason)
    if on_message is not None:
        client.on_message = on_message
    client.connect("127.0.0.1", port)
    client.loop_start()
    reason = answers.get(timeout=10)
    assert not reason.is_failure, f"{user} could not log in: {reason}"
    return client


@pytest.mark.parametrize("topic", ["update", "update/chunk"])
def test_only_the_fleet_user_reaches_a_boards_update_topics(topic_prefix, topic):
    acl = acl_text(topic_prefix, {"t1-n": "t1"})  # the club's ACL: the template, the board's block
    broker = start_broker("mosquitto", auth=BrokerAuth(users=PASSWORDS, acl=acl))
    heard: queue.Queue[bytes] = queue.Queue()
    clients = []
    try:
        board = connected(broker.port, "t1-n", lambda c, u, m: heard.put(m.payload))
        clients.append(board)
        subscribed: queue.Queue[object] = queue.Queue()
        board.on_subscribe = lambda *a: subscribed.put(a)
        board.subscribe(f"{topic_prefix}/v1/board/t1-n/update/#", qos=1)
        board.subscribe(f"{topic_prefix}/v1/board/t1-n/update", qos=1)
        subscribed.get(timeout=10)
        subscribed.get(timeout=10)
        where = f"{topic_prefix}/v1/board/t1-n/{topic}"
        for user in ("tricktable-host", "tricktable-fleet"):
            sender = connected(broker.port, user)
            clients.append(sender)
            sender.publish(where, f"offer from {user}".encode(), qos=1).wait_for_publish(10)
        first = heard.get(timeout=10)
        assert first == b"offer from tricktable-fleet", f"the board heard {first!r} first"
    finally:
        for client in clients:
            client.loop_stop()
            client.disconnect()
        broker.stop()

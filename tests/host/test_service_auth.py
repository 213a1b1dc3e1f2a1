"""Broker auth and the club's ACL (host/tricktable/mqtt/mosquitto/acl.template and a block per
board, provision.acl), with the real service.

Under that ACL a board can publish only its own topics: an event published by board t1-n on
board t1-e's topic never reaches the host. A payload naming another board than its topic is
refused by the host itself.
"""

from __future__ import annotations

import queue

import pytest
from hostkit import SEATS, Board, Observer, make_club, make_registry, mqtt_client, token_uid
from tricktable.deckkit.decks import Registry
from tricktable.mqtt.broker import BrokerAuth, mosquitto_available, start_broker
from tricktable.protocol import encode
from tricktable.provision.acl import acl_text
from tricktable.serve.journal import Journal
from tricktable.serve.service import BrokerURL, Service

pytestmark = pytest.mark.skipif(not mosquitto_available(), reason="needs mosquitto")

PASSWORDS = {"tricktable-host": "host-pw", "tricktable-web": "web-pw",
             "tricktable-director": "director-pw",
             **{f"t1-{s}": f"{s}-pw" for s in SEATS}}


@pytest.fixture
def secured(topic_prefix, tmp_path):
    acl = acl_text(topic_prefix, {f"t1-{s}": "t1" for s in SEATS})  # with each board's block
    broker = start_broker("mosquitto", auth=BrokerAuth(users=PASSWORDS, acl=acl))
    make_registry(tmp_path / "decks.sqlite").close()
    journal, registry = Journal(tmp_path / "j.sqlite"), Registry(tmp_path / "decks.sqlite")
    url = BrokerURL.parse(f"mqtt://tricktable-host:host-pw@127.0.0.1:{broker.port}")
    service = Service(make_club(topic_prefix), journal, registry, url, client_id="host-auth")
    service.start()
    assert service.connected.wait(10)
    observer = Observer(broker.port, topic_prefix, auth=("tricktable-web", "web-pw"))
    boards = [Board(broker.port, topic_prefix, f"t1-{s}", password=f"{s}-pw") for s in SEATS]
    yield broker, service, journal, observer, boards
    for board in boards:
        board.close()
    observer.close()
    service.stop()
    journal.close()
    registry.close()
    broker.stop()


def test_a_board_cannot_publish_as_another_board(secured):
    broker, service, journal, observer, boards = secured
    north, east = boards[0], boards[1]
    # north forges an event on east's topic: the broker drops it (PUBACK, but not delivered)
    forged = north.event(0, token_uid("DEAL"))
    north.wait_delivered(north.send(forged, topic=observer.topics.board_event("t1-e")))
    # a genuine tap afterwards is the first thing the host sees
    mark = observer.mark()
    north.tap(token_uid("DEAL"))
    _, verdict = observer.verdict("t1", mark)
    assert (verdict.kind, verdict.board) == ("accepted", "t1-n")
    assert journal.count() == 1
    # east's payload claiming to be north, on east's own topic: refused by the host
    mark = observer.mark()
    east.send(encode(north.event(0, token_uid("BID:3"))))
    _, verdict = observer.verdict("t1", mark)
    assert (verdict.kind, verdict.code) == ("invalid", "board_mismatch")


def test_wrong_password_is_refused_by_the_broker(secured):
    broker, *_ = secured
    client = mqtt_client(broker.port, "t1-n-impostor")
    client.username_pw_set("t1-n", "wrong")
    answers: queue.Queue[object] = queue.Queue()
    client.on_connect = lambda c, u, f, reason, p: answers.put(reason)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        assert answers.get(timeout=10).is_failure
    finally:
        client.loop_stop()

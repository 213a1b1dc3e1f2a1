"""The club broker's ACL for phone readers (docs/phones.md, "What the broker allows"): the
scoreboard, which relays paired phones' plays, may publish as a phone reader of the club
file (its event and its status) and as no board; a board still publishes as itself."""

from __future__ import annotations

import pytest
from clubkit import start_club_broker
from tricktable.mqtt.broker import mosquitto_available

pytestmark = pytest.mark.skipif(not mosquitto_available(), reason="needs mosquitto")
READERS = {"t1-north": "t1", "t1.phone1": "t1"}  # North by board, East by phone


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    broker = start_club_broker(tmp_path_factory.mktemp("club"), "tricktable", READERS)
    yield broker
    broker.stop()


def test_the_scoreboard_relays_as_a_phone_reader_and_never_as_a_board(club):
    p = club.prefix
    host = club.client("tricktable-host")
    host.subscribe(f"{p}/v1/board/+/event")
    web = club.client("tricktable-web")
    web.publish(f"{p}/v1/board/t1-north/event", b"forged by the scoreboard")
    web.publish(f"{p}/v1/board/t1.phone2/event", b"a phone seat the club file has not")
    web.publish(f"{p}/v1/board/t1.phone1/event", b"East's phone")
    assert host.next_message() == (f"{p}/v1/board/t1.phone1/event", b"East's phone")
    north = club.client("t1-north")  # the positive control: the board itself
    north.publish(f"{p}/v1/board/t1-north/event", b"North's board")
    assert host.next_message() == (f"{p}/v1/board/t1-north/event", b"North's board")
    assert host.messages.empty()


def test_the_scoreboard_keeps_a_phone_readers_status(club):
    p = club.prefix
    host = club.client("tricktable-host")
    host.subscribe(f"{p}/v1/board/+/status")
    club.client("tricktable-web").publish(f"{p}/v1/board/t1.phone1/status", b'{"v":1}')
    assert host.next_message() == (f"{p}/v1/board/t1.phone1/status", b'{"v":1}')

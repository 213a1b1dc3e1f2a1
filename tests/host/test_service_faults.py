"""No message, and no fault while handling one, stops the service (against a real broker).

A poison message (invalid UTF-8 inside a JSON string) is refused and the tables play on, also
after a restart. A message whose handling fails is reported each time, and refused for good
(journaled, acknowledged, shown) once it has failed ``POISON_AFTER`` times; the table never
holds what the journal does not. A board that floods refused messages fills no disk. Fuzzed
board statuses and control commands change no game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import paho.mqtt.client as mqtt
import pytest
from hostkit import (
    Host,
    Observer,
    ResendingBoard,
    bot_choice,
    make_registry,
    mqtt_client,
    new_shadow,
    play_to,
    tap_for,
)
from tricktable.protocol import HostStatus, decode
from tricktable.serve.health import POISON_AFTER, REFUSED_PER_MINUTE
from tricktable.serve.journal import Journal
from tricktable.serve.table import TableSession
from waiting import eventually

POISON = b'{"v":1,"board":"t1-n","boot":1,"seq":1,"t":5,"pad":0,"uid":"\xed\xa0\x80"}'


@pytest.fixture
def files(tmp_path):
    make_registry(tmp_path / "decks.sqlite").close()
    return tmp_path / "journal.sqlite", tmp_path / "decks.sqlite"


@pytest.fixture
def host(mqtt_broker, topic_prefix, files) -> Iterator[Host]:
    h = Host(mqtt_broker.port, topic_prefix, *files)
    yield h
    h.close()


def raw_publisher(port: int) -> mqtt.Client:
    client = mqtt_client(port, f"raw-{random.getrandbits(32):08x}")
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def host_status(observer: Observer, start: int = 0, **wanted) -> HostStatus:
    """The first host status from ``start`` whose fields have the ``wanted`` values."""
    topic = observer.topics.host_status()

    def match(t: str, payload: bytes) -> bool:
        if t != topic or not payload:
            return False
        status = json.loads(payload)
        return all(status.get(k) == v for k, v in wanted.items())

    return decode(HostStatus, observer.wait_for(match, start)[2], 4096)


def test_the_poison_message_is_refused_and_every_table_plays_on_also_after_a_restart(
        mqtt_broker, topic_prefix, files):
    host = Host(mqtt_broker.port, topic_prefix, *files)
    shadow, rng = new_shadow(), random.Random(3)
    raw = raw_publisher(mqtt_broker.port)
    try:
        mark = host.observer.mark()
        raw.publish(host.topics.board_event("t1-n"), POISON, qos=1).wait_for_publish(10)
        _, refused = host.observer.verdict("t1", mark)
        assert (refused.kind, refused.code) == ("invalid", "malformed")
        assert "not UTF-8" in refused.reason
        play_to(host, shadow, rng, lambda s: len(s.actions) >= 3)
        host.restart_service()
        play_to(host, shadow, rng, lambda s: len(s.actions) >= 6)
        with Journal(files[0]) as journal:
            assert journal.count("pad") == 6 and journal.count("invalid") == 1
    finally:
        raw.disconnect()
        raw.loop_stop()
        host.close()


def test_a_message_that_fails_again_and_again_is_refused_for_good(host, monkeypatch):
    shadow, rng = new_shadow(), random.Random(4)
    play_to(host, shadow, rng, lambda s: len(s.actions) >= 2)
    before = host.service.state("t1")
    cursed = tap_for(bot_choice(shadow, rng))
    real_on_pad = TableSession.on_pad

    def on_pad_with_a_bug(self, board, pad, uid, rec):
        if uid == cursed:
            self.engine.actions.append("half-applied")  # what a bug may leave behind
            raise KeyError("a bug in the table layer")
        return real_on_pad(self, board, pad, uid, rec)

    monkeypatch.setattr(TableSession, "on_pad", on_pad_with_a_bug)
    seat_board = host.boards[shadow.to_act].board
    board = ResendingBoard(host.port, host.prefix, seat_board, resend_s=0.2, boot=2,
                           client_id=f"{host.prefix}-{seat_board}-resending")
    try:
        mark = host.observer.mark()
        event = board.event(0, cursed)
        board.send(event)
        codes = []
        while len(codes) < POISON_AFTER:
            mark, verdict = host.observer.verdict("t1", mark)
            codes.append(verdict.code)
            if verdict.code == "fault":
                assert "KeyError" in verdict.reason and "a bug in the table layer" in verdict.reason
        assert codes == ["fault"] * (POISON_AFTER - 1) + ["poison"], codes
        eventually(lambda: event.seq not in board.unacked, "the poison message acknowledged")
        board.send(event)  # a copy sent again (its ack was on the way): acknowledged, no more
        eventually(lambda: event.seq not in board.unacked, "the copy acknowledged")
        assert host.service.health.faults == POISON_AFTER, "the copy was handled again"
        status = host_status(host.observer, poisoned=1)
        assert status.faults == POISON_AFTER and "a bug in the table layer" in status.last_fault
        assert host.service.state("t1") == before  # nothing of it stayed in the table
        assert host.journal.count("pad") == 2
        [poisoned] = host.journal.entries(kinds=("invalid",))
        assert poisoned.note.startswith(f"poison: refused for good after failing {POISON_AFTER}")
    finally:
        board.close()
    monkeypatch.undo()  # the bug is fixed: the same card plays
    play_to(host, shadow, rng, lambda s: len(s.actions) >= 6)


def test_a_flooding_board_fills_no_disk_and_is_named(host):
    raw = raw_publisher(host.port)
    try:
        topic = host.topics.board_event("t1-s")
        for n in range(REFUSED_PER_MINUTE * 3):
            raw.publish(topic, b"x" * 400 + str(n).encode(), qos=1)
        status = host_status(host.observer, flooding=["t1-s"])
        assert status.storage == "ok"
        eventually(lambda: host.service.health.dropped.get("t1-s", 0)
                   == REFUSED_PER_MINUTE * 2, "every flooded message counted")
        assert host.journal.count("invalid") == REFUSED_PER_MINUTE
    finally:
        raw.disconnect()
        raw.loop_stop()
    shadow, rng = new_shadow(), random.Random(5)
    play_to(host, shadow, rng, lambda s: len(s.actions) >= 3)


def test_fuzzed_board_statuses_and_controls_change_no_game(host):
    shadow, rng = new_shadow(), random.Random(6)
    play_to(host, shadow, rng, lambda s: len(s.actions) >= 3)
    before = host.service.state("t1")
    raw, fuzz = raw_publisher(host.port), random.Random(7)
    statuses = [b'{"v":1,"online":false}', b'{"v":1,"online":"no"}', b"\xff\xfe", b"{}", b"",
                b'{"v":1,"online":true,"heap":-1}', b'{"v":1,"online":false,"boot":99}']
    controls = [b'{"v":1,"cmd":"explode"}', b'{"v":1,"cmd":"undo","args":[]}', b"\xed\xa0\x80",
                b'{"v":1,"cmd":"action","args":{"action":{"type":"nonsense"}}}',
                b'{"v":1,"cmd":"seat","args":{"players":7}}', b'{"v":2,"cmd":"undo"}']
    try:
        for _ in range(200):
            board = fuzz.choice(["t1-n", "t1-e", "t1-s", "t1-w"])
            raw.publish(host.topics.board_status(board), fuzz.choice(statuses) +
                        bytes(fuzz.getrandbits(8) for _ in range(fuzz.randrange(3))), qos=1)
            raw.publish(host.topics.control("t1"), fuzz.choice(controls), qos=1)
        mark = host.observer.mark()  # a last command the service answers, once all are handled
        raw.publish(host.topics.control("t9"), b'{"v":1,"cmd":"undo","id":"last"}', qos=1)
        answer = host.observer.wait_for(
            lambda t, p: t == host.topics.host_events() and b'"id":"last"' in p, mark)
        assert b'"code":"unknown_table"' in answer[2]
    finally:
        raw.disconnect()
        raw.loop_stop()
    after = host.service.state("t1")
    assert {**after, "boards_online": []} == {**before, "boards_online": []}
    assert host.service.status.faults == 0
    play_to(host, shadow, rng, lambda s: len(s.actions) >= 6)


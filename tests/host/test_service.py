"""The host service end to end, against a real broker: raw MQTT pad events in, verdicts out."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hostkit import (
    PLAYERS,
    UNKNOWN_UID,
    Board,
    Host,
    Observer,
    make_club,
    new_shadow,
    play_to,
    token_uid,
)
from tricktable.cli.export_cmd import export
from tricktable.history import read_text, verify
from tricktable.protocol import (
    MAX_BOARD_MESSAGE,
    Ack,
    BoardConfig,
    BoardStatus,
    Control,
    Display,
    Feedback,
    PadSeat,
    decode,
    encode,
)
from tricktable.serve.service import BrokerURL, Service, ServiceError


def test_a_whole_game_by_raw_pad_events(host):
    shadow, rng = new_shadow(), random.Random(11)
    # a refusal on the way, at every phase: out of turn, unknown tag
    play_to(host, shadow, rng, lambda s: s.phase == "bidding")
    wrong = host.tap((shadow.to_act + 1) % 4, token_uid("PASS"))
    assert (wrong.kind, wrong.code) == ("refused", "not_your_turn")
    unknown = host.tap(shadow.to_act, UNKNOWN_UID)
    assert (unknown.kind, unknown.code) == ("refused", "unknown_tag")
    play_to(host, shadow, rng, lambda s: s.public_state()["game_over"])
    state = host.retained_state(len(shadow.actions))
    assert state["game_over"] and state["winner"] is not None
    expected = {**shadow.public_state(), "table": "t1", "game": 1, "round": None,
                "actions": len(shadow.actions)}
    assert {k: v for k, v in state.items() if k != "boards_online"} == expected
    [game] = host.journal.games("t1")
    assert game.setup["players"] == PLAYERS
    assert game.actions == [a.to_json() for a in shadow.actions]
    # the journal's game is a hand history that verifies, and `tricktable export` writes it
    assert verify(host.journal.history("t1", 1)) == []
    out = CliRunner().invoke(export, [host.journal.path, "--table", "t1"])
    assert out.exit_code == 0, out.output
    assert read_text(out.output).config == game.setup | {"variant": "bid-euchre"}


def test_every_event_is_acknowledged_after_journaling(host):
    board = host.boards[0]
    mark = host.observer.mark()
    event = board.tap(token_uid("DEAL"))
    _, _, payload = host.observer.wait_for(lambda t, p: t == host.topics.ack("t1-n"), mark)
    assert decode(Ack, payload) == Ack(boot=event.boot, seq=event.seq)
    assert host.journal.count("pad") == 1


def test_the_same_event_twice_is_applied_once(host):
    board = host.boards[0]
    event = board.event(0, token_uid("DEAL"))
    mark = host.observer.mark()
    board.send(event)
    board.send(event)
    acks = 0
    index = mark
    while acks < 2:  # both copies are acknowledged ...
        index, _, _ = host.observer.wait_for(lambda t, p: t == host.topics.ack("t1-n"), index)
        index, acks = index + 1, acks + 1
    # ... but only one is applied: the next verdict after the DEAL is for the next tap
    first = host.observer.verdict("t1", mark)
    assert first[1].kind == "accepted"
    nxt = host.tap(1, token_uid("BID:3"))
    assert nxt.kind == "accepted", nxt
    verdicts = [decode_event(p) for t, p, _ in host.observer.messages[mark:]
                if t == host.topics.events("t1") and b'"kind":"accepted"' in p]
    assert [v["action"]["type"] for v in verdicts] == ["deal", "bid"]
    assert host.journal.count("pad") == 2


def decode_event(payload: bytes) -> dict:
    return json.loads(payload)


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (b"{not json", "malformed"),
        (b'{"v":1,"board":"t1-n","boot":1,"seq":"x","t":0,"pad":0,"uid":"04a1b2c3"}', "malformed"),
        (b'{"v":1,"board":"t1-n","boot":1,"seq":1,"t":0,"pad":0,"uid":"' + b"ab" * 300 + b'"}',
         "too_large"),
        (b'{"v":1,"board":"t1-e","boot":1,"seq":1,"t":0,"pad":0,"uid":"04a1b2c3"}', "board_mismatch"),
    ],
)
def test_bad_messages_are_refused_with_a_clear_event(host, payload, code):
    before = host.service.state("t1")
    mark = host.observer.mark()
    host.boards[0].send(payload)
    verdict = host.observer.verdict("t1", mark)[1]
    assert (verdict.kind, verdict.code, verdict.board) == ("invalid", code, "t1-n")
    assert verdict.reason
    assert host.service.state("t1") == before
    assert host.journal.count("pad") == 0 and host.journal.count("invalid") == 1
    assert len(payload) > MAX_BOARD_MESSAGE or code != "too_large"


def test_a_board_not_seated_is_refused(host):
    stranger = Board(host.port, host.prefix, "t9-x")
    try:
        before = host.service.state("t1")
        mark = host.observer.mark()
        stranger.tap(token_uid("DEAL"))
        _, _, payload = host.observer.wait_for(lambda t, p: t == host.topics.host_events(), mark)
        event = json.loads(payload)
        assert (event["kind"], event["code"], event["board"]) == ("invalid", "unseated_board", "t9-x")
        # acknowledged so the board stops resending, red at its pad, and nothing applied
        host.observer.wait_for(lambda t, p: t == host.topics.ack("t9-x"), mark)
        _, _, payload = host.observer.wait_for(lambda t, p: t == host.topics.feedback("t9-x"), mark)
        assert decode(Feedback, payload).led == "red"
        assert host.service.state("t1") == before
    finally:
        stranger.close()


def test_control_commands_are_journaled_and_answered(host):
    mark = host.observer.mark()
    host.observer.client.publish(host.topics.control("t1"),
                                 encode(Control(cmd="undo", id="r1")), qos=1)
    _, _, payload = host.observer.wait_for(
        lambda t, p: t == host.topics.events("t1") and b'"kind":"control"' in p, mark)
    answer = json.loads(payload)
    assert (answer["id"], answer["code"]) == ("r1", "nothing_to_undo")
    assert host.tap(0, token_uid("DEAL")).kind == "accepted"
    result = host.service.control("t1", Control(cmd="undo", id="r2"))
    assert result is not None and result.ok
    assert host.service.state("t1")["phase"] == "deal"
    assert host.service.control("t1", Control(cmd="undo", id="r2")) is None  # same id: once


def test_bad_broker_urls_are_refused():
    for url in ("http://x", "mqtt://", "mqtt://h:notaport"):
        with pytest.raises(ServiceError, match="bad broker URL"):
            BrokerURL.parse(url)
    assert BrokerURL.parse("mqtts://u:p%40ss@h") == BrokerURL("h", 8883, True, "u", "p@ss")


def test_a_new_service_rebuilds_from_the_journal(host):
    assert host.tap(0, token_uid("DEAL")).kind == "accepted"
    assert host.tap(1, token_uid("BID:3")).kind == "accepted"
    assert host.service.control("t1", Control(cmd="undo", id="u1")).ok
    assert host.tap(1, token_uid("BID:4")).kind == "accepted"
    before = host.service.state("t1")
    host.service.stop()
    host.service = Service(make_club(host.prefix), host.journal, host.registry,
                           BrokerURL("127.0.0.1", host.port), client_id=f"host-{host.prefix}")
    assert host.service.state("t1") == before  # rebuilt before connecting
    host.service.start()
    assert host.service.connected.wait(10)
    assert host.tap(2, token_uid("PASS")).kind == "accepted"
    assert host.service.state("t1")["bids"][-1]["seat"] == 2


def test_the_club_files_brightness_goes_to_the_boards(mqtt_broker, topic_prefix, tmp_path,
                                                     registry_file):
    host = Host(mqtt_broker.port, topic_prefix, tmp_path / "j.sqlite", registry_file,
                make_club(topic_prefix, brightness=3))
    try:
        _, _, payload = host.observer.wait_for(lambda t, p: t == host.topics.config("t1-e"))
        assert decode(BoardConfig, payload).brightness == 3
    finally:
        host.close()


def test_board_status_config_and_display(host):
    mark = host.observer.mark()
    north = host.boards[0]
    north.client.publish(host.topics.board_status("t1-n"),
                         encode(BoardStatus(online=True, boot=1, fw="test")), qos=1, retain=True)
    _, _, payload = host.observer.wait_for(
        lambda t, p: t == host.topics.state("t1") and b'"boards_online":["t1-n"]' in p, mark)
    assert json.loads(payload)["boards_online"] == ["t1-n"]
    config = Observer(host.port, host.prefix)
    try:
        _, _, payload = config.wait_for(lambda t, p: t == host.topics.config("t1-n"))
        assert decode(BoardConfig, payload) == BoardConfig(table="t1", pads=[PadSeat(pad=0, seat=0)])
        _, _, payload = config.wait_for(lambda t, p: t == host.topics.display("t1"))
        display = decode(Display, payload)
        assert len(display.text8) <= 8 and display.lines[0].startswith("T1 GAME 1 HAND")
    finally:
        config.close()
    north.client.publish(host.topics.board_status("t1-n"), b"", qos=1, retain=True)

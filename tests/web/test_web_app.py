"""The scoreboard over HTTP: JSON API, live event stream and admin actions, fed through a
real MQTT broker by public_state-shaped messages."""

from __future__ import annotations

import queue
import threading

import httpx
import paho.mqtt.client as mqtt
import pytest
from tricktable import protocol
from tricktable.mqtt.broker import BrokerHandle
from tricktable.web.server import Scoreboard
from waiting import eventually
from web_fixtures import ADMIN_TOKEN, Publisher, read_stream
from web_script import base_state, game_states

WAIT = 30.0  # a liveness bound: a loaded 2-core CI machine can be slow, never this slow


def club(board: Scoreboard) -> list[dict]:
    return httpx.get(f"{board.url}/api/club").json()["tables"]


def test_pages_are_served(scoreboard: Scoreboard) -> None:
    for path in ("/", "/table/1", "/replay/1", "/static/app.js", "/static/app.css"):
        assert httpx.get(scoreboard.url + path).status_code == 200, path


def test_club_api_follows_the_retained_state(scoreboard: Scoreboard, publisher: Publisher) -> None:
    states = game_states("3", hands=1)
    publisher.state(states[0])
    eventually(lambda: club(scoreboard), "table 3 appears")
    publisher.state(states[-1])
    (row,) = eventually(
        lambda: [t for t in club(scoreboard) if t["phase"] == "game_over"], "game over shown")
    assert row["scores"] == [4, -2] and row["winner"] == 0


def test_table_api_and_replay_api(scoreboard: Scoreboard, publisher: Publisher) -> None:
    for state in game_states("5", hands=2):
        publisher.state(state)
    url = f"{scoreboard.url}/api/table/5"
    eventually(lambda: httpx.get(url).json().get("summary", {}).get("game_over"), "whole game seen")
    hands = httpx.get(f"{url}/hands").json()["hands"]
    assert [(h["hand"], h["tricks"]) for h in hands] == [(1, 6), (2, 6)]
    hand = httpx.get(f"{url}/hands/1/2").json()
    assert len(hand["tricks"]) == 6 and hand["revokes"]
    missing = httpx.get(f"{url}/hands/1/9")
    assert missing.status_code == 404 and "no game 1 hand 9" in missing.json()["error"]
    assert httpx.get(f"{scoreboard.url}/api/table/nope").status_code == 404


def test_event_stream_sends_each_change_live(scoreboard: Scoreboard, publisher: Publisher) -> None:
    states = game_states("9", hands=1)
    publisher.state(states[0])
    eventually(lambda: club(scoreboard), "table 9 appears")
    got: queue.Queue = queue.Queue()
    stop = threading.Event()
    reader = threading.Thread(target=read_stream, daemon=True,
                              args=(f"{scoreboard.url}/api/stream?table=9", got, stop))
    reader.start()
    kind, first = got.get(timeout=WAIT)
    assert kind == "view" and first["state"]["phase"] == "bidding"
    publisher.state(states[-1])
    while True:
        kind, view = got.get(timeout=WAIT)
        if view["state"]["phase"] == "game_over":
            break
    assert view["score_history"][-1] == {"hand": 1, "scores": [4, -2]}
    stop.set()


def test_club_stream_sends_table_summaries(scoreboard: Scoreboard, publisher: Publisher) -> None:
    got: queue.Queue = queue.Queue()
    stop = threading.Event()
    threading.Thread(target=read_stream, daemon=True,
                     args=(f"{scoreboard.url}/api/stream", got, stop)).start()
    hub = scoreboard.app.state.hub
    eventually(lambda: hub.subscribers, "the stream is open")
    publisher.state(base_state("11"))
    kind, summary = got.get(timeout=WAIT)
    assert kind == "table" and summary["table"] == "11" and summary["variant"] == "bid-euchre"
    stop.set()


def control_listener(broker: BrokerHandle, prefix: str) -> tuple[mqtt.Client, queue.Queue]:
    got: queue.Queue = queue.Queue()
    ready = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.on_message = lambda _c, _u, m: got.put(m)
    client.on_subscribe = lambda *_a: ready.set()
    client.connect(broker.host, broker.port)
    client.loop_start()
    client.subscribe(f"{prefix}/v1/table/+/control", qos=1)
    assert ready.wait(WAIT)
    return client, got


def test_admin_action_needs_the_token_and_reaches_the_host(
    scoreboard: Scoreboard, publisher: Publisher, mqtt_broker: BrokerHandle, topic_prefix: str
) -> None:
    publisher.state(base_state("4"))
    eventually(lambda: club(scoreboard), "table 4 appears")
    url = f"{scoreboard.url}/api/table/4/control"
    client, got = control_listener(mqtt_broker, topic_prefix)
    try:
        assert httpx.post(url, json={"cmd": "undo"}).status_code == 403
        wrong = httpx.post(url, json={"cmd": "undo"}, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 403
        auth = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        bad = httpx.post(url, json={"cmd": "seat"}, headers=auth)
        assert bad.status_code == 400 and "new_game, undo, void_hand" in bad.json()["error"]
        assert httpx.post(url, content=b"{", headers=auth).status_code == 400
        assert got.empty()
        ok = httpx.post(url, json={"cmd": "void_hand"}, headers=auth)
        assert ok.status_code == 200
        message = got.get(timeout=WAIT)
        assert message.topic == f"{topic_prefix}/v1/table/4/control"
        control = protocol.decode(protocol.Control, message.payload, protocol.MAX_CONTROL_MESSAGE)
        assert control.cmd == "void_hand"
    finally:
        client.disconnect()
        client.loop_stop()


@pytest.fixture
def open_scoreboard(mqtt_broker: BrokerHandle, topic_prefix: str):
    board = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix)
    board.start()
    yield board
    board.stop()


def test_admin_actions_are_off_without_a_token(open_scoreboard: Scoreboard) -> None:
    answer = httpx.post(f"{open_scoreboard.url}/api/table/1/control", json={"cmd": "undo"},
                        headers={"Authorization": "Bearer x"})
    assert answer.status_code == 404 and "admin actions are off" in answer.json()["error"]
    assert httpx.get(f"{open_scoreboard.url}/api/club").json()["admin"] is False


def test_stop_ends_open_streams(mqtt_broker: BrokerHandle, topic_prefix: str) -> None:
    board = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix)
    board.start()
    got: queue.Queue = queue.Queue()
    reader = threading.Thread(target=read_stream, daemon=True,
                              args=(f"{board.url}/api/stream", got, threading.Event()))
    reader.start()
    hub = board.app.state.hub
    eventually(lambda: hub.subscribers, "the stream is open")
    board.stop()
    reader.join(WAIT)
    assert not reader.is_alive()


def test_a_taken_port_is_a_clear_error(scoreboard: Scoreboard, mqtt_broker: BrokerHandle) -> None:
    with pytest.raises(OSError, match=f"cannot serve the scoreboard on 127.0.0.1:{scoreboard.port}"):
        Scoreboard(mqtt_broker.host, mqtt_broker.port, port=scoreboard.port)

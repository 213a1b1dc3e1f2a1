"""The terminal view (``tricktable watch`` and the demo): what it draws from a table view."""

from __future__ import annotations

import io
import json
import threading

from rich.console import Console
from tricktable.mqtt.broker import BrokerHandle
from tricktable.web.feed import Feed
from tricktable.web.model import Club
from tricktable.web.termview import club_view, table_panel, watch
from web_fixtures import Publisher
from web_script import game_states


def draw(renderable: object, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def club_after(states: list[dict]) -> Club:
    club = Club("tt")
    for state in states:
        club.handle(f"tt/v1/table/{state['table']}/state", json.dumps(state).encode())
    return club


def test_a_table_shows_seats_trick_bids_contract_trump_tricks_and_score() -> None:
    states = game_states("1", hands=2)
    mid = next(s for s in states if len(s["trick"]["cards"]) == 3 and s["revokes"])
    text = draw(table_panel(club_after(states[: states.index(mid) + 1]).view("1")))
    assert "table 1 · bid-euchre" in text
    for seat in mid["seats"]:
        assert seat in text
    assert "▶ " + mid["seats"][mid["to_act"]] in text
    first = mid["trick"]["cards"][0]["card"]
    assert first[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[first[-1]] in text
    assert "contract" in text and "trump ♥" in text
    assert "Ann & Cy" in text and "Bob & Di" in text
    assert f"! {mid['seats'][mid['revokes'][0]['seat']]} revoked in trick 4 (spades)" in text


def test_several_tables_fit_side_by_side() -> None:
    club = club_after(game_states("1", hands=1)[:5] + game_states("2", hands=1)[:9])
    text = draw(club_view([club.view("1"), club.view("2")]), width=120)
    assert "table 1" in text and "table 2" in text
    assert "waiting for a table" in draw(club_view([]))


def test_watch_redraws_from_the_broker_until_stopped(
    mqtt_broker: BrokerHandle, topic_prefix: str, publisher: Publisher
) -> None:
    feed = Feed(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    feed.start()
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=True)
    stop = threading.Event()
    runner = threading.Thread(target=watch, args=(feed, ["6"], stop, console), daemon=True)
    runner.start()
    try:
        states = game_states("6", hands=1)
        publisher.state(states[-1])
        for _ in range(200):
            if "game over" in out.getvalue():
                break
            stop.wait(0.05)
        assert "game over" in out.getvalue()
    finally:
        stop.set()
        runner.join(10)
        feed.stop()
    assert not runner.is_alive()

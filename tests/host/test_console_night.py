"""The director's corrections reach a live night ("Bid Euchre", section "Bid euchre variations",
"Progressive"), through the real service on mosquitto: the console's commands go over MQTT to
``serve --night``'s night, which settles ties at several tables at once, rings the bell by
hand and takes it back, refuses what does not fit (changing nothing), keeps every correction
in its audit log, and rebuilds the same night after a restart.
"""

from __future__ import annotations

import json

import pytest
from test_live_night import ROSTER, TABLES, Room, live
from tricktable.club.store import load_night, save_night
from tricktable.club.tournament import ProgressiveOptions, ProgressiveTournament
from tricktable.serve.service import BrokerURL
from tricktable.web.console_link import NightLink
from waiting import eventually


def night_with(tmp_path, hands_per_round: int) -> None:
    night = ProgressiveTournament.new(ROSTER, 2, ProgressiveOptions(
        hands_per_round=hands_per_round, rounds=3))
    save_night(night, tmp_path / "night.json")


@pytest.fixture
def director(mqtt_broker, topic_prefix):
    link = NightLink(BrokerURL("127.0.0.1", mqtt_broker.port), topic_prefix)
    link.start()
    yield link
    link.stop()


@pytest.fixture
def open_room(mqtt_broker, topic_prefix, tmp_path):
    """``open_room(hands_per_round)``: a room on a new night, closed after the test."""
    rooms = []

    def opened(hands_per_round: int) -> Room:
        night_with(tmp_path, hands_per_round)
        rooms.append(Room(mqtt_broker.port, topic_prefix, tmp_path))
        return rooms[-1]

    yield opened
    for room in rooms:
        room.stop()
        room.close()


def first_hand(room: Room, tmp_path) -> list[list[str]]:
    """Both tables seated for the night's first game, the head table's first hand on the
    tally; the first seating."""
    first = [list(t) for t in load_night(tmp_path / "night.json").seating]
    for table, players in zip(TABLES, first, strict=True):
        room.seated(table, 2, players)
    room.play_until("t1", lambda s: s.public_state()["hand_number"] == 2)
    eventually(lambda: len(load_night(tmp_path / "night.json").hands[0]) == 1,
               "the head table's hand on the tally")
    return first


def audit(tmp_path) -> list[dict]:
    """The commands done (the log keeps the refused ones too, with ``refused``)."""
    return [e for e in json.loads((tmp_path / "night.json").read_text())["director"]["audit"]
            if not e.get("refused")]


def test_ties_are_settled_from_the_console_and_the_players_move(
        open_room, tmp_path, director):
    room = open_room(hands_per_round=1)
    # the head table plays its one hand; table 2 has not begun a hand: it closes at 0-0
    first_hand(room, tmp_path)
    eventually(lambda: live(tmp_path)["closed"] == {"t1": 1, "t2": 0}, "both tables closed")
    eventually(lambda: "tied" in room.night.bell_blocked, "the bell waiting on the tie")
    before = (tmp_path / "night.json").read_text()
    refused = director.send("settle", {"winners": {"t1": "A", "t2": "A"}}, "Dana")
    assert not refused.ok and "Table 1 is not tied" in refused.reason
    refused = director.send("settle", {"winners": {"t2": "C"}}, "Dana")
    assert not refused.ok and "team A (N/S) or B (E/W), not 'C'" in refused.reason
    after = json.loads((tmp_path / "night.json").read_text())
    refusals = after["director"]["audit"]  # a refusal changes nothing but the log
    assert [e["refused"][:21] for e in refusals] == ["Table 1 is not tied (",
                                                     "Table 2: the winner i"]
    after["director"]["audit"] = []
    assert after == json.loads(before)
    answer = director.send("settle", {"winners": {"t2": "B"}}, "Dana")
    assert answer.ok, answer.reason
    assert answer.entry["by"] == "Dana" and answer.entry["after"] == "Table 2: E/W win"
    night = eventually(lambda: load_night(tmp_path / "night.json").games and
                       load_night(tmp_path / "night.json"), "the players moving")
    assert night.games[0].decided == {2: "B"}
    for table, players in zip(TABLES, night.seating, strict=True):
        room.seated(table, 3, list(players))
    assert [e["cmd"] for e in audit(tmp_path)] == ["settle"]


def test_a_bell_rung_by_hand_is_taken_back_and_the_night_rebuilds_after_a_restart(
        open_room, tmp_path, director):
    room = open_room(hands_per_round=2)
    first = first_hand(room, tmp_path)
    refused = director.send("undo_bell", {}, "Dana")
    assert not refused.ok and "no bell has rung" in refused.reason
    # the director rings early (the head table has a hand left) and settles table 2's 0-0
    assert director.send("ring", {}, "Dana").ok
    eventually(lambda: "tied" in room.night.bell_blocked, "the bell waiting on the tie")
    assert director.send("settle", {"winners": {"t2": "A"}}, "Dana").ok
    moved = eventually(lambda: load_night(tmp_path / "night.json").games and
                       load_night(tmp_path / "night.json"), "the players moving")
    for table, players in zip(TABLES, moved.seating, strict=True):
        room.seated(table, 3, list(players))
    # asked back only while the tables were closing: refused now they have moved, nothing changed
    late = director.send("undo_bell", {"while_closing": True}, "Dana")
    assert not late.ok and "the players have moved" in late.reason
    assert load_night(tmp_path / "night.json").games == moved.games
    # taken back before any table began game 2 of the night: game 1 goes on where it was
    answer = director.send("undo_bell", {}, "Dana")
    assert answer.ok, answer.reason
    night = load_night(tmp_path / "night.json")
    assert night.games == [] and [list(t) for t in night.seating] == first
    assert night.hands[0] == list(moved.games[0].hands[0])  # the head table's hand still counts
    for table, players in zip(TABLES, first, strict=True):
        room.seated(table, 4, players)
    assert not live(tmp_path)["bell"]
    assert [e["cmd"] for e in audit(tmp_path)] == ["ring", "settle", "undo_bell"]
    # a restart rebuilds the same night and starts no game again
    before = (tmp_path / "night.json").read_text()
    room.stop()
    room.start()
    assert (tmp_path / "night.json").read_text() == before
    assert room.service.state("t1")["game"] == 4

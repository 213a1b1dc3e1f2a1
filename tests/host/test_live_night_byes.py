"""A night with a bye on the live tables (docs/club.md, "Byes"; “Bid Euchre”, section
“Progressive” is silent on byes, a judgement call): nine players at two tables, through the real
service on mosquitto. The one sitting out is at no table; after the bell they come in and the
player who has played most, earliest on the roster, sits out, and the tables start the next
game with the seating the night gives."""

from __future__ import annotations

import pytest
from test_live_night import ROSTER, TABLES, Room, hands_scored, live
from tricktable.club.store import load_night, save_night
from tricktable.club.tournament import ProgressiveOptions, ProgressiveTournament
from waiting import eventually

NINE = [*ROSTER, "Ida"]
OPTIONS = ProgressiveOptions(hands_per_round=1, rounds=2)


@pytest.fixture
def room(mqtt_broker, topic_prefix, tmp_path):
    save_night(ProgressiveTournament.new(NINE, 2, OPTIONS), tmp_path / "night.json")
    r = Room(mqtt_broker.port, topic_prefix, tmp_path)
    yield r
    r.stop()
    r.close()


def test_the_bye_comes_in_at_the_bell_and_the_tables_seat_the_rotated_players(room, tmp_path):
    first = load_night(tmp_path / "night.json")
    assert first.bench == ["Ida"]
    for table, players in zip(TABLES, first.seating, strict=True):
        room.seated(table, 2, list(players))
    # table 2 is in a hand when the head table has played its one (not tied: see Room)
    room.play_until("t2", lambda s: s.phase == "play" and s.public_state()["tricks"])
    room.play_until("t1", lambda s: s.public_state()["hand_number"] == 2)
    eventually(lambda: live(tmp_path)["bell"], "the head table's bell")
    room.play_until("t2", lambda s: s.public_state()["hand_number"] == 2)
    eventually(lambda: load_night(tmp_path / "night.json").games, "the players moving")
    night = load_night(tmp_path / "night.json")
    expected = ProgressiveTournament.new(NINE, 2, OPTIONS)
    for number, table in enumerate(TABLES, 1):
        expected.set_hands(number, hands_scored(room.shadows[table]))
    expected.bell()
    assert night.seating == expected.seating and night.bench == expected.bench == ["Ann"]
    assert "Ida" in {name for table in night.seating for name in table}
    assert night.tallies()["Ida"][0].bye
    # Ann, who sat at the head table, reads on its display that she sits out next
    display = room.observer.topics.display("t1")
    room.observer.wait_for(lambda t, p: t == display and b'"ANN -> BYE"' in p)
    for table, players in zip(TABLES, night.seating, strict=True):
        room.seated(table, 3, list(players))

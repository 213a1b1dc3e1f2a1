"""The scoreboard's model: what it makes of the host's table state, events and board status."""

from __future__ import annotations

import json

import pytest
from tricktable.web.model import EVERY_TABLE, BadMessage, Club
from web_script import base_state, game_states

P = "tt"


def feed(club: Club, states: list[dict]) -> None:
    for state in states:
        club.handle(f"{P}/v1/table/{state['table']}/state", json.dumps(state).encode())


def test_club_summary_shows_variant_phase_scores_and_whose_turn() -> None:
    club = Club(P)
    states = game_states("7")
    feed(club, states[:3])
    (row,) = club.summary()
    assert row["table"] == "7" and row["variant"] == "bid-euchre"
    assert row["phase"] == "bidding"
    assert row["to_act_name"] == states[2]["seats"][states[2]["to_act"]]
    assert row["scores"] == [0, 0] and row["alerts"] == []


def test_score_history_has_one_point_per_scored_hand() -> None:
    club = Club(P)
    feed(club, game_states("1", hands=3))
    view = club.view("1")
    assert view["score_history"] == [
        {"hand": 0, "scores": [0, 0]},
        {"hand": 1, "scores": [4, -2]},
        {"hand": 2, "scores": [0, 1]},
        {"hand": 3, "scores": [4, -1]},
    ]


def test_every_hand_is_kept_with_all_six_tricks_for_replay() -> None:
    club = Club(P)
    feed(club, game_states("1", hands=3))
    hands = club.hands("1")
    assert [(h["game"], h["hand"], h["tricks"]) for h in hands] == [(1, 1, 6), (1, 2, 6), (1, 3, 6)]
    hand = club.hand("1", 1, 2)
    assert hand["scores_before"] == [4, -2] and hand["scores_after"] == [0, 1]
    assert hand["contract"]["bid"] == "4" and hand["trump"] == "H"
    assert all(len(t["cards"]) == 4 and t["winner"] is not None for t in hand["tricks"])
    assert club.hand("1", 1, 9) is None


def test_last_hands_are_newest_first_and_complete_only() -> None:
    club = Club(P)
    states = game_states("1", hands=3)
    feed(club, states[: len(states) // 2])
    last = club.view("1")["last_hands"]
    assert [h["hand"] for h in last] == [1]
    feed(club, states[len(states) // 2 :])
    assert [h["hand"] for h in club.view("1")["last_hands"]] == [3, 2, 1]


def test_a_revoke_in_the_current_hand_is_an_alert_until_the_next_hand() -> None:
    club = Club(P)
    states = game_states("1", hands=3)
    revoked = next(i for i, s in enumerate(states) if s["revokes"])
    feed(club, states[: revoked + 1])
    (alert,) = club.summary()[0]["alerts"]
    assert alert["kind"] == "revoke" and "revoked in trick 4" in alert["text"]
    feed(club, states[revoked + 1 :])
    assert club.summary()[0]["alerts"] == []
    assert [h["revokes"] for h in club.view("1")["last_hands"]] == [0, 1, 0]


def test_an_offline_board_is_an_alert_on_its_table() -> None:
    club = Club(P)
    feed(club, [base_state("2")])
    config = {"v": 1, "table": "2", "pads": [{"pad": 0, "seat": 0}]}
    assert club.handle(f"{P}/v1/board/north/config", json.dumps(config).encode()) == "2"
    club.handle(f"{P}/v1/board/north/status", b'{"v":1,"online":true}')
    assert club.summary()[0]["alerts"] == []
    assert club.handle(f"{P}/v1/board/north/status", b'{"v":1,"online":false}') == "2"
    assert club.summary()[0]["alerts"] == [{"kind": "offline", "text": "board north is offline"}]


def test_the_hosts_trouble_is_an_alert_on_every_table() -> None:
    club = Club(P)
    feed(club, [base_state("1"), base_state("2")])
    failing = {"v": 1, "online": True, "storage": "failing",
               "detail": "cannot write j.sqlite: database or disk is full", "faults": 3,
               "poisoned": 1, "last_fault": "KeyError: 'x'", "flooding": ["t1-s"]}
    assert club.handle(f"{P}/v1/host/status", json.dumps(failing).encode()) == EVERY_TABLE
    for row in club.summary():
        texts = [a["text"] for a in row["alerts"] if a["kind"] == "host"]
        assert texts == [
            "the host cannot save plays, so they are on hold: cannot write j.sqlite: database "
            "or disk is full",
            "1 message(s) refused for good after failing again and again; last: KeyError: 'x'",
            "flooding with bad messages (not all kept): t1-s"]
    club.handle(f"{P}/v1/host/status", b'{"v":1,"online":true,"faults":2,"last_fault":"t: E"}')
    assert club.summary()[0]["alerts"] == [
        {"kind": "host", "text": "2 fault(s) handling messages since the host started; last: t: E"}]
    club.handle(f"{P}/v1/host/status", b'{"v":1,"online":false}')
    assert club.view("2")["summary"]["alerts"] == [
        {"kind": "host", "text": "the host service is offline: plays wait on the boards"}]
    club.handle(f"{P}/v1/host/status", b'{"v":1,"online":true}')
    assert club.summary()[0]["alerts"] == []


def test_a_lower_hand_number_starts_a_new_game_and_a_new_chart() -> None:
    club = Club(P)
    feed(club, game_states("1", hands=2))
    feed(club, [base_state("1")])
    view = club.view("1")
    assert view["game"] == 2
    assert view["score_history"] == [{"hand": 0, "scores": [0, 0]}]
    assert {h["game"] for h in club.hands("1")} == {1}


def test_events_are_kept_newest_last() -> None:
    club = Club(P)
    feed(club, [base_state("1")])
    event = {"v": 1, "table": "1", "kind": "refused", "seat": 2, "code": "not_your_turn",
             "reason": "Cy played out of turn"}
    assert club.handle(f"{P}/v1/table/1/events", json.dumps(event).encode()) == "1"
    assert club.view("1")["events"][-1]["reason"] == "Cy played out of turn"


def test_accepted_actions_and_hand_scans_are_not_listed() -> None:
    club = Club(P)
    feed(club, [base_state("1")])
    quiet = [{"v": 1, "table": "1", "kind": "accepted", "seat": 0,
              "action": {"type": "pass", "seat": 0}},
             {"v": 1, "table": "1", "kind": "engine", "seat": 0,
              "event": {"type": "card_scanned", "seat": 0, "card": "AS"}}]
    for event in quiet:
        assert club.handle(f"{P}/v1/table/1/events", json.dumps(event).encode()) is None
    assert club.view("1")["events"] == []


def test_an_empty_retained_state_forgets_the_table() -> None:
    club = Club(P)
    feed(club, [base_state("1")])
    club.handle(f"{P}/v1/table/1/state", b"")
    assert club.summary() == [] and club.view("1") is None


@pytest.mark.parametrize(
    ("topic", "payload", "says"),
    [
        ("other/v1/table/1/state", b"{}", "not a tt/v1 topic"),
        (f"{P}/v1/table/1/state", b"{not json", "not JSON"),
        (f"{P}/v1/table/1/state", b"[1, 2]", "must be a JSON object"),
        (f"{P}/v1/table/1/state", b'{"seats": []}', "lacks 'phase'"),
        (f"{P}/v1/table/1/state", b'{"phase": "play", "seats": [], "hand_number": "2"}',
         "'hand_number' must be an integer"),
        (f"{P}/v1/table/1/events", b'{"v": 1, "kind": "accepted"}', "table"),
        (f"{P}/v1/board/b1/status", b'{"v": 1}', "online"),
        (f"{P}/v1/table/1/display", b'{"v": 1}', "not a scoreboard topic"),
    ],
)
def test_bad_messages_are_refused_and_change_nothing(topic: str, payload: bytes, says: str) -> None:
    club = Club(P)
    feed(club, game_states("1", hands=1)[:5])
    before = (club.summary(), club.view("1"), dict(club.boards))
    with pytest.raises(BadMessage, match=says):
        club.handle(topic, payload)
    assert (club.summary(), club.view("1"), dict(club.boards)) == before


def test_the_hosts_game_number_names_the_game() -> None:
    club = Club(P)
    first = dict(base_state("1"), game=4)
    feed(club, [first])
    assert club.view("1")["game"] == 4
    feed(club, [dict(first, game=5)])
    assert club.view("1")["game"] == 5


def test_a_table_without_a_game_is_listed_as_idle() -> None:
    club = Club(P)
    club.handle(f"{P}/v1/table/9/state", b'{"phase": null, "table": "9", "game": 0}')
    (row,) = club.summary()
    assert row["table"] == "9" and row["phase"] is None and row["scores"] == []


def test_tables_are_listed_in_the_order_people_count_them() -> None:
    club = Club(P)
    feed(club, [base_state(t) for t in ("t10", "t2", "t1", "t11")])
    assert [row["table"] for row in club.summary()] == ["t1", "t2", "t10", "t11"]

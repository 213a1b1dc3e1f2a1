"""Member tags at the table: a player taps their own tag on a seat's pad and sits there, with
their real name in the table's state (hardware/tag-format.md, "Member tags"; docs/club.md,
"Member tags"). The table session alone, then through the service on mosquitto."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostkit import (
    PLAYERS,
    Observer,
    enroll_members,
    make_club,
    make_registry,
    token_uid,
)
from tricktable.deckkit.decks import Registry
from tricktable.protocol import Control
from tricktable.serve.table import TableSession

BOARDS = ["t1-n", "t1-e", "t1-s", "t1-w"]
MEMBERS = ["Ann", "Bob", "Cy", "Di"]


@pytest.fixture(scope="module")
def registry_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("registry") / "decks.sqlite"
    registry = make_registry(path)
    enroll_members(registry, MEMBERS)
    registry.close()
    return path


@pytest.fixture(scope="module")
def member(registry_file) -> dict[str, bytes]:
    """Each member's own tag: name -> UID."""
    with Registry(registry_file) as registry:
        return {registry.resolve(uid).player: uid for uid in registry.enrolled(90)}


@pytest.fixture
def session(registry_file) -> Iterator[TableSession]:
    with Registry(registry_file) as registry:
        s = TableSession(make_club("tt").tables["t1"], registry)
        assert s.start_game().ok
        yield s


def tap(session, seat, uid):
    return session.on_pad(BOARDS[seat], 0, uid, None)


def test_a_member_tag_during_the_deal_seats_the_player_with_their_name(session, member):
    result = tap(session, 2, member["Cy"])
    assert result.ok and result.changed and result.reason == "Cy sits at seat 2"
    assert result.events == [{"type": "seated", "seat": 2, "player": "Cy", "game": 1}]
    assert [f.led for _, f in result.feedback] == ["green"]
    assert session.state()["seats"] == ["North", "East", "Cy", "West"]
    assert not result.steps          # not an engine action: the journal keeps the tap itself


def test_everyone_taps_in_and_the_game_goes_on_with_their_names(session, member):
    for seat, name in enumerate(MEMBERS):
        assert tap(session, seat, member[name]).ok
    assert tap(session, 0, token_uid("DEAL")).ok
    assert session.state()["seats"] == MEMBERS and session.state()["actions"] == 1
    assert session.game == 1 and session.defaults["players"] == MEMBERS


def test_a_player_who_sat_at_the_wrong_seat_taps_again_and_the_two_swap(session, member):
    tap(session, 0, member["Ann"])
    tap(session, 1, member["Bob"])
    assert tap(session, 1, member["Ann"]).ok
    assert session.state()["seats"][:2] == ["Bob", "Ann"]


def test_a_member_tag_while_the_hand_is_played_is_refused_and_changes_nothing(session, member):
    assert tap(session, 0, token_uid("DEAL")).ok
    assert tap(session, 1, token_uid("BID:3")).ok      # the bidding: the deal is over
    before = copy.deepcopy(session.state())
    result = tap(session, 3, member["Di"])
    assert (result.ok, result.code) == (False, "hand_in_play")
    assert "Di's member tag seats a player during the deal or between games" in result.reason
    assert session.state() == before and session.defaults["players"] == PLAYERS


def test_between_games_a_member_tag_seats_the_player_for_the_next_game(registry_file, member):
    with Registry(registry_file) as registry:
        s = TableSession(make_club("tt").tables["t1"], registry)   # no game yet
        result = tap(s, 3, member["Di"])
        assert result.ok and result.events[0]["game"] == 1
        assert s.start_game().ok and s.state()["seats"] == ["North", "East", "South", "Di"]


def test_a_member_tag_keeps_the_directors_seating_for_the_next_game(session, member):
    session.on_control(Control(cmd="seat", args={"players": ["W", "X", "Y", "Z"]}))
    tap(session, 0, member["Ann"])
    assert session.state()["seats"] == ["Ann", "East", "South", "West"]   # this game
    assert session.defaults["players"] == ["Ann", "X", "Y", "Z"]          # the next


def test_through_the_service_the_seat_is_journaled_and_survives_a_restart(host, member):
    verdict = host.tap(1, member["Bob"])
    assert verdict.kind == "accepted" and verdict.reason == "Bob sits at seat 1"
    host.observer.wait_for(lambda topic, payload: topic.endswith("/events")
                           and b'"seated"' in payload and b'"Bob"' in payload)
    newcomer = Observer(host.port, host.prefix)   # the retained state shows the real name
    try:
        newcomer.wait_for(lambda topic, payload: topic == host.topics.state("t1")
                          and json.loads(payload)["seats"] == ["North", "Bob", "South", "West"])
    finally:
        newcomer.close()
    host.restart_service()
    assert host.service.tables["t1"].state()["seats"] == ["North", "Bob", "South", "West"]

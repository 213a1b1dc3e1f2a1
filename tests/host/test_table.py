"""A table session: taps become engine actions; every refusal is specific and changes nothing."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest
from hostkit import (
    UNKNOWN_UID,
    bot_choice,
    card_uid,
    make_club,
    make_registry,
    new_shadow,
    tap_for,
    token_uid,
)
from tricktable.engine.actions import Deal, Play
from tricktable.protocol import Control
from tricktable.serve.table import TableSession, token_actions

BOARDS = ["t1-n", "t1-e", "t1-s", "t1-w"]


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    reg = make_registry(tmp_path_factory.mktemp("reg") / "decks.sqlite")
    yield reg
    reg.close()


@pytest.fixture
def session(registry):
    s = TableSession(make_club("tt").tables["t1"], registry)
    assert s.start_game().ok
    return s


def tap(session, seat, uid):
    return session.on_pad(BOARDS[seat], 0, uid, None)


def unchanged(session, action):
    """Apply ``action`` and check the state did not move."""
    before = copy.deepcopy(session.state())
    result = action()
    assert not result.ok and result.code and result.reason
    assert session.state() == before
    return result


def test_deal_token_then_bids_and_trump_by_tokens(session):
    assert tap(session, 0, token_uid("DEAL")).ok  # dealer is seat 0
    result = tap(session, 1, token_uid("BID:3"))
    assert result.ok and result.action == {"type": "bid", "seat": 1, "bid": "3"}
    assert [f.led for _, f in result.feedback] == ["green", "blue"]
    for seat in (2, 3, 0):
        assert tap(session, seat, token_uid("PASS")).ok
    assert session.engine.phase == "trump"
    assert tap(session, 1, token_uid("TRUMP:H")).ok
    assert session.state()["trump"] == "H"


def test_refusals_are_specific_and_change_nothing(session):
    assert tap(session, 0, token_uid("DEAL")).ok
    assert unchanged(session, lambda: tap(session, 2, token_uid("BID:3"))).code == "not_your_turn"
    assert unchanged(session, lambda: tap(session, 1, UNKNOWN_UID)).code == "unknown_tag"
    other = unchanged(session, lambda: tap(session, 1, card_uid("AS", other_deck=True)))
    assert other.code == "other_deck" and "deck 2" in other.reason
    assert unchanged(session, lambda: tap(session, 1, card_uid("AS"))).code == "wrong_phase"
    unseated = unchanged(session, lambda: session.on_pad("t1-n", 3, card_uid("AS"), None))
    assert unseated.code == "unseated_pad"
    assert [f.led for _, f in unseated.feedback] == ["red"]
    assert unchanged(session, lambda: tap(session, 1, token_uid("NEW_GAME"))).code == "game_in_progress"
    assert unchanged(session, lambda: tap(session, 2, token_uid("UNDO"))).code == "undo_not_yours"


def test_card_already_played_is_refused(session):
    rng = random.Random(3)
    while session.engine.phase != "play" or session.state()["trick"]["cards"]:
        tap(session, session.engine.to_act, tap_for(bot_choice(session.engine, rng)))
    leader = session.engine.to_act
    play = bot_choice(session.engine, rng)
    assert tap(session, leader, tap_for(play)).ok
    nxt = session.engine.to_act
    again = unchanged(session, lambda: tap(session, nxt, card_uid(str(play.card))))
    assert again.code == "card_already_played", again.code


def test_undo_and_void_rebuild_from_actions(session):
    assert tap(session, 0, token_uid("DEAL")).ok
    dealt = copy.deepcopy(session.state())
    assert tap(session, 1, token_uid("BID:3")).ok
    assert tap(session, 1, token_uid("UNDO")).ok  # a player takes back their own action
    assert session.state() == dealt
    assert tap(session, 1, token_uid("BID:4")).ok
    result = session.on_control(Control(cmd="void_hand"))
    assert result.ok and result.steps == [(0, None)]
    assert session.engine.phase == "deal" and session.actions == []


def test_admin_action_and_bad_action(session):
    ok = session.on_control(Control(cmd="action", args={"action": {"type": "deal", "seat": 0}}))
    assert ok.ok
    bad = session.on_control(Control(cmd="action", args={"action": {"type": "fly", "seat": 0}}))
    assert bad.code == "bad_action" and "unknown action type 'fly'" in bad.reason


def test_set_variant_is_checked_before_it_is_kept(session):
    refused = session.on_control(Control(cmd="set_variant", args={"variant": "no-such-game"}))
    assert refused.code == "bad_setup" and "no-such-game" in refused.reason
    assert session.defaults["variant"] == "bid-euchre"


def test_a_whole_game_by_taps_matches_the_engine(session):
    shadow = new_shadow()
    rng = random.Random(7)
    while not shadow.public_state()["game_over"]:
        action = bot_choice(shadow, rng)
        assert shadow.apply(action).ok
        result = tap(session, action.seat, tap_for(action))
        assert result.ok, result.reason
        assert isinstance(action, Play) == (result.action["type"] == "play")
    assert session.state() == {**shadow.public_state(), "table": "t1", "game": 1,
                               "round": None, "actions": len(shadow.actions)}
    assert tap(session, 2, token_uid("NEW_GAME")).ok and session.game == 2


def test_tokens_map_to_engine_actions():
    assert [a.to_json() for a in token_actions("BID:3HC", 1)] == [
        {"type": "bid", "seat": 1, "bid": "3HC"}]
    assert [a.to_json() for a in token_actions("TRUMP:NT", 2)] == [
        {"type": "bid", "seat": 2, "bid": "NT"}, {"type": "trump", "seat": 2, "trump": "NT"}]
    assert [a.to_json() for a in token_actions("PLAY", 0)] == [
        {"type": "sit_out", "seat": 0, "out": False}]
    assert [a.to_json() for a in token_actions("ALONE", 3)] == [
        {"type": "bid", "seat": 3, "bid": "ALONE"}, {"type": "trump", "seat": 3, "trump": "ALONE"},
        {"type": "call", "seat": 3, "call": "ALONE"}]
    assert token_actions("NEW_GAME", 0) == []


def _revoke_chance(session, rng):
    """Play on until the seat to act holds a card it may not play (it can follow suit)."""
    while True:
        eng = session.engine
        if eng.phase == "play":
            seat = eng.to_act
            legal = {str(a.card) for a in eng.legal_actions()}
            illegal = [c for c in eng.known_hand(seat) if c not in legal]
            if illegal:
                return seat, illegal[0]
        tap(session, eng.to_act, tap_for(bot_choice(eng, rng)))


@pytest.mark.parametrize("mode", ["strict", "record"])
def test_revoke_modes(registry, mode):
    """DESIGN.md, Revokes: strict refuses the play (the player takes the card back); record
    accepts it, says so (amber, revoke buzz) and the variant's penalty comes at the hand's end."""
    cfg = make_club("tt").tables["t1"]
    session = TableSession(dataclasses.replace(cfg, options={"revoke_mode": mode}), registry)
    assert session.start_game().ok
    assert tap(session, 0, token_uid("DEAL")).ok  # hands known: a revoke is known at once
    seat, card = _revoke_chance(session, random.Random(2))
    if mode == "strict":
        result = unchanged(session, lambda: tap(session, seat, card_uid(card)))
        assert "follow" in result.reason
    else:
        result = tap(session, seat, card_uid(card))
        assert result.ok and any(e["type"] == "revoke" for e in result.events)
        assert result.feedback[0][1].led == "amber" and result.feedback[0][1].buzz == "revoke"
        assert session.state()["revokes"]


def test_hands_scanned_at_the_deal_make_a_wrong_card_known_at_once(session):
    """DESIGN.md, Revokes: hands scanned at the deal (each player taps their cards on their
    pad before bidding): an illegal play is known the instant it is made."""
    dealt = new_shadow(seed=5)
    assert dealt.apply(Deal(seat=0)).ok
    hands = [dealt.known_hand(seat) for seat in range(4)]
    for seat, hand in enumerate(hands):
        for card in hand:
            result = tap(session, seat, card_uid(card))
            assert result.ok and result.action["type"] == "scan", result.reason
    assert session.engine.phase == "bidding"
    assert unchanged(session, lambda: tap(session, 1, card_uid(hands[1][0]))).code == "wrong_phase"
    rng = random.Random(4)
    while session.engine.phase != "play":
        tap(session, session.engine.to_act, tap_for(bot_choice(session.engine, rng)))
    seat = session.engine.to_act
    someone_elses = hands[(seat + 1) % 4][0]
    refused = unchanged(session, lambda: tap(session, seat, card_uid(someone_elses)))
    assert refused.code == "card_not_in_hand" and "hand" in refused.reason


def test_new_game_args_are_checked(session):
    refused = session.on_control(Control(cmd="new_game", args={"variant": "bid-euchre", "sed": 3}))
    assert refused.code == "bad_args" and "sed" in refused.reason and session.game == 1
    bad_dealer = session.on_control(Control(cmd="new_game", args={"dealer": 9}))
    assert bad_dealer.code == "bad_setup" and "dealer" in bad_dealer.reason and session.game == 1
    started = session.on_control(Control(cmd="new_game", args={"seed": 3, "dealer": 2}))
    assert started.ok and session.game == 2 and session.state()["dealer"] == 2

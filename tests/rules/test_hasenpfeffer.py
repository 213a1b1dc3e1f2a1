"""Hasenpfeffer: each test names the passage of “Bid Euchre”, "Bid euchre variations >
Hasenpfeffer", that it checks."""

from __future__ import annotations

import pytest
from tricktable.cards import JOKER
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, DeclareTrump, Pass, ScanCard
from variantkit import finish, ok, random_game, refused, table

# Dealer seat 0; the joker is out of play (undealt).
JOKER_OUT = ["9S 10S JS QS KS AS", "JH AH KH QH 10H 9H", "9C 10C JC QC KC AC",
             "9D 10D JD QD KD AD"]
# Seat 2 holds the joker; 9C is out of play.
JOKER_IN = ["9S 10S JS QS KS AS", "JH AH KH QH 10H 9H", "JOKER 10C JC QC KC AC",
            "9D 10D JD QD KD AD"]


def test_pack_and_deal() -> None:
    """'a 24-card pack plus the Joker. Six cards are dealt in batches of three, and the rest
    are laid face down to one side.'"""
    eng = Engine.new("hasenpfeffer", seed=5)
    ok(eng, eng.legal_actions()[0])
    assert eng.state.deck.size == 25
    assert all(len(eng.known_hand(s)) == 6 for s in range(4))
    assert eng.state.kitty.bit_count() == 1


def test_all_pass_joker_holder_bids_three() -> None:
    """'If no one bids, the holder of the best bauer is obliged to bid three'."""
    eng = table("hasenpfeffer", JOKER_IN)
    ok(eng, Pass(1), Pass(2), Pass(3), Pass(0))
    contract = eng.public_state()["contract"]
    assert contract["seat"] == 2 and contract["need"] == 3 and contract["forced"]
    assert eng.phase == "trump" and eng.to_act == 2


def test_all_pass_joker_out_of_play_annuls_the_deal() -> None:
    """'if it then proves to be the card out of play, the deal is annulled' (the same dealer
    deals again: judgement)."""
    eng = table("hasenpfeffer", JOKER_OUT)
    ok(eng, Pass(1), Pass(2), Pass(3), Pass(0))
    assert eng.phase == "deal" and eng.state.dealer == 0 and eng.state.hand_number == 2
    assert eng.state.scores == [0, 0]


def unscanned() -> Engine:
    """A deal of real cards: nothing scanned, so the engine does not know who holds the joker."""
    return Engine.new("hasenpfeffer", seed=1, dealer=0)


def test_all_pass_with_real_cards_the_joker_holder_declares() -> None:
    """'If no one bids, the holder of the best bauer is obliged to bid three': with hands the
    engine does not know, one more round follows in which the holder declares with the forced
    bid (the BID:3 token) and the others pass; the holder's side plays it as forced."""
    eng = unscanned()
    ok(eng, Pass(1), Pass(2), Pass(3), Pass(0))
    assert eng.phase == "bidding" and eng.to_act == 1
    assert {a.to_json()["type"] for a in eng.legal_actions()} == {"bid", "pass"}
    assert [a.bid for a in eng.legal_actions() if isinstance(a, Bid)] == ["3"]
    refused(eng, Bid(1, "4"), "bid_too_low")
    ok(eng, Pass(1), Bid(2, "3"))
    contract = eng.public_state()["contract"]
    assert contract["seat"] == 2 and contract["need"] == 3 and contract["forced"]
    assert eng.phase == "trump" and eng.to_act == 2
    assert Engine.replay(eng.config, eng.actions).public_state() == eng.public_state()


def test_a_joker_tapped_at_the_deal_makes_its_holder_bid_three() -> None:
    """'the holder of the best bauer is obliged to bid three': a holder who tapped the joker
    on the pad during the deal (a scan of that one card) is known, so four passes give that
    seat the forced three at once, with no extra round."""
    eng = unscanned()
    ok(eng, ScanCard(3, JOKER), Pass(1), Pass(2), Pass(3), Pass(0))
    contract = eng.public_state()["contract"]
    assert contract["seat"] == 3 and contract["forced"] and eng.phase == "trump"


def test_all_pass_with_real_cards_nobody_declares_annuls_the_deal() -> None:
    """'if it then proves to be the card out of play, the deal is annulled': nobody declares
    the joker in the extra round (it is the card out of play), so the same dealer deals again."""
    eng = unscanned()
    ok(eng, *(Pass((1 + k) % 4) for k in range(8)))
    assert eng.phase == "deal" and eng.state.dealer == 0 and eng.state.hand_number == 2
    assert eng.state.scores == [0, 0]


def test_a_bid_in_the_first_round_ends_it_as_usual_with_real_cards() -> None:
    """'Bids are made numerically': with a bid in the round there is no joker round."""
    eng = unscanned()
    ok(eng, Pass(1), Bid(2, "2"), Pass(3), Pass(0))
    assert eng.phase == "trump" and not eng.public_state()["contract"]["forced"]


def test_no_trump_and_the_joker_wins_its_trick() -> None:
    """'declarer may name no trump in place of a single suit'; the joker is the best bauer
    (judgement: at no trump too)."""
    eng = table("hasenpfeffer", JOKER_IN)
    ok(eng, Pass(1), Pass(2), Pass(3), Pass(0), DeclareTrump(2, "NT"))
    assert eng.to_act == 2
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [0, 0, 6, 0]
    assert eng.state.scores == [6, 0]


def test_made_scores_a_point_a_trick() -> None:
    """'The bidder's side scores one point per trick won if this is not less than the bid'."""
    eng = table("hasenpfeffer", JOKER_IN)
    ok(eng, Bid(1, "4"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "H"))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [0, 5, 1, 0]
    assert eng.state.scores == [0, 5]


def test_failed_loses_a_point_per_undertrick() -> None:
    """'otherwise, it loses one point per undertrick'."""
    eng = table("hasenpfeffer", JOKER_IN)
    ok(eng, Bid(1, "6"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "H"))
    finish(eng)
    assert eng.state.scores == [0, -1]


@pytest.mark.parametrize("seed", range(3))
def test_complete_game_to_ten(seed: int) -> None:
    """'The play goes up to 10 points.'"""
    eng, _ = random_game("hasenpfeffer", 4, seed, bots=True)
    assert eng.state.game_over and eng.state.scores[eng.state.winner] >= 10

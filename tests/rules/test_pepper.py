"""Pepper (Progressive Euchre): each test names the passage of “Bid Euchre”, "Bid euchre
variations > Progressive > Play", that it checks."""

from __future__ import annotations

import pytest
from tricktable.cards import parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, DeclareTrump, Exchange, Pass
from variantkit import finish, ok, random_game, refused, table

# Dealer seat 0. Seat 0 holds every spade; seat 1 five hearts (not JD, 9H) and 9C.
HANDS = ["9S 10S JS QS KS AS", "JH AH KH QH 10H 9C", "10C JC QC KC AC 9D",
         "JD 9H 10D QD KD AD"]


def auction(eng: Engine, *bids: str) -> None:
    """Bids from the dealer's left; 'P' passes."""
    for i, bid in enumerate(bids):
        seat = (eng.state.dealer + 1 + i) % 4
        ok(eng, Pass(seat) if bid == "P" else Bid(seat, bid))


def test_bids_one_to_six_must_beat_the_last() -> None:
    """'Bids of one to six are made by stating the number of tricks to be taken. A player
    must either bid higher than any prior bid, or pass.'"""
    eng = table("pepper", HANDS)
    ok(eng, Bid(1, "3"))
    refused(eng, Bid(2, "3"), "bid_too_low")
    assert {a.bid for a in eng.legal_actions() if isinstance(a, Bid)} == \
        {"4", "5", "6", "PEPPER", "ALONE"}


def test_loner_is_pre_emptive_over_a_pepper() -> None:
    """'loner bids ... are pre-emptive': a loner outbids a pepper, and nothing outbids it."""
    eng = table("pepper", HANDS)
    ok(eng, Bid(1, "PEPPER"), Bid(2, "ALONE"))
    assert not [a for a in eng.legal_actions() if isinstance(a, Bid)]


def test_suits_only() -> None:
    """'Only suits may be declared trump; no-trump and low-no-trump declarations are not
    permitted.'"""
    eng = table("pepper", HANDS)
    auction(eng, "3", "P", "P", "P")
    refused(eng, DeclareTrump(1, "NT"), "bad_trump")


def test_pepper_partner_gives_best_card_of_the_suit_and_sits_out() -> None:
    """'the bidder declares suit by saying, Give me your best heart ... His partner gives the
    requested card to the bidder, face down, before seeing the bidder's passed card, and sits
    out the rest of the hand.' Made, it scores 'four points for a loner'."""
    eng = table("pepper", HANDS)
    auction(eng, "PEPPER", "P", "P", "P")
    ok(eng, DeclareTrump(1, "H"))
    assert eng.phase == "exchange" and eng.to_act == 3
    refused(eng, Exchange(3, parse_card("9H")), "exchange_refused")
    ok(eng, Exchange(3, parse_card("JD")))  # the left bower is the best heart
    ok(eng, Exchange(1, parse_card("9C")))
    assert eng.phase == "play" and eng.to_act == 1  # 'declares suit as he leads out'
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [0, 6, 0, 0]
    assert eng.state.scores == [0, 4]


def test_loner_made_scores_four() -> None:
    """'four points for a loner'."""
    eng = table("pepper", HANDS)
    auction(eng, "P", "P", "P", "ALONE")
    ok(eng, DeclareTrump(0, "S"))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [6, 0, 0, 0]
    assert eng.state.scores == [4, 0]


def test_contract_made_scores_one() -> None:
    """'Teams score one point for three or four tricks'."""
    eng = table("pepper", HANDS)
    auction(eng, "3", "P", "P", "P")
    ok(eng, DeclareTrump(1, "H"))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [0, 5, 1, 0]
    assert eng.state.scores == [0, 1]


def test_every_trick_with_partner_scores_two() -> None:
    """'two points for all five tricks' (all six in this six-card game)."""
    eng = table("pepper", HANDS)
    auction(eng, "P", "P", "P", "6")
    ok(eng, DeclareTrump(0, "S"))
    finish(eng)
    assert eng.state.last_hand["tricks_won"][0] + eng.state.last_hand["tricks_won"][2] == 6
    assert eng.state.scores == [2, 0]


def test_failed_contract_gives_two_to_the_other_side() -> None:
    """'A team failing to achieve their number of tricks receives no points for any tricks
    won, and two points go to the other partner's score.'"""
    eng = table("pepper", HANDS)
    auction(eng, "P", "6", "P", "P")
    ok(eng, DeclareTrump(2, "C"))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [0, 0, 5, 1]
    assert eng.state.scores == [0, 2]


def test_euchre_sweep_scores_four() -> None:
    """'An euchre sweep nets four points.'"""
    eng = table("pepper", HANDS)
    auction(eng, "1", "P", "P", "P")
    ok(eng, DeclareTrump(1, "S"))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [5, 0, 1, 0]
    assert eng.state.scores == [4, 0]


@pytest.mark.parametrize("seed", range(3))
def test_complete_progressive_round_is_eight_hands(seed: int) -> None:
    """Seed 001, Progressive: 'The lead table plays eight hands ... so that each player has
    dealt twice' (a tie plays on)."""
    eng, hands = random_game("pepper", 4, seed)
    assert eng.state.game_over and len(hands) >= 8
    assert eng.state.scores[eng.state.winner] == max(eng.state.scores)

"""Pfeffer and Buckpfeffer: each test names the passage of “Bid Euchre”, "Bid euchre variations >
Pfeffer" (Play; Scoring & Winning) or "> Buckpfeffer", that it checks."""

from __future__ import annotations

import pytest
from tricktable.cards import parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, DeclareTrump, Exchange, Pass
from variantkit import finish, ok, random_game, refused, table

# Dealer seat 0 (partners 0+2, 1+3). Seat 0 holds every spade, seat 1 five hearts and 9C.
HANDS = ["9S 10S JS QS KS AS", "JH AH KH QH 10H 9C", "10C JC QC KC AC 9D",
         "JD 9H 10D QD KD AD"]


def hand(variant: str, calls: list[str], trump: str, scores: list[int] | None = None) -> Engine:
    """Bids from the dealer's left ('P' passes), trump named, the hand played out."""
    eng = table(variant, HANDS, scores=scores)
    for i, call in enumerate(calls):
        seat = (1 + i) % 4
        ok(eng, Pass(seat) if call == "P" else Bid(seat, call))
    ok(eng, DeclareTrump(eng.to_act, trump))
    finish(eng)
    return eng


@pytest.mark.parametrize("variant", ["pfeffer", "buckpfeffer"])
def test_dealer_stuck_at_four(variant: str) -> None:
    """Pfeffer: 'the dealer is forced to make a four Trick Bid when all players pass in front
    of the dealer ... The minimum bid for a dealer is four tricks.' Buckpfeffer: 'If all three
    players pass before the dealer ... the dealer is forced to bid four tricks.'"""
    eng = table(variant, HANDS)
    ok(eng, Pass(1), Pass(2), Pass(3))
    refused(eng, Pass(0), "must_bid")
    refused(eng, Bid(0, "3"), "bid_too_low")
    assert {a.bid for a in eng.legal_actions() if isinstance(a, Bid)} == {"4", "5", "6", "PFEFFER"}
    ok(eng, Bid(0, "4"))
    assert eng.public_state()["contract"]["forced"]


def test_trump_bid_dealers_left_leads() -> None:
    """Pfeffer, Play: 'For trump bids, the player to the left of the dealer leads to the first
    trick'."""
    eng = table("pfeffer", HANDS)
    ok(eng, Pass(1), Pass(2), Pass(3), Bid(0, "4"), DeclareTrump(0, "S"))
    assert eng.to_act == 1


def test_no_trump_bid_declarers_right_leads() -> None:
    """Pfeffer, Play: 'For no-trump bids, the player to the right of the Declarer leads.'"""
    eng = table("pfeffer", HANDS)
    ok(eng, Pass(1), Pass(2), Pass(3), Bid(0, "4"), DeclareTrump(0, "NT"))
    assert eng.to_act == 3


def test_made_bid_scores_tricks_and_opponents_score_theirs() -> None:
    """Scoring & Winning: 'the team that declared trump scores one point for each trick taken
    if they took at least as many tricks as were bid'; 'In all cases, the opposing team simply
    scores one point for every trick they take.'"""
    eng = hand("pfeffer", ["3", "P", "P", "P"], "H")
    assert eng.state.last_hand["tricks_won"] == [0, 5, 1, 0]
    assert eng.state.scores == [1, 5]


def test_all_six_sets_the_opponents() -> None:
    """Scoring & Winning: 'If the declaring team takes all six tricks, they get six points and
    the opposing players are set. They lose five points and receive a hickey.'"""
    eng = hand("pfeffer", ["P", "P", "P", "4"], "S")
    assert eng.state.scores == [6, -5] and eng.state.tally == {"hickeys": [0, 1]}


def test_short_of_the_bid_loses_five_and_a_hickey() -> None:
    """Scoring & Winning: 'If the declaring team takes less than the number of tricks bid,
    they too will set, lose five points and also receive a hickey.'"""
    eng = hand("pfeffer", ["6", "P", "P", "P"], "H")
    assert eng.state.scores == [1, -5] and eng.state.tally == {"hickeys": [0, 1]}


def test_pfeffer_made_and_failed() -> None:
    """Scoring & Winning: 'For Pfeffer bids, if the declaring team takes all six tricks, they
    get twelve points and the opposing team are set, lose five points, and receive a hickey.
    If the declaring team fails ... lose ten points, and receive two hickeys.' Play: 'A Pfeffer
    bid ... is a bid to win all six tricks, alone.'"""
    eng = hand("pfeffer", ["P", "P", "P", "PFEFFER"], "S")
    assert eng.state.last_hand["tricks_won"] == [6, 0, 0, 0]
    assert eng.state.scores == [12, -5] and eng.state.tally == {"hickeys": [0, 1]}
    eng = hand("pfeffer", ["P", "PFEFFER", "P", "P"], "C")
    assert eng.state.last_hand["tricks_won"] == [0, 1, 5, 0]
    assert eng.state.scores == [-10, 1] and eng.state.tally == {"hickeys": [2, 0]}


def test_tie_at_42_goes_to_the_bidders() -> None:
    """Scoring & Winning: 'The game is to 42 points. In cases of a tie at 42, the bidding team
    wins.'"""
    eng = hand("pfeffer", ["3", "P", "P", "P"], "H", scores=[41, 37])
    assert eng.state.scores == [42, 42] and eng.state.winner == 1


def test_buckpfeffer_minimum_three_and_no_two() -> None:
    """Buckpfeffer: 'The minimum bid is three'; 'There is no bidding two'."""
    eng = table("buckpfeffer", HANDS)
    refused(eng, Bid(1, "2"), "unknown_bid")
    ok(eng, Bid(1, "3"))


@pytest.mark.parametrize("trump,best,worst", [("HIGH", "AH", "9D"), ("LOW", "9C", "AC")])
def test_buckpfeffer_high_low_exchange(trump: str, best: str, worst: str) -> None:
    """Buckpfeffer: 'the bidder calls hi or low and must exchange their best card (ace if high
    is called, 9 if low is called) for the worst card (a 9 if high is called, ace if low is
    called) from the player on the callers left.'"""
    eng = table("buckpfeffer", HANDS)
    ok(eng, Bid(1, "4"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, trump))
    assert eng.phase == "exchange" and eng.to_act == 1
    refused(eng, Exchange(1, parse_card("QH")), "exchange_refused")
    ok(eng, Exchange(1, parse_card(best)))
    refused(eng, Exchange(2, parse_card("QC")), "exchange_refused")
    ok(eng, Exchange(2, parse_card(worst)))
    assert worst in eng.known_hand(1) and best in eng.known_hand(2)


def test_buckpfeffer_pfeffer_has_no_exchange() -> None:
    """Buckpfeffer: '(unless the player calling trump has called a Pfeffer bid ...)'."""
    eng = table("buckpfeffer", HANDS)
    ok(eng, Bid(1, "PFEFFER"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "HIGH"))
    assert eng.phase == "play"


def test_buckpfeffer_scoring() -> None:
    """Buckpfeffer: 'Points awarded are the number of tricks taken'; 'if a team takes all six
    tricks after calling trump ... they score six plus the number of the tricks they bid. The
    skunked team has the number of the winning trump bid subtracted from their score.'"""
    eng = hand("buckpfeffer", ["3", "P", "P", "P"], "H")
    assert eng.state.scores == [1, 5]
    eng = hand("buckpfeffer", ["P", "P", "P", "4"], "S")
    assert eng.state.scores == [6 + 4, -4]
    eng = hand("buckpfeffer", ["P", "6", "P", "P"], "C")  # short: minus the bid (judgement)
    assert eng.state.scores == [-6, 1]


@pytest.mark.parametrize("variant,target", [("pfeffer", 42), ("buckpfeffer", 25)])
@pytest.mark.parametrize("seed", range(2))
def test_complete_game(variant: str, target: int, seed: int) -> None:
    """Pfeffer: 'The game is to 42 points'; Buckpfeffer: 'generally played to 25'."""
    eng, hands = random_game(variant, 4, seed, bots=True)
    assert eng.state.game_over and eng.state.scores[eng.state.winner] >= target

"""Jucker / Hunsrück Bauer: each test names the seed 002 Jucker fragment it checks (fragment
numbers are those before the colon of each fragment in seed 002)."""

from __future__ import annotations

import pytest
from tricktable.cards import parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, Exchange, Pass
from variantkit import ok, random_game, table

# Six players, dealer seat 0, teams 0+2+4 and 1+3+5. The skat holds JS and QC.
SIX = ["7S 8S 9S 10S QS", "JH AH KH QH 10H", "7C 8C 9C 10C JC", "7D 8D 9D 10D QD",
       "KS AS KC AC KD", "AD 9H 8H 7H JD"]


def finish(eng: Engine) -> None:
    number = eng.state.hand_number
    while eng.state.hand_number == number and not eng.state.game_over:
        ok(eng, eng.legal_actions()[0])


def test_pack_teams_and_lines() -> None:
    """Fragment 3040: 'uses 32 French-suited cards and is a six-handed, two-team game ...
    players receive 5 cards each'; fragment 5472: 'Teams start with five lines'."""
    eng = Engine.new("jucker", seed=1)
    ok(eng, eng.legal_actions()[0])
    assert eng.state.deck.size == 32 and eng.state.n == 6
    assert all(len(eng.known_hand(s)) == 5 for s in range(6))
    assert eng.state.sides == [(0, 2, 4), (1, 3, 5)] and eng.state.scores == [5, 5]


def test_a_turned_jack_fixes_trump() -> None:
    """Fragment 3192: 'the top card of the skat is turned for trump. If it is a Jack, it
    determines trumps' (judgement: the dealer's team declares; the dealer may exchange)."""
    hands = list(SIX)
    hands[2] = "7C 8C 9C 10C QC"
    eng = table("jucker", hands, up="JS")
    contract = eng.public_state()["contract"]
    assert contract["bid"] == "JACK_UP" and contract["seat"] == 0 and contract["trump"] == "S"
    assert eng.phase == "exchange" and eng.to_act == 0


def test_two_jacks_on_top() -> None:
    """Fragment 3040: 'two Jacks as top trumps: the trump Jack and the Jack of the same
    colour'."""
    eng = table("jucker", SIX, up="QC")
    ok(eng, *(Pass(s % 6) for s in range(1, 7)), Bid(1, "H"))
    assert eng.state.order.is_trump(parse_card("JD"))
    assert eng.state.order.strength[parse_card("JH").index] == 99


def test_turned_suit_then_another_suit() -> None:
    """Fragment 5472: 'players are asked in turn if they will play with the turnup suit. If
    any player says yes, the dealer may exchange with it. If no-one wants to play with the
    turnup suit, it is turned over again and players are asked if they will play with another
    suit.'"""
    eng = table("jucker", SIX, up="QC")
    ok(eng, Bid(1, "ORDER_UP"))
    assert eng.public_state()["trump"] == "C" and eng.phase == "exchange"
    ok(eng, Exchange(0, parse_card("QC")))  # the dealer declines: the card goes back
    assert sorted(eng.known_hand(0)) == sorted(SIX[0].split())
    eng = table("jucker", SIX, up="QC")
    ok(eng, *(Pass(s % 6) for s in range(1, 7)))
    assert {a.bid for a in eng.legal_actions() if isinstance(a, Bid)} == {"S", "H", "D"}


def test_all_pass_is_redealt() -> None:
    """Fragment 5472: 'If all pass, the cards are redealt.'"""
    eng = table("jucker", SIX, up="QC")
    ok(eng, *(Pass(s % 6) for s in range(1, 13)))
    assert eng.phase == "deal" and eng.state.dealer == 0 and eng.state.hand_number == 2


def test_declarers_lose_add_a_line_and_winners_erase_one() -> None:
    """Fragments 5472, 532: 'play for the best of five tricks. If the declarers win, they erase
    a line; if they lose, they add a line and the winners erase a line.'"""
    eng = table("jucker", SIX, up="QC")
    ok(eng, *(Pass(s % 6) for s in range(1, 7)), Pass(1), Pass(2), Bid(3, "S"))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [3, 0, 1, 0, 1, 0]
    assert eng.state.scores == [4, 6]


def test_durch_is_worth_two_lines() -> None:
    """Fragment 3040: 'there is a bonus for a slam, known as a Durch' (two lines: judgement)."""
    eng = table("jucker", SIX, up="QC")
    ok(eng, *(Pass(s % 6) for s in range(1, 7)), Bid(1, "H"))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [0, 4, 0, 0, 0, 1]
    assert eng.state.scores == [5, 3]


def test_first_team_without_lines_wins() -> None:
    """Fragment 5472: the lines are erased as hands are won; none left wins."""
    eng = table("jucker", SIX, up="QC", scores=[5, 2])
    ok(eng, *(Pass(s % 6) for s in range(1, 7)), Bid(1, "H"))
    finish(eng)
    assert eng.state.game_over and eng.state.winner == 1 and eng.state.scores == [5, 0]


@pytest.mark.parametrize("players", [6, 4])
def test_complete_game(players: int) -> None:
    eng, hands = random_game("jucker", players, players)
    assert eng.state.game_over and eng.state.scores[eng.state.winner] <= 0

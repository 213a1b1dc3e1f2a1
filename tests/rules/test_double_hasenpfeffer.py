"""Double Hasenpfeffer: each test names the passage of “Bid Euchre”, "Double Deck Bid Euchre >
Double Hasenpfeffer", that it checks."""

from __future__ import annotations

import pytest
from tricktable.cards import parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, Call, DeclareTrump, Exchange, Pass, Play
from variantkit import finish, ok, random_game, refused, table

SUITED = " ".join(f"{r}{{s}} {r}{{s}}'" for r in ("9", "10", "J", "Q", "K", "A"))
ONE_SUIT_EACH = [SUITED.format(s=s) for s in "SHDC"]  # dealer seat 3


@pytest.mark.parametrize("players,cards", [(4, 12), (6, 8)])
def test_pack_teams_and_deal(players: int, cards: int) -> None:
    """'A variant for either four or six players divided into two teams and using the 48-card
    pinochle pack'; 'All cards are dealt out'."""
    eng = Engine.new("double-hasenpfeffer", n_players=players, seed=3)
    ok(eng, eng.legal_actions()[0])
    assert all(len(eng.known_hand(s)) == cards for s in range(players))
    assert len(eng.state.sides) == 2 and eng.state.sides[0] == tuple(range(0, players, 2))


def test_no_bauers() -> None:
    """'may be played without bauers, so all cards rank A K Q J 10 9 in each suit'."""
    hands = list(ONE_SUIT_EACH)
    hands[0] = hands[0].replace("JS'", "JC'")
    hands[3] = hands[3].replace("JC'", "JS'")
    eng = table("double-hasenpfeffer", hands, dealer=3)
    ok(eng, Bid(0, "6"), Pass(1), Pass(2), Pass(3), DeclareTrump(0, "S"))
    ok(eng, Play(0, parse_card("JC"), 1))  # the jack of clubs is a club, not a trump
    ok(eng, Play(1, parse_card("9H"), 0), Play(2, parse_card("9D"), 0))
    legal = eng.legal_actions()
    assert all(a.card.suit.letter == "C" for a in legal) and len(legal) == 11  # not JS'
    refused(eng, Play(3, parse_card("JS"), 1), "must_follow_suit")


def test_minimum_six_and_dealer_forced() -> None:
    """'The minimum bid is six. If all pass, the dealer names trump at a minimum bid of six
    tricks.'"""
    eng = table("double-hasenpfeffer", ONE_SUIT_EACH, dealer=3)
    refused(eng, Bid(0, "5"), "unknown_bid")
    ok(eng, Pass(0), Pass(1), Pass(2), Pass(3))
    assert eng.phase == "trump" and eng.to_act == 3
    assert eng.public_state()["contract"] == {"seat": 3, "bid": "6", "trump": None,
                                              "alone": False, "need": 6, "forced": True}


def test_forced_dealer_loses_only_half() -> None:
    """'with a forced declaration by the dealer losing only half (rounding up) if not made'."""
    eng = table("double-hasenpfeffer", ONE_SUIT_EACH, dealer=3)
    ok(eng, Pass(0), Pass(1), Pass(2), Pass(3), DeclareTrump(3, "S"))
    finish(eng)
    assert eng.state.scores == [12, -3]


def test_made_and_failed() -> None:
    """'Scoring is the same as in 24-card pepper above': made, a point a trick; failed, minus
    the bid (judgement: the Double Deck rule); the opponents score their tricks."""
    eng = table("double-hasenpfeffer", ONE_SUIT_EACH, dealer=3)
    ok(eng, Bid(0, "6"), Pass(1), Pass(2), Pass(3), DeclareTrump(0, "S"))
    finish(eng)
    assert eng.state.scores == [12, 0]
    eng = table("double-hasenpfeffer", ONE_SUIT_EACH, dealer=3)
    ok(eng, Pass(0), Bid(1, "7"), Pass(2), Pass(3), DeclareTrump(1, "S"))
    finish(eng)
    assert eng.state.scores == [12, -7]


def test_alone_exchanges_two_cards_and_scores_double() -> None:
    """'In a four-player game, a high bidder may opt to play alone and exchange any two cards
    with his or her partner and then play solo against the opposing team'; 'Playing alone
    scores double'."""
    eng = table("double-hasenpfeffer", ONE_SUIT_EACH, dealer=3)
    ok(eng, Bid(0, "6"), Pass(1), Pass(2), Pass(3), Call(0, "ALONE"), DeclareTrump(0, "S"))
    assert eng.phase == "exchange"
    ok(eng, Exchange(0, parse_card("9S"), 0), Exchange(0, parse_card("9S"), 1))
    ok(eng, Exchange(2, parse_card("AD"), 0), Exchange(2, parse_card("AD"), 1))
    assert eng.phase == "play" and "AD" in eng.known_hand(0)
    finish(eng)
    assert eng.state.last_hand["tricks_won"][2] == 0
    assert eng.state.scores == [24, 0]


def test_no_alone_with_six_players() -> None:
    """'In a four-player game, a high bidder may opt to play alone'."""
    eng = Engine.new("double-hasenpfeffer", n_players=6, seed=1)
    ok(eng, eng.legal_actions()[0])
    while eng.phase == "bidding":
        ok(eng, next(a for a in eng.legal_actions() if isinstance(a, Pass | Bid)))
    assert not [a for a in eng.legal_actions() if isinstance(a, Call) and a.call == "ALONE"]


@pytest.mark.parametrize("players", [4, 6])
def test_complete_game(players: int) -> None:
    """Seed 001, Double Hasenpfeffer: 'Scoring is the same as in 24-card pepper above', so a
    whole game goes to 42 (“Bid Euchre”, section “Single Deck Bid Euchre”, “Winning”)."""
    eng, hands = random_game("double-hasenpfeffer", players, players, bots=True)
    assert eng.state.game_over and eng.state.scores[eng.state.winner] >= 42

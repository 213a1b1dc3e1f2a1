"""Jucker / Hunsrück Bauer: each test names the “Jucker” Jucker fragment it checks (fragment
numbers are those before the colon of each fragment in “Jucker”)."""

from __future__ import annotations

import pytest
from tricktable.cards import parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, Exchange, Pass, Play, SitOut, TurnUp
from variantkit import finish, ok, random_game, refused, table

# Six players, dealer seat 0, teams 0+2+4 and 1+3+5. The skat holds JS and QC.
SIX = ["7S 8S 9S 10S QS", "JH AH KH QH 10H", "7C 8C 9C 10C JC", "7D 8D 9D 10D QD",
       "KS AS KC AC KD", "AD 9H 8H 7H JD"]


def test_pack_teams_and_lines() -> None:
    """Section “Bauer”: 'uses 32 French-suited cards and is a six-handed, two-team game ...
    players receive 5 cards each'; section “Variations”: 'Teams start with five lines'."""
    eng = Engine.new("jucker", seed=1)
    ok(eng, eng.legal_actions()[0])
    assert eng.state.deck.size == 32 and eng.state.n == 6
    assert all(len(eng.known_hand(s)) == 5 for s in range(6))
    assert eng.state.sides == [(0, 2, 4), (1, 3, 5)] and eng.state.scores == [5, 5]


def test_a_turned_jack_fixes_trump() -> None:
    """Section “Rules”: 'the top card of the skat is turned for trump. If it is a Jack, it
    determines trumps' (judgement: the dealer's team declares; the dealer may exchange)."""
    hands = list(SIX)
    hands[2] = "7C 8C 9C 10C QC"
    eng = table("jucker", hands, up="JS")
    contract = eng.public_state()["contract"]
    assert contract["bid"] == "JACK_UP" and contract["seat"] == 0 and contract["trump"] == "S"
    assert eng.phase == "exchange" and eng.to_act == 0


def test_two_jacks_on_top() -> None:
    """Section “Bauer”: 'two Jacks as top trumps: the trump Jack and the Jack of the same
    colour'."""
    eng = table("jucker", SIX, up="QC")
    ok(eng, *(Pass(s % 6) for s in range(1, 7)), Bid(1, "H"))
    assert eng.state.order.is_trump(parse_card("JD"))
    assert eng.state.order.strength[parse_card("JH").index] == 99


def test_turned_suit_then_another_suit() -> None:
    """Section “Variations”: 'players are asked in turn if they will play with the turnup suit. If
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
    """Section “Variations”: 'If all pass, the cards are redealt.'"""
    eng = table("jucker", SIX, up="QC")
    ok(eng, *(Pass(s % 6) for s in range(1, 13)))
    assert eng.phase == "deal" and eng.state.dealer == 0 and eng.state.hand_number == 2


def test_declarers_lose_add_a_line_and_winners_erase_one() -> None:
    """Sections “Variations”, “Bauer”: 'play for the best of five tricks. If the declarers win, they erase
    a line; if they lose, they add a line and the winners erase a line.'"""
    eng = table("jucker", SIX, up="QC")
    ok(eng, *(Pass(s % 6) for s in range(1, 7)), Pass(1), Pass(2), Bid(3, "S"))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [3, 0, 1, 0, 1, 0]
    assert eng.state.scores == [4, 6]


def test_durch_is_worth_two_lines() -> None:
    """Section “Bauer”: 'there is a bonus for a slam, known as a Durch' (two lines: judgement)."""
    eng = table("jucker", SIX, up="QC")
    ok(eng, *(Pass(s % 6) for s in range(1, 7)), Bid(1, "H"))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [0, 4, 0, 0, 0, 1]
    assert eng.state.scores == [5, 3]


def test_first_team_without_lines_wins() -> None:
    """Section “Variations”: the lines are erased as hands are won; none left wins."""
    eng = table("jucker", SIX, up="QC", scores=[5, 2])
    ok(eng, *(Pass(s % 6) for s in range(1, 7)), Bid(1, "H"))
    finish(eng)
    assert eng.state.game_over and eng.state.winner == 1 and eng.state.scores == [5, 0]


@pytest.mark.parametrize("players", [6, 4])
def test_complete_game(players: int) -> None:
    """Sections “Variations”, “Bauer”: lines are erased as hands are won ('the winners erase a
    line'); a whole random game ends with the winning team at no lines left."""
    eng, hands = random_game("jucker", players, players)
    assert eng.state.game_over and eng.state.scores[eng.state.winner] <= 0


# The Saarland Bauer: dealer seat 0, forehand seat 1 (partners 0+2, 1+3); all 32 cards dealt.
SAAR = ["7S 8S 9S 10S QS KS AS 7H", "JS JC AH KH QH 10H 9H 8H", "7C 8C 9C 10C QC KC AC JH",
        "7D 8D 9D 10D QD KD AD JD"]
# Seat 1 holds the eight best spades.
SAAR_MARCH = ["7S AH KH QH 10H 9H 8H 7H", "JS JC AS KS QS 10S 9S 8S", SAAR[2], SAAR[3]]


def test_bauer_forehand_names_trump_after_four_cards() -> None:
    """Section “Bauer”: '8 cards are dealt to each player clockwise in two packets of 4, trumps
    being chosen by forehand after the first packet ... a 32-card ... Skat pack'."""
    eng = Engine.new("bauer-saarland", seed=2)
    ok(eng, eng.legal_actions()[0])
    assert eng.state.deck.size == 32 and all(len(eng.known_hand(s)) == 8 for s in range(4))
    eng = table("bauer-saarland", SAAR)
    assert eng.to_act == 1 and not [a for a in eng.legal_actions() if isinstance(a, Pass)]
    ok(eng, Bid(1, "S"))
    assert eng.public_state()["trump"] == "S" and eng.state.scores == [8, 8]


def test_bauer_forehand_leads_a_trump() -> None:
    """Section “Bauer”: 'Forehand leads with a trump (sometimes optional).'"""
    eng = table("bauer-saarland", SAAR)
    ok(eng, Bid(1, "S"), *(SitOut(s, False) for s in (1, 2, 3, 0)))
    assert {str(a.card) for a in eng.legal_actions()} == {"JS", "JC"}
    refused(eng, Play(1, parse_card("AH")), "lead_refused")
    eng = table("bauer-saarland", SAAR, options={"forehand_leads_trump": False})
    ok(eng, Bid(1, "S"), *(SitOut(s, False) for s in (1, 2, 3, 0)), Play(1, parse_card("AH")))


def test_bauer_declarers_lose_add_a_point() -> None:
    """Section “Bauer”: 'one point being deducted to the winners of a deal if they declared
    trumps. If the declarers lose, they add a point and their opponents deduct one.'"""
    eng = table("bauer-saarland", SAAR)
    ok(eng, Bid(1, "S"), *(SitOut(s, False) for s in (1, 2, 3, 0)))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [5, 3, 0, 0]
    assert eng.state.scores == [7, 9]


def test_bauer_karten_weg_earns_a_brot() -> None:
    """Section “Bauer”: 'Karten weg ("cards away") ... announced by a player who intends to take
    every trick. The partner's cards are set aside and the player wanting to make a march
    leads off. Winning earns an extra Brot' (judgement: the team's game at once)."""
    eng = table("bauer-saarland", SAAR_MARCH)
    ok(eng, Bid(1, "S"), SitOut(1, False), SitOut(2, False), SitOut(3, True))
    refused(eng, SitOut(0, True), "sit_out_refused")
    ok(eng, SitOut(0, False))
    assert eng.to_act == 1
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [0, 8, 0, 0]
    assert eng.state.game_over and eng.state.winner == 1 and eng.state.scores == [8, 0]


@pytest.mark.parametrize("seed", range(3))
def test_bauer_complete_game(seed: int) -> None:
    """Section “Bauer”: teams 'aim to be first to zero'."""
    eng, _ = random_game("bauer-saarland", 4, seed)
    assert eng.state.game_over and eng.state.scores[eng.state.winner] <= 0


def test_turned_jack_with_unknown_hands() -> None:
    """Section “Rules”: a turned jack 'determines trumps'; with real cards nobody scanned, the
    dealer's exchange opens the hand."""
    eng = Engine.new("jucker")
    ok(eng, TurnUp(0, parse_card("JS")), Exchange(0, None))
    assert eng.phase == "play" and eng.public_state()["trump"] == "S" and eng.to_act == 1

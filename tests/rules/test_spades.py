"""Spades, partnership and cutthroat: each test names the “Spades” passage it checks
(fragment numbers are those before the colon of each fragment in “Spades”)."""

from __future__ import annotations

import pytest
from tricktable.cards import parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, Exchange, Pass, Play
from variantkit import finish, ok, random_game, refused, table

RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()


def suit(letter: str, ranks: list[str] = RANKS) -> str:
    return " ".join(r + letter for r in ranks)


# Dealer seat 3, so seat 0 bids and leads first. One suit per seat: seat 0 wins every trick.
ONE_SUIT_EACH = [suit("S"), suit("H"), suit("D"), suit("C")]
# Seat 0 holds AS and twelve hearts; seat 1 holds AH and twelve spades.
SWAPPED = ["AS " + suit("H", RANKS[:-1]), "AH " + suit("S", RANKS[:-1]), suit("D"), suit("C")]


def bid_and_play(eng: Engine, *bids: str) -> None:
    for seat, bid in enumerate(bids):
        ok(eng, Bid(seat, bid))
    finish(eng)


def test_partnership_bids_add_and_bags_score_one() -> None:
    """Section “Bidding”: 'the bids by the two members of each partnership are added together';
    section “Scoring”: 10 points a bid trick and 1 a bag; section “Scoring”: nil +100."""
    eng = table("spades", ONE_SUIT_EACH, dealer=3)
    bid_and_play(eng, "5", "NIL", "3", "NIL")
    assert eng.state.last_hand["tricks_won"] == [13, 0, 0, 0]
    assert eng.state.scores == [80 + 5, 100 + 100]
    assert eng.state.tally == {"bags": [5, 0]}


def test_set_loses_ten_a_bid_trick() -> None:
    """Section “Scoring”: 'If a team did not make its contract, it was set and 10 points for
    each bid trick are deducted'."""
    eng = table("spades", ONE_SUIT_EACH, dealer=3)
    bid_and_play(eng, "5", "1", "3", "1")
    assert eng.state.scores == [85, -20]


def test_failed_nil_counts_apart_from_the_contract() -> None:
    """Section “Scoring”: the nil bonus or penalty is independent of the contract score;
    the nil bidder's tricks count towards the partnership."""
    eng = table("spades", ONE_SUIT_EACH, dealer=3)
    bid_and_play(eng, "NIL", "1", "8", "1")
    assert eng.state.scores == [-100 + 80 + 5, -20]


def test_failed_nil_tricks_as_bags_option() -> None:
    """Section “Scoring”: 'If a nil bid is set, most tournament rules dictate that the overtricks
    make the nil invalid' - option failed_nil_tricks="bags": the failed nil bidder's 13 tricks
    do not make the partner's 8 (set, -80) and are 13 bags (+13, then 10 bags -100)."""
    eng = table("spades", ONE_SUIT_EACH, dealer=3, options={"failed_nil_tricks": "bags"})
    bid_and_play(eng, "NIL", "1", "8", "1")
    assert eng.state.scores == [-100 - 80 + 13 - 100, -20]
    assert eng.state.tally == {"bags": [3, 0]}


def test_one_nil_per_game_option() -> None:
    """Section “Play”: 'Nil rules: One nil per game.' - option nils_per_game=1, counted per
    side: the partner of this hand's nil bidder may not bid nil, nor may that side later;
    the other side still may."""
    eng = table("spades", ONE_SUIT_EACH, dealer=3, options={"nils_per_game": 1})
    ok(eng, Bid(0, "5"), Bid(1, "NIL"), Bid(2, "3"))
    refused(eng, Bid(3, "NIL"), "bid_too_low")
    ok(eng, Bid(3, "1"))
    hand = eng.state.hand_number
    while eng.state.hand_number == hand:
        ok(eng, eng.legal_actions()[0])
    assert eng.state.tally["nils"] == [0, 1]
    ok(eng, eng.legal_actions()[0])  # the next deal; seat 1 bids first
    for seat, nil_offered in ((1, False), (2, True), (3, False), (0, True)):
        offered = [a.bid for a in eng.legal_actions() if isinstance(a, Bid)]
        assert ("NIL" in offered) is nil_offered, seat
        ok(eng, Bid(seat, "1"))


def test_nil_is_unlimited_by_default() -> None:
    """Section “Bidding”: 'A combined bid of two blind nil is usually allowed': both partners may
    bid nil in one hand (nils_per_game null by default)."""
    eng = table("spades", ONE_SUIT_EACH, dealer=3)
    ok(eng, Bid(0, "5"), Bid(1, "NIL"), Bid(2, "3"), Bid(3, "NIL"))


def test_ten_bags_cost_one_hundred_and_the_rest_carry() -> None:
    """Section “Scoring”: at 10 bags, 100 points are deducted; 'Anything over 10
    sandbags is retained'."""
    eng = table("spades", ONE_SUIT_EACH, dealer=3)
    eng.state.tally = {"bags": [8, 0]}
    bid_and_play(eng, "5", "1", "3", "1")
    assert eng.state.scores == [85 - 100, -20]
    assert eng.state.tally == {"bags": [3, 0]}


def test_short_game_five_bags_cost_fifty() -> None:
    """Section “Scoring”: 'a 50-point penalty would be assessed when 5 bags are accumulated'."""
    eng = table("spades", ONE_SUIT_EACH, dealer=3,
                options={"bag_limit": 5, "bag_penalty": 50, "target": 250})
    bid_and_play(eng, "5", "1", "3", "1")
    assert eng.state.scores == [85 - 50, -20] and eng.state.tally == {"bags": [0, 0]}


def test_every_player_must_bid() -> None:
    """Section “Bidding”: 'Players must bid at least one if they don't want to bid nil'."""
    eng = table("spades", ONE_SUIT_EACH, dealer=3)
    refused(eng, Pass(0), "must_bid")


def test_blind_nil_only_when_down_by_100() -> None:
    """Section “Nil”: 'Usually teams must be down by 100 points to bid blind nil'; blind nil
    scores +/-200 (sections “Bidding”, “Scoring”)."""
    eng = table("spades", ONE_SUIT_EACH, dealer=3, scores=[0, 50])
    refused(eng, Bid(0, "BLINDNIL"), "bid_too_low")
    eng = table("spades", ONE_SUIT_EACH, dealer=3, scores=[50, -50])
    ok(eng, Bid(0, "3"), Bid(1, "BLINDNIL"), Bid(2, "3"), Bid(3, "2"))
    hand = eng.state.hand_number
    while eng.state.hand_number == hand:
        ok(eng, eng.legal_actions()[0])
    assert eng.state.scores == [50 + 60 + 7, -50 + 200 - 20]


def test_breaking_spades() -> None:
    """Section “Play”: 'a player may not lead spades until a spade has been played to trump
    another trick' (a hand of only spades may lead one)."""
    eng = table("spades", SWAPPED, dealer=3)
    ok(eng, *(Bid(s, "3") for s in range(4)))
    refused(eng, Play(0, parse_card("AS")), "lead_refused")
    assert all(a.card.suit.letter == "H" for a in eng.legal_actions())
    ok(eng, Play(0, parse_card("2H")), Play(1, parse_card("AH")))
    ok(eng, Play(2, parse_card("2D")), Play(3, parse_card("2C")))
    assert eng.to_act == 1  # only spades left: may lead one
    ok(eng, Play(1, parse_card("2S")))


def test_no_spade_lead_to_the_first_trick_option() -> None:
    """Section “Play”: 'a player cannot lead spades in the first trick'."""
    eng = table("spades", SWAPPED, dealer=3,
                options={"breaking_spades": False, "no_spade_first_lead": True})
    ok(eng, *(Bid(s, "3") for s in range(4)))
    out = refused(eng, Play(0, parse_card("AS")), "lead_refused")
    assert "first trick" in out.reason
    eng = table("spades", SWAPPED, dealer=3, options={"breaking_spades": False})
    ok(eng, *(Bid(s, "3") for s in range(4)), Play(0, parse_card("AS")))


@pytest.mark.parametrize("penalty", ["lose_bid", "add_three"])
def test_revoke_penalties(penalty: str) -> None:
    """Section “Reneging”: 'for the reneging player to automatically lose their bid, or for the
    reneger to have three tricks added to their bid'."""
    eng = table("spades", SWAPPED, dealer=3,
                options={"revoke_mode": "record", "revoke_penalty": penalty,
                         "breaking_spades": False})
    ok(eng, Bid(0, "4"), Bid(1, "2"), Bid(2, "1"), Bid(3, "1"))
    ok(eng, Play(0, parse_card("2H")), Play(1, parse_card("2S")))  # holds AH: a revoke
    assert eng.state.revokes[0]["seat"] == 1
    hand = eng.state.hand_number
    while eng.state.hand_number == hand:
        ok(eng, eng.legal_actions()[0])
    tricks = eng.state.last_hand["tricks_won"]
    mine, theirs = tricks[0] + tricks[2], tricks[1] + tricks[3]
    assert eng.state.scores[0] == (50 + mine - 5 if mine >= 5 else -50)
    if penalty == "lose_bid":  # set, whatever they took
        assert eng.state.scores[1] == -30
    else:  # contract 3 + 3
        assert eng.state.scores[1] == (60 + theirs - 6 if theirs >= 6 else -60)


def test_game_to_500_and_lost_at_minus_200() -> None:
    """Section “Scoring”: the winner is 'the first to reach 500 points, or forcing the opposing
    team to drop to -200 points'."""
    eng = table("spades", ONE_SUIT_EACH, dealer=3, scores=[430, 0])
    bid_and_play(eng, "5", "1", "3", "1")
    assert eng.state.game_over and eng.state.winner == 0
    eng = table("spades", ONE_SUIT_EACH, dealer=3, scores=[0, -190])
    bid_and_play(eng, "5", "1", "3", "1")
    assert eng.state.game_over and eng.state.winner == 0 and eng.state.scores[1] == -210


def test_cutthroat_each_for_themselves() -> None:
    """Sections “Players”, “Bidding”: cutthroat, every player scores their own bid."""
    eng = table("spades-cutthroat", ONE_SUIT_EACH, dealer=3)
    assert eng.public_state()["partnerships"] is None
    bid_and_play(eng, "5", "NIL", "2", "1")
    assert eng.state.scores == [58, 100, -20, -10]


@pytest.mark.parametrize("variant", ["spades", "spades-cutthroat"])
@pytest.mark.parametrize("seed", range(3))
def test_complete_game(variant: str, seed: int) -> None:
    """Section “Scoring”: a game ends at 500 or -200; all 13 tricks are played each hand."""
    eng, hands = random_game(variant, 4, seed)
    assert eng.state.game_over
    assert max(eng.state.scores) >= 500 or min(eng.state.scores) <= -200
    assert all(sum(h["tricks_won"]) == 13 for h in hands)


def test_blind_nil_card_pass_option() -> None:
    """Section “Nil”: 'the player bidding nil passes one or two of their cards ... to their
    partner and receives an equal number of cards back ... Nil passing may be allowed only in
    the case of a blind nil.'"""
    eng = table("spades", ONE_SUIT_EACH, dealer=3, scores=[50, -50], options={"nil_pass": 2})
    ok(eng, Bid(0, "3"), Bid(1, "BLINDNIL"), Bid(2, "3"), Bid(3, "2"))
    assert eng.phase == "exchange" and eng.to_act == 1
    ok(eng, Exchange(1, parse_card("AH")), Exchange(1, parse_card("KH")))
    ok(eng, Exchange(3, parse_card("2C")), Exchange(3, parse_card("3C")))
    assert "2C" in eng.known_hand(1) and "AH" in eng.known_hand(3)
    assert eng.phase == "play" and eng.to_act == 0
    eng = table("spades", ONE_SUIT_EACH, dealer=3, options={"nil_pass": 1})
    ok(eng, Bid(0, "3"), Bid(1, "NIL"), Bid(2, "3"), Bid(3, "2"))
    assert eng.phase == "play"  # a plain nil passes only with nil_pass_blind_only off

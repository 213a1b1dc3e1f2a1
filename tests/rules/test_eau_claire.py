"""Eau Claire Clubs: each test names the section of “Bid Euchre”, "Eau Claire Clubs", that it
checks (Dealing, Bidding, Sitting out, Cardplay, Set, Scoring, Winning, Bottoms, Misdeal)."""

from __future__ import annotations

import pytest
from tricktable.cards import parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import (
    Bid,
    Call,
    DeclareTrump,
    Pass,
    Play,
    ScanCard,
    SitOut,
    TurnUp,
)
from variantkit import finish, ok, random_game, refused, table

# Dealer seat 0 (partners 0+2, 1+3); undealt 9H JD QC JC.
MIXED = ["AS KS AH 9C 9D", "QS JH KH 10C 10D", "JS QH AC KC QD", "10S 9S 10H AD KD"]
# With JC turned up, seats 0 and 2 take four tricks and seats 1 and 3 one.
CLUB_SPLIT = ["AS KS AH 9C 9D", "JS JH KH 10C 10D", "QS QH AC KC QD", "10S 9S 10H AD KD"]


def bids(eng: Engine, *calls: str) -> None:
    """One bid per seat from the dealer's left; 'P' passes."""
    for i, bid in enumerate(calls):
        seat = (eng.state.dealer + 1 + i) % 4
        ok(eng, Pass(seat) if bid == "P" else Bid(seat, bid))


def test_outbid_ladder() -> None:
    """Bidding: 'A bid of 3HC or 4HC is beaten by any trump-suit bid'; 'A bid of 5HC is beaten
    by a trump-suit bid of 3 or more'; the example '4HC-2-Pass-3' gives the dealer's side 3,
    and the high bidder 'may call any trump suit, regardless of the suit of the up-card'."""
    eng = table("eau-claire-clubs", MIXED, up="9H")
    ok(eng, Bid(1, "4HC"), Bid(2, "2"))
    assert {a.bid for a in eng.legal_actions() if isinstance(a, Bid)} == {"5HC", "3", "4", "5"}
    ok(eng, Pass(3), Bid(0, "3"))
    assert eng.phase == "trump" and eng.to_act == 0
    ok(eng, DeclareTrump(0, "H"))
    assert eng.public_state()["contract"]["need"] == 3
    eng = table("eau-claire-clubs", MIXED, up="9H")
    ok(eng, Bid(1, "5HC"))
    refused(eng, Bid(2, "2"), "bid_too_low")
    ok(eng, Bid(2, "3"))


def test_high_card_bid_plays_without_trump_and_bidder_leads() -> None:
    """Bidding: '3HC (High Card) — this is a bid to take 3 tricks at high card, aka notrump';
    Cardplay: 'the winning bidder leads to the opening trick'."""
    eng = table("eau-claire-clubs", MIXED, up="9H")
    bids(eng, "3HC", "P", "P", "P")
    assert eng.public_state()["trump"] == "NT" and eng.phase == "sitout" and eng.to_act == 2
    ok(eng, SitOut(2, False))
    assert eng.to_act == 1


def test_made_bid_and_defenders_subtract_their_tricks() -> None:
    """Scoring: 'If the bidders made their bid, their trick total is subtracted from their
    score'; 'If the defenders' trick-total is 1 or greater, their trick total is subtracted'."""
    eng = table("eau-claire-clubs", MIXED, up="9H")
    bids(eng, "2", "P", "P", "P")
    ok(eng, DeclareTrump(1, "H"), SitOut(2, False))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [2, 1, 0, 2]
    assert eng.state.scores == [13, 12]


def test_set_adds_five_up_to_twenty() -> None:
    """Set: 'As bidders, the partnership's trick total is lower than their bid'; 'the
    partnership's score is increased by 5, up to a maximum of 20'."""
    eng = table("eau-claire-clubs", MIXED, up="9H", scores=[15, 17])
    bids(eng, "3HC", "P", "P", "P")
    ok(eng, SitOut(2, False))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [3, 0, 0, 2]
    assert eng.state.scores == [12, 20]


def test_sitting_out_gives_the_bidders_their_bid() -> None:
    """Sitting out: 'the bidding partnership earn points equal to their bid, and the
    defenders' score remains the same'."""
    eng = table("eau-claire-clubs", MIXED, up="9H")
    bids(eng, "4", "P", "P", "P")
    ok(eng, DeclareTrump(1, "H"), SitOut(2, True))
    assert eng.phase == "deal" and eng.state.scores == [15, 11]
    assert eng.state.tally["sat_out"] == [1, 0]


def test_no_sitting_out_three_hands_running_or_at_three_two_one() -> None:
    """Sitting out: a partnership may not sit out 'If they have sat out the 2 previous hands'
    or 'If their score is 3, 2, or 1'."""
    eng = table("eau-claire-clubs", MIXED, up="9H")
    eng.state.tally = {"sat_out": [2, 0]}
    bids(eng, "2", "P", "P", "P")
    ok(eng, DeclareTrump(1, "H"))
    assert eng.phase == "play"
    eng = table("eau-claire-clubs", MIXED, up="9H", scores=[3, 15])
    bids(eng, "2", "P", "P", "P")
    ok(eng, DeclareTrump(1, "H"))
    assert eng.phase == "play"


def test_club_up_card() -> None:
    """Sitting out: 'If the up-card IS a club: There is no bidding ... clubs as trump. Both
    partnerships must play ... Players may not call Bottoms ... The player to the left of the
    dealer leads'. Scoring: 'If the up-card was a club, and one partnership take all 5 tricks,
    then 5 points are subtracted ... the other team is set'."""
    eng = table("eau-claire-clubs", MIXED, up="JC")
    assert eng.phase == "play" and eng.to_act == 1 and eng.public_state()["trump"] == "C"
    assert not [a for a in eng.legal_actions() if isinstance(a, Call)]
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [2, 0, 3, 0]
    assert eng.state.scores == [10, 20]


def test_up_card_stays_put() -> None:
    """Dealing: 'the up-card never gets picked up; rather, it stays on the top of the pile'."""
    eng = table("eau-claire-clubs", MIXED, up="9H")
    bids(eng, "2", "P", "P", "P")
    ok(eng, DeclareTrump(1, "H"), SitOut(2, False))
    assert all(len(eng.known_hand(s)) == 5 for s in range(4))


def test_bidder_wins_when_both_reach_zero() -> None:
    """Winning: 'If both partnerships reach zero on the same hand, then bidder wins'."""
    eng = table("eau-claire-clubs", MIXED, up="9H", scores=[2, 3])
    bids(eng, "2", "P", "P", "P")
    ok(eng, DeclareTrump(1, "H"))  # defenders at 2 may not sit out
    finish(eng)
    assert eng.state.scores == [0, 0] and eng.state.winner == 1


def test_club_hand_both_at_zero_lower_score_then_more_tricks() -> None:
    """Winning: on a club hand 'the winners are the team with the lower score after the hand.
    If the scores are tied after the hand, then the winners are the team with the higher
    trick-total'."""
    eng = table("eau-claire-clubs", CLUB_SPLIT, up="JC", scores=[4, 1])
    finish(eng)
    assert eng.state.scores == [0, 0] and eng.state.winner == 0
    eng = table("eau-claire-clubs", CLUB_SPLIT, up="JC", scores=[3, 1])
    finish(eng)
    assert eng.state.scores == [-1, 0] and eng.state.winner == 0


def test_bottoms_exchanges_three_of_a_kind_for_the_bottom_cards() -> None:
    """Bottoms: 'If a player's hand contains 3 cards of the same rank ... the player exchanges
    their 3 of a kind for the 3 cards on the bottom of the pile'; 'must call Bottoms before
    anybody else bids/passes'."""
    hands = ["10S JS QS KS AS", "9S 9H 9D AH KH", "10C JC QC KC AC", "10D JD QD KD AD"]
    eng = table("eau-claire-clubs", hands, up="10H")
    assert Call(1, "BOTTOMS") in eng.legal_actions()
    ok(eng, Call(1, "BOTTOMS"))
    assert sorted(eng.known_hand(1)) == ["AH", "KH"] and eng.state.count[1] == 5
    assert Call(1, "BOTTOMS") not in eng.legal_actions()
    eng = table("eau-claire-clubs", hands[1:] + hands[:1], up="10H")
    ok(eng, Pass(1))
    refused(eng, Call(0, "BOTTOMS"), "unknown_call")


def test_bottoms_with_the_dealt_pile() -> None:
    """Bottoms, when the engine dealt: the three cards under the up-card come into the hand
    and the three of a kind go under the up-card."""
    for seed in range(200):
        eng = Engine.new("eau-claire-clubs", seed=seed)
        ok(eng, eng.legal_actions()[0])  # Deal
        callers = [a for a in eng.legal_actions() if a == Call(1, "BOTTOMS")]
        if callers:
            break
    pile = eng.state.kitty & ~(1 << eng.state.up_card)
    ok(eng, Call(1, "BOTTOMS"))
    assert eng.state.known[1] & pile == pile and eng.state.kitty & pile == 0


def test_own_bid_timing_option() -> None:
    """Bottoms: 'at the table, however, this rule is often loosened'."""
    hands = ["9S 9H 9D AH KH", "10S JS QS KS AS", "10C JC QC KC AC", "10D JD QD KD AD"]
    eng = table("eau-claire-clubs", hands, up="10H", options={"calls_before": "own_bid"})
    ok(eng, Pass(1), Pass(2), Pass(3), Call(0, "BOTTOMS"))


def test_four_of_a_kind_misdeal() -> None:
    """Misdeal: 'If a player's hand contains 4 of a kind (e.g., four 9's), the player may call
    misdeal' and 'the dealer shuffles & deals again'."""
    hands = ["10S JS QS KS AS", "9S 9H 9D 9C AH", "10C JC QC KC AC", "10D JD QD KD AD"]
    eng = table("eau-claire-clubs", hands, up="10H")
    ok(eng, Call(1, "MISDEAL"))
    assert eng.phase == "deal" and eng.state.dealer == 0 and eng.state.hand_number == 2


@pytest.mark.parametrize("rule,strict_hand,loose_hand", [
    ("any", True, True), ("strict", True, False), ("off", False, False)])
def test_ace_no_face(rule: str, strict_hand: bool, loose_hand: bool) -> None:
    """Misdeal: 'If a player's hand contains 1+ aces and no face-cards, the player may call Ace
    No Face'; 'some places commonly restrict Ace No Face to only the precise holding of
    A-10-10-9-9'. Both misdeals are the one MISDEAL call."""
    strict = ["JS QS KS AS 9H", "AH 10S 10D 9S 9D", "10C JC QC KC AC", "JD QD KD AD 10H"]
    loose = ["JS QS KS 10D 9H", "AH AS AD 10S 9S", "10C JC QC KC AC", "JD QD KD 9D 10H"]
    for hands, allowed in ((strict, strict_hand), (loose, loose_hand)):
        eng = table("eau-claire-clubs", hands, up="JH", options={"ace_no_face": rule})
        assert (Call(1, "MISDEAL") in eng.legal_actions()) is allowed


def real_cards(up: str = "10H") -> Engine:
    """A deal of real cards: the dealer (seat 0) has turned ``up``; no hand scanned."""
    eng = Engine.new("eau-claire-clubs", seed=1, dealer=0)
    ok(eng, TurnUp(0, parse_card(up)))
    return eng


def scan(eng: Engine, seat: int, hand: str) -> None:
    for name in hand.split():
        ok(eng, ScanCard(seat, parse_card(name)))


def test_with_real_cards_a_call_shows_the_hand_by_scanning_it() -> None:
    """Bottoms: 'If a player's hand contains 3 cards of the same rank, that player may call
    Bottoms' - the call shows the cards, so with real cards the caller scans the five cards on
    the pad during the deal and then calls; the three go under the up-card (known out of
    play), three unknown cards come in, and nobody else's hand needs scanning."""
    eng = real_cards()
    out = refused(eng, Call(1, "BOTTOMS"), "unknown_call")
    assert "scans all 5 cards on the pad first" in out.reason
    scan(eng, 1, "9S 9H 9D AH KH")
    ok(eng, Call(1, "BOTTOMS"))  # a call, not the dealer's turn: accepted from any seat
    assert sorted(eng.known_hand(1)) == ["AH", "KH"] and eng.state.count[1] == 5
    nines = sum(1 << parse_card(c).index for c in ("9S", "9H", "9D"))
    assert eng.state.kitty & nines == nines
    refused(eng, Call(1, "BOTTOMS"), "unknown_call")
    ok(eng, Pass(1))  # the bidding opens with the other hands unknown
    assert eng.phase == "bidding"
    assert Engine.replay(eng.config, eng.actions).public_state() == eng.public_state()


def test_with_real_cards_a_claimed_bottoms_card_cannot_turn_up_in_play() -> None:
    """Bottoms: the three of a kind are 'placed face-up beneath the up-card': a shown card
    played later is refused (it is out of play), the proof the claim would otherwise need."""
    eng = real_cards()
    scan(eng, 1, "9S 9H 9D AH KH")
    ok(eng, Call(1, "BOTTOMS"), Bid(1, "2"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "S"))
    if eng.phase == "sitout":
        ok(eng, SitOut(2, False))
    assert eng.phase == "play" and eng.to_act == 1
    refused(eng, Play(1, parse_card("9S")), "card_not_in_hand")
    refused(eng, Play(1, parse_card("9H")), "card_not_in_hand")
    ok(eng, Play(1, parse_card("AH")))
    refused(eng, Play(2, parse_card("9D")), "card_not_in_hand")


def test_with_real_cards_four_of_a_kind_misdeal_is_scanned_then_called() -> None:
    """Misdeal: 'If a player's hand contains 4 of a kind ... the player may call misdeal' and
    'the dealer shuffles & deals again': shown by scanning, the call throws the hand in."""
    eng = real_cards()
    scan(eng, 2, "9S 9H 9D 9C AH")
    ok(eng, Call(2, "MISDEAL"))
    assert eng.phase == "deal" and eng.state.dealer == 0 and eng.state.hand_number == 2


def test_with_real_cards_a_hand_that_does_not_qualify_is_refused_with_the_reason() -> None:
    """Misdeal and Bottoms need the holding the seed names; a scanned hand without it is
    refused and nothing changes."""
    eng = real_cards()
    scan(eng, 3, "9S 10S JD QC AH")
    out = refused(eng, Call(3, "MISDEAL"), "unknown_call")
    assert "does not allow MISDEAL" in out.reason


def test_with_real_cards_no_calls_on_a_club_up_card_or_after_the_bidding_began() -> None:
    """Sitting out: with a club up-card there are 'no calls'; Bottoms: 'must call Bottoms before
    anybody else bids/passes'."""
    eng = real_cards(up="9C")
    scan(eng, 1, "10S 10H 10D AH KH")
    assert "club hand" in refused(eng, Call(1, "BOTTOMS"), "unknown_call").reason
    eng = real_cards()
    ok(eng, Pass(1))
    assert "before the bidding" in refused(eng, Call(2, "BOTTOMS"), "unknown_call").reason


@pytest.mark.parametrize("seed", range(4))
def test_complete_game(seed: int) -> None:
    """Winning: 'The winning side is the first partnership who achieve a score of zero'."""
    eng, hands = random_game("eau-claire-clubs", 4, seed)
    assert eng.state.game_over and min(eng.state.scores) <= 0
    assert all(h["scores"][0] <= 20 and h["scores"][1] <= 20 for h in hands)


def test_club_hand_with_unknown_hands_opens_on_the_first_play() -> None:
    """Sitting out: on a club up-card 'The player to the left of the dealer leads to the
    opening trick' - with real cards nobody scanned, that lead opens the hand; a wrong seat is
    refused and changes nothing."""
    eng = Engine.new("eau-claire-clubs")
    ok(eng, TurnUp(0, parse_card("JC")))
    refused(eng, Play(2, parse_card("AS")), "not_your_turn")
    assert eng.phase == "deal"
    out = ok(eng, Play(1, parse_card("AS")))
    assert [e.TYPE for e in out.events][:2] == ["auction_won", "trump"]
    assert eng.phase == "play" and eng.to_act == 2

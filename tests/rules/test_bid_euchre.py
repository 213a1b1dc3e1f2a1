"""Single Deck Bid Euchre: one test per rule, each naming its passage of “Bid Euchre”, section
"Single Deck Bid Euchre" (“Bid Euchre” holds the same text in plain form).

The dealer is seat 0, so the bidding and most hands start at seat 1. Seats 0 & 2 are one
side (side 0), seats 1 & 3 the other (side 1).
"""

from __future__ import annotations

import random

import pytest
from tricktable.cards import parse_card, parse_card_copy
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, Call, Deal, DeclareTrump, Exchange, Pass, Play, ScanCard
from tricktable.rules.base import OptionError
from variantkit import finish, ok, play_out, refused, table

# Each seat holds one whole suit: at no trump the leader wins every trick.
SUITED = ["AS KS QS JS 10S 9S", "AH KH QH JH 10H 9H", "AC KC QC JC 10C 9C",
          "AD KD QD JD 10D 9D"]
# Seat 1 takes five tricks at no trump if it plays as `MIXED_PLAY` says (see the test).
MIXED = ["JH 10H 9H AS 10S 9S", "AH KH QH KS QS JS", "AC KC QC JC 10C 9C",
         "AD KD QD JD 10D 9D"]
MIXED_PLAY = ["AH 9C 9D 9H", "KH 10C 10D 10H", "QH JC JD JH", "KS QC QD AS",
              "10S QS KC KD", "JS AC AD 9S"]


def tricks(eng: Engine, *rows: str) -> None:
    """Play the cards of each row in turn, each by the seat whose turn it is."""
    for row in rows:
        for name in row.split():
            card, copy = parse_card_copy(name)
            ok(eng, Play(eng.to_act, card, copy))  # type: ignore[arg-type]


def contract(eng: Engine, bids: list[str], trump: str) -> None:
    """Bids from the dealer's left ('P' passes), then the high bidder names ``trump``."""
    for i, bid in enumerate(bids):
        seat = (eng.state.dealer + 1 + i) % 4
        ok(eng, Pass(seat) if bid == "P" else Bid(seat, bid))
    ok(eng, DeclareTrump(eng.to_act, trump))  # type: ignore[arg-type]


# -- the pack and the deal -------------------------------------------------------------

def test_pack_is_24_cards_nine_to_ace() -> None:
    """Single Deck Bid Euchre: 'A pack of 24 cards containing 9, 10, J, Q, K, and A'."""
    eng = Engine.new("bid-euchre")
    assert eng.state.deck.size == 24
    assert {str(c)[:-1] for c in eng.state.deck.faces} == {"9", "10", "J", "Q", "K", "A"}
    refused(eng, ScanCard(1, parse_card("8S")), "card_not_in_deck")


def test_deal_one_at_a_time_from_dealers_left_six_each() -> None:
    """Single Deck Bid Euchre: 'Cards are dealt one at a time to each player, clockwise,
    starting with the player to the dealer's left. Each player receives six cards.'"""
    eng = Engine.new("bid-euchre", seed=7, dealer=2)
    order = list(eng.state.deck.physical)
    random.Random(7).shuffle(order)
    out = ok(eng, Deal(2))
    assert [e.TYPE for e in out.events] == ["dealt"]
    for k, seat in enumerate((3, 0, 1, 2)):
        expected = {eng.state.card_name(p) for p in order[k:24:4]}
        assert set(eng.known_hand(seat)) == expected and len(expected) == 6
    assert eng.phase == "bidding" and eng.to_act == 3


def test_deal_rotates_to_the_left_after_each_hand() -> None:
    """Progressive (“Bid Euchre”): 'Deal passes around the table, clockwise, after each hand'
    (the single-deck game follows the same rotation)."""
    eng = table("bid-euchre", SUITED)
    contract(eng, ["4", "P", "P", "P"], "NT")
    finish(eng)
    assert eng.state.dealer == 1 and eng.phase == "deal" and eng.to_act == 1


# -- bidding ---------------------------------------------------------------------------

def test_bidding_starts_left_of_dealer_and_goes_once_around() -> None:
    """Bidding: 'Each player, beginning at dealer's left, may either bid or pass ... the
    bidding only goes around the table once, with each player bidding one time.'"""
    eng = table("bid-euchre", SUITED)
    refused(eng, Bid(2, "3"), "not_your_turn")
    ok(eng, Bid(1, "3"), Pass(2), Pass(3))
    refused(eng, Bid(1, "4"), "not_your_turn")
    ok(eng, Pass(0))
    assert eng.phase == "trump" and eng.to_act == 1
    refused(eng, Bid(2, "5"), "wrong_phase")


def test_each_bid_must_beat_the_last() -> None:
    """Bidding: 'each bid must be higher than any preceding it'."""
    eng = table("bid-euchre", SUITED)
    ok(eng, Bid(1, "4"))
    refused(eng, Bid(2, "4"), "bid_too_low")
    refused(eng, Bid(2, "3"), "bid_too_low")
    refused(eng, Bid(2, "7"), "unknown_bid")
    ok(eng, Bid(2, "5"))
    assert [str(a.bid) for a in eng.legal_actions() if isinstance(a, Bid)] == \
        ["6", "PEPPER:SMALL", "PEPPER:BIG"]


def test_highest_bidder_names_trump_suit_or_no_trump() -> None:
    """Bidding: 'whoever bids highest wins the bid and gets to name the suit that will
    become trump'; 'When playing with no trumps, all four suits follow the plain suit
    ranking'."""
    eng = table("bid-euchre", SUITED)
    ok(eng, Bid(1, "3"), Bid(2, "4"), Pass(3), Pass(0))
    assert eng.to_act == 2
    assert {a.trump for a in eng.legal_actions()} == {"S", "H", "D", "C", "NT"}  # type: ignore[attr-defined]
    refused(eng, DeclareTrump(1, "H"), "not_your_turn")
    refused(eng, DeclareTrump(2, "LOW"), "bad_trump")
    out = ok(eng, DeclareTrump(2, "C"))
    assert eng.public_state()["contract"] == {"seat": 2, "bid": "4", "trump": "C",
                                              "alone": False, "need": 4, "forced": False}
    assert [e.TYPE for e in out.events] == ["trump"]


def test_two_bid_is_a_legal_bid_and_can_win() -> None:
    """The two bid: 'If a player holds two jacks of the same color ... the player can bid
    two to indicate to the player's partner this special possession.'"""
    eng = table("bid-euchre", SUITED)
    contract(eng, ["2", "P", "P", "P"], "H")
    assert eng.public_state()["contract"]["need"] == 2


def test_one_is_not_typical_but_allowed_unless_a_house_rule_forbids_it() -> None:
    """Bidding: 'One is not a typical bid' (option min_bid)."""
    eng = table("bid-euchre", SUITED)
    ok(eng, Bid(1, "1"))
    strict = table("bid-euchre", SUITED, options={"min_bid": 3})
    refused(strict, Bid(1, "2"), "bid_too_low")


def test_maximum_bid_is_six_plus_the_two_pepper_bids() -> None:
    """Bidding: 'the maximum is six, as there are two special bids' (small, big pepper)."""
    eng = table("bid-euchre", SUITED)
    bids = [a.bid for a in eng.legal_actions() if isinstance(a, Bid)]
    assert bids == ["1", "2", "3", "4", "5", "6", "PEPPER:SMALL", "PEPPER:BIG"]


def test_dealer_may_match_a_pepper_and_win_the_bid() -> None:
    """Pepper exchanges: 'If someone calls one best, moon, or super moon, the dealer is
    allowed to call the same or higher bid and win the bid.'"""
    eng = table("bid-euchre", SUITED)
    ok(eng, Bid(1, "PEPPER:BIG"), Pass(2))
    refused(eng, Bid(3, "PEPPER:BIG"), "bid_too_low")
    ok(eng, Pass(3), Bid(0, "PEPPER:BIG"))
    assert eng.public_state()["contract"]["seat"] == 0
    off = table("bid-euchre", SUITED, options={"dealer_can_match_pepper": False})
    ok(off, Bid(1, "PEPPER:BIG"), Pass(2), Pass(3))
    refused(off, Bid(0, "PEPPER:BIG"), "bid_too_low")


def test_all_pass_throws_the_hand_in_and_the_deal_passes() -> None:
    """The seeds do not say for this game; the default follows “Euchre” (Euchre): 'If no
    trump is selected, the hand is discarded and the deal passes to the left'."""
    eng = table("bid-euchre", SUITED)
    out = ok(eng, Pass(1), Pass(2), Pass(3), Pass(0))
    assert [e.TYPE for e in out.events] == ["pass", "passed_out", "hand_started"]
    assert eng.state.dealer == 1 and eng.state.hand_number == 2 and eng.state.scores == [0, 0]
    same = table("bid-euchre", SUITED, options={"all_pass": "same_dealer"})
    ok(same, Pass(1), Pass(2), Pass(3), Pass(0))
    assert same.state.dealer == 0


def test_stick_the_dealer_option_forces_a_bid_of_four() -> None:
    """Pfeffer (“Bid Euchre”): 'the dealer is forced to make a four Trick Bid when all players
    pass in front of the dealer' (option all_pass='stick_dealer')."""
    eng = table("bid-euchre", SUITED, options={"all_pass": "stick_dealer"})
    ok(eng, Pass(1), Pass(2), Pass(3))
    refused(eng, Pass(0), "must_bid")
    refused(eng, Bid(0, "3"), "bid_too_low")
    ok(eng, Bid(0, "4"))
    assert eng.public_state()["contract"]["forced"] is True


# -- play ------------------------------------------------------------------------------

def test_contracting_bidder_leads() -> None:
    """Leading, taking tricks, and scoring: 'the winning (or contracting) bidder makes the
    opening play and may lead any card'."""
    eng = table("bid-euchre", SUITED)
    contract(eng, ["P", "4", "P", "P"], "NT")
    assert eng.phase == "play" and eng.to_act == 2
    assert len(eng.legal_actions()) == 6


def test_must_follow_suit_if_possible_else_any_card() -> None:
    """Leading ...: 'must follow suit if possible. If a player cannot follow suit, any card
    can be played.'"""
    eng = table("bid-euchre", MIXED)
    contract(eng, ["4", "P", "P", "P"], "NT")
    tricks(eng, "AH 9C 9D")
    refused(eng, Play(0, parse_card("AS")), "must_follow_suit")
    assert {str(a.card) for a in eng.legal_actions()} == {"JH", "10H", "9H"}  # type: ignore[attr-defined]
    assert len([a for a in eng.legal_actions()]) == 3
    ok(eng, Play(0, parse_card("9H")))


def test_left_bower_follows_as_trump_not_its_own_suit() -> None:
    """Single Deck Bid Euchre: the left bower is the second trump, so it follows trump."""
    hands = ["JD AS KS QS JS 10S", "AH KH QH 10H 9H 9S", "AC KC QC JC 10C 9C",
             "AD KD QD 10D 9D JH"]
    eng = table("bid-euchre", hands)
    contract(eng, ["4", "P", "P", "P"], "H")
    tricks(eng, "AH 9C JH")           # seat 3 follows hearts with the right bower
    refused(eng, Play(0, parse_card("AS")), "must_follow_suit")  # JD is a heart now
    out = ok(eng, Play(0, parse_card("JD")))
    assert out.events[-1].to_json()["winner"] == 3  # the right bower wins


def test_trump_ranking_right_bower_left_bower_ace_down_to_nine() -> None:
    """Single Deck Bid Euchre: 'J (of the trump suit ...; high), J (of the other suit of the
    same colour ...), A, K, Q, 10, 9 (low)'."""
    hands = ["JD 9S 10S QS KS AS", "AH KH QH 10H 9H JS", "JH AC KC QC JC 10C",
             "AD KD QD 10D 9D 9C"]
    eng = table("bid-euchre", hands)
    contract(eng, ["4", "P", "P", "P"], "H")
    out = ok(eng, *[Play(s, parse_card(c)) for s, c in ((1, "AH"), (2, "JH"), (3, "AD"),
                                                        (0, "JD"))])
    assert out.events[-1].to_json()["winner"] == 2
    tricks(eng, "AC 9C 9S KH")        # a trump beats the suit led
    assert eng.state.tricks[-1][2] == 1


def test_plain_suits_rank_ace_king_queen_jack_ten_nine_and_no_trump_has_no_bowers() -> None:
    """Single Deck Bid Euchre: 'In the plain suits, the rank is: A (high), K, Q, J, 10, 9';
    'When playing with no trumps, all four suits follow the plain suit ranking.'"""
    eng = table("bid-euchre", MIXED)
    contract(eng, ["4", "P", "P", "P"], "NT")
    tricks(eng, *MIXED_PLAY[:3])
    assert eng.state.tricks_won == [0, 3, 0, 0]
    tricks(eng, MIXED_PLAY[3])        # AS beats KS: spades led, no trump
    assert eng.to_act == 0
    tricks(eng, MIXED_PLAY[4])        # QS beats 10S, the off-suit kings do not count
    assert eng.state.tricks[-1][2] == 1


def test_anyone_may_lead_or_play_trump_first() -> None:
    """Leading ...: 'There is no rule about who may play trump first.' The bidder may lead
    the left bower; a void defender may trump at once."""
    hands = ["JC 9S 10S QS KS AS", "AH KH QH 10H 9H JS", "JH AC KC QC JD 10C",
             "AD KD QD 10D 9D 9C"]
    eng = table("bid-euchre", hands)
    contract(eng, ["P", "P", "4", "P"], "S")
    assert eng.to_act == 3
    tricks(eng, "AD")
    assert {str(a.card) for a in eng.legal_actions()} == {"JC", "9S", "10S", "QS", "KS", "AS"}  # type: ignore[attr-defined]
    tricks(eng, "9S 9H JD")              # a spade trumps the diamond lead
    assert eng.state.tricks[-1][2] == 0
    assert len(eng.legal_actions()) == 5   # the winner may lead anything, trump included


def test_trick_winner_leads_the_next_trick() -> None:
    """Leading ...: 'The winner of a trick leads to the next trick.'"""
    eng = table("bid-euchre", SUITED)
    contract(eng, ["4", "P", "P", "P"], "S")
    tricks(eng, "AH AC AD 9S")
    assert eng.to_act == 0 and eng.public_state()["trick"]["leader"] == 0


# -- scoring ---------------------------------------------------------------------------

def test_made_contract_scores_a_point_a_trick_defenders_a_point_a_trick() -> None:
    """Leading ...: 'The contracting side scores one point for each trick taken if it makes
    at least its contract'; 'The opposing side always scores one point for each trick'."""
    eng = table("bid-euchre", MIXED)
    contract(eng, ["4", "P", "P", "P"], "NT")
    tricks(eng, *MIXED_PLAY)
    assert eng.state.scores == [1, 5]


def test_failed_contract_is_set_back_six_whatever_its_value() -> None:
    """Leading ...: 'is set back (loses) six points if it fails to make its contract,
    regardless of the value of the contract or the tricks actually won'."""
    eng = table("bid-euchre", MIXED)
    contract(eng, ["6", "P", "P", "P"], "NT")
    tricks(eng, *MIXED_PLAY)
    assert eng.state.scores == [1, -6]
    assert eng.state.last_hand["detail"].startswith("set: 5 of 6")  # type: ignore[index]


def test_defenders_without_a_trick_go_back_six() -> None:
    """Leading ...: 'If the side playing defense ... fails to get any tricks, it goes back
    six points.'"""
    eng = table("bid-euchre", SUITED)
    contract(eng, ["3", "P", "P", "P"], "NT")
    finish(eng)
    assert eng.state.scores == [-6, 6]


def test_scores_can_go_negative() -> None:
    """Leading ...: 'As such, a side can have a negative score.'"""
    eng = table("bid-euchre", SUITED)
    contract(eng, ["3", "P", "P", "P"], "S")   # seat 0 trumps the first lead, then leads out
    finish(eng)
    assert eng.state.scores == [6, -6]


# -- pepper ----------------------------------------------------------------------------

def test_small_pepper_exchanges_one_card_each_way_then_plays_alone() -> None:
    """Pepper exchanges: 'the bidder gets to exchange one card with his/her partner ...,
    and then plays alone against the other two players.'"""
    eng = table("bid-euchre", SUITED)
    contract(eng, ["PEPPER:SMALL", "P", "P", "P"], "H")
    assert eng.phase == "exchange" and eng.to_act == 1
    refused(eng, Exchange(3, parse_card("AD")), "not_your_turn")
    refused(eng, Exchange(1, parse_card("AD")), "card_not_in_hand")
    ok(eng, Exchange(1, parse_card("9H")))
    assert eng.to_act == 3 and "9H" in eng.known_hand(3)
    ok(eng, Exchange(3, parse_card("AD")))
    assert eng.phase == "play" and "AD" in eng.known_hand(1)
    tricks(eng, "AH 9C 9S")                 # three cards: the partner sits out
    assert eng.state.tricks[0][2] == 1 and len(eng.state.tricks[0][1]) == 3


def test_small_pepper_partner_may_send_the_same_card_back() -> None:
    """Pepper exchanges: 'The partner also has the option to return the original card back
    to the bidder'."""
    eng = table("bid-euchre", SUITED)
    contract(eng, ["PEPPER:SMALL", "P", "P", "P"], "H")
    ok(eng, Exchange(1, parse_card("9H")), Exchange(3, parse_card("9H")))
    assert sorted(eng.known_hand(1)) == sorted(SUITED[1].split())


@pytest.mark.parametrize(("options", "value"), [({}, 12), ({"pepper_small_points": 7}, 7)])
def test_small_pepper_made_scores_12_or_7(options: dict[str, int], value: int) -> None:
    """Pepper exchanges: 'the team with the winning small pepper receives seven points';
    Leading ...: 'the contracting side wins 14 or 12 points (for the big and small pepper)'.
    The defenders, without a trick, lose six."""
    eng = table("bid-euchre", SUITED, options=options)
    contract(eng, ["PEPPER:SMALL", "P", "P", "P"], "H")
    ok(eng, Exchange(1, parse_card("9H")), Exchange(3, parse_card("9H")))
    finish(eng)
    assert eng.state.scores == [-6, value]


def test_failed_pepper_is_set_back_its_value_and_defenders_score_tricks() -> None:
    """Leading ...: 'If the contracting side fails to take all six tricks, it is set back 14
    or 12 points ... The opposing side always scores one point for each trick taken.'"""
    eng = table("bid-euchre", SUITED)
    contract(eng, ["PEPPER:BIG", "P", "P", "P"], "S")   # seat 0 holds every spade
    assert eng.phase == "play"                         # big pepper: no exchange
    finish(eng)
    assert eng.state.scores == [6, -14]


def test_big_pepper_made_scores_fourteen_alone_without_exchange() -> None:
    """Pepper exchanges: 'A big pepper is the same as a small pepper, except the bidder does
    not get any cards from his/her partner, and, if successful, receives 14 points.'"""
    eng = table("bid-euchre", SUITED)
    contract(eng, ["PEPPER:BIG", "P", "P", "P"], "H")
    assert eng.public_state()["contract"]["alone"] is True
    tricks(eng, "AH AC AS")                 # the partner (seat 3) sits out
    finish(eng)
    assert eng.state.scores == [-6, 14]


# -- winning ---------------------------------------------------------------------------

def test_game_is_won_by_reaching_42_on_offense() -> None:
    """Winning: 'The first team to reach or exceed 42 while on offense wins.'"""
    eng = table("bid-euchre", SUITED, scores=[0, 36])
    contract(eng, ["4", "P", "P", "P"], "NT")
    finish(eng)
    assert eng.state.game_over and eng.state.winner == 1 and eng.phase == "game_over"
    assert eng.legal_actions() == []
    refused(eng, Bid(1, "3"), "game_over")


def test_reaching_42_on_defense_does_not_win() -> None:
    """Winning: '... while on offense wins' (option win_on_defense)."""
    eng = table("bid-euchre", SUITED, scores=[40, 0])
    contract(eng, ["3", "P", "P", "P"], "S")   # side 1 bids, side 0 takes every trick
    finish(eng)
    assert eng.state.scores == [46, -6] and not eng.state.game_over
    either = table("bid-euchre", SUITED, scores=[40, 0], options={"win_on_defense": True})
    contract(either, ["3", "P", "P", "P"], "S")
    finish(either)
    assert either.state.winner == 0


def test_hawsy_plays_to_32() -> None:
    """Winning: 'The standard winning number or goal is 42 (32 in hawsy).'"""
    eng = table("bid-euchre", SUITED, scores=[0, 26], options={"target": 32})
    contract(eng, ["4", "P", "P", "P"], "NT")
    finish(eng)
    assert eng.state.winner == 1


def test_time_limit_ends_after_the_hand_highest_total_wins() -> None:
    """Winning: 'Other variations ... set a time limit such as one or two hours, at the end
    of which time the team with the highest point total wins.'"""
    eng = table("bid-euchre", SUITED, options={"target": None, "time_limit_minutes": 60})
    contract(eng, ["4", "P", "P", "P"], "NT")
    ok(eng, Call(1, "TIME"))
    assert not eng.state.game_over
    finish(eng)
    assert eng.state.game_over and eng.state.winner == 1


def test_hand_limit_plays_a_fixed_number_of_hands() -> None:
    """Winning: the time limit as a number of hands (option hand_limit); a tie plays on."""
    eng = Engine.new("bid-euchre", seed=3, options={"target": None, "hand_limit": 3})
    rng = random.Random(3)
    hands = play_out(eng, lambda _eng, actions: rng.choice(actions))
    assert eng.state.game_over and len(hands) >= 3
    assert eng.state.scores[eng.state.winner] == max(eng.state.scores)  # type: ignore[index]


def test_options_are_checked_by_name_and_type() -> None:
    """House rules are typed: a wrong name or type is refused with a clear message."""
    with pytest.raises(OptionError, match="unknown option.*pepper_points"):
        Engine.new("bid-euchre", options={"pepper_points": 7})
    with pytest.raises(OptionError, match="'target' for bid-euchre must be int or null"):
        Engine.new("bid-euchre", options={"target": "42"})
    with pytest.raises(OptionError, match="'all_pass' for bid-euchre must be one of"):
        Engine.new("bid-euchre", options={"all_pass": "redeal"})


def test_time_called_before_a_hand_ends_the_game_at_once() -> None:
    """Winning: at the end of the time limit 'the team with the highest point total wins';
    a hand thrown in after time is called is not replaced."""
    eng = table("bid-euchre", SUITED, scores=[3, 5], options={"time_limit_minutes": 90})
    out = ok(eng, Call(2, "TIME"))
    assert out.events[0].to_json() == {"type": "call", "seat": 2, "call": "TIME"}
    assert not eng.state.game_over          # cards are scanned: this hand is played first
    out = ok(eng, Pass(1), Pass(2), Pass(3), Pass(0))
    assert eng.state.game_over and eng.state.winner == 1
    assert [e.TYPE for e in out.events][-2:] == ["passed_out", "game_over"]
    tied = Engine.new("bid-euchre", options={"time_limit_minutes": 90})
    ok(tied, Call(0, "TIME"))
    assert not tied.state.game_over         # 0-0 at time: the tie plays another hand

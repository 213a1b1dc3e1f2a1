"""North American Euchre and the 1844 rules: each test names the “Euchre” passage it checks
(fragment numbers are those before the colon of each fragment in “Euchre”)."""

from __future__ import annotations

import pytest
from tricktable.cards import parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, DeclareTrump, Exchange, Pass, Play, SitOut
from variantkit import finish, ok, random_game, refused, table

# Dealer seat 0; eldest seat 1; partners 0+2 and 1+3. Undealt: KH QH 10H 9H, 9H turned up.
HANDS = ["AS KS QS AC KC", "JH JD AH 9S 10S", "9C 10C QC JC 9D", "AD KD QD 10D JS"]
# Seat 1 holds the five best hearts; 10H turned up; JS JC 9H stay in the kitty.
MARCH = ["9S 10S QS KS AS", "JH JD AH KH QH", "9C 10C QC KC AC", "9D 10D QD KD AD"]


def test_order_up_dealer_takes_up_card_and_discards() -> None:
    """Section “Making trump”: ordering up makes the turn-up suit trump; the dealer takes
    the up-card into the hand and discards a card to the kitty."""
    eng = table("euchre", HANDS, up="9H")
    ok(eng, Bid(1, "ORDER_UP"))
    assert eng.public_state()["trump"] == "H"
    assert eng.phase == "exchange" and eng.to_act == 0
    assert "9H" in eng.known_hand(0) and len(eng.known_hand(0)) == 6
    ok(eng, Exchange(0, parse_card("KC")))
    assert sorted(eng.known_hand(0)) == sorted(["AS", "KS", "QS", "AC", "9H"])
    assert eng.phase == "play"


def test_up_card_is_left_in_place_until_played_so_it_is_not_the_discard() -> None:
    """Section “Making trump”: 'If the dealer acquires the top card ... it becomes part of the
    dealer's hand. It is left in place until played, and the dealer discards a card to the
    bottom of the kitty': the dealer's discard is one of the five cards in the hand."""
    eng = table("euchre", HANDS, up="9H")
    ok(eng, Bid(1, "ORDER_UP"))
    discards = [str(a.card) for a in eng.legal_actions() if isinstance(a, Exchange)]
    assert sorted(discards) == sorted(HANDS[0].split())
    out = refused(eng, Exchange(0, parse_card("9H")), "exchange_refused")
    assert "9H is the up-card: it stays on the table until played" in out.reason
    ok(eng, Exchange(0, parse_card("AC")))
    ok(eng, Play(1, parse_card("JH")), Play(2, parse_card("9C")), Play(3, parse_card("JS")))
    assert "9H" in {str(a.card) for a in eng.legal_actions()}  # played later, from the table


def test_discard_up_card_house_rule() -> None:
    """Option discard_up_card (the house rule of tables that pick the up-card into the hand):
    the dealer may discard the up-card itself."""
    eng = table("euchre", HANDS, up="9H", options={"discard_up_card": True})
    ok(eng, Bid(1, "ORDER_UP"))
    discards = [str(a.card) for a in eng.legal_actions() if isinstance(a, Exchange)]
    assert sorted(discards) == sorted([*HANDS[0].split(), "9H"])
    ok(eng, Exchange(0, parse_card("9H")))
    assert sorted(eng.known_hand(0)) == sorted(HANDS[0].split())


@pytest.mark.parametrize(("variant", "passage"), [
    ("euchre-1844", "If anyone orders up, the dealer picks up the upcard and discards a card in "
                    "return"),
    ("euchre-british", "The dealer picks it up and discards a card face down"),
])
def test_1844_and_british_dealer_picks_the_up_card_up_and_may_discard_it(
        variant: str, passage: str) -> None:
    """Section “History” (Mathews' 1844 rules): 'If anyone orders up, the dealer picks up the
    upcard and discards a card in return'; section “Making trump” (British Euchre): 'The dealer
    picks it up and discards a card face down'. Picked up, it is one of six cards to discard
    from; option discard_up_card False keeps it on the table as in North America."""
    assert Engine.new(variant).state.options.discard_up_card, passage
    for allowed in (True, False):
        eng = table(variant, BRITISH, up="9H", options={"discard_up_card": allowed})
        ok(eng, Bid(1, "ORDER_UP"))
        discards = {str(a.card) for a in eng.legal_actions() if isinstance(a, Exchange)}
        assert ("9H" in discards) is allowed and len(discards) == 5 + allowed


def test_eldest_leads_and_makers_with_three_tricks_score_one() -> None:
    """Section “Variations”: 'the eldest leads'; section “Making trump”: the makers must take at least 3 tricks
    to win and score 1 point."""
    eng = table("euchre", HANDS, up="9H")
    ok(eng, Bid(1, "ORDER_UP"), Exchange(0, parse_card("KC")))
    assert eng.to_act == 1
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [2, 3, 0, 0]
    assert eng.state.scores == [0, 1]


def test_march_scores_two() -> None:
    """Section “Making trump”: 'Winning all 5 tricks is a march which earns 2 points'."""
    eng = table("euchre", MARCH, up="10H")
    ok(eng, Bid(1, "ORDER_UP"), Exchange(0, parse_card("9S")))
    finish(eng)
    assert eng.state.scores == [0, 2]


def test_left_bower_led_must_be_followed_with_trump() -> None:
    """Section “Card ranking” ('The J♣ effectively becomes a spade'): a left bower led calls for trump."""
    eng = table("euchre", MARCH, up="10H")
    ok(eng, Bid(1, "ORDER_UP"), Exchange(0, parse_card("9S")), Play(1, parse_card("JD")))
    ok(eng, Play(2, parse_card("9C")))
    assert len(eng.legal_actions()) == 5  # seat 3 holds diamonds, but JD is a heart
    ok(eng, Play(3, parse_card("9D")))
    refused(eng, Play(0, parse_card("AS")), "must_follow_suit")
    assert [str(a.card) for a in eng.legal_actions()] == ["10H"]


def test_alone_march_scores_four_and_partner_sits_out() -> None:
    """Section “Variations”: 'A player who fixes the trump suit may announce alone'; the partner
    takes no part. Section “Making trump”: a lone march scores 4."""
    eng = table("euchre", MARCH, up="10H")
    ok(eng, Bid(1, "ORDER_UP:ALONE"), Exchange(0, parse_card("9S")))
    assert eng.to_act == 1
    ok(eng, Play(1, parse_card("JH")))
    assert eng.to_act == 2
    ok(eng, Play(2, parse_card("9C")))
    assert eng.to_act == 0  # seat 3, the partner, is skipped
    finish(eng)
    assert eng.state.last_hand["tricks_won"][3] == 0
    assert eng.state.scores == [0, 4]


def test_euchred_makers_give_defenders_two() -> None:
    """Section “Making trump”: 'Otherwise they are euchred, i.e. have lost and their opponents score
    2 points'; section “Making trump”: the dealer's partner may 'assist'."""
    eng = table("euchre", MARCH, up="10H")
    ok(eng, Pass(1), Bid(2, "ORDER_UP"), Exchange(0, parse_card("9S")))
    finish(eng)
    assert eng.state.scores == [0, 2]


def test_second_round_names_another_suit_only() -> None:
    """Section “Making trump”: after four passes each player may 'call a different suit as trump'."""
    eng = table("euchre", HANDS, up="9H")
    ok(eng, Pass(1), Pass(2), Pass(3), Pass(0))
    bids = {a.bid for a in eng.legal_actions() if isinstance(a, Bid)}
    assert bids == {"S", "D", "C", "S:ALONE", "D:ALONE", "C:ALONE"}
    refused(eng, Bid(1, "H"), "bid_too_low")
    ok(eng, Bid(1, "S"))
    assert eng.public_state()["trump"] == "S" and eng.phase == "play"
    assert len(eng.known_hand(0)) == 5  # no pick-up in round two


def test_all_pass_twice_throws_in_and_deal_passes_left() -> None:
    """Section “Making trump”: 'If no trump is selected, the hand is discarded and the deal passes to
    the left.'"""
    eng = table("euchre", HANDS, up="9H")
    ok(eng, *(Pass(s % 4) for s in range(1, 9)))
    assert eng.phase == "deal" and eng.state.dealer == 1 and eng.state.scores == [0, 0]


def test_stick_the_dealer_option() -> None:
    """Option stick_the_dealer (section “Scoring” lists North American variations): the dealer may
    not pass in round two."""
    eng = table("euchre", HANDS, up="9H", options={"stick_the_dealer": True})
    ok(eng, *(Pass(s % 4) for s in range(1, 8)))
    refused(eng, Pass(0), "must_bid")


def test_revoke_in_record_mode_awards_two() -> None:
    """Section “Renege”: on a revoke 'the opposing team is awarded two points' (default) or 'two
    points are deducted from the offending team'."""
    for penalty, expected in (("award_two", [0, 2 + 2]), ("deduct_two", [-2, 2])):
        eng = table("euchre", MARCH, up="10H",
                    options={"revoke_mode": "record", "revoke_penalty": penalty})
        ok(eng, Bid(1, "ORDER_UP"), Exchange(0, parse_card("9S")))
        ok(eng, Play(1, parse_card("JH")), Play(2, parse_card("9C")), Play(3, parse_card("9D")))
        ok(eng, Play(0, parse_card("AS")))  # holds 10H: a revoke
        assert eng.state.revokes and eng.state.revokes[0]["seat"] == 0
        finish(eng)
        assert eng.state.scores == expected


def test_1844_rules_use_32_cards_and_game_to_five() -> None:
    """Section “History”: 'A 32-card French-suited Piquet pack is used'; section “Making trump”: 'Game is
    5 points.'"""
    eng = Engine.new("euchre-1844")
    assert eng.state.deck.size == 32 and eng.state.options.target == 5


@pytest.mark.parametrize("variant", ["euchre", "euchre-1844"])
@pytest.mark.parametrize("seed", range(3))
def test_complete_game(variant: str, seed: int) -> None:
    """Section “Variations”: 'The first team to score the target number of points (5, 7 or 10) wins.'"""
    eng, hands = random_game(variant, 4, seed)
    target = eng.state.options.target
    assert eng.state.game_over and max(eng.state.scores) >= target
    assert eng.state.scores[eng.state.winner] >= target
    assert all(sum(h["tricks_won"]) == 5 for h in hands)


# British Euchre: dealer seat 0; JOKER JS JD 9H JC are undealt.
BRITISH = ["9S 10S QS KS AS", "JH AH KH QH 10H", "9C 10C QC KC AC", "9D 10D QD KD AD"]


def test_british_pack_has_the_benny_as_top_trump() -> None:
    """Section “British Euchre”: 'a pack of 25 cards with a joker ... the top trump is the Benny'.
    Section “Making trump”: 'If the upcard is the Benny, the dealer must announce trumps before picking
    up their own hand cards and the dealer's team are the makers'."""
    eng = table("euchre-british", BRITISH, up="JOKER")
    assert eng.state.deck.size == 25
    assert eng.phase == "trump" and eng.to_act == 0
    ok(eng, DeclareTrump(0, "H"))
    assert "JOKER" in eng.known_hand(0)
    ok(eng, Exchange(0, parse_card("9S")))
    ok(eng, *(SitOut(s, False) for s in (1, 2, 3, 0)))
    ok(eng, Play(1, parse_card("JH")), Play(2, parse_card("9C")), Play(3, parse_card("9D")))
    assert [str(a.card) for a in eng.legal_actions()] == ["JOKER"]  # the Benny is a heart now
    ok(eng, Play(0, parse_card("JOKER")))
    assert eng.state.tricks[0][2] == 0


def test_british_dealers_partner_may_only_order_up_alone() -> None:
    """Section “Making trump”: 'the dealer's partner cannot make trumps and play with the dealer, but
    can only pass or play alone'."""
    eng = table("euchre-british", BRITISH, up="9H")
    ok(eng, Pass(1))
    refused(eng, Bid(2, "ORDER_UP"), "bid_too_low")
    ok(eng, Bid(2, "ORDER_UP:ALONE"))
    assert eng.phase == "sitout"  # the dealer sits out and does not take the card up
    assert sorted(eng.known_hand(0)) == sorted(BRITISH[0].split())


def test_british_maker_and_defender_both_alone() -> None:
    """Section “Going alone”: 'Before the first trick any player may announce they are going alone,
    whereupon the partner of the lone player puts their cards face down ... A maker and a
    defender may both go alone in which case it is one against one.'"""
    eng = table("euchre-british", BRITISH, up="9H")
    ok(eng, Bid(1, "ORDER_UP"), Exchange(0, parse_card("9S")))
    assert eng.phase == "sitout" and eng.to_act == 1
    ok(eng, SitOut(1, False), SitOut(2, True), SitOut(3, True))
    refused(eng, SitOut(0, True), "sit_out_refused")
    ok(eng, SitOut(0, False))
    assert eng.to_act == 1
    ok(eng, Play(1, parse_card("JH")))
    assert eng.to_act == 0  # one against one
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [0, 5, 0, 0]
    assert eng.state.scores == [0, 4]


@pytest.mark.parametrize("seed", range(3))
def test_british_complete_game(seed: int) -> None:
    """Section “Going alone”: 'Play and scoring are as in the 1844 rules' (game to 5)."""
    eng, hands = random_game("euchre-british", 4, seed)
    assert eng.state.game_over and eng.state.scores[eng.state.winner] >= 5

"""Double Deck Bid Euchre, Indiana Double Deck and the five-handed game: each test names the
passage of “Bid Euchre”, "Double Deck Bid Euchre" (and its Variations list), that it checks."""

from __future__ import annotations

import pytest
from tricktable.cards import parse_card
from tricktable.deckkit.decks import CARD_DECKS, deck_slots
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, DeclareTrump, Pass, Play
from variantkit import finish, ok, random_game, refused, table

SUITED = " ".join(f"{r}{{s}} {r}{{s}}'" for r in ("9", "10", "J", "Q", "K", "A"))
# Dealer seat 3: seat 0 bids first. Each seat holds both copies of one suit.
ONE_SUIT_EACH = [SUITED.format(s=s) for s in "SHDC"]


@pytest.mark.parametrize("variant", ["double-deck", "indiana-double-deck"])
def test_pack_and_deal(variant: str) -> None:
    """'uses a 48-card deck, giving 12 cards to each player. There are two teams of two';
    Indiana: 'A deck of 48 cards (a Pinochle Deck is used'."""
    eng = Engine.new(variant, seed=2)
    ok(eng, eng.legal_actions()[0])
    assert eng.state.deck.size == 48 and all(len(eng.known_hand(s)) == 12 for s in range(4))
    assert eng.public_state()["partnerships"] == [[0, 2], [1, 3]]


def test_minimum_bid_three() -> None:
    """'The minimum bid is three, and the winning bid is the highest bid'."""
    eng = table("double-deck", ONE_SUIT_EACH, dealer=3)
    refused(eng, Bid(0, "2"), "unknown_bid")
    ok(eng, Bid(0, "3"))
    refused(eng, Bid(1, "3"), "bid_too_low")


def test_made_bid_scores_the_tricks() -> None:
    """'If the player makes the bid, they get one point for each trick the team takes.' (Seat 3
    holds both left bowers, JC and JC', and takes one trick.)"""
    eng = table("double-deck", ONE_SUIT_EACH, dealer=3)
    ok(eng, Bid(0, "3"), Pass(1), Pass(2), Pass(3), DeclareTrump(0, "S"))
    assert eng.to_act == 0
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [11, 0, 0, 1]
    assert eng.state.scores == [11, 1]


def test_failed_bid_loses_its_value_and_opponents_score_tricks() -> None:
    """'If the team with the highest bid fails to make their bid, they lose points equal to
    their bid. Their opponents get one point for each trick they take.'"""
    eng = table("double-deck", ONE_SUIT_EACH, dealer=3)
    ok(eng, Pass(0), Bid(1, "5"), Pass(2), Pass(3), DeclareTrump(1, "S"))
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [10, 0, 0, 2]
    assert eng.state.scores == [10, -5]


def test_of_two_identical_cards_the_first_played_wins() -> None:
    """DESIGN.md, Identity of a card: 'of two identical cards played to one trick, the first
    played wins' (“Bid Euchre” gives no other rule for the 2 x 24 pack)."""
    hands = list(ONE_SUIT_EACH)
    hands[0] = hands[0].replace("AS'", "9D'")
    hands[2] = hands[2].replace("9D'", "AS'")
    eng = table("double-deck", hands, dealer=3)
    ok(eng, Bid(0, "3"), Pass(1), Pass(2), Pass(3), DeclareTrump(0, "D"))
    ok(eng, Play(0, parse_card("AS"), 0), Play(1, parse_card("9H"), 0))
    assert [str(a.card) for a in eng.legal_actions()] == ["AS"]  # must follow spades
    ok(eng, Play(2, parse_card("AS"), 1), Play(3, parse_card("9C"), 0))
    assert eng.state.tricks[0][2] == 0


def test_game_to_fifty() -> None:
    """'The game is won by the first team to score 50 points.'"""
    eng = table("double-deck", ONE_SUIT_EACH, dealer=3, scores=[40, 45])
    ok(eng, Bid(0, "3"), Pass(1), Pass(2), Pass(3), DeclareTrump(0, "S"))
    finish(eng)
    assert eng.state.game_over and eng.state.winner == 0


@pytest.mark.parametrize("players,size", [(5, 40), (6, 48), (7, 56)])
def test_five_handed_pack(players: int, size: int) -> None:
    """Five-handed: 'two decks with nines removed ... If six play, eight nines are added, four
    from each of the two decks; for seven players, add the nines and eights from both decks.
    Each player receives eight cards.'"""
    eng = Engine.new("five-handed", n_players=players, seed=1)
    ok(eng, eng.legal_actions()[0])
    assert eng.state.deck.size == size
    assert all(len(eng.known_hand(s)) == 8 for s in range(players))
    assert eng.public_state()["partnerships"] is None and len(eng.state.sides) == players


@pytest.mark.parametrize("players", [5, 6, 7])
def test_five_handed_pack_can_be_enrolled(players: int) -> None:
    """Five-handed (“Bid Euchre”, section “Double Deck Bid Euchre”, “Variations”): every card of the pack the
    seed deals for five, six or seven players (seven: 'add the nines and eights from both
    decks', 56 cards) is a slot of an enrollable deck kind, so a real pack can be tagged."""
    pack = Engine.new("five-handed", n_players=players, seed=1).state
    printed = {pack.card_name(p) for p in pack.deck.physical}
    kinds = [kind for kind in CARD_DECKS if printed <= {slot.name for slot in deck_slots(kind)}]
    assert kinds, f"no enrollable deck kind holds the {players}-player pack"
    if players == 7:
        assert kinds == ["56"] and len(deck_slots("56")) == len(printed) == 56


def test_five_handed_each_for_themselves() -> None:
    """Five-handed: 'Each player competes against all the others', 'following the same rules'
    (the bidder scores the tricks or loses the bid; everybody else scores their tricks)."""
    eng, hands = random_game("five-handed", 5, 4, bots=True)
    for h in hands:
        c = h["contract"]
        for seat, delta in enumerate(h["deltas"]):
            taken = h["tricks_won"][seat]
            if seat == c["seat"] and taken < c["need"]:
                assert delta == -c["need"]
            else:
                assert delta == taken


@pytest.mark.parametrize("variant,players", [("double-deck", 4), ("indiana-double-deck", 4),
                                             ("five-handed", 5), ("five-handed", 6),
                                             ("five-handed", 7)])
def test_complete_game(variant: str, players: int) -> None:
    """'The game is won by the first team to score 50 points.'"""
    eng, hands = random_game(variant, players, players, bots=True)
    assert eng.state.game_over and eng.state.scores[eng.state.winner] >= 50
    assert all(sum(h["tricks_won"]) == eng.state.hand_size for h in hands)

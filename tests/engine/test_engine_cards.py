"""cards: parsing and printing, decks, effective suit and card order (“Bid Euchre”, section “Single Deck”
Bid Euchre, for the bower order; the double-deck rule is DESIGN.md's, Identity of a card)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tricktable.cards import (
    CARDS,
    JOKER,
    JOKER_SUIT,
    CardError,
    Ordering,
    Suit,
    deck,
    format_card,
    make_deck,
    parse_card,
    parse_card_copy,
    physical_index,
)


@pytest.mark.parametrize(("text", "printed"), [
    ("AS", "AS"), ("10h", "10H"), ("TH", "10H"), ("t♥", "10H"), ("J♣", "JC"), ("9♦", "9D"),
    ("joker", "JOKER"), (" QS ", "QS"),
])
def test_parse_and_print(text: str, printed: str) -> None:
    assert str(parse_card(text)) == printed


@pytest.mark.parametrize("bad", ["", "A", "1S", "AX", "11H", "JOKERS", "AS'"])
def test_bad_card_names_are_refused_with_the_text(bad: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(bad)
    assert repr(bad) in str(err.value)


def test_copy_suffixes_of_double_deck_cards() -> None:
    assert parse_card_copy("AS'") == (parse_card("AS"), 1)
    assert parse_card_copy("AS?") == (parse_card("AS"), None)
    assert parse_card_copy("AS") == (parse_card("AS"), 0)
    assert [format_card(parse_card("AS"), c) for c in (0, 1, None)] == ["AS", "AS'", "AS?"]


@given(st.sampled_from(CARDS), st.sampled_from([0, 1]))
def test_every_card_round_trips(card, copy) -> None:  # type: ignore[no-untyped-def]
    assert parse_card_copy(format_card(card, copy)) == (card, copy)


@pytest.mark.parametrize(("name", "size", "copies"), [
    ("24", 24, 1), ("25", 25, 1), ("28", 28, 1), ("32", 32, 1), ("36", 36, 1), ("40", 40, 1),
    ("48", 48, 2), ("52", 52, 1),
])
def test_named_decks(name: str, size: int, copies: int) -> None:
    """The packs the seeds name: 24 (“Bid Euchre”, section “Single Deck Bid Euchre”: 'A pack of 24 cards'),
    25 with the joker (“Bid Euchre”, section “Hasenpfeffer”), 28 and 32 (“Bid Euchre”, section “Buck euchre”: 'lower
    cards (9, 8, 7, etc.) added if necessary'), 32 (“Euchre”, Jucker and the 1844 Euchre), 48
    as 2x24 (“Bid Euchre”, section “Double Hasenpfeffer”: 'the 48-card pinochle pack'), 52 (“Euchre”,
    Spades). 36 and 40 are DESIGN.md's (cards) packs; no seed variant uses them yet."""
    d = deck(name)
    assert d.size == size == d.mask.bit_count() and d.copies == copies
    assert (JOKER in d) == (name == "25")


def test_unknown_deck_and_bad_rank_range() -> None:
    with pytest.raises(CardError, match="unknown deck '23'"):
        deck("23")
    with pytest.raises(CardError):
        make_deck(15)


def test_double_deck_copies_have_distinct_bits() -> None:
    d = deck("48")
    a = parse_card("AS")
    assert d.mask >> physical_index(a, 0) & 1 and d.mask >> physical_index(a, 1) & 1


def test_left_bower_belongs_to_trump() -> None:
    """“Bid Euchre”: the left bower is 'the other suit of the same colour as the trump suit'."""
    o = Ordering(Suit.SPADES)
    assert o.effective_suit(parse_card("JC")) == Suit.SPADES
    assert o.effective_suit(parse_card("JH")) == Suit.HEARTS
    assert o.is_trump(parse_card("JC")) and not o.is_trump(parse_card("AC"))
    assert Suit.HEARTS.partner == Suit.DIAMONDS and Suit.CLUBS.partner == Suit.SPADES


def _order(o: Ordering, names: str) -> list[str]:
    cards = [parse_card(n) for n in names.split()]
    return [str(c) for c in sorted(cards, key=lambda c: -o.key(c.index, o.trump_suit))]


def test_trump_order_right_left_ace_king_queen_ten_nine() -> None:
    """“Bid Euchre”, section “Single Deck Bid Euchre”: 'J ..., J ..., A, K, Q, 10, 9 (low)'."""
    o = Ordering(Suit.HEARTS)
    assert _order(o, "9H AH JD 10H KH JH QH") == ["JH", "JD", "AH", "KH", "QH", "10H", "9H"]


def test_no_trump_has_no_bowers_and_low_no_trump_reverses() -> None:
    """“Bid Euchre”: 'When playing with no trumps, all four suits follow the plain suit ranking';
    low no-trump (Buckpfeffer's 'low'): the 9 is best, the ace worst."""
    high = Ordering(None)
    low = Ordering(None, low=True)
    spades = [parse_card(n) for n in "9S AS JS 10S".split()]
    led = int(Suit.SPADES)
    assert [str(c) for c in sorted(spades, key=lambda c: -high.key(c.index, led))] == \
        ["AS", "JS", "10S", "9S"]
    assert [str(c) for c in sorted(spades, key=lambda c: -low.key(c.index, led))] == \
        ["9S", "10S", "JS", "AS"]
    assert high.effective_suit(parse_card("JC")) == Suit.CLUBS


def test_joker_is_best_trump_and_its_own_suit_at_no_trump() -> None:
    """“Bid Euchre”, section “Hasenpfeffer”: the joker is the best bauer."""
    o = Ordering(Suit.CLUBS)
    assert o.effective_suit(JOKER) == Suit.CLUBS
    assert o.winner([parse_card("JC").index, JOKER.index, parse_card("JS").index]) == 1
    nt = Ordering(None)
    assert nt.effective_suit(JOKER) == JOKER_SUIT
    assert nt.winner([parse_card("AS").index, JOKER.index]) == 1


def test_first_of_two_identical_cards_wins() -> None:
    """DESIGN.md, Identity of a card: 'of two identical cards played to one trick, the first
    played wins'."""
    o = Ordering(Suit.HEARTS)
    a1 = physical_index(parse_card("AS"), 1)
    a0 = physical_index(parse_card("AS"), 0)
    assert o.winner([parse_card("9S").index, a1, a0]) == 1
    assert o.winner([a0, a1]) == 0


def test_trump_beats_the_led_suit_and_off_suit_never_wins() -> None:
    """Seed 001, Single Deck Bid Euchre, Leading, taking tricks, and scoring: 'The trick goes
    to the highest trump or, if there are no trump cards, to the highest card of the suit
    led.'"""
    o = Ordering(Suit.DIAMONDS)
    plays = [parse_card(n).index for n in ("AS", "KC", "9D", "KS")]
    assert o.winner(plays) == 2
    assert o.winner([parse_card(n).index for n in ("10S", "AC", "AH", "JS")]) == 3

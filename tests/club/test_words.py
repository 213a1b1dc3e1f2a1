"""The director's console says a table's actions and phases in the players' words: a seat is
North, East, South or West (seat 0 of a club table is North, docs/club.md) with its player's
name, a card is its rank and suit sign."""

from __future__ import annotations

from tricktable.club.words import action_words, card_words, phase_words

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def test_each_kind_of_action_is_a_sentence_naming_the_seat_and_the_player() -> None:
    assert action_words({"type": "play", "seat": 1, "card": "KD"}, PLAYERS) == \
        "East (Bob) played the K♦"
    assert action_words({"type": "bid", "seat": 0, "bid": "4"}, PLAYERS) == "North (Ann) bid 4"
    assert action_words({"type": "pass", "seat": 3}, PLAYERS) == "West (Di) passed"
    assert action_words({"type": "trump", "seat": 2, "trump": "H"}, PLAYERS) == \
        "South (Cy) named hearts"
    assert action_words({"type": "scan", "seat": 2, "card": "10S", "copy": 0}, PLAYERS) == \
        "South (Cy) showed the 10♠ (hand scan)"
    assert action_words({"type": "sit_out", "seat": 1, "out": False}, PLAYERS) == \
        "East (Bob) chose to play"


def test_without_names_a_seat_is_its_compass_point_never_a_number() -> None:
    assert action_words({"type": "play", "seat": 1, "card": "AS"}) == "East played the A♠"


def test_cards_and_phases() -> None:
    assert card_words("JOKER") == "the joker"
    assert card_words("AS'") == "A♠′"  # the second copy of a double deck
    assert phase_words("play") == "playing" and phase_words("bidding") == "bidding"

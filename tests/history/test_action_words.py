"""An action and a table's phase in words (``history.words``), as the director's console shows
them: a seat is whatever the caller calls it (the console: "East (Bob)", ``club.movement
.seat_labels``), a card and a bid as a player says them."""

from __future__ import annotations

from tricktable.club.movement import seat_labels
from tricktable.history.words import action_words, phase_words
from tricktable.rules.base import PHASES

SEATS = seat_labels(["Ann", "Bob", "Cy", "Di"])


def test_each_kind_of_action_is_a_sentence_naming_the_seat() -> None:
    assert SEATS == ["North (Ann)", "East (Bob)", "South (Cy)", "West (Di)"]
    assert action_words({"type": "play", "seat": 1, "card": "KD"}, SEATS) == \
        "East (Bob) played the king of diamonds"
    assert action_words({"type": "bid", "seat": 0, "bid": "4"}, SEATS) == "North (Ann) bid 4"
    assert action_words({"type": "bid", "seat": 0, "bid": "PEPPER:SMALL"}, SEATS) == \
        "North (Ann) bid small pepper"
    assert action_words({"type": "pass", "seat": 3}, SEATS) == "West (Di) passed"
    assert action_words({"type": "trump", "seat": 2, "trump": "H"}, SEATS) == \
        "South (Cy) named hearts"
    assert action_words({"type": "scan", "seat": 2, "card": "10S", "copy": 0}, SEATS) == \
        "South (Cy) showed the 10 of spades (hand scan)"
    assert action_words({"type": "sit_out", "seat": 1, "out": False}, SEATS) == \
        "East (Bob) chose to play"


def test_a_seat_without_a_name_is_its_compass_point_and_phases_are_words() -> None:
    assert seat_labels(["", "Bob", "", ""])[0] == "North"
    assert [phase_words(p) for p in PHASES] == [
        "dealing", "bidding", "naming trump", "passing cards", "choosing who sits out",
        "playing", "game over"]
    assert phase_words(None) == "no game"

"""A night file keeps the director's swaps (with the game's changes) and the bells the
director rang early ("Bid Euchre", section "Bid euchre variations",
"Progressive": "The lead table plays eight hands [...] then rings the bell"); a hand-edited
swap of a stranger is refused, naming the game.
"""

from __future__ import annotations

import json

import pytest
from tricktable.club import ClubError, ProgressiveOptions, ProgressiveTournament
from tricktable.club.store import load_night, night_from_json, night_to_json, save_night

ROSTER = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def test_a_swapped_seating_and_an_early_bell_survive_a_reload(tmp_path):
    night = ProgressiveTournament.new(ROSTER, 2, ProgressiveOptions(hands_per_round=3, rounds=3))
    night.record_hand(1, 4, 2)
    night.record_hand(2, 1, 3)
    night.bell(early=True)  # the head table had 2 hands left
    swapped = [list(t) for t in night.seating]
    swapped[0][0], swapped[1][1] = swapped[1][1], swapped[0][0]
    night.swap(night.seating[0][0], night.seating[1][1])
    save_night(night, tmp_path / "night.json")
    again = load_night(tmp_path / "night.json")
    assert again.games[0].early and [list(t) for t in again.seating] == swapped
    assert again.tallies() == night.tallies()


def test_a_bell_before_the_head_table_is_through_needs_the_director():
    night = ProgressiveTournament.new(ROSTER, 2, ProgressiveOptions(hands_per_round=3, rounds=3))
    with pytest.raises(ClubError, match="rings the bell after the last"):
        night.bell()


def test_a_swap_with_a_stranger_is_refused_naming_the_game():
    night = ProgressiveTournament.new(ROSTER, 2, ProgressiveOptions(hands_per_round=1, rounds=3))
    data = night_to_json(night)
    data["changes"] = [["swap", "Ann", "Zed"]]
    with pytest.raises(ClubError, match="the current game: 'Zed' is not seated"):
        night_from_json(json.loads(json.dumps(data)))

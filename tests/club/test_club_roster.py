"""The roster file and what may go on a progressive tally (docs/club.md)."""

from __future__ import annotations

import pytest
from tricktable.club import ClubError, read_roster
from tricktable.club.journal_hands import hands_from_game


def test_roster_skips_comments_and_blank_lines(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("# club\n Ann \n\nBob\n")
    assert read_roster(path) == ("Ann", "Bob")


def test_a_name_twice_is_refused(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("Ann\nbob\nBOB\n")
    with pytest.raises(ClubError, match="'BOB' is on the roster twice"):
        read_roster(path)


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(ClubError, match="no players file at .*none.txt"):
        read_roster(tmp_path / "none.txt")


def test_only_two_partnerships_go_on_a_progressive_tally():
    # “Bid Euchre”, section “Progressive”: "record their team score": every-player-for-himself games have no team
    setup = {"variant": "buck-euchre", "players": ["a", "b", "c", "d"]}
    with pytest.raises(ClubError, match="not two partnerships of two"):
        hands_from_game(setup, [])

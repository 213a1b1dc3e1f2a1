"""The club file: tables, variant and house rules, board pad -> seat; mistakes name the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from tricktable.clubfile import ClubFileError, load_club, parse_club

EXAMPLE = Path(__file__).parents[2] / "examples" / "club.toml"


def test_example_club_file_loads():
    club = load_club(EXAMPLE)
    t1 = club.tables["t1"]
    assert t1.variant == "bid-euchre" and t1.options["revoke_mode"] == "strict"
    assert t1.seat_of("t1-south", 0) == 2 and t1.seat_of("t1-south", 1) is None
    assert t1.boards == ("t1-north", "t1-east", "t1-south", "t1-west", "t1-score")
    assert club.table_of_board("t2-b").id == "t2" and club.table_of_board("nobody") is None
    assert club.registry == EXAMPLE.parent / "decks.sqlite"


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"tables": {"t1": {}}}, "tables.t1: 'variant' is required"),
        ({"tables": {"t1": {"variant": "x", "seats": 4}}}, "tables.t1: unknown key.*seats"),
        ({"tables": {"t1": {"variant": "x", "pads": {"north": 0}}}}, "must be \"board:pad\""),
        ({"tables": {"t1": {"variant": "x", "pads": {"n:0": 9}}}}, "seat 9 out of range"),
        ({"tables": {"t1": {"variant": "x", "dealer": "N"}}}, "tables.t1.dealer: expected int"),
        ({"tables": {"bad id": {"variant": "x"}}}, "a table id is"),
        ({"tables": {"a": {"variant": "x", "pads": {"b:0": 0}},
                     "c": {"variant": "x", "pads": {"b:1": 0}}}}, "board 'b' is in both"),
    ],
)
def test_mistakes_name_the_key(doc, message):
    with pytest.raises(ClubFileError, match=message):
        parse_club(doc)


def test_unreadable_files_are_refused(tmp_path):
    with pytest.raises(ClubFileError, match="cannot read club file"):
        load_club(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[tables\n")
    with pytest.raises(ClubFileError, match="is not valid TOML"):
        load_club(bad)

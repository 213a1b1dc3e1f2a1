"""The club file: tables, variant and house rules, board pad -> seat; mistakes name the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from tricktable.clubfile import ClubFileError, load_club, parse_club

EXAMPLE = Path(__file__).parents[2] / "examples" / "club.toml"
BE = "bid-euchre"


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
        ({"tables": {"t1": {"variant": BE, "seats": 4}}}, "tables.t1: unknown key 'seats'"),
        ({"tables": {"t1": {"variant": BE, "pads": {"north": 0}}}}, "must be \"board:pad\""),
        ({"tables": {"t1": {"variant": BE, "pads": {"n:0": 9}}}}, "seat 9 out of range 0..3"),
        ({"tables": {"t1": {"variant": BE, "dealer": "N"}}}, "tables.t1.dealer: expected int"),
        ({"tables": {"bad id": {"variant": BE}}}, "a table id is"),
        ({"tables": {"a": {"variant": BE, "pads": {"b:0": 0}},
                     "c": {"variant": BE, "pads": {"b:1": 0}}}}, "board 'b' is in both"),
        ({"tables": {"t1": {"variant": "bid-uchre"}}},
         "unknown variant 'bid-uchre' \\(did you mean 'bid-euchre'\\?\\)"),
        ({"tables": {"t1": {"variant": BE, "options": {"revoke_mode": "lenient"}}}},
         "tables.t1.options.revoke_mode: option 'revoke_mode' for bid-euchre must be"),
        ({"tables": {"t1": {"variant": BE, "options": {"revoke_mod": "strict"}}}},
         "bid-euchre has no option 'revoke_mod' \\(did you mean 'revoke_mode'\\?\\)"),
        ({"tables": {"t1": {"variant": BE, "pads": {"n:0": 0, "e:0": 0}}}},
         "seat 0 is given to both 'n:0' and 'e:0'"),
        ({"tables": {"t1": {"variant": BE, "players": ["Ann", "Bob", "Cy"]}}},
         "bid-euchre is played by 4, not 3"),
        ({"tables": {"t1": {"variant": BE, "dealer": 4}}}, "seat 4 is not at the table"),
        ({"tables": {"t1": {"variant": BE, "brightness": 16}}}, "16 is not 0..15"),
        ({"tables": {"t1": {"variant": BE, "pads": {"n:0": 0}, "phones": [0]}}},
         "tables.t1.phones: seat 0 is read by both 'n:0' and a phone"),
        ({"tables": {"t1": {"variant": BE, "phones": [0, 0]}}},
         "tables.t1.phones: seat 0 is listed twice"),
        ({"tables": {"t1": {"variant": BE, "phones": [4]}}},
         "tables.t1.phones: seat 4 out of range 0..3"),
        ({"tables": {"t" * 30: {"variant": BE, "phones": [0]}}},
         "is too long for a phone reader"),
        ({"tables": {"t1": {"variant": BE, "varient": BE}}},
         "unknown key 'varient' \\(did you mean 'variant'\\?\\)"),
    ],
)
def test_mistakes_name_the_key(doc, message):
    with pytest.raises(ClubFileError, match=message):
        parse_club(doc)


def test_a_phone_seat_is_a_reader_with_one_pad():
    """docs/phones.md: the club file's phone seat s of table t is the reader t.phone{s},
    its pad 0, beside the boards' pads."""
    club = parse_club({"tables": {"t1": {"variant": BE, "pads": {"n1:0": 0, "s1:0": 2},
                                         "phones": [1, 3]}}})
    t1 = club.tables["t1"]
    assert t1.phones == (1, 3)
    assert t1.seat_of("t1.phone1", 0) == 1 and t1.seat_of("t1.phone3", 0) == 3
    assert t1.boards == ("n1", "s1", "t1.phone1", "t1.phone3")
    assert club.table_of_board("t1.phone3") is t1


def test_unreadable_files_are_refused(tmp_path):
    with pytest.raises(ClubFileError, match="no club file at .*missing.toml"):
        load_club(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[tables\n")
    with pytest.raises(ClubFileError, match="is not valid TOML"):
        load_club(bad)


def test_a_mistake_in_the_file_names_its_line(tmp_path):
    club = tmp_path / "club.toml"
    text = EXAMPLE.read_text().replace('revoke_mode = "record"', 'revoke_mode = "lenient"')
    club.write_text(text)
    line = next(n for n, text in enumerate(text.splitlines(), 1) if "lenient" in text)
    with pytest.raises(ClubFileError, match=f"club.toml, line {line}: tables.t2.options"
                                            ".revoke_mode"):
        load_club(club)
    club.write_text(EXAMPLE.read_text().replace('variant = "bid-euchre"', 'variant = "bid-uchre"', 1))
    with pytest.raises(ClubFileError, match=r"club.toml, line 11: tables.t1.variant: unknown "):
        load_club(club)


def test_a_utf8_bom_is_not_part_of_the_first_key(tmp_path):
    club = tmp_path / "club.toml"
    club.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.read_bytes())
    assert load_club(club).name == "Riverside Euchre Club"


@pytest.mark.parametrize("content", [Path("/bin/ls").read_bytes()[:4096],
                                     "name = 'Caf\xe9'\n".encode("latin-1")],
                         ids=["binary", "latin-1"])
def test_a_file_that_is_not_utf8_text_is_refused_in_one_line(tmp_path, content):
    club = tmp_path / "club.toml"
    club.write_bytes(content)
    with pytest.raises(ClubFileError, match="is not a club file: not UTF-8 text") as caught:
        load_club(club)
    assert "\n" not in str(caught.value)


def test_the_clubs_brightness_is_every_tables_unless_a_table_sets_its_own():
    club = parse_club({"club": {"brightness": 6}, "tables": {
        "t1": {"variant": BE, "brightness": 12}, "t2": {"variant": BE}}})
    assert (club.tables["t1"].brightness, club.tables["t2"].brightness) == (12, 6)
    assert parse_club({"tables": {"t1": {"variant": BE}}}).tables["t1"].brightness is None
    with pytest.raises(ClubFileError, match="club.brightness: 16 is not 0..15"):
        parse_club({"club": {"brightness": 16}, "tables": {"t1": {"variant": BE}}})

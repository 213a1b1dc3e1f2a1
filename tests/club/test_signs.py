"""What the live night shows on a table's score display (club.signs): the bell, the moves,
the end, each fitting an 8-digit 7-segment board (text8) and a 4 x 16 OLED board (lines)."""

from __future__ import annotations

import importlib

from tricktable.club.movement import move
from tricktable.club.signs import (
    bell_sign,
    closed_sign,
    move_line,
    moves,
    moves_sign,
    no_more_hands,
    over_sign,
    parse_move_line,
)
from tricktable.protocol import Display, decode, encode
from tricktable.sim.boards import firmware

SEATING = [("Ann", "Bob", "Cy", "Di"), ("Eve", "Fay", "Gus", "Hal"), ("Ida", "Jo", "Kit", "Lou")]


def fits(sign: list[Display]) -> None:
    """Every page passes the protocol's limits and the firmware's own display checks."""
    firmware()  # the firmware's modules on the path
    segments = importlib.import_module("display").segments
    for page in sign:
        assert decode(Display, encode(page)) == page
        assert len(page.text8) <= 8 and len(page.lines) <= 4
        assert all(len(line) <= 16 for line in page.lines)
        segments(page.text8)  # the 7-segment board can draw every character


def test_the_bell_says_finish_the_hand_then_wait() -> None:
    """“Bid Euchre”, section “Progressive”: "When the bell rings, players at each table
    finish their current hand"."""
    assert [p.text8 for p in bell_sign(3)] == ["BELL", "FIN HAND"]
    assert bell_sign(3)[0].lines[:2] == ["BELL", "FINISH HAND"]
    assert closed_sign(3)[0].lines[:2] == ["BELL", "HAND DONE"]
    fits(bell_sign(30) + closed_sign(30) + over_sign())


def test_only_the_bell_and_the_end_say_start_no_hand() -> None:
    """“Bid Euchre”, section “Progressive”: after the bell a table finishes its current hand
    and starts no other; nor does it after the last game."""
    for sign in (bell_sign(2), closed_sign(2), over_sign()):
        assert all(no_more_hands(page.lines) for page in sign)
    assert not any(no_more_hands(page.lines) for page in moves_sign(moves(SEATING[0], SEATING)))
    assert not no_more_hands(["t2 g3 h2", "deal S2", "no contract", "1 5"])  # the game
    assert not no_more_hands([])


def test_each_player_of_a_table_sees_where_they_sit_next() -> None:
    after = move(SEATING, ["A", "B", "A"])
    sign = moves_sign(moves(SEATING[1], after))
    lines = sign[0].lines
    assert len(sign) == 4 and all(p.lines == lines for p in sign)  # one steady OLED sign
    for name, line in zip(SEATING[1], lines, strict=True):
        number, table = next((n, t) for n, t in enumerate(after, 1) if name in t)
        assert parse_move_line(line) == (name.upper(), number, "NESW"[table.index(name)])
    assert [p.text8 for p in sign][0].startswith("EVE T")
    fits(sign)


def test_long_names_and_two_digit_tables_fit() -> None:
    line = move_line(("Maximilian", 30, "W"))
    assert line == "MAXIMIL -> T30 W" and len(line) == 16
    assert parse_move_line(line) == ("MAXIMIL", 30, "W")
    [page] = moves_sign([("Maximilian", 30, "W")])
    assert page.text8 == "MAX T30W"
    [odd] = moves_sign([("Zoë", 4, "N")])  # a letter the 7-segment cannot draw is a space
    fits([page, odd])
    assert parse_move_line("t1 g2 h3") is None


def test_a_player_who_sits_out_next_or_has_left_is_told_so() -> None:
    """Byes are a judgement call (the article is silent): one who sits out next reads BYE."""
    after = [("Eve", "Fay", "Gus", "Ida"), ("Ann", "Bob", "Cy", "Di")]
    sign = moves_sign(moves(SEATING[1], after, bench=["Hal"]))
    assert sign[0].lines == ["EVE -> T1 N", "FAY -> T1 E", "GUS -> T1 S", "HAL -> BYE"]
    assert [p.text8 for p in sign][3] == "HAL BYE"
    assert moves(["Lou"], after, bench=[]) == [("Lou", 0, "OUT")]
    assert parse_move_line("HAL -> BYE") is None  # no seat to take
    fits(sign + moves_sign(moves(["Maximilian"], after)))

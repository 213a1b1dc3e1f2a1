"""What a live night shows on the tables' score displays: the bell, the moves, the end.

Pure functions from the night's seating to ``protocol.Display`` pages (``text8`` for an
8-digit 7-segment board, four 16-character ``lines`` for an OLED board). A sign with more
than one page is shown page after page by the night (``club.live``); only ``text8`` changes
between pages, the lines stay put, so an OLED board shows one steady sign.

- ``bell_sign``: the bell has rung and this table still plays its hand: BELL / FINISH HAND.
- ``closed_sign``: this table's last hand is scored; it waits for the other tables.
- ``moves_sign``: where this table's players sit next, one ``ANN -> T3 N`` line each (the
  seat letters of docs/club.md), in seat order, ``ANN -> BYE`` for one who sits out next
  (``ANN -> OUT``: left the night); text8 cycles ``ANN T3 N`` per player. Before
  the first game nobody sat anywhere: the table lists who sits down at it.
- ``over_sign``: the night is over.
- ``no_more_hands``: does a display's sign tell its table to start no hand (the bell or the
  end of the night)? The demo's bots read the boards with it.

A name is shown in capitals, cut to 7 characters (``move_line``); on the 7-segment board
a character it cannot draw becomes a space. ``parse_move_line`` reads a line back (the demo's
bots and the tests read the boards with it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tricktable.club.movement import SEATS
from tricktable.protocol import Display

__all__ = ["BELL", "OVER", "Move", "moves", "bell_sign", "closed_sign", "moves_sign", "over_sign",
           "move_line", "parse_move_line", "no_more_hands", "table_closed", "NAME_CHARS"]

NAME_CHARS = 7  # a move line is NAME -> T30 N: 7 + 4 + 5 = 16 characters at most
SEVEN_SEGMENT = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_ ")
BELL, OVER = "BELL", "NIGHT OVER"  # the first line of the bell's signs, of the end's
_LINE = re.compile(r"^(.{1,7}) -> T(\d+) ([NESW])$")

Move = tuple[str, int, str]  # (name, table number from 1 = head, seat letter); 0, BYE or OUT


def moves(table: Sequence[str], seating: Sequence[Sequence[str]],
          bench: Sequence[str] = ()) -> list[Move]:
    """Where each player of ``table`` (seat order) sits in ``seating`` (tables head first):
    ``(name, 0, "BYE")`` for one who sits out next (``bench``), ``(name, 0, "OUT")`` for one
    who has left the night."""
    where = {name: (number, SEATS[seat]) for number, players in enumerate(seating, 1)
             for seat, name in enumerate(players)}
    return [(name, *where.get(name, (0, "BYE" if name in bench else "OUT"))) for name in table]


def move_line(move: Move) -> str:
    """``ANN -> T3 N``: at most 16 characters."""
    name, number, seat = move
    return f"{name.upper()[:NAME_CHARS]} -> " + (f"T{number} {seat}" if number else seat)


def parse_move_line(line: str) -> Move | None:
    """The move a display line says, or None for a line that is not one."""
    found = _LINE.match(line)
    if found is None:
        return None
    return found.group(1), int(found.group(2)), found.group(3)


def _text8(text: str) -> str:
    """``text`` as an 8-digit 7-segment board can show it."""
    return "".join(c if c in SEVEN_SEGMENT else " " for c in text.upper())[:8]


def _short(move: Move) -> str:
    name, number, seat = move
    if not number:
        return f"{_text8(name)[:3]} {seat}"
    short = f"{_text8(name)[:3]} T{number} {seat}"
    return short if len(short) <= 8 else short.replace(f" {seat}", seat)[:8]


def bell_sign(table: int) -> list[Display]:
    """The bell rang; this table finishes the hand in play."""
    lines = [BELL, "FINISH HAND", f"TABLE {table}", "THEN WAIT"]
    return [Display(text8="BELL", lines=lines), Display(text8="FIN HAND", lines=lines)]


def closed_sign(table: int) -> list[Display]:
    """This table is through; the players wait for the moves."""
    return [Display(text8="WAIT", lines=[BELL, "HAND DONE", f"TABLE {table}",
                                         "WAIT FOR MOVES"])]


def moves_sign(moving: Sequence[Move]) -> list[Display]:
    """Who sits where next: one line and one text8 page per player."""
    lines = [move_line(m) for m in moving][:4]
    return [Display(text8=_short(m), lines=lines) for m in moving]


def over_sign() -> list[Display]:
    """The night is over."""
    return [Display(text8="END", lines=[OVER, "SEE STANDINGS"])]


def table_closed(lines: Sequence[str]) -> bool:
    """Does a display showing ``lines`` say that its table is through with this game (its
    last hand counted, or the night over): a hand begun there after all counts for nothing."""
    return lines[:2] == [BELL, "HAND DONE"] or lines[:1] == [OVER]


def no_more_hands(lines: Sequence[str]) -> bool:
    """Does a display showing ``lines`` say that its table starts no more hands in this game:
    the bell has rung (the hand in play is finished, none begun), or the night is over?"""
    return lines[:1] in ([BELL], [OVER])

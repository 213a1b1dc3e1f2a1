"""Sitting out: who takes a bye at the next game, and what a bye scores on the tally.

A night whose players are not a multiple of four seats four at every table and the rest sit
out a game (a bye), in turn. The progressive article ("Bid Euchre", section "Progressive") is
silent on byes; this is the club's judgement, documented in docs/club.md:

* after the bell and the movement, the players waiting (those who sat out, then the late
  arrivals) come in, and as many seated players go out: those who have played the most games,
  earliest on the roster first. Each one coming in takes the seat of one going out (in table
  and seat order), so the movement is not disturbed;
* a bye scores, by the night's ``bye_score`` option, ``average`` (the mean of every team's
  score at every table in that game, rounded half up) or ``zero``. A bye is not a game won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tricktable.club.errors import ClubError

__all__ = ["BYE_SCORES", "check_bye_score", "rotate", "bye_score"]

BYE_SCORES = ("average", "zero")
Seating = list[tuple[str, str, str, str]]


def check_bye_score(rule: object) -> str:
    """``rule`` if it is one of ``BYE_SCORES``; ClubError otherwise."""
    if rule not in BYE_SCORES:
        raise ClubError(f"a bye scores {' or '.join(BYE_SCORES)}, not {rule!r}")
    return str(rule)


def rotate(seating: Sequence[Sequence[str]], waiting: Sequence[str],
           played: Mapping[str, int], roster: Sequence[str]) -> tuple[Seating, list[str]]:
    """The seating with ``waiting`` players in, and who sits out the next game instead."""
    seats = [(t, s) for t in range(len(seating)) for s in range(4)]
    order = {name: i for i, name in enumerate(roster)}
    going = sorted(seats, key=lambda ts: (-played.get(seating[ts[0]][ts[1]], 0),
                                          order[seating[ts[0]][ts[1]]]))[:len(waiting)]
    tables = [list(table) for table in seating]
    out: list[str] = []
    for (t, s), name in zip(sorted(going), waiting, strict=False):
        out.append(tables[t][s])
        tables[t][s] = name
    still_waiting = list(waiting[len(going):])
    return [(t[0], t[1], t[2], t[3]) for t in tables], out + still_waiting


def bye_score(rule: str, table_scores: Sequence[tuple[int, int]]) -> int:
    """What a bye puts on the tally for a game whose tables scored ``table_scores``."""
    if rule == "zero" or not table_scores:
        return 0
    total = sum(a + b for a, b in table_scores)
    teams = 2 * len(table_scores)
    return (2 * total + teams) // (2 * teams)  # the mean, rounded half up

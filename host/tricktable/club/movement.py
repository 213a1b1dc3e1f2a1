"""The progressive movement: who sits where after the bell (“Bid Euchre”, section “Bid euchre variations”,
"Progressive").

The article: "The losing team at the head table moves to the tail table; otherwise, the winning
team at each table advances to the next table, and one member of the losing team changes seat
so that partners in one game are opponents in the next game."

A table is four names in seat order N, E, S, W; team ``A`` is N/S, team ``B`` is E/W;
``seat_labels`` says each seat as the director's console does ("North (Ann)").
Tables are listed head first. Read the article as: a pair *moves* (the head table's losers go to
the tail; every other table's winners go one table towards the head) and a pair *stays* (the
head table's winners, every other table's losers). At each table the staying pair splits and
the arriving pair fills the two free seats, so every partnership is one stayer and one
arrival and nobody keeps a partner. The article names the losers' seat change; the head table's
staying winners split the same way so that the article's purpose ("partners in one game are
opponents in the next") holds at every table. The fixed seat rule (docs/club.md):

* stayers were N/S: N keeps the seat, S moves to E; the arrivals take S and W;
* stayers were E/W: E keeps the seat, W moves to S; the arrivals take W and N;
* of the arriving pair, the one who sat N or E at the old table takes the first of those two
  seats. With one table, the losers "move" to the same table and split the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from tricktable.club.errors import ClubError

__all__ = ["SEATS", "TEAMS", "Table", "pair", "move", "seat_labels"]

SEATS = ("N", "E", "S", "W")
SEAT_WORDS = ("North", "East", "South", "West")
TEAMS = ("A", "B")
TEAM_SEATS = {"A": (0, 2), "B": (1, 3)}
Table = tuple[str, str, str, str]


def pair(table: Sequence[str], team: str) -> tuple[str, str]:
    """The two players of ``team`` at ``table``, the one in N or E first."""
    first, second = TEAM_SEATS[team]
    return table[first], table[second]


def _other(team: str) -> str:
    return "B" if team == "A" else "A"


def move(seating: Sequence[Sequence[str]], winners: Sequence[str]) -> list[Table]:
    """The seating of the next game, given each table's winning team (head table first)."""
    if len(winners) != len(seating):
        raise ClubError(f"{len(seating)} tables need {len(seating)} winners, not {len(winners)}")
    for number, team in enumerate(winners, 1):
        if team not in TEAMS:
            raise ClubError(f"table {number}: the winner must be team A or B, not {team!r}")
    tail = len(seating) - 1
    arrivals: dict[int, tuple[str, str]] = {}
    stays: list[tuple[str, tuple[str, str]]] = []
    for t, (table, won) in enumerate(zip(seating, winners, strict=True)):
        lost = _other(won)
        if t == 0:
            stays.append((won, pair(table, won)))
            arrivals[tail] = pair(table, lost)
        else:
            stays.append((lost, pair(table, lost)))
            arrivals[t - 1] = pair(table, won)
    return [_seat(team, stayers, arrivals[t]) for t, (team, stayers) in enumerate(stays)]


def _seat(team: str, stayers: tuple[str, str], arrivals: tuple[str, str]) -> Table:
    """One table after the bell: the stayers split, the arrivals fill the free seats."""
    keeper, changer = stayers
    first, second = arrivals
    if team == "A":  # N stays, S -> E, arrivals S and W
        return (keeper, changer, first, second)
    return (second, keeper, changer, first)  # E stays, W -> S, arrivals W and N



def seat_labels(players: Sequence[str]) -> list[str]:
    """Each seat of a table as the director says it: "North (Ann)" (the compass point alone
    for a seat without a name)."""
    return [f"{SEAT_WORDS[i]} ({name})" if name else SEAT_WORDS[i]
            for i, name in enumerate(list(players)[:4])] or list(SEAT_WORDS)

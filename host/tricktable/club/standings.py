"""Standings: the tally sheets totalled, for the high score and the low score (“Bid Euchre”, section “Bid euchre variations”, "Progressive": "After 10 games, players total their tally sheets, to
determine the high score and low score for the tournament").

Players are ranked by total score; equal totals share a rank (games won then name only order
the rows). ``high`` marks every player with the best total, ``low`` every player with the
worst (none when everyone is level). A bye's score counts in the total; it is not a game
played or won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tricktable.club.tournament import TallyEntry

__all__ = ["Standing", "standings"]


@dataclass(frozen=True)
class Standing:
    """One row of the standings."""

    rank: int
    name: str
    total: int
    won: int
    played: int
    high: bool
    low: bool


def standings(tallies: Mapping[str, Sequence[TallyEntry]]) -> list[Standing]:
    """The standings from every player's tally sheet, best total first."""
    rows = sorted(((sum(e.score for e in sheet), sum(e.won for e in sheet),
                   sum(not e.bye for e in sheet), name)
                   for name, sheet in tallies.items()),
                  key=lambda r: (-r[0], -r[1], r[3].casefold()))
    if not rows:
        return []
    best, worst = rows[0][0], rows[-1][0]
    result: list[Standing] = []
    for i, (total, won, played, name) in enumerate(rows):
        rank = result[-1].rank if result and result[-1].total == total else i + 1
        result.append(Standing(rank, name, total, won, played, total == best,
                               total == worst and best != worst))
    return result

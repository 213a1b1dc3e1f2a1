"""Standings: the tally sheets totalled, for the high score and the low score (“Bid Euchre”, section “Bid euchre variations”, "Progressive": "After 10 games, players total their tally sheets, to
determine the high score and low score for the tournament").

Players are ranked by total score; equal totals share a rank (games won then name only order
the rows). ``high`` marks every player with the best total, ``low`` every player with the
worst (none when everyone is level). A bye's score counts in the total; it is not a game
played or won. A player with nothing on their tally (they arrived for a game that never came,
or left before their first) is not ranked, but listed apart (``unranked``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tricktable.club.tournament import TallyEntry

__all__ = ["Standing", "standings", "unranked"]


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


def unranked(tallies: Mapping[str, Sequence[TallyEntry]]) -> list[str]:
    """The players with nothing on their tally sheet once some game is tallied (arrived for a
    game that never came, left before their first), in roster order: listed apart from the
    standings, never ranked above those who played."""
    if not any(tallies.values()):
        return []
    return [name for name, sheet in tallies.items() if not sheet]


def standings(tallies: Mapping[str, Sequence[TallyEntry]]) -> list[Standing]:
    """The standings from every player's tally sheet, best total first; a player with no
    line on it is not ranked (``unranked``) once some game is tallied."""
    apart = set(unranked(tallies))
    rows = sorted(((sum(e.score for e in sheet), sum(e.won for e in sheet),
                   sum(not e.bye for e in sheet), name)
                   for name, sheet in tallies.items() if name not in apart),
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

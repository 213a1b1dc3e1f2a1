"""The end of the night: each player's personal scorecard and the results as CSV.

A scorecard is a player's tally sheet (“Bid Euchre”, section “Bid euchre variations”,
"Progressive": "record their team score on an individual tally") with the people named: for
every finished game the table, the seat, the partner, the two opponents, the team's score,
the opponents' score and whether the team won. It is derived from the night (the finished
games' seating and hands), never stored apart, so it can be printed from the night file at any
time later. ``results_csv`` is the standings with one column per game; ``scorecards_csv`` is
every scorecard line, one row a player and game. Text cells that a spreadsheet would read as a
formula (``=``, ``+``, ``-``, ``@`` first) get a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from tricktable.club.movement import SEATS, TEAM_SEATS, pair
from tricktable.club.standings import standings
from tricktable.club.tournament import ProgressiveTournament

__all__ = ["ScorecardLine", "scorecards", "results_csv", "scorecards_csv", "spreadsheet_cell"]


@dataclass(frozen=True)
class ScorecardLine:
    """One finished game on a player's scorecard; a bye (sat out) is table 0, seat "bye",
    no partner and no opponents, scored by the night's ``bye_score``."""

    game: int
    table: int
    seat: str
    partner: str
    opponents: tuple[str, str]
    score: int
    against: int
    won: bool


def scorecards(night: ProgressiveTournament) -> dict[str, list[ScorecardLine]]:
    """Every player's scorecard (roster order), one line per finished game."""
    cards: dict[str, list[ScorecardLine]] = {}
    for name, sheet in night.tallies().items():
        lines = []
        for entry in sheet:
            if entry.bye:
                lines.append(ScorecardLine(entry.round, 0, "bye", "", ("", ""), entry.score,
                                           entry.against, entry.won))
                continue
            table = night.games[entry.round - 1].seating[entry.table - 1]
            seat = SEATS.index(entry.seat)
            other = next(team for team, seats in TEAM_SEATS.items() if seat not in seats)
            lines.append(ScorecardLine(entry.round, entry.table, entry.seat, entry.partner,
                                       pair(table, other), entry.score, entry.against,
                                       entry.won))
        cards[name] = lines
    return cards


def spreadsheet_cell(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet will not run: a text starting like a formula
    (``=``, ``+``, ``-``, ``@``) gets a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


def _csv(rows: list[list[str | int]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(
        [[spreadsheet_cell(c) for c in row] for row in rows])
    return out.getvalue()


def results_csv(night: ProgressiveTournament) -> str:
    """The standings as CSV: rank, player, total, games won and played, high/low, and each
    finished game's score under that game (empty for a game a player was not at the night)."""
    sheets = night.tallies()
    games = [f"game {game.number}" for game in night.games]
    rows: list[list[str | int]] = [["rank", "player", "total", "won", "played", "mark", *games]]
    for s in standings(sheets):
        mark = "high" if s.high and night.games else "low" if s.low and night.games else ""
        scores = {e.round: e.score for e in sheets[s.name]}  # a late arrival has no game 1
        rows.append([s.rank, s.name, s.total, s.won, s.played, mark,
                     *(scores.get(game.number, "") for game in night.games)])
    return _csv(rows)


def scorecards_csv(night: ProgressiveTournament) -> str:
    """Every scorecard line as CSV, player by player in roster order, game by game."""
    rows: list[list[str | int]] = [["player", "game", "table", "seat", "partner", "opponent",
                                    "opponent", "score", "against", "result"]]
    for name, lines in scorecards(night).items():
        rows.extend([name, line.game, line.table, line.seat, line.partner, *line.opponents,
                     line.score, line.against,
                     "bye" if line.seat == "bye" else "won" if line.won else "lost"]
                    for line in lines)
    return _csv(rows)

"""Club nights: a roster of players and the progressive tournament played across the tables.

What lives here: ``roster`` (the players of a night, read from a file), ``movement`` (who
sits where after the bell, “Bid Euchre” "Progressive"), ``byes`` (who sits out, what a bye
scores), ``tournament`` (the night itself: seating,
recorded hands, the bell, individual tallies), ``standings`` (totals, games won, high and low),
``store`` (JSON save/load, so a night survives a restart) and ``journal_hands`` (a journaled
game's hand scores, replayed through the engine). Everything is pure and deterministic. The
package imports ``engine`` only (in ``journal_hands``); the CLI (``tricktable club``) is the
shell around it, and the web may show ``standings(load_night(path).tallies())``.
"""

from tricktable.club.byes import BYE_SCORES
from tricktable.club.errors import ClubError
from tricktable.club.movement import SEATS, TEAMS, move
from tricktable.club.roster import read_roster, validate_roster
from tricktable.club.standings import Standing, standings
from tricktable.club.store import (
    load_night,
    load_night_data,
    night_from_json,
    night_to_json,
    save_night,
)
from tricktable.club.tournament import ProgressiveOptions, ProgressiveTournament, TallyEntry

__all__ = [
    "BYE_SCORES", "ClubError", "SEATS", "TEAMS", "move", "read_roster", "validate_roster", "Standing",
    "standings", "load_night", "load_night_data", "save_night", "night_to_json", "night_from_json",
    "ProgressiveOptions", "ProgressiveTournament", "TallyEntry",
]

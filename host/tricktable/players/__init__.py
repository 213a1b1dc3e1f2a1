"""The club's players: one SQLite database in the club's data directory that outlives nights.

``players.db`` opens (and migrates) the database; ``players.roster`` keeps the people in it:
names and the names they were known by, nicknames, member tag UIDs, active or not, hidden
from public pages ("Guest") or not, and merges of two records typed twice. Statistics,
ratings and seasons live in the same file (``tricktable.stats``). docs/stats.md.
"""

from tricktable.players.db import ClubDB, PlayersError, default_db_path
from tricktable.players.roster import GUEST, Player, Players

__all__ = ["ClubDB", "PlayersError", "default_db_path", "Player", "Players", "GUEST"]

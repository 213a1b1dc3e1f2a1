"""A club's players as the league knows them: league ids from the club players database.

``ClubPlayers(club, db)`` turns a name a journal or night file seats into the player's league
id (``messages.league_player_id``: the club's id and the player's number in the club database;
a name nobody has entered becomes a new player there, as the club's statistics make one,
``Players.player_for``), and gives the ``LeaguePlayer`` record of each player it named: the
id and the public name, "Guest" for a player the club hides (``Players.set_flags(hidden=)``),
so a hidden player's name never leaves the club. A rename, or hiding, changes the record and
so its message id: the feed sends it again. Merged players keep both ids at the league (what
was sent under the second stays there).
"""

from __future__ import annotations

import threading

from tricktable.league.messages import LeaguePlayer, league_player_id
from tricktable.players.db import ClubDB, PlayersError
from tricktable.players.roster import Players


class ClubPlayers:
    """League ids for one club's names (see the module docstring)."""

    def __init__(self, club: str, db: ClubDB) -> None:
        self.club, self.players = club, Players(db)
        self._named: dict[str, int] = {}  # name -> club player number, of names given out
        self._lock = threading.Lock()

    def league_id(self, name: str) -> str:
        """The league id of the player a journal's (or night file's) name means."""
        with self._lock:
            number = self._named.get(name)
            if number is None:
                try:
                    number = self.players.player_for(name)
                except PlayersError:  # the host's statistics added the name just now
                    number = self.players.player_for(name)
                self._named[name] = number
        return league_player_id(self.club, number)

    def close(self) -> None:
        self.players.db.close()

    def serial(self) -> int:
        """Grows with every change to the club database (the records may have changed)."""
        return self.players.db.serial()

    def records(self) -> list[LeaguePlayer]:
        """The league record of every player named so far, as the club database has them now."""
        with self._lock:
            numbers = sorted(set(self._named.values()))
        return [LeaguePlayer(club=self.club, player=league_player_id(self.club, number),
                             name=self.players.get(number).public_name)
                for number in numbers]

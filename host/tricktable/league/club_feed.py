"""A club's league messages, read from its journal and (optionally) its club night file.

``ClubFeed.pending()`` is every message the club's records hold that is due: never sent, or sent
and not receipted by the league (``receipted(ids)``) after ``resend_after`` seconds, doubling at
each try up to ``RESEND_MAX_S``: one ``LeagueHand`` per hand a table's engine scored (replayed
from the journal, as the night's tallies are), one ``LeagueGame`` per finished game of the
night, and a ``LeagueNight`` once the night is over. The records are the source; the feed keeps
only what it has read (read again when the journal or the night file changed) and what went
out when, so a restarted sender sends everything again, which the league stores once.

A journal game belongs to the night when the night's tables started it (the live night's
``new_game`` control, ``club.live.NEW_GAME_ID`` + the round, or a director's reseat). Bad club or night ids are
refused when the feed is made (``messages.check_ids``), not found later by the league.
A hand already sent stays sent: a hand undone later on the table is not taken back.

With the club players database (``players``, the club's ``club.sqlite``), every player is named
by a league id (``league.club_players``) and a ``LeaguePlayer`` record says what the league may
show of them (a hidden player is "Guest"); the records are read again whenever the club
database changes, so hiding a player later sends the new record. Without it, the names the
night seats go (``messages.league_player``).
"""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

from msgspec.structs import replace

from tricktable.club.journal_hands import scored_events
from tricktable.club.live import NEW_GAME_ID
from tricktable.club.standings import standings
from tricktable.club.store import load_night
from tricktable.engine.actions import action_from_json
from tricktable.league.club_players import ClubPlayers
from tricktable.league.messages import (
    LeagueGame,
    LeagueHand,
    LeagueMessage,
    LeagueNight,
    LeaguePlayer,
    Standing,
    TallyLine,
    check_ids,
    league_player,
)
from tricktable.serve.journal import Journal

RESEAT_ID = "console-"  # a director's reseat starts a night's game too (club.live.reseat)
RESEND_AFTER_S = 30.0  # a message not receipted is sent again after this, then twice as long ...
RESEND_MAX_S = 1800.0  # ... up to this


def journal_id(journal: Journal) -> str | None:
    """The journal's identity within its club: its first entry's time, in hex milliseconds."""
    born = journal.born()
    return None if born is None else f"{int(born * 1000):x}"


def night_round(control_id: str | None) -> int | None:
    """The night's round a game belongs to, from the id of the control that started it."""
    if control_id and control_id.startswith(NEW_GAME_ID):
        number = control_id[len(NEW_GAME_ID):].split("-", 1)[0]
        return int(number) if number.isdigit() else None
    return None


class ClubFeed:
    """What ``club`` has to tell the league (see the module docstring)."""

    def __init__(self, club: str, journal: Journal, night: Path | None = None,
                 night_id: str | None = None, date: str | None = None,
                 resend_after: float = RESEND_AFTER_S, players: ClubPlayers | None = None
                 ) -> None:
        self.club, self.journal, self.night_path = club, journal, night
        self.players = players
        self.night_id = night_id or (night.stem if night is not None else None)
        check_ids(club, self.night_id)  # ProtocolError: nothing would be stored
        self.date = date
        self._games: dict[tuple[str, int], tuple[int, list[LeagueHand]]] = {}
        self.resend_after = resend_after
        self._sent: dict[str, tuple[float, int]] = {}  # id -> (last sent, times sent)
        self._receipted: set[str] = set()
        self._lock = threading.Lock()  # receipts come on the MQTT thread
        self._read: tuple[tuple[int, int, int], list[LeagueMessage]] | None = None  # last read

    def sent(self, message_id: str, now: float) -> None:
        """The club's broker has the message: not due again until its resend time."""
        with self._lock:
            tries = self._sent.get(message_id, (0.0, 0))[1]
            self._sent[message_id] = (now, tries + 1)

    def receipted(self, ids: list[str]) -> None:
        """The league has stored these: never due again."""
        with self._lock:
            self._receipted.update(ids)

    def waiting(self) -> int:
        """How many messages went out and are not receipted yet."""
        with self._lock:
            return len(self._sent.keys() - self._receipted)

    def pending(self, now: float | None = None, resend: bool = True) -> list[LeagueMessage]:
        """Every message due now (see the module docstring), hands first, in journal order;
        ``resend`` False: only those never sent. The records are read again only when the
        journal has new entries or the night file changed."""
        mark = (self.journal.count(), self._night_mtime(), self._players_serial())
        if self._read is None or self._read[0] != mark:
            read = [*self._hands(), *self._night()]
            records = self.players.records() if self.players is not None else []
            self._forget_records(records)
            self._read = (mark, [*read, *records])
        with self._lock:
            return [m for m in self._read[1] if self._due(m.id, now, resend)]

    def _forget_records(self, records: list[LeaguePlayer]) -> None:
        """A player record no longer current (the player renamed, hidden or shown again) is
        forgotten: should the player's name come back, that record is due again."""
        if self._read is None:
            return
        gone = {m.id for m in self._read[1] if isinstance(m, LeaguePlayer)} - \
            {m.id for m in records}
        with self._lock:
            self._receipted -= gone
            for message_id in gone:
                self._sent.pop(message_id, None)

    def _due(self, message_id: str, now: float | None, resend: bool) -> bool:
        if message_id in self._receipted:
            return False
        if message_id not in self._sent:
            return True
        if not resend or now is None:
            return False
        last, tries = self._sent[message_id]
        return now >= last + min(self.resend_after * 2 ** (tries - 1), RESEND_MAX_S)

    def _player(self, name: str) -> str:
        """How the league names the player the club seats as ``name``."""
        return league_player(name) if self.players is None else self.players.league_id(name)

    def _players_serial(self) -> int:
        return self.players.serial() if self.players is not None else 0

    def _night_mtime(self) -> int:
        try:
            return self.night_path.stat().st_mtime_ns if self.night_path is not None else 0
        except OSError:
            return 0

    def _hands(self) -> list[LeagueHand]:
        journal = journal_id(self.journal)
        if journal is None:
            return []
        hands: list[LeagueHand] = []
        for table in self.journal.tables():
            starts = self.journal.game_starts(table)
            for record in self.journal.games(table):
                key = (table, record.game)
                known = self._games.get(key)
                if known is None or known[0] != len(record.actions):
                    known = (len(record.actions), self._game_hands(
                        journal, table, record.game, record.setup, record.actions,
                        starts.get(record.game)))
                    self._games[key] = known
                hands += known[1]
        return hands

    def _game_hands(self, journal: str, table: str, game: int, setup: dict,
                    actions: list[dict], started_by: str | None) -> list[LeagueHand]:
        sides, scored, _rest = scored_events(setup, [action_from_json(a) for a in actions])
        in_night = self.night_id is not None and bool(started_by) and (
            started_by.startswith(NEW_GAME_ID) or started_by.startswith(RESEAT_ID))
        seats = [self._player(str(p)) for p in setup.get("players") or []]
        return [LeagueHand(club=self.club, journal=journal, table=table, game=game, hand=n,
                           night=self.night_id if in_night else None,
                           round=night_round(started_by) if in_night else None,
                           variant=setup["variant"], seats=seats,
                           sides=[list(s) for s in sides], deltas=list(event.deltas),
                           scores=list(event.scores), detail=event.detail[:300])
                for n, event in enumerate(scored, 1)]

    def _night(self) -> list[LeagueMessage]:
        if self.night_path is None or self.night_id is None or not self.night_path.exists():
            return []
        night = load_night(self.night_path)
        tallies = night.tallies()
        date = self.date or self._journal_date()
        out: list[LeagueMessage] = []
        for game in night.games:
            lines = [TallyLine(player=self._player(name), table=e.table, seat=e.seat,
                               score=e.score, won=e.won, bye=e.bye)
                     for name, sheet in tallies.items() for e in sheet
                     if e.round == game.number]
            out.append(LeagueGame(club=self.club, night=self.night_id, date=date,
                                  round=game.number, lines=lines))
        if night.finished:
            out.append(LeagueNight(
                club=self.club, night=self.night_id, date=date,
                games=len(night.games),
                standings=[Standing(rank=s.rank, player=self._player(s.name), total=s.total,
                                    won=s.won, played=s.played)
                           for s in standings(tallies)]))
        return out

    def _journal_date(self) -> str:
        """The night's date when none was given: the local date of the journal's first entry."""
        born = self.journal.born()
        return (dt.datetime.fromtimestamp(born) if born else dt.datetime.now()).date().isoformat()


def stamped(message: LeagueMessage, now: float) -> LeagueMessage:
    """The message as it is published: with the club's clock."""
    return replace(message, sent=now)

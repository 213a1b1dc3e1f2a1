"""A club night kept by the live tables: no score typed, the bell rung by the head table.

``tricktable serve --club club.toml --night night.json`` links a night (``tricktable club
new``) to the club's tables: night table n is the club table whose id comes n-th in natural
order (t1, t2 ... t10). From then on:

- **Tallies.** Whenever a table's engine scores a hand, that table's hands in the current
  game of the night are read again from the journal (the table's game recorded for this
  round) and put on the night (``set_hands``): derived, never counted, so a restart or a
  second look changes nothing twice.
- **The bell** rings itself when the head table has scored ``hands_per_round`` hands ("The
  lead table plays eight hands [...] then rings the bell"). Every table finishes the hand in
  play ("players at each table finish their current hand"): a table between hands closes at
  once, one in a hand closes when that hand is scored; hands after that do not count.
- **The movement.** Once every table has closed, the game is tallied and the players move
  (``ProgressiveTournament.bell``), and each table starts its next game with its new
  players in seat order N, E, S, W, by a journaled ``new_game`` control whose id names the
  round (so a restart sends it again harmlessly). A tied table waits for the director:
  ``bell_blocked`` says which (the night's options do not allow guessing a winner).

The night file keeps, beside the night, a ``live`` section: the journal game each table
plays in this round, whether the bell has rung, how many hands each closed table kept, and
when the round began (``round_started``, seconds since the epoch, for the TV's round clock).
Work runs on its own thread, after the message that caused it has been handled, so the
service's own publications keep their order. Imports ``club`` (store, tournament,
journal_hands, errors), ``clubfile``, ``journal``, ``protocol`` and ``engine.actions``.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from tricktable.club.errors import ClubError
from tricktable.club.journal_hands import hands_from_game
from tricktable.club.store import night_from_json, night_to_json, write_atomically
from tricktable.club.tournament import ProgressiveTournament
from tricktable.clubfile import Club
from tricktable.engine.actions import action_from_json
from tricktable.journal import Journal
from tricktable.protocol import Control, Topics, natural_key
from tricktable.textfiles import TextFileError, read_text

log = logging.getLogger("tricktable.night")

BETWEEN_HANDS = ("deal", "game_over")  # a table in these phases has no hand in play


class Tables(Protocol):
    """What the night needs of the running service."""

    def control(self, table: str, control: Control) -> Any: ...
    def state(self, table: str) -> dict[str, Any]: ...
    def listen(self, listener: Callable[[str, bytes], None]) -> Callable[[], None]: ...


class LiveNight:
    """A night file kept up to date by the service's tables (see the module docstring)."""

    def __init__(self, path: str | Path, club: Club, journal: Journal) -> None:
        self.path = Path(path)
        self.journal = journal
        self.tables = sorted(club.tables, key=natural_key)
        self.topics = Topics(club.prefix)
        try:
            data = json.loads(read_text(self.path, "club night file"))
        except (TextFileError, ValueError) as exc:
            raise ClubError(str(exc)) from None
        self.night: ProgressiveTournament = night_from_json(data)
        if self.night.tables != len(self.tables):
            raise ClubError(f"the night {self.path} has {self.night.tables} tables and the club "
                            f"file {len(self.tables)}; they must be the same tables")
        live = data.get("live") or {}
        self.games: dict[str, int] = dict(live.get("games", {}))
        self.bell_rung: bool = bool(live.get("bell", False))
        self.closed: dict[str, int] = dict(live.get("closed", {}))
        self.round_started: float = live.get("round_started") or time.time()
        self.bell_blocked = ""
        self._service: Tables | None = None
        self._work: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._unlisten: Callable[[], None] | None = None

    # --- start, stop -------------------------------------------------------------------

    def start(self, service: Tables) -> None:
        """Catch up with the journal (and a bell's new games a restart interrupted), then
        follow every scored hand."""
        self._service = service
        for table in self.tables:  # a table joining the night starts a game with its players
            self.games.setdefault(table, self._current_game(table) + 1)
        self._start_new_games()
        for table in self.tables:
            self._refresh(table, scored=False)
        self._settle()
        self._unlisten = service.listen(self._heard)
        self._thread = threading.Thread(target=self._run, name="tricktable-night", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._unlisten is not None:
            self._unlisten()
        if self._thread is not None:
            self._work.put(None)
            self._thread.join(10)

    def _heard(self, topic: str, payload: bytes) -> None:
        """From the service's thread: note a scored hand, to be read after this message."""
        if topic.endswith("/events") and b'"hand_scored"' in payload:
            table = topic.split("/")[-2]
            if table in self.games:
                self._work.put(table)

    def _run(self) -> None:
        while (table := self._work.get()) is not None:
            try:
                self._refresh(table, scored=True)
                self._settle()
            except Exception:  # the night must not stop the tables
                log.exception("the night could not take table %s's hand", table)

    # --- the night -----------------------------------------------------------------------

    def _current_game(self, table: str) -> int:
        assert self._service is not None
        return int(self._service.state(table).get("game") or 0)

    def _refresh(self, table: str, scored: bool) -> None:
        """This round's hands at ``table``, read again from the journal, on the night;
        ``scored``: a hand was just scored there (after the bell, the table's last)."""
        if self.night.finished:
            return
        number = self.tables.index(table) + 1
        record = next((g for g in self.journal.games(table) if g.game == self.games[table]),
                      None)
        hands = [] if record is None else hands_from_game(
            record.setup, [action_from_json(a) for a in record.actions])
        limit = self.closed.get(table, self.night.options.hands_per_round if number == 1
                                else len(hands))
        self.night.set_hands(number, hands[:limit])
        if scored and self.bell_rung and table not in self.closed:
            self.closed[table] = len(hands)  # the hand in play when the bell rang is scored
        self._save()

    def _settle(self) -> None:
        """Ring the bell when the head table is through; move when every table has closed."""
        assert self._service is not None
        if self.night.finished:
            return
        if not self.bell_rung and self.night.hands_left() == 0:
            self.bell_rung = True
            log.warning("the head table rang the bell: every table finishes its hand")
        if self.bell_rung:
            for number, table in enumerate(self.tables, 1):
                if table not in self.closed and \
                        self._service.state(table).get("phase") in BETWEEN_HANDS:
                    self.closed[table] = len(self.night.hands[number - 1])
            self._save()
        if self.bell_rung and len(self.closed) == len(self.tables):
            try:
                game = self.night.bell()
            except ClubError as exc:
                self.bell_blocked = str(exc)
                log.error("the bell waits for the director: %s", exc)
                return
            self.bell_blocked = ""
            log.warning("game %d of the night is over; the players move", game.number)
            self.games = {t: self._current_game(t) + 1 for t in self.tables}
            self.bell_rung, self.closed = False, {}
            self.round_started = time.time()
            self._save()
            self._start_new_games()

    def _start_new_games(self) -> None:
        """Start each table's game of this round with its players (idempotent by id)."""
        assert self._service is not None
        if self.night.finished:
            return
        for number, table in enumerate(self.tables, 1):
            if self._current_game(table) < self.games[table]:
                players = list(self.night.seating[number - 1])
                self._service.control(table, Control(
                    cmd="new_game", args={"players": players},
                    id=f"night-game-{self.night.round}"))

    def _save(self) -> None:
        data = night_to_json(self.night)
        data["live"] = {"games": self.games, "bell": self.bell_rung, "closed": self.closed,
                        "round_started": self.round_started}
        write_atomically(self.path, json.dumps(data, indent=1) + "\n")

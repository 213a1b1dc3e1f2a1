"""Statistics kept up to date by a running service: each scored hand is counted at once.

``StatsFollower(db_path, night_name, journal, night_file)`` registers the night (or finds it
by its journal and night file, after a restart; another night's name gets a number) in the
club database, catches up with what the journal already holds, then listens to the
service's events: when a table's engine scores a hand, that table's latest games are read
from the journal and ``Stats.record_game`` adds the hands not yet counted (so a repeated or
late event counts nothing twice). When the night file says the night is over, the night is
closed (results and ratings). The work runs on its own thread, like the night's
(``club.live``): a slow database never holds a table up, and a failure is logged, never
raised into the service.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from tricktable.club import ClubError, load_night
from tricktable.players.db import ClubDB
from tricktable.serve.journal import Journal
from tricktable.stats.store import Night, Stats

log = logging.getLogger("tricktable.stats")

__all__ = ["StatsFollower"]


class Listenable(Protocol):
    def listen(self, listener: Callable[[str, bytes], None]) -> Callable[[], None]: ...


class StatsFollower:
    """See the module docstring."""

    def __init__(self, db_path: Path, night_name: str, journal: Journal,
                 night_file: Path | None = None) -> None:
        self.db = ClubDB(db_path)
        self.stats = Stats(self.db)
        self.journal = journal
        self.night: Night = self.stats.night_of(Path(journal.path), night_file) or \
            self.stats.add_night(self._free_name(night_name), Path(journal.path), night_file)
        self._work: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._unlisten: Callable[[], None] | None = None
        self.recorded = 0
        """Hands counted so far by this follower."""

    def _free_name(self, name: str) -> str:
        """``name``, or ``name (2)``, ``name (3)`` ... when another night has it."""
        taken = {night.name for night in self.stats.nights()}
        return next(candidate for n in range(1, len(taken) + 2)
                    if (candidate := name if n == 1 else f"{name} ({n})") not in taken)

    def start(self, service: Listenable) -> None:
        self.recorded += self.stats.record_journal(self.night, self.journal)
        self._unlisten = service.listen(self._heard)
        self._thread = threading.Thread(target=self._run, name="tricktable-stats", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop listening; count what the journal holds; close the night when it is over."""
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        if self._thread is not None:
            self._work.put(None)
            self._thread.join(30)
            self._thread = None
        try:
            self.recorded += self.stats.record_journal(self.night, self.journal)
            self._close_if_over()
        finally:
            self.db.close()

    def _heard(self, topic: str, payload: bytes) -> None:
        if topic.endswith("/events") and b'"hand_scored"' in payload:
            self._work.put(topic.split("/")[-2])

    def _run(self) -> None:
        while True:
            table = self._work.get()
            if table is None:
                return
            try:
                latest = max((g.game for g in self.journal.games(table)), default=0)
                self.recorded += self.stats.record_journal(self.night, self.journal, [table],
                                                           from_game=latest - 1)
                self._close_if_over()
            except Exception:  # statistics must never stop the tables
                log.exception("the statistics could not take table %s's hand", table)

    def _close_if_over(self) -> None:
        if self.night.night_file is None or self.stats.night(self.night.id).closed:
            return
        try:
            over = load_night(self.night.night_file).finished
        except ClubError:
            return
        if over:
            self.stats.close_night(self.night)

"""Log lines about what a client of the broker sent, at most so many a minute per source, so
that a board sending bad messages without pause cannot fill the disk with the same line.

``RateLog(logger, per_minute)``: ``warning(source, text)`` logs the first ``per_minute``
lines of each source in each minute, then one line saying the rest are counted, not
logged; the source's next line after its minute says how many were left out. Sources whose
minute has passed are forgotten when more than ``MAX_SOURCES`` are kept (topics are free to
choose; past that, the newest share one budget).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

PER_MINUTE = 10
MAX_SOURCES = 1024
SHARED = "other sources"


@dataclass
class _Budget:
    since: float
    lines: int = 0
    left_out: int = 0


class RateLog:
    """``logger.warning`` with a budget of lines per source and minute."""

    def __init__(self, logger: logging.Logger, per_minute: int = PER_MINUTE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger, self.per_minute, self.clock = logger, per_minute, clock
        self._budgets: dict[str, _Budget] = {}

    def warning(self, source: str, text: str) -> None:
        now = self.clock()
        budget = self._budget(source, now)
        if now - budget.since >= 60:
            if budget.left_out:
                self.logger.warning("%s: %d more line(s) like these were left out of the log "
                                    "in the last minute", source, budget.left_out)
            budget.since, budget.lines, budget.left_out = now, 0, 0
        budget.lines += 1
        if budget.lines <= self.per_minute:
            self.logger.warning("%s", text)
        else:
            if budget.lines == self.per_minute + 1:
                self.logger.warning("%s: more than %d lines a minute; the rest of this minute "
                                    "are counted, not logged", source, self.per_minute)
            budget.left_out += 1

    def _budget(self, source: str, now: float) -> _Budget:
        if source not in self._budgets and len(self._budgets) >= MAX_SOURCES:
            self._budgets = {s: b for s, b in self._budgets.items() if now - b.since < 60}
            if len(self._budgets) >= MAX_SOURCES:
                source = SHARED
        return self._budgets.setdefault(source, _Budget(now))

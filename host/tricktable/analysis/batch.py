"""Many games of a journal analysed at once, one process per core.

``analyse_games(path, games, jobs, done)`` works out (or reads from its cache) the analysis
of each ``(table, game)`` of the journal ``path`` in ``jobs`` worker processes, each game
written to its cache file (``analysis.cache.journal_cache``, where the replay pages read it),
and returns the analyses in the order asked (``GameFailed`` names a game that cannot be)
with the CPU seconds each process spent (how evenly the work was shared). ``done(label,
analysis)`` is called in the calling process as each game is finished (a progress bar);
``single_dummy`` (``analysis.decisions.Settings``) adds single dummy to each game's
analysis (and its cache), the night's heavy part. A game is the unit of work: a
club night is tens of them, each a few hands. Workers are started fresh (``spawn``), each
opens the journal read-only once; with ``jobs`` 1 everything runs in this process. Used by
``tricktable analyse``.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import partial
from pathlib import Path
from typing import Any

from tricktable.analysis.cache import cached_analysis, journal_cache
from tricktable.analysis.decisions import Settings
from tricktable.serve.journal import Journal

__all__ = ["analyse_games", "label", "GameFailed"]

Done = Callable[[str, dict[str, Any]], None]



class GameFailed(ValueError):
    """A game could not be analysed (its record is refused by the rules ...): names it."""


_journals: dict[str, Journal] = {}
"""Each worker's journals, opened read-only on first use."""


def label(table: str, game: int) -> str:
    """How a journal's game is named in the output."""
    return f"{table} game {game}"


def analyse_games(path: Path, games: Sequence[tuple[str, int]], jobs: int, done: Done,
                  warn: Callable[[str], None], single_dummy: Settings | None = None
                  ) -> tuple[list[dict[str, Any]], list[float]]:
    """The analysis of each ``(table, game)`` of the journal ``path``, in order, worked out
    in ``jobs`` processes (see the module docstring), and the CPU seconds each process spent
    on them; ``warn`` says a cache not written."""
    results: list[dict[str, Any]] = [{}] * len(games)
    cpu: dict[int, float] = {}

    def take(i: int, outcome: Outcome) -> None:
        result, notes, pid, seconds = outcome
        for note in notes:
            warn(note)
        results[i] = result
        cpu[pid] = cpu.get(pid, 0.0) + seconds
        done(label(*games[i]), result)

    if jobs <= 1 or len(games) <= 1:
        try:
            for i, (table, game) in enumerate(games):
                take(i, _named(games[i], partial(_analyse_in_worker, str(path), table, game,
                                                 single_dummy)))
        finally:
            journal = _journals.pop(str(path), None)
            if journal is not None:
                journal.close()
        return results, list(cpu.values())
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(min(jobs, len(games)), mp_context=context) as pool:
        futures = {pool.submit(_analyse_in_worker, str(path), table, game, single_dummy): i
                   for i, (table, game) in enumerate(games)}
        try:
            for future in as_completed(futures):
                i = futures[future]
                take(i, _named(games[i], future.result))
        except BaseException:
            pool.shutdown(cancel_futures=True)  # a game the rules refuse: stop at once
            raise
    return results, list(cpu.values())


Outcome = tuple[dict[str, Any], list[str], int, float]
"""A worker's answer: the analysis, what it had to say, its process id, its CPU seconds."""


def _named(game: tuple[str, int], outcome: Callable[[], Outcome]) -> Outcome:
    """``outcome()``; a failure to analyse raised as ``GameFailed`` naming ``game``."""
    try:
        return outcome()
    except (ValueError, LookupError) as exc:  # HistoryError, EngineError ...
        raise GameFailed(f"{label(*game)}: {exc}") from exc


def _analyse_in_worker(path: str, table: str, game: int,
                       single_dummy: Settings | None = None) -> Outcome:
    """One game's analysis, from its cache or worked out and cached, in this process (the
    journal opened once per process); what it had to say is passed back to be said once."""
    started = time.process_time()
    journal = _journals.get(path)
    if journal is None:
        journal = _journals[path] = Journal(path, readonly=True)
    notes: list[str] = []
    result = cached_analysis(journal.history(table, game),
                             journal_cache(Path(path), table, game), notes.append,
                             single_dummy)
    return result, notes, os.getpid(), time.process_time() - started

"""Many games of a journal analysed at once, one process per core.

``analyse_games(path, games, jobs, done)`` works out (or reads from its cache) the analysis
of each ``(table, game)`` of the journal ``path`` in ``jobs`` worker processes, each game
written to its cache file (``analysis.cache.journal_cache``, where the replay pages read it),
and returns the analyses in the order asked (``GameFailed`` names a game that cannot be). ``done(label, analysis)`` is called in the
calling process as each game is finished (a progress bar). A game is the unit of work: a
club night is tens of them, each a few hands. Workers are started fresh (``spawn``), each
opens the journal read-only once; with ``jobs`` 1 everything runs in this process. Used by
``tricktable analyse``. Imports ``analysis.cache`` and ``journal``.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from tricktable.analysis.cache import cached_analysis, journal_cache
from tricktable.journal import Journal

__all__ = ["analyse_games", "label", "GameFailed"]

Done = Callable[[str, dict[str, Any]], None]



class GameFailed(ValueError):
    """A game could not be analysed (its record is refused by the rules ...): names it."""


_journals: dict[str, Journal] = {}
"""Each worker's journals, opened read-only on first use."""


def label(table: str, game: int) -> str:
    """How a journal's game is named in the output."""
    return f"{table} game {game}"


def analyse_games(path: Path, games: Sequence[tuple[str, int]], jobs: int,
                  done: Done, warn: Callable[[str], None]) -> list[dict[str, Any]]:
    """The analysis of each ``(table, game)`` of the journal ``path``, in order, worked out
    in ``jobs`` processes (see the module docstring); ``warn`` says a cache not written."""
    results: list[dict[str, Any] | None] = [None] * len(games)
    if jobs <= 1 or len(games) <= 1:
        with Journal(path, readonly=True) as journal:
            for i, (table, game) in enumerate(games):
                try:
                    result = _analyse(journal, table, game, warn)
                except (ValueError, LookupError) as exc:  # HistoryError, EngineError ...
                    raise GameFailed(f"{label(table, game)}: {exc}") from exc
                results[i] = result
                done(label(table, game), result)
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(jobs, len(games)), mp_context=context) as pool:
            futures = {pool.submit(_analyse_in_worker, str(path), table, game): i
                       for i, (table, game) in enumerate(games)}
            try:
                for future in as_completed(futures):
                    i = futures[future]
                    try:
                        result, notes = future.result()
                    except (ValueError, LookupError) as exc:
                        raise GameFailed(f"{label(*games[i])}: {exc}") from exc
                    for note in notes:
                        warn(note)
                    results[i] = result
                    done(label(*games[i]), result)
            except BaseException:
                pool.shutdown(cancel_futures=True)  # a game the rules refuse: stop at once
                raise
    return [r for r in results if r is not None]


def _analyse(journal: Journal, table: str, game: int,
             warn: Callable[[str], None]) -> dict[str, Any]:
    return cached_analysis(journal.history(table, game),
                           journal_cache(Path(journal.path), table, game), warn)


def _analyse_in_worker(path: str, table: str, game: int) -> tuple[dict[str, Any], list[str]]:
    """In a worker: the analysis and what it had to say (passed back to be said once)."""
    journal = _journals.get(path)
    if journal is None:
        journal = _journals[path] = Journal(path, readonly=True)
    notes: list[str] = []
    return _analyse(journal, table, game, notes.append), notes

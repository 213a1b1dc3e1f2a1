"""The single-dummy estimate of a game's decisions for the replay page, worked out in the
background so that no page waits for it.

``Estimates.merged(analysis, record, cache)`` is a game's double-dummy analysis
(``web.replay_analysis.game_analysis``) with, in each hand, the estimate of its decisions
(``decisions`` and ``single_dummy``, how it was made) when the
cache holds it; else the game is queued for the one background worker and each hand says
``"single_dummy": {"pending": ...}`` (the page asks again until it is there), or
``{"unavailable": reason}`` (an opened file, which has no cache; a game over the replay's
bound, ``web.replay_analysis.MAX_CARDS_IN_PLAY``, whose cache holds no estimate). The worker
takes its turn with the page's own analyses (``replay_analysis.TURN``: one analysis at a
time on the club night's cores) and gives way to them: a page's double-dummy analysis asked
for while an estimate is worked out cancels it, and it goes on after from the decision it
stopped at. A game a page queued again just as its estimate was kept is read from the cache
when its turn comes, not worked out again (the source's ``work_out`` reads the cache first).

Where the estimate comes from is given (``EstimateSource``; ``analysis_source()``:
``analysis.decisions`` through the analysis cache, ``analysis.cache``);
``web.costly_decisions`` picks a player's costliest decisions from games already estimated
(the player pages after a night).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from tricktable.analysis.cache import cached_analysis, holds_single_dummy, kept_analysis
from tricktable.analysis.decisions import Cancelled, Memo, Settings
from tricktable.history import GameRecord
from tricktable.web.replay_analysis import TURN, beyond_bound

__all__ = ["Estimates", "EstimateSource", "Cancelled", "analysis_source",
           "ESTIMATES", "NOT_FOR_FILES"]

_log = logging.getLogger(__name__)

NOT_FOR_FILES = "the estimate is worked out for recorded games, not for a file opened on the page"


_ESTIMATE_KEYS = ("decisions", "decisions_none", "single_dummy")
"""What a hand of the cache holds of an estimate: replaced by the estimate of the settings
asked for, or by why there is none."""


Kept = Callable[[GameRecord, Path], "dict[str, Any] | None"]
"""The estimate of a game kept in its cache (``analysis.decisions``'s JSON), or None."""

WorkOut = Callable[[GameRecord, Path, Callable[[], bool], Callable[[str], None]],
                   "dict[str, Any]"]
"""Work out a game's estimate into its cache and return it (the one its cache keeps, if any);
``cancel()`` true: stop and raise ``Cancelled``; ``progress(words)`` says how far it is."""


@dataclass(frozen=True)
class EstimateSource:
    kept: Kept
    work_out: WorkOut
    holds: Callable[[dict[str, Any]], bool] = lambda analysis: False
    """Whether a game's analysis, as read from its cache, already holds the estimate (then
    the cache is not read again)."""


class Estimates:
    """The games waiting for their estimate, and the one worker that works them out."""

    def __init__(self, source: EstimateSource) -> None:
        self.source = source
        self._lock = threading.Lock()
        self._queue: OrderedDict[Path, GameRecord] = OrderedDict()
        self._progress: dict[Path, str] = {}
        self._failed: dict[Path, tuple[GameRecord, str]] = {}
        """The games whose estimate failed (the record it failed on, and why)."""
        self._wake = threading.Condition(self._lock)
        self._worker: threading.Thread | None = None

    def merged(self, analysis: dict[str, Any], record: GameRecord,
               cache: Path | None) -> dict[str, Any]:
        """``analysis`` with the estimate of each hand (see the module docstring)."""
        if "unavailable" in analysis:
            return analysis
        status = analysis if self.source.holds(analysis) else self.status(record, cache)
        by_hand = {h["hand_number"]: h for h in status.get("hands", [])}
        out = []
        for hand in analysis["hands"]:
            hand = {k: v for k, v in hand.items() if k not in _ESTIMATE_KEYS}
            estimated = by_hand.get(hand["hand_number"], {})
            if "hands" not in status:
                hand["single_dummy"] = status
            elif estimated.get("decisions"):
                hand["single_dummy"] = status["single_dummy"]
                hand["decisions"] = estimated["decisions"]
            else:
                hand["single_dummy"] = {"unavailable": estimated.get("decisions_none")
                                        or "the hand has no decision to estimate"}
            out.append(hand)
        return {**analysis, "hands": out}

    def status(self, record: GameRecord, cache: Path | None) -> dict[str, Any]:
        """The game's estimate from its cache, or ``{"pending": words}`` (queued for the
        worker), or ``{"unavailable": reason}``."""
        if cache is None:
            return {"unavailable": NOT_FOR_FILES}
        kept = self.source.kept(record, cache)
        if kept is not None:
            return kept
        over = beyond_bound(record, "estimates")
        if over is not None:
            return over
        with self._lock:
            failed = self._failed.get(cache)
            if failed is not None and failed[0] == record:
                return {"unavailable": failed[1]}
            if cache not in self._queue:
                self._progress[cache] = "queued"
                self._wake.notify()
            self._queue[cache] = record  # a game still in play: its latest record
            self._start()
            ahead = list(self._queue).index(cache)
            said = self._progress.get(cache, "queued")
        return {"pending": said if not ahead else f"{said}, after {ahead} other game(s)"}

    def _start(self) -> None:
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(target=self._work, name="single-dummy",
                                            daemon=True)
            self._worker.start()

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._queue:
                    self._wake.wait()
                cache, record = next(iter(self._queue.items()))
            try:
                with TURN.background():
                    self.source.work_out(record, cache, TURN.wanted, partial(self._say, cache))
            except Cancelled:
                continue  # the page's analysis goes first; this game stays at the head
            except Exception as exc:  # noqa: BLE001 - one game's failure must not stop the worker
                _log.warning("single-dummy estimate of %s failed: %s", cache, exc)
                with self._lock:
                    self._failed[cache] = (record, f"the estimate failed: {exc}")
            with self._lock:
                if self._queue.get(cache) is record:  # else a later record of it waits
                    del self._queue[cache]
                    self._progress.pop(cache, None)

    def _say(self, cache: Path, words: str) -> None:
        with self._lock:
            self._progress[cache] = words


def analysis_source(settings: Settings | None = None) -> EstimateSource:
    """The estimates of ``tricktable.analysis.decisions`` (``settings``: its seed and
    samples a decision, by default its own), kept in the game's analysis cache beside the
    double dummy (``analysis.cache``). The worker's turn is given up between two layouts:
    ``cancel`` is the engine's own (``Cancelled`` when a page waits for the turn), and
    nothing is written, but the decisions weighed so far are kept for the game's next turn;
    a game still in play has only its new hands weighed (``analysis.cache``)."""
    settings = settings or Settings()
    weighing: dict[Path, Memo] = {}  # a game's decisions weighed in turns that were cancelled

    def kept(record: GameRecord, cache: Path) -> dict[str, Any] | None:
        return kept_analysis(record, cache, single_dummy=settings)

    def work_out(record: GameRecord, cache: Path, cancel: Callable[[], bool],
                 progress: Callable[[str], None]) -> dict[str, Any]:
        def told(done: int, total: int) -> None:
            progress(f"{done} of {total} decisions")
        # cancelled, the game's next turn goes on from the decisions weighed in this one
        result = cached_analysis(record, cache, single_dummy=settings, cancel=cancel,
                                 progress=told, memo=weighing.setdefault(cache, {}))
        del weighing[cache]  # kept in the cache now, which the game's next record starts from
        return result

    return EstimateSource(kept, work_out, partial(holds_single_dummy, settings=settings))


ESTIMATES = Estimates(analysis_source())
"""The scoreboard process's estimates (one worker, as ``replay_analysis.TURN`` is one)."""

"""The double-dummy analysis of a game for the replay page, within a bound.

``game_analysis(record, cache)`` is the analysis of a game (``analysis.hand``'s JSON),
read from its cache file (``analysis.cache``) or worked out there; with no cache file (an
uploaded file) it is worked out and not stored. Callers run it off the event loop. One
analysis runs at a time (the machine's cores are the club night's; ``TURN``), so a page
opened twice waits for the first and then reads its cache; the single-dummy estimates
worked out in the background (``web.single_dummy``) take the same turn, after any page
waiting for it.

The bound: the search grows steeply with the cards in play (docs/analysis.md). A game whose
hands hold more than ``MAX_CARDS_IN_PLAY`` cards in all when the play begins (13-card
Spades: 52, Double Deck: 48, five-handed: 40) is not analysed: its analysis is
``{"unavailable": "analysis not available for this hand size ..."}``, at once, unless its
cache already holds it (``tricktable analyse`` run off the night). Every variant
with at most 32 cards in play (Euchre 20, Bid Euchre 24, Jucker 30, Bauer 32) analyses a
whole hand within about a second.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tricktable.analysis.cache import cached_analysis, kept_analysis
from tricktable.analysis.hand import analyse_game
from tricktable.engine import Engine, EngineError
from tricktable.history import GameRecord

__all__ = ["game_analysis", "beyond_bound", "MAX_CARDS_IN_PLAY", "TOO_BIG", "Turn", "TURN"]

MAX_CARDS_IN_PLAY = 32
"""The most cards dealt to the hands in play that the replay page analyses."""

TOO_BIG = "analysis not available for this hand size"



class Turn:
    """One analysis at a time: a page's (``page()``) before any in the background
    (``background()``), which can ask whether a page waits for the turn (``wanted()``)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._busy = False
        self._waiting = 0

    @contextmanager
    def page(self) -> Iterator[None]:
        with self._changed:
            self._waiting += 1
            self._changed.wait_for(lambda: not self._busy)
            self._waiting -= 1
            self._busy = True
        try:
            yield
        finally:
            self._release()

    @contextmanager
    def background(self) -> Iterator[None]:
        with self._changed:
            self._changed.wait_for(lambda: not self._busy and not self._waiting)
            self._busy = True
        try:
            yield
        finally:
            self._release()

    def wanted(self) -> bool:
        """Whether a page waits for the turn (the background gives it up when it can)."""
        return self._waiting > 0

    def _release(self) -> None:
        with self._changed:
            self._busy = False
            self._changed.notify_all()


TURN = Turn()
"""The turn every analysis of the scoreboard's process takes."""


def cards_in_play(record: GameRecord) -> int:
    """The cards in all the hands of ``record``'s game when a hand's play begins."""
    cfg = record.config
    st = Engine.new(cfg["variant"], cfg.get("options"), n_players=len(record.players)).state
    return st.variant.hand_size(st.n, st.options) * st.n


def beyond_bound(record: GameRecord, doing: str) -> dict[str, Any] | None:
    """``{"unavailable": why}`` for a game over the bound (``doing``: what the replay does up
    to it, "analyses"), else None."""
    cards = cards_in_play(record)
    if cards > MAX_CARDS_IN_PLAY:
        return {"unavailable": f"{TOO_BIG} ({cards} cards in play; the replay {doing} "
                               f"up to {MAX_CARDS_IN_PLAY})"}
    return None


def game_analysis(record: GameRecord, cache: Path | None) -> dict[str, Any]:
    """The analysis of ``record`` (from or into ``cache`` when given), or ``{"unavailable":
    reason}`` for a game over the bound that has no cached analysis, or one the analysis
    cannot replay."""
    try:
        kept = kept_analysis(record, cache) if cache is not None else None
        if kept is not None:
            return kept
        over = beyond_bound(record, "analyses")
        if over is not None:
            return over
        with TURN.page():
            return cached_analysis(record, cache) if cache else analyse_game(record)
    except (EngineError, ValueError) as exc:
        return {"unavailable": f"analysis not available: {exc}"}

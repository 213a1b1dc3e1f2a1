"""Recorded hands for the replay page: from the host's journal, or from hand-history files.

``JournalHands(path)`` answers the same two questions as the live model
(``Club.hands(table)``, ``Club.hand(table, game, hand)``) from the journal instead of from
what the scoreboard happened to see: every game of the table is replayed with
``tricktable.history`` (``Journal.history`` then ``history.replay.game_json``), so any hand
ever recorded can be stepped through, even one played before the scoreboard started.
Game numbers are the host's (the table state's ``game``), so links from the live page
land on the same hand. Opens the journal read-only per question (SQLite WAL: the host
keeps writing). ``HistoryFiles(paths)`` answers them for hand-history files (the native
text or JSON form, or EGN), each served as the "table" named by its file name;
``file_hands(text, name)`` reads an uploaded file. A single hand comes with its game's
double-dummy analysis (``web.replay_analysis``: cached beside the journal or file, worked
out for an upload), so ``hand`` can be slow the first time: call it off the event loop; and
with the single-dummy estimate of its decisions when it is cached, else queued to be worked
out in the background (``web.single_dummy``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tricktable.analysis.cache import file_cache, journal_cache
from tricktable.engine import EngineError
from tricktable.history import GameRecord, HistoryError, load
from tricktable.history.replay import game_json, hand_analysis
from tricktable.history.verify import parse
from tricktable.serve.journal import Journal
from tricktable.web.replay_analysis import game_analysis
from tricktable.web.single_dummy import ESTIMATES

__all__ = ["JournalHands", "HistoryFiles", "file_hands", "hand_line", "MAX_UPLOAD"]

MAX_UPLOAD = 2_000_000
"""The largest hand-history file the replay page accepts (bytes)."""


NightGame = Callable[[str, int], dict[str, Any] | None]
"""``NightFile.game_of``: a table's journal game as a game of the night, or None."""


class JournalHands:
    """The recorded hands of every table in one journal file; with ``night`` (a club night's
    ``NightFile.game_of``), each hand of a night's game carries the night's names, the night's
    game number (``night_game``) and what the director corrected (``corrected``)."""

    def __init__(self, path: Path, night: NightGame | None = None) -> None:
        if not path.exists():
            raise FileNotFoundError(f"no journal at {path}")
        self.path = path
        self.night = night

    def hands(self, table: str) -> list[dict[str, Any]]:
        """One line per recorded hand that has tricks, oldest first."""
        return [hand_line(h) for h in self._all(table) if h["tricks"]]

    def hand(self, table: str, game: int, hand: int) -> dict[str, Any] | None:
        """The hand with its analysis (cached in ``JOURNAL.analysis/``; slow when missing)."""
        records = self._records(table, only_game=game)
        if not records:
            return None
        record = records[0][1]
        cache = journal_cache(self.path, table, game)
        analysis = ESTIMATES.merged(game_analysis(record, cache), record, cache)
        return next((self._of_night(table, h) for h in game_json(record, game, analysis)
                     if h["hand"] == hand), None)

    def _all(self, table: str) -> list[dict[str, Any]]:
        return [self._of_night(table, h) for game, record in self._records(table)
                for h in game_json(record, game)]

    def _records(self, table: str, only_game: int | None = None) -> list[tuple[int, GameRecord]]:
        with Journal(self.path, readonly=True) as journal:
            games = [g.game for g in journal.games(table)
                     if only_game is None or g.game == only_game]
            return [(game, journal.history(table, game, self._players(table, game)))
                    for game in games]

    def _players(self, table: str, game: int) -> list[str] | None:
        """The night's players of its game (the names the tallies credit), if a night's."""
        of = self.night(table, game) if self.night is not None else None
        return None if of is None else of["players"]

    def _of_night(self, table: str, hand: dict[str, Any]) -> dict[str, Any]:
        """``hand`` with its game of the night and what the director corrected in it."""
        of = self.night(table, hand["game"]) if self.night is not None else None
        if of is None:
            return hand
        return {**hand, "night_game": of["round"],
                "corrected": of["corrected"].get(hand["hand"])}


class HistoryFiles:
    """Hand-history files given to the scoreboard (``tricktable web --history FILE``), each
    replayed as the table named by its file name without the extension."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths: dict[str, Path] = {}
        for path in paths:
            load(str(path))  # refuse a file that cannot be read now, not on the page
            self.paths[path.stem] = path

    def __contains__(self, table: str) -> bool:
        return table in self.paths

    def hands(self, table: str) -> list[dict[str, Any]]:
        return [hand_line(h) for h in self._all(table) if h["tricks"]]

    def hand(self, table: str, game: int, hand: int) -> dict[str, Any] | None:
        """The hand with its analysis (cached in ``FILE.analysis.json``; slow when missing)."""
        if game != 1:
            return None
        path = self.paths[table]
        record = load(str(path))
        cache = file_cache(path)
        analysis = ESTIMATES.merged(game_analysis(record, cache), record, cache)
        return next((h for h in game_json(record, 1, analysis) if h["hand"] == hand), None)

    def _all(self, table: str) -> list[dict[str, Any]]:
        return game_json(load(str(self.paths[table])))


def file_hands(text: str, name: str) -> list[dict[str, Any]]:
    """Every hand of an uploaded hand-history file with its analysis (worked out, not
    stored); ``HistoryError`` names what is wrong."""
    try:
        record = parse(text, name)
        hands = game_json(record)
    except EngineError as exc:
        raise HistoryError(f"{name}: {exc}") from None
    analysis = ESTIMATES.merged(game_analysis(record, None), record, None)
    return [h | {"analysis": hand_analysis(analysis, h["hand"])} for h in hands]


def hand_line(hand: dict[str, Any]) -> dict[str, Any]:
    """The picker's line for a hand."""
    return {"game": hand["game"], "hand": hand["hand"], "tricks": len(hand["tricks"]),
            "contract": hand["contract_text"], "scores_after": hand["scores_after"],
            "revokes": len(hand["revokes"]), "complete": hand["complete"],
            "night_game": hand.get("night_game"), "corrected": hand.get("corrected")}

"""Recorded hands read from the host's journal, for the replay page.

``JournalHands(path)`` answers the same two questions as the live model
(``Club.hands(table)``, ``Club.hand(table, game, hand)``) from the journal instead of from
what the scoreboard happened to see: every game of the table is replayed with
``tricktable.history`` (``Journal.history`` then ``history.replay.replay``), so any hand
ever recorded can be stepped through, even one played before the scoreboard started.
Game numbers are the host's (the table state's ``game``), so links from the live page
land on the same hand. Opens the journal read-only per question (SQLite WAL: the host
keeps writing). Imports ``journal`` and ``history``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tricktable.history.replay import HandView, replay
from tricktable.journal import Journal


class JournalHands:
    """The recorded hands of every table in one journal file."""

    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise FileNotFoundError(f"no journal at {path}")
        self.path = path

    def hands(self, table: str) -> list[dict[str, Any]]:
        """One line per recorded hand that has tricks, oldest first."""
        return [_line(h) for h in self._all(table) if h["tricks"]]

    def hand(self, table: str, game: int, hand: int) -> dict[str, Any] | None:
        for record in self._all(table, only_game=game):
            if record["hand"] == hand:
                return record
        return None

    def _all(self, table: str, only_game: int | None = None) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        with Journal(self.path, readonly=True) as journal:
            games = [g.game for g in journal.games(table)
                     if only_game is None or g.game == only_game]
            records = [(game, journal.history(table, game)) for game in games]
        for game, record in records:
            engine, views = replay(record)
            state = engine.state
            sides = [{"name": state.side_name(i), "seats": list(seats)}
                     for i, seats in enumerate(state.sides)]
            out += [_hand(game, view, record.players, sides) for view in views]
        return out


def _hand(game: int, view: HandView, seats: list[str], sides: list[dict]) -> dict[str, Any]:
    after = list(view.totals)
    before = [t - d for t, d in zip(view.totals, view.deltas, strict=True)]
    return {
        "game": game,
        "hand": view.number,
        "dealer": view.dealer,
        "seats": seats,
        "sides": sides,
        "bids": [{"seat": s, "bid": b} for s, b in view.bids],
        "contract": view.contract or None,
        "trump": None,
        "tricks": [{"leader": t.leader, "winner": t.winner,
                    "cards": [{"seat": s, "card": c} for s, c in t.cards]} for t in view.tricks],
        "scores_before": before,
        "scores_after": after,
        "revokes": view.revokes,
        "complete": bool(view.result),
        "result": view.result,
    }


def _line(hand: dict[str, Any]) -> dict[str, Any]:
    return {"game": hand["game"], "hand": hand["hand"], "tricks": len(hand["tricks"]),
            "contract": hand["contract"], "scores_after": hand["scores_after"],
            "revokes": len(hand["revokes"]), "complete": hand["complete"]}

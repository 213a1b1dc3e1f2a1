"""A live night checked against its journal: every hand the tables played is on the tally.

``round_hands(journal, tables)`` reads, for each night table, the hands it played in each game
of the night straight from the journal: a game belongs to the round its ``new_game`` control
names (``club.live.NEW_GAME_ID`` + the round); a fresh game (``club.live.FRESH``) adds to
its round, a game started again for the round (a reopened game, a director's reseat: any
other id) replaces what the round had. ``unrecorded(night, journal, tables)`` lists, one
line each, every game of the night whose tally is not exactly those hands (a hand played
after the bell included: "players at each table finish their current hand", then stop).
The demo's night sweep (``bench/night_sweep.py``) and the tests use it. Imports ``club``
(journal_hands, live, tournament), ``engine.actions`` and ``journal``.
"""

from __future__ import annotations

from collections.abc import Sequence

from tricktable.club.journal_hands import hands_from_game
from tricktable.club.live import FRESH, NEW_GAME_ID
from tricktable.club.tournament import Hand, ProgressiveTournament
from tricktable.engine.actions import action_from_json
from tricktable.journal import Journal

__all__ = ["round_hands", "unrecorded"]


def round_hands(journal: Journal, tables: Sequence[str]) -> dict[int, list[list[Hand]]]:
    """round -> the hands each of ``tables`` (head first) played in it, from the journal."""
    rounds: dict[int, list[list[Hand]]] = {}
    for number, table in enumerate(tables):
        starts = journal.game_starts(table)
        current: int | None = None
        for record in journal.games(table):
            started_by = starts.get(record.game) or ""
            named = started_by[len(NEW_GAME_ID):].split("-", 1)[0] \
                if started_by.startswith(NEW_GAME_ID) else ""
            fresh = FRESH in started_by
            if named.isdigit():
                current = int(named)
            if current is None:
                continue  # the table's game before the night began
            hands = rounds.setdefault(current, [[] for _ in tables])[number]
            if not fresh:
                hands.clear()
            hands += hands_from_game(record.setup, [action_from_json(a) for a in record.actions])
    return rounds


def unrecorded(night: ProgressiveTournament, journal: Journal,
               tables: Sequence[str]) -> list[str]:
    """Every finished game of ``night`` whose tally at a table is not the hands that table
    played in it (one line each); empty when the standings add every hand played."""
    played = round_hands(journal, tables)
    problems = []
    for game in night.games:
        for number, kept in enumerate(game.hands, 1):
            hands = played.get(game.number, [[] for _ in tables])[number - 1]
            if list(kept) != hands:
                problems.append(f"game {game.number} of the night, table {number} "
                                f"({tables[number - 1]}): the tally has {list(kept)}, the "
                                f"journal {hands}")
    return problems

"""A live night checked against its journal: every hand the tables played is on the tally.

``round_games(journal, tables)`` reads, for each night table, the journal games it played in
each game of the night, and ``round_hands`` their hands, straight from the journal: a game belongs to the round its ``new_game`` control
names (``club.live.NEW_GAME_ID`` + the round); a fresh game (``club.live.FRESH``) adds to
its round, a game started again for the round (a reopened game, a director's reseat: any
other id) replaces what the round had. ``unrecorded(night, journal, tables)`` lists, one
line each, every game of the night whose tally is not exactly those hands (a hand played
after the bell included: "players at each table finish their current hand", then stop).
A director's score fix shows as a difference. The demo's night sweep
(``bench/night_sweep.py``), the tests and the EMN export (``club.emn``) use it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tricktable.club.journal_hands import hands_from_game
from tricktable.club.live import FRESH, NEW_GAME_ID
from tricktable.club.tournament import Hand, ProgressiveTournament
from tricktable.engine.actions import action_from_json
from tricktable.serve.journal import GameRecord, Journal

__all__ = ["round_games", "round_hands", "unrecorded"]


def round_games(journal: Journal, tables: Sequence[str]) -> dict[int, list[list[GameRecord]]]:
    """round -> the journal games each of ``tables`` (head first) played in it, in order."""
    rounds: dict[int, list[list[GameRecord]]] = {}
    for number, table in enumerate(tables):
        starts = journal.game_starts(table)
        current: int | None = None
        for record in journal.games(table):
            started_by = starts.get(record.game) or ""
            named = started_by[len(NEW_GAME_ID):].split("-", 1)[0] \
                if started_by.startswith(NEW_GAME_ID) else ""
            if named.isdigit():
                current = int(named)
            if current is None:
                continue  # the table's game before the night began
            games = rounds.setdefault(current, [[] for _ in tables])[number]
            if FRESH not in started_by:
                games.clear()
            games.append(record)
    return rounds


def round_hands(journal: Journal, tables: Sequence[str]) -> dict[int, list[list[Hand]]]:
    """round -> the hands each of ``tables`` (head first) played in it, from the journal."""
    return {round_: [[hand for record in games for hand in hands_from_game(
        record.setup, [action_from_json(a) for a in record.actions])] for games in at_tables]
        for round_, at_tables in round_games(journal, tables).items()}


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

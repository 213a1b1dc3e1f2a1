"""A Euchre club night as Euchre Match Notation (EMN 1.0, part of EGN 1.4).

EMN is "a meta-specification for representing multi-game series, tournaments, and social club
sessions played by a common pool of players" (NextSuit Labs' EGN project,
``docs/emn/match-specification.md``, ``schemas/emn/emn-schema-v1.json``): a master player
list, and games, each an inline EGN game with the ids of its four players "mapped to [Seat 0:
North, Seat 1: East, Seat 2: South, Seat 3: West]". A progressive night is one:

- ``metadata.players``: everyone on the night's roster, in the order they came, each with an
  id (``p-01``, ``p-02`` ...; EMN's own example's form) and their name, and, given the
  club's player numbers (``club_ids``: the club database, ``tricktable players``), that
  number as a ``playerIds`` entry of source ``tricktable-club`` ("tracking the same player
  across multiple platforms and systems", ``docs/player-tracking.md``);
- ``metadata.matchFormat``: ``PROGRESSIVE`` ("Rotating partner tournament; cumulative
  individual scoring"), its target the games of the night;
- ``metadata.result``: ``COMPLETED`` once the night is over (else ``IN_PROGRESS``), each
  player's total (the standings' score) and the winners (every player with the high score);
- ``games``: for every finished game of the night, each table's game (head table first), the
  seating at its bell and, as ``gameData``, the EGN of the hands on the tally
  (``history.egn.to_egn``): a hand begun after the bell is left out. A table that played a
  fresh game in the same game of the night (``club.night_games``) gives one entry per game.

A night of any game EGN cannot hold (Bid Euchre, Spades ...) is refused with one line.
``night_to_emn(night, journal, tables, title, club_ids)`` builds the document; ``history.emn`` reads it
back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tricktable.club.audit import round_games
from tricktable.club.errors import ClubError
from tricktable.club.standings import standings
from tricktable.club.tournament import ProgressiveTournament
from tricktable.engine import Engine
from tricktable.engine.actions import action_from_json
from tricktable.engine.events import HandScored
from tricktable.history import HistoryError, capture
from tricktable.history.egn import VARIANTS, to_egn
from tricktable.serve.journal import GameRecord, Journal

__all__ = ["FILE_TYPE", "VERSION", "ID_SOURCE", "night_to_emn"]

FILE_TYPE = "Euchre Match Notation"
VERSION = "1.0"
"""EMN's version (its schema: ``^1\\.[0](?:\\.\\d+)?$``), released with EGN 1.4."""
ID_SOURCE = "tricktable-club"  # the playerIds source of a club database's player number


def night_to_emn(night: ProgressiveTournament, journal: Journal, tables: Sequence[str],
                 title: str | None = None, club_ids: Mapping[str, str] | None = None
                 ) -> dict[str, Any]:
    """The EMN document of a live night (``tables``: the club's tables, head first;
    ``club_ids``: name -> the club's number for that player, where known)."""
    ids = {name: f"p-{n:02d}" for n, name in enumerate(night.players, 1)}
    games: list[dict[str, Any]] = []
    played = round_games(journal, tables)
    for game in night.games:
        for number, seating in enumerate(game.seating, 1):
            kept = len(game.hands[number - 1])
            for record in played.get(game.number, [[] for _ in tables])[number - 1]:
                if kept <= 0:
                    break
                data, kept = _egn(record, kept, tables[number - 1], game.number)
                games.append({"gameIndex": len(games), "players": [ids[p] for p in seating],
                              "gameData": data})
    board = standings(night.tallies())
    meta: dict[str, Any] = {
        "players": [{"id": ids[name], "name": name, **(
            {"playerIds": [{"id": club_ids[name], "source": ID_SOURCE}]}
            if club_ids and name in club_ids else {})} for name in night.players],
        "matchFormat": {"type": "PROGRESSIVE", "target": night.last_round},
        "result": {"status": "COMPLETED" if night.finished else "IN_PROGRESS",
                   "winner": [ids[s.name] for s in board if s.high],
                   "scores": {ids[s.name]: s.total for s in board}},
    }
    if title:
        meta["title"] = title[:128]
    return {"fileType": FILE_TYPE, "version": VERSION, "metadata": meta, "games": games}


def _egn(record: GameRecord, kept: int, table: str, round_: int) -> tuple[dict[str, Any], int]:
    """The EGN of a journal game's first ``kept`` scored hands (fewer when it has fewer), and
    how many of ``kept`` are left for the table's next game in the same game of the night."""
    variant = record.setup["variant"]
    if variant not in VARIANTS:
        raise ClubError(f"EMN holds Euchre nights only; table {table} plays {variant}, which "
                        "EGN cannot express")
    engine = Engine.new(variant, record.setup.get("options"), record.setup.get("seed", 0),
                        record.setup.get("dealer", 0), record.setup.get("players"))
    actions = []
    for action in map(action_from_json, record.actions):
        if kept == 0:
            break
        outcome = engine.apply(action)
        actions.append(action)
        kept -= sum(1 for e in outcome.events if isinstance(e, HandScored))
    history = capture(record.setup, actions, {"Event": f"game {round_} of the night, "
                                              f"table {table}"})
    try:
        return to_egn(history), kept
    except HistoryError as exc:
        raise ClubError(f"table {table}, game {round_} of the night: {exc}") from None

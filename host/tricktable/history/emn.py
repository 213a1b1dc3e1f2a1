"""Read Euchre Match Notation (EMN 1.0, part of EGN 1.4): a match's EGN games, each a record.

An EMN file (``club.emn`` writes a club night as one) holds ``metadata.players`` (each with an
``id``) and ``games``, each with the ids of its four players (seat 0 North to 3 West) and its
game as inline EGN (``gameData``). ``read_emn(text, source)`` returns every game as a
``GameRecord`` (``history.egn.from_egn``) with a label naming its index and players; a
player id missing from the master list, a game without four different players or a game EGN
refuses is refused with ``HistoryError`` naming the game. ``tricktable replay`` and
``verify`` read EMN through ``history.verify.load_games``.
"""

from __future__ import annotations

from typing import Any

from tricktable.history.egn import from_egn
from tricktable.history.jsonfmt import load_json
from tricktable.history.record import GameRecord
from tricktable.history.text import HistoryError

__all__ = ["FILE_TYPE", "is_emn", "read_emn"]

FILE_TYPE = "Euchre Match Notation"


def is_emn(data: Any) -> bool:
    """True for a parsed JSON document that says it is EMN."""
    return isinstance(data, dict) and data.get("fileType") == FILE_TYPE


def read_emn(text: str, source: str = "<emn>") -> list[tuple[str, GameRecord]]:
    """Every game of an EMN file: (label, record), in the file's order."""
    data = load_json(text, source)
    if not is_emn(data):
        raise HistoryError(f"{source}: not EMN (fileType must be {FILE_TYPE!r})")
    version = data.get("version")
    if not isinstance(version, str) or not version.startswith("1."):
        raise HistoryError(f"{source}: unsupported EMN version {version!r} (1.x is read)")
    meta = data.get("metadata")
    players = meta.get("players") if isinstance(meta, dict) else None
    if not isinstance(players, list) or not all(
            isinstance(p, dict) and isinstance(p.get("id"), str) for p in players):
        raise HistoryError(f"{source}: metadata.players: a list of players, each with an id")
    names = {p["id"]: str(p.get("name") or p["id"]) for p in players}
    games = data.get("games")
    if not isinstance(games, list) or not games:
        raise HistoryError(f"{source}: games: expected a list of games")
    out = []
    for i, game in enumerate(games):
        where = f"{source}: game {i}"
        if not isinstance(game, dict):
            raise HistoryError(f"{where}: expected a JSON object")
        seats = game.get("players")
        if not isinstance(seats, list) or len(seats) != 4 or len(set(map(str, seats))) != 4:
            raise HistoryError(f"{where}: players: four different player ids, seats 0 to 3")
        unknown = [p for p in seats if p not in names]
        if unknown:
            raise HistoryError(f"{where}: player id {unknown[0]!r} is not in metadata.players")
        egn = game.get("gameData")
        if isinstance(egn, dict) and isinstance(egn.get("metadata"), dict) \
                and "players" not in egn["metadata"]:  # the match's players sit there
            egn = {**egn, "metadata": {**egn["metadata"], "players": [names[p] for p in seats]}}
        record = from_egn(egn, where)
        out.append((f"game {game.get('gameIndex', i)}: "
                    + ", ".join(names[p] for p in seats), record))
    return out

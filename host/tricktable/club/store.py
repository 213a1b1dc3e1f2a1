"""A club night as JSON, so it survives a restart (``tricktable club --night PATH``).

The file keeps what the organiser entered and nothing derived: the options, the first
seating (and ``first_bench``, who sat out the first game), every finished game's hands, the
ties the organiser settled, whether the director rang its bell early, and the arrivals,
substitutions and swaps made during it (``changes``; the director's swaps too),
the current game's hands and changes, and ``ended`` (the night's length after ``club end``).
Those keys came later: a file without them (older) loads as a night with none. Loading replays these through ``ProgressiveTournament`` (the same checks as
when they were entered), so a hand-edited file that breaks a rule is refused with the game
and table named. Saving writes a temporary file and renames it over the old one, so a crash
never leaves half a night.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

from tricktable.club.errors import ClubError
from tricktable.club.tournament import ProgressiveOptions, ProgressiveTournament
from tricktable.textfiles import TextFileError, read_text

__all__ = ["FORMAT", "night_to_json", "night_from_json", "save_night", "load_night",
           "load_night_data", "write_atomically"]

FORMAT = "tricktable-club-night/1"


def night_to_json(night: ProgressiveTournament) -> dict[str, Any]:
    """The night as JSON-able data (see the module docstring)."""
    return {
        "format": FORMAT,
        "options": {"hands_per_round": night.options.hands_per_round,
                    "rounds": night.options.rounds, "bye_score": night.options.bye_score},
        "first_seating": [list(table) for table in night.first_seating],
        "first_bench": list(night.first_bench),
        "games": [{"hands": [[list(h) for h in table] for table in game.hands],
                   "decided": {str(k): v for k, v in game.decided.items()},
                   "changes": [list(change) for change in game.changes],
                   **({"early": True} if game.early else {})}
                  for game in night.games],
        "hands": [[list(h) for h in table] for table in night.hands],
        "changes": [list(change) for change in night.changes],
        "ended": night.ended,
    }


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise ClubError(f"the night's {key!r} must be a {kind.__name__}, not {value!r}")
    return value


def _set_all(night: ProgressiveTournament, hands: Any, where: str) -> None:
    if not isinstance(hands, list) or len(hands) != night.tables:
        raise ClubError(f"{where}: the hands must be a list with one entry per table "
                        f"({night.tables})")
    for number, table_hands in enumerate(hands, 1):
        if not isinstance(table_hands, list):
            raise ClubError(f"{where}, table {number}: the hands must be a list")
        if table_hands:  # a game starts with no hands (and a finished night takes none)
            try:
                night.set_hands(number, table_hands)
            except ClubError as exc:
                raise ClubError(f"{where}: {exc}") from None


def _apply_changes(night: ProgressiveTournament, changes: Any, where: str) -> None:
    if not isinstance(changes, list):
        raise ClubError(f"{where}: the changes must be a list")
    for change in changes:
        try:
            if isinstance(change, list) and change[:1] == ["arrive"] and len(change) == 2:
                night.arrive(change[1])
            elif isinstance(change, list) and change[:1] == ["substitute"] and len(change) == 3:
                night.substitute(change[1], change[2])
            elif isinstance(change, list) and change[:1] == ["swap"] and len(change) == 3:
                night.swap(change[1], change[2])
            else:
                raise ClubError(f"a change is [\"arrive\", NAME], [\"substitute\", OUT, IN] "
                                f"or [\"swap\", A, B], not {change!r}")
        except ClubError as exc:
            raise ClubError(f"{where}: {exc}") from None


def night_from_json(data: Any) -> ProgressiveTournament:
    """Rebuild a night from ``night_to_json`` data; ``ClubError`` says what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ClubError(f"not a club night file (expected \"format\": \"{FORMAT}\")")
    options = _field(data, "options", dict)
    unknown = set(options) - {"hands_per_round", "rounds", "bye_score"}
    if unknown:
        raise ClubError(f"unknown night options: {', '.join(sorted(unknown))}")
    night = ProgressiveTournament(_field(data, "first_seating", list),
                                  ProgressiveOptions(**options), data.get("first_bench", []))
    ended = data.get("ended")
    if ended is not None:
        if isinstance(ended, bool) or not isinstance(ended, int) or not 1 <= ended <= night.last_round:
            raise ClubError(f"the night's \"ended\" is the number of games played (1 to "
                            f"{night.last_round}) or null, not {ended!r}")
        night.ended = ended
    for number, game in enumerate(_field(data, "games", list), 1):
        where = f"game {number}"
        if not isinstance(game, dict) or not isinstance(game.get("decided", {}), dict):
            raise ClubError(f"{where}: expected {{\"hands\": [...], \"decided\": {{...}}}}")
        _apply_changes(night, game.get("changes", []), where)
        _set_all(night, game.get("hands"), where)
        try:
            decided = {int(k): v for k, v in game.get("decided", {}).items()}
        except ValueError:
            raise ClubError(f"{where}: decided ties are keyed by table number") from None
        try:
            night.bell(decided, early=game.get("early") is True)
        except ClubError as exc:
            raise ClubError(f"{where}: {exc}") from None
    _apply_changes(night, data.get("changes", []), "the current game")
    _set_all(night, data.get("hands"), "the current game")
    return night


def write_atomically(path: str | Path, text: str) -> None:
    """Replace the file at ``path`` with ``text`` whole or not at all (temporary, rename).
    The temporary file's name is the writer's own, so two writers at once never rename each
    other's half-written copy; one that fails leaves no temporary file behind."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def save_night(night: ProgressiveTournament, path: str | Path) -> None:
    """Write the night to ``path`` atomically (temporary file, then rename)."""
    write_atomically(path, json.dumps(night_to_json(night), indent=1) + "\n")


def load_night(path: str | Path) -> ProgressiveTournament:
    """Read a night saved by ``save_night``."""
    return load_night_data(path)[0]


def load_night_data(path: str | Path) -> tuple[ProgressiveTournament, dict[str, Any]]:
    """Read a night saved by ``save_night``, with the file's whole JSON (sections kept beside
    the night, such as the live tables' ``live``)."""
    if not Path(path).exists():
        raise ClubError(f"no club night at {path}: start one with `tricktable club new`")
    try:
        text = read_text(path, "club night file")
    except TextFileError as exc:
        raise ClubError(str(exc)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ClubError(f"{path} is not valid JSON: {exc}") from None
    try:
        return night_from_json(data), data
    except ClubError as exc:
        raise ClubError(f"{path}: {exc}") from None

"""The hand-history JSON form: the same ``GameRecord`` as the text, for programs.

    {"format": "tricktable-history", "version": 1, "tags": {...},
     "config": {"variant", "options", "seed", "dealer", "players"},
     "hands": [{"number", "dealer", "actions": [action JSON ...],
                "claims": [{"key": ["trick", 1], "value": "Bob"}, ...]}],
     "game": [{"key": ["game_over"], "value": "Bob & Di"}]}

Actions are ``Action.to_json()`` dicts. ``read_json`` checks the shape and raises
``HistoryError`` naming the JSON path of the problem.
"""

from __future__ import annotations

import json
from typing import Any

from tricktable.engine import Engine, EngineError
from tricktable.engine.actions import ActionError, action_from_json
from tricktable.history.record import Claim, GameRecord, HandRecord, trimmed
from tricktable.history.text import HistoryError
from tricktable.rules import UnknownVariant, recorded_options
from tricktable.rules.base import OptionError

__all__ = ["to_json", "from_json", "write_json", "read_json", "FORMAT"]

FORMAT = "tricktable-history"


def to_json(record: GameRecord) -> dict[str, Any]:
    rec = trimmed(record)
    return {
        "format": FORMAT, "version": 1, "tags": dict(rec.tags), "config": dict(rec.config),
        "hands": [{"number": h.number, "dealer": h.dealer,
                   "actions": [a.to_json() for a in h.actions],
                   "claims": [{"key": list(k), "value": c.value} for k, c in h.claims.items()]}
                  for h in rec.hands],
        "game": [{"key": list(k), "value": c.value} for k, c in rec.game_claims.items()],
    }


def write_json(record: GameRecord) -> str:
    return json.dumps(to_json(record), indent=1, ensure_ascii=False) + "\n"


def _need(d: Any, key: str, kind: type | tuple[type, ...], path: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise HistoryError(f"{path}: missing {key!r}")
    if not isinstance(d[key], kind):
        raise HistoryError(f"{path}.{key}: expected {getattr(kind, '__name__', kind)}")
    return d[key]


def from_json(d: Any, source: str = "<json>") -> GameRecord:
    """A ``GameRecord`` from the JSON form; errors name ``source`` and the JSON path."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise HistoryError(f"{source}: not a tricktable history (format must be {FORMAT!r})")
    if d.get("version") != 1:
        raise HistoryError(f"{source}: unsupported version {d.get('version')!r}")
    config = _need(d, "config", dict, source)
    for key, kind in (("variant", str), ("players", list), ("options", dict), ("seed", int),
                      ("dealer", int)):
        _need(config, key, kind, f"{source}: config")
    if not all(isinstance(p, str) for p in config["players"]):
        raise HistoryError(f"{source}: config.players: expected a list of names")
    tags = d.get("tags", {})
    if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
        raise HistoryError(f"{source}: tags: expected an object of strings")
    n = len(config["players"])
    config = config | {"options": recorded_options(config["variant"], config["options"])}
    try:
        Engine.new(config["variant"], config["options"], config["seed"], config["dealer"],
                   config["players"])
    except (EngineError, OptionError, UnknownVariant, TypeError) as exc:
        raise HistoryError(f"{source}: config: {exc}") from None
    hands = []
    for i, h in enumerate(_need(d, "hands", list, source)):
        path = f"{source}: hands[{i}]"
        hand = HandRecord(_need(h, "number", int, path), _need(h, "dealer", int, path))
        for j, a in enumerate(_need(h, "actions", list, path)):
            try:
                hand.actions.append(action_from_json(a))
            except ActionError as exc:
                raise HistoryError(f"{path}.actions[{j}]: {exc}") from None
            hand.lines.append(None)
        for j, c in enumerate(_need(h, "claims", list, path)):
            where = f"{path}.claims[{j}]"
            key = _claim_key(_need(c, "key", list, where), n, where)
            hand.claims[key] = Claim(c.get("value"))
        hands.append(hand)
    game: dict[tuple[Any, ...], Claim] = {}
    for j, c in enumerate(_need(d, "game", list, source) if "game" in d else []):
        where = f"{source}: game[{j}]"
        key = _claim_key(_need(c, "key", list, where), n, where)
        game[key] = Claim(c.get("value"))
    return GameRecord(dict(tags), dict(config), hands, game)


_SEAT_KEYS = {"dealt"}
_NUMBERED_KEYS = {"trick", "revoke"}
_PLAIN_KEYS = {"up_card", "contract", "result", "score", "game_over"}


def _claim_key(key: list[Any], n: int, where: str) -> tuple[Any, ...]:
    """A claim key checked for shape: ["dealt", seat], ["trick"|"revoke", n], [name]."""
    kind = key[0] if key and isinstance(key[0], str) else None
    if kind in _PLAIN_KEYS and len(key) == 1:
        return (kind,)
    if len(key) == 2 and type(key[1]) is int:
        if kind in _SEAT_KEYS and 0 <= key[1] < n:
            return (kind, key[1])
        if kind in _NUMBERED_KEYS and key[1] >= 1:
            return (kind, key[1])
    raise HistoryError(f"{where}.key: not a claim key: {key!r}")


def load_json(text: str, source: str) -> Any:
    """``text`` parsed as JSON; a ``HistoryError`` of one line for any text that is not JSON
    this reader takes: malformed, nested too deeply for the parser (``RecursionError``), or
    a number too long to convert (``ValueError``)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise HistoryError(f"{source}:{exc.lineno}: malformed JSON: {exc.msg}") from None
    except RecursionError:
        raise HistoryError(f"{source}: JSON nested too deeply to read") from None
    except ValueError as exc:
        raise HistoryError(f"{source}: JSON this reader does not take: {exc}") from None


def read_json(text: str, source: str = "<json>") -> GameRecord:
    data = load_json(text, source)
    return from_json(data, source)

"""The club file (TOML): the club's tables, their variant and house rules, and the pad seats.

``load_club(path)`` reads and checks it and returns a :class:`Club`; every mistake is a
:class:`ClubFileError` naming the table and key. Example: examples/club.toml; the keys are
described in docs/operations.md.

Imports nothing of ours except protocol (for the id rule of topics).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tricktable.protocol import DEFAULT_PREFIX, valid_id


class ClubFileError(ValueError):
    """The club file is missing, not TOML, or says something we cannot use; the message says where."""


@dataclass(frozen=True)
class TableConfig:
    """One physical table: what it plays and which board pad is which seat."""

    id: str
    variant: str
    options: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    dealer: int = 0
    seed: int = 0
    deck: int | None = None  # the card deck id used here; None = any enrolled card deck
    token_decks: tuple[int, ...] = ()  # empty = any token deck
    pads: Mapping[tuple[str, int], int] = field(default_factory=dict)  # (board, pad) -> seat
    displays: tuple[str, ...] = ()  # boards that only show the display summary

    @property
    def boards(self) -> tuple[str, ...]:
        """Every board of this table (seat boards then display boards), each once."""
        seen = dict.fromkeys([b for b, _ in self.pads] + list(self.displays))
        return tuple(seen)

    def seat_of(self, board: str, pad: int) -> int | None:
        return self.pads.get((board, pad))

    def setup(self) -> dict[str, Any]:
        """The game setup a new game starts from (journaled with the game)."""
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "players": list(self.players),
            "dealer": self.dealer,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class Club:
    """The whole club file."""

    name: str
    tables: Mapping[str, TableConfig]
    registry: Path | None = None
    journal: Path | None = None
    prefix: str = DEFAULT_PREFIX

    def table_of_board(self, board: str) -> TableConfig | None:
        """The table a board belongs to (by its pads or as a display), or None."""
        for table in self.tables.values():
            if board in table.boards:
                return table
        return None


def _expect(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ClubFileError(f"{where}: expected {names}, got {value!r}")
    return value


def _pads(raw: Any, where: str) -> dict[tuple[str, int], int]:
    pads: dict[tuple[str, int], int] = {}
    for key, seat in _expect(raw, dict, where).items():
        board, sep, pad = key.rpartition(":")
        if not sep or not valid_id(board) or not pad.isdigit() or not 0 <= int(pad) <= 15:
            raise ClubFileError(f"{where}: key {key!r} must be \"board:pad\" (pad 0..15)")
        seat = _expect(seat, int, f"{where}.{key!r}")
        if not 0 <= seat <= 7:
            raise ClubFileError(f"{where}.{key!r}: seat {seat} out of range 0..7")
        pads[(board, int(pad))] = seat
    return pads


_TABLE_KEYS = {"variant", "options", "players", "dealer", "seed", "deck", "token_decks",
               "pads", "displays"}


def _table(table_id: str, raw: Any) -> TableConfig:
    where = f"tables.{table_id}"
    if not valid_id(table_id):
        raise ClubFileError(f"{where}: a table id is 1-32 letters, digits, '_', '.', '-'")
    raw = _expect(raw, dict, where)
    unknown = set(raw) - _TABLE_KEYS
    if unknown:
        raise ClubFileError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    if "variant" not in raw:
        raise ClubFileError(f"{where}: 'variant' is required")
    players = tuple(_expect(p, str, f"{where}.players") for p in _expect(raw.get("players", []), list, f"{where}.players"))
    displays = tuple(_expect(d, str, f"{where}.displays") for d in _expect(raw.get("displays", []), list, f"{where}.displays"))
    token_decks = tuple(_expect(d, int, f"{where}.token_decks") for d in _expect(raw.get("token_decks", []), list, f"{where}.token_decks"))
    deck = raw.get("deck")
    return TableConfig(
        id=table_id,
        variant=_expect(raw["variant"], str, f"{where}.variant"),
        options=dict(_expect(raw.get("options", {}), dict, f"{where}.options")),
        players=players,
        dealer=_expect(raw.get("dealer", 0), int, f"{where}.dealer"),
        seed=_expect(raw.get("seed", 0), int, f"{where}.seed"),
        deck=None if deck is None else _expect(deck, int, f"{where}.deck"),
        token_decks=token_decks,
        pads=_pads(raw.get("pads", {}), f"{where}.pads"),
        displays=displays,
    )


def parse_club(data: Mapping[str, Any], base: Path = Path(".")) -> Club:
    """Check a parsed club document; relative paths are taken from ``base``."""
    club = _expect(data.get("club", {}), dict, "club")
    tables = {tid: _table(tid, raw) for tid, raw in _expect(data.get("tables", {}), dict, "tables").items()}
    owner: dict[str, str] = {}
    for table in tables.values():
        for board in table.boards:
            if board in owner and owner[board] != table.id:
                raise ClubFileError(f"board {board!r} is in both tables.{owner[board]} and tables.{table.id}")
            owner[board] = table.id
    prefix = _expect(club.get("prefix", DEFAULT_PREFIX), str, "club.prefix")

    def path(key: str) -> Path | None:
        value = club.get(key)
        return None if value is None else base / _expect(value, str, f"club.{key}")

    return Club(
        name=_expect(club.get("name", "tricktable"), str, "club.name"),
        tables=tables,
        registry=path("registry"),
        journal=path("journal"),
        prefix=prefix,
    )


def load_club(path: str | Path) -> Club:
    """Read and check a club file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except OSError as exc:
        raise ClubFileError(f"cannot read club file {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ClubFileError(f"{path} is not valid TOML: {exc}") from None
    return parse_club(data, path.parent)

"""The club file (TOML): the club's tables, their variant and house rules, and the pad seats.

``load_club(path)`` reads and checks it and returns a :class:`Club`; every mistake is a
:class:`ClubFileError` naming the file's line, the table and key, and the nearest right name
for a misspelt one. Everything is checked before a table starts: the variant, its house-rule
options and their values (the rules' own option types), the dealer and players against the
variant's seats, and every board, pad and seat once. Example: examples/club.toml; the keys
are described in docs/operations.md.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from tricktable.protocol import DEFAULT_PREFIX, phone_reader, valid_id
from tricktable.rules import UnknownVariant, get_variant, list_variants
from tricktable.rules.base import OptionError, Variant, build_options
from tricktable.textfiles import TextFileError, read_text


class ClubFileError(ValueError):
    """The club file is missing, not TOML, or says something we cannot use; the message says where.

    ``keys`` is the path of the key at fault (``("tables", "t1", "variant")``), from which
    ``load_club`` finds its line."""

    def __init__(self, message: str, keys: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.keys = keys


def _nearest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices``, or nothing."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


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
    brightness: int | None = None  # the display boards' brightness, 0..15; None: theirs
    phones: tuple[int, ...] = ()  # seats read by a phone (their readers are in ``pads``)

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

    def board_tables(self) -> dict[str, str]:
        """Every board of the club and its table's name (for the broker's ACL)."""
        return {board: name for name, table in self.tables.items() for board in table.boards}


def _keys(where: str) -> tuple[str, ...]:
    """``tables.t1.pads`` -> ``("tables", "t1", "pads")``."""
    return tuple(where.split("."))


def _expect(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ClubFileError(f"{where}: expected {names}, got {value!r}", _keys(where))
    return value


def _pads(raw: Any, where: str, seats: int) -> dict[tuple[str, int], int]:
    pads: dict[tuple[str, int], int] = {}
    taken: dict[int, str] = {}
    for key, seat in _expect(raw, dict, where).items():
        keys = (*_keys(where), key)
        board, sep, pad = key.rpartition(":")
        if not sep or not valid_id(board) or not pad.isdigit() or not 0 <= int(pad) <= 15:
            raise ClubFileError(f"{where}: key {key!r} must be \"board:pad\" (pad 0..15)", keys)
        seat = _expect(seat, int, f"{where}.{key!r}")
        if not 0 <= seat < seats:
            raise ClubFileError(f"{where}.{key!r}: seat {seat} out of range 0..{seats - 1}", keys)
        if seat in taken:
            raise ClubFileError(f"{where}: seat {seat} is given to both {taken[seat]!r} and "
                                f"{key!r}", keys)
        taken[seat] = key
        pads[(board, int(pad))] = seat
    return pads


def _phones(table_id: str, raw: Any, where: str, pads: dict[tuple[str, int], int],
            seats: int) -> tuple[int, ...]:
    """The seats read by phones, each added to ``pads`` as its phone reader's pad 0."""
    phones = tuple(_expect(s, int, where) for s in _expect(raw, list, where))
    by_seat = {seat: f"{board}:{pad}" for (board, pad), seat in pads.items()}
    for seat in phones:
        if not 0 <= seat < seats:
            raise ClubFileError(f"{where}: seat {seat} out of range 0..{seats - 1}", _keys(where))
        if by_seat.get(seat) == "a phone":
            raise ClubFileError(f"{where}: seat {seat} is listed twice", _keys(where))
        if seat in by_seat:
            raise ClubFileError(f"{where}: seat {seat} is read by both {by_seat[seat]!r} and a "
                                f"phone", _keys(where))
        reader = phone_reader(table_id, seat)
        if not valid_id(reader):
            raise ClubFileError(f"{where}: table id {table_id!r} is too long for a phone reader "
                                f"({reader!r}: at most 32 characters)", _keys(where))
        by_seat[seat] = "a phone"
        pads[(reader, 0)] = seat
    return phones


def _variant(name: str, where: str) -> Variant:
    try:
        return get_variant(name)
    except UnknownVariant:
        raise ClubFileError(f"{where}: unknown variant {name!r}{_nearest(name, list_variants())}; "
                            f"`tricktable variants` lists them", _keys(where)) from None


def _options(variant: Variant, raw: Any, where: str) -> dict[str, Any]:
    """The house rules, checked against the variant's own option types."""
    given = dict(_expect(raw, dict, where))
    known = [f.name for f in fields(variant.Options)]
    for name in given:
        if name not in known:
            raise ClubFileError(f"{where}: {variant.name} has no option {name!r}"
                                f"{_nearest(name, known)}; `tricktable variants "
                                f"{variant.name}` lists them", (*_keys(where), name))
    for name, value in given.items():
        try:
            build_options(variant.Options, {name: value}, variant.name)
        except OptionError as exc:
            raise ClubFileError(f"{where}.{name}: {exc}", (*_keys(where), name)) from None
    return given


_TABLE_KEYS = {"variant", "options", "players", "dealer", "seed", "deck", "token_decks",
               "pads", "displays", "brightness", "phones"}


def _brightness(value: Any, where: str) -> int | None:
    """A display brightness, 0 (dimmest, still lit) .. 15, or None (the board's own)."""
    if value is not None and not 0 <= _expect(value, int, where) <= 15:
        raise ClubFileError(f"{where}: {value} is not 0..15 (0 dimmest, still lit)",
                            _keys(where))
    return value


def _table(table_id: str, raw: Any) -> TableConfig:
    where = f"tables.{table_id}"
    if not valid_id(table_id):
        raise ClubFileError(f"{where}: a table id is 1-32 letters, digits, '_', '.', '-'")
    raw = _expect(raw, dict, where)
    for key in raw:
        if key not in _TABLE_KEYS:
            raise ClubFileError(f"{where}: unknown key {key!r}{_nearest(key, _TABLE_KEYS)}",
                                (*_keys(where), key))
    if "variant" not in raw:
        raise ClubFileError(f"{where}: 'variant' is required", _keys(where))
    variant = _variant(_expect(raw["variant"], str, f"{where}.variant"), f"{where}.variant")
    seats = max(variant.seat_counts)
    players = tuple(_expect(p, str, f"{where}.players") for p in _expect(raw.get("players", []), list, f"{where}.players"))
    if players and len(players) not in variant.seat_counts:
        raise ClubFileError(f"{where}.players: {variant.name} is played by "
                            f"{' or '.join(map(str, variant.seat_counts))}, not {len(players)}",
                            _keys(f"{where}.players"))
    dealer = _expect(raw.get("dealer", 0), int, f"{where}.dealer")
    if not 0 <= dealer < (len(players) or seats):
        raise ClubFileError(f"{where}.dealer: seat {dealer} is not at the table "
                            f"(0..{(len(players) or seats) - 1})", _keys(f"{where}.dealer"))
    displays = tuple(_expect(d, str, f"{where}.displays") for d in _expect(raw.get("displays", []), list, f"{where}.displays"))
    token_decks = tuple(_expect(d, int, f"{where}.token_decks") for d in _expect(raw.get("token_decks", []), list, f"{where}.token_decks"))
    deck = raw.get("deck")
    brightness = _brightness(raw.get("brightness"), f"{where}.brightness")
    pads = _pads(raw.get("pads", {}), f"{where}.pads", len(players) or seats)
    phones = _phones(table_id, raw.get("phones", []), f"{where}.phones", pads,
                     len(players) or seats)
    return TableConfig(
        id=table_id,
        variant=raw["variant"],
        options=_options(variant, raw.get("options", {}), f"{where}.options"),
        players=players,
        dealer=dealer,
        seed=_expect(raw.get("seed", 0), int, f"{where}.seed"),
        deck=None if deck is None else _expect(deck, int, f"{where}.deck"),
        token_decks=token_decks,
        pads=pads,
        displays=displays,
        brightness=brightness,
        phones=phones,
    )


def parse_club(data: Mapping[str, Any], base: Path = Path(".")) -> Club:
    """Check a parsed club document; relative paths are taken from ``base``."""
    club = _expect(data.get("club", {}), dict, "club")
    tables = {tid: _table(tid, raw) for tid, raw in _expect(data.get("tables", {}), dict, "tables").items()}
    owner: dict[str, str] = {}
    for table in tables.values():
        for board in table.boards:
            if board in owner and owner[board] != table.id:
                raise ClubFileError(f"board {board!r} is in both tables.{owner[board]} and "
                                    f"tables.{table.id}", ("tables", table.id))
            owner[board] = table.id
    prefix = _expect(club.get("prefix", DEFAULT_PREFIX), str, "club.prefix")
    brightness = _brightness(club.get("brightness"), "club.brightness")  # every table's default
    tables = {tid: t if t.brightness is not None else replace(t, brightness=brightness)
              for tid, t in tables.items()}

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
    """Read and check a club file; a mistake names the file and the line it is on."""
    path = Path(path)
    try:
        text = read_text(path, "club file")
    except TextFileError as exc:
        raise ClubFileError(str(exc)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ClubFileError(f"{path} is not valid TOML: {exc}") from None
    try:
        return parse_club(data, path.parent)
    except ClubFileError as exc:
        line = line_of(text, exc.keys)
        where = f"{path}, line {line}" if line else str(path)
        raise ClubFileError(f"{where}: {exc}", exc.keys) from None


_HEADER = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=""")


def _dotted(name: str) -> tuple[str, ...]:
    """The parts of a TOML dotted key (quoted parts kept whole)."""
    parts = re.findall(r'"[^"]*"|\'[^\']*\'|[^.\s]+', name)
    return tuple(p.strip("\"'") for p in parts)


def line_of(text: str, keys: tuple[str, ...]) -> int | None:
    """The 1-based line of ``text`` that defines ``keys`` (a table header or a key), or the
    nearest enclosing one; None when not found (tomllib gives no positions)."""
    best, best_depth, section = None, 0, ()
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            section = _dotted(header.group(1))
            path = section
        else:
            key = _KEY.match(line)
            if not key:
                continue
            path = (*section, *_dotted(key.group(1)))
        depth = 0
        while depth < min(len(path), len(keys)) and path[depth] == keys[depth]:
            depth += 1
        if depth == len(path) and depth > best_depth:
            best, best_depth = number, depth
            if depth == len(keys):
                return number
    return best

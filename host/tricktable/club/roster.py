"""The roster: the players of a club night, one name a line in a text file.

Blank lines and lines starting with ``#`` are ignored; names are stripped and must be
unique (case-insensitively, so the tally sheets cannot be confused).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tricktable.club.errors import ClubError
from tricktable.textfiles import TextFileError, read_text

__all__ = ["read_roster", "validate_roster"]


def validate_roster(names: Iterable[str]) -> tuple[str, ...]:
    """The names, stripped, checked non-empty and unique; ``ClubError`` otherwise."""
    players = tuple(str(n).strip() for n in names)
    seen: dict[str, str] = {}
    for name in players:
        if not name:
            raise ClubError("a player's name is empty")
        key = name.casefold()
        if key in seen:
            raise ClubError(f"{name!r} is on the roster twice (as {seen[key]!r} too)")
        seen[key] = name
    return players


def read_roster(path: str | Path) -> tuple[str, ...]:
    """The players listed in ``path`` (one a line; ``#`` comments and blank lines skipped)."""
    try:
        text = read_text(path, "players file")
    except TextFileError as exc:
        raise ClubError(str(exc)) from None
    lines = (line.strip() for line in text.splitlines())
    names = [line for line in lines if line and not line.startswith("#")]
    if not names:
        raise ClubError(f"the players file {path} names nobody (one name a line)")
    return validate_roster(names)

"""Verify a game record: replay its actions and compare every claim with the engine's.

``load(path)``/``parse(text, source)`` read any history form (text, JSON, EGN);
``load_games(path)`` also reads an EMN match (several games, ``history.emn``).
``verify(record)`` returns the list of ``Difference``s (empty when the record is right):
each names the line (for text files), the hand and the claim, the recorded and the
recomputed value. A move the engine refuses is a difference too, and ends the check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tricktable import textfiles
from tricktable.history.record import Claim, ClaimKey, EngineError, GameRecord, capture

__all__ = ["Difference", "verify", "load", "load_games", "parse"]


@dataclass(frozen=True)
class Difference:
    line: int | None
    hand: int | None
    what: str
    recorded: str
    recomputed: str

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        hand = f"hand {self.hand} " if self.hand is not None else ""
        if not self.recorded and not self.recomputed:
            return f"{where}{hand}{self.what}"
        return (f"{where}{hand}{self.what}: recorded {self.recorded!r}, "
                f"recomputed {self.recomputed!r}")


def _what(key: ClaimKey, players: list[str]) -> str:
    kind = key[0]
    if kind == "dealt":
        return f"{players[key[1]]}'s dealt hand"
    if kind == "trick":
        return f"trick {key[1]} winner"
    if kind == "revoke":
        return f"revoke {key[1]}"
    return {"up_card": "up-card", "game_over": "game winner"}.get(kind, kind)


def _same(key: ClaimKey, a: Any, b: Any) -> bool:
    if key[0] == "dealt":
        return sorted(str(a).split()) == sorted(str(b).split())
    return " ".join(str(a).split()) == " ".join(str(b).split())


def verify(record: GameRecord) -> list[Difference]:
    """Every claim of ``record`` that the replay does not reproduce."""
    lines = [ln for h in record.hands for ln in (h.lines or [None] * len(h.actions))]
    try:
        actual = capture(record.config, record.actions(), lines=lines)
    except EngineError as exc:
        return [Difference(None, None, f"the replay stops: {exc}", "", "")]
    players = record.players
    diffs: list[Difference] = []
    for i, hand in enumerate(record.hands):
        got = actual.hands[i].claims if i < len(actual.hands) else {}
        diffs += _compare(hand.claims, got, players, hand.number)
    diffs += _compare(record.game_claims, actual.game_claims, players, None)
    return diffs


def _compare(recorded: dict[ClaimKey, Claim], actual: dict[ClaimKey, Claim],
             players: list[str], hand: int | None) -> list[Difference]:
    out = []
    for key, claim in recorded.items():
        got = actual.get(key)
        if got is None:
            out.append(Difference(claim.line, hand, _what(key, players), str(claim.value),
                                  "(nothing: it did not happen)"))
        elif not _same(key, claim.value, got.value):
            out.append(Difference(claim.line, hand, _what(key, players), str(claim.value),
                                  str(got.value)))
    return out


def load(path: str) -> GameRecord:
    """Read a history file: the text form, the JSON form, or EGN (``parse``)."""
    from tricktable.history.text import HistoryError

    try:
        text = textfiles.read_text(path, "hand history")
    except textfiles.TextFileError as exc:
        raise HistoryError(str(exc)) from None
    return parse(text, path)


def load_games(path: str) -> list[tuple[str, GameRecord]]:
    """Every game of a history file, labelled: the games of an EMN match (each labelled with
    its index and players), or the one game of any other form (labelled "")."""
    from tricktable.history.emn import FILE_TYPE, read_emn
    from tricktable.history.text import HistoryError

    try:
        text = textfiles.read_text(path, "hand history")
    except textfiles.TextFileError as exc:
        raise HistoryError(str(exc)) from None
    if text.lstrip().startswith("{") and f'"{FILE_TYPE}"' in text[:4000]:
        return read_emn(text, path)
    return [("", parse(text, path))]


def parse(text: str, source: str) -> GameRecord:
    """A history from its text: EGN when it is JSON whose ``fileType`` says so, the JSON
    form when it starts with '{', else the text form."""
    from tricktable.history.egn import FILE_TYPE, read_egn
    from tricktable.history.jsonfmt import read_json
    from tricktable.history.text import read_text

    if text.lstrip().startswith("{"):
        if f'"{FILE_TYPE}"' in text[:4000]:
            return read_egn(text, source)
        return read_json(text, source)
    return read_text(text, source)

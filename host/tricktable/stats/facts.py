"""What a scored hand was, read from a journaled game: the facts statistics are counted from.

``game_facts(record)`` replays a game's hand-history record with ``history.replay`` (the same
walk as ``tricktable replay`` and the replay page, so the statistics and the replay can never
disagree) and returns one ``HandFacts`` per **scored** hand: who sat where, the sides, the
auction and contract, the tricks each seat took, the revokes, the points. A hand thrown in
(passed out) or not finished is not a hand played. ``family_of(variant)`` is the variant
family statistics are kept under.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tricktable.engine.actions import action_from_json
from tricktable.history import GameRecord, HandRecord
from tricktable.history.replay import replay
from tricktable.rules import get_variant

__all__ = ["HandFacts", "game_facts", "journal_game_facts", "family_of", "FAMILIES"]

FAMILIES: dict[str, str] = {
    "bid-euchre": "Bid Euchre family",
    "euchre": "Euchre",
    "spades": "Spades",
}
"""The families statistics are kept for, as the club calls them."""

_FAMILY_OF_MODULE = {"spades": "spades", "euchre": "euchre", "jucker": "euchre"}


def family_of(variant: str) -> str:
    """``spades``, ``euchre`` (Euchre and the Bauer games) or ``bid-euchre`` (Bid Euchre,
    Pepper, Pfeffer, Hasenpfeffer, Buck Euchre, Eau Claire Clubs and the double-deck games)."""
    module = type(get_variant(variant)).__module__.rsplit(".", 1)[-1]
    return _FAMILY_OF_MODULE.get(module, "bid-euchre")


@dataclass(frozen=True)
class HandFacts:
    """One scored hand of one game (seats are the engine's: 0 = North ...)."""

    game: int
    hand: int
    variant: str
    family: str
    players: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    contract: dict[str, Any] | None
    bids: tuple[tuple[int, str], ...]
    tricks: tuple[int, ...]
    """Tricks taken by each seat."""
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    detail: str
    revokes: tuple[tuple[int, int, str, str, int], ...]
    """(seat, trick, suit, how it was proven, trick that proved it)."""

    def side_of(self, seat: int) -> int:
        return next(i for i, seats in enumerate(self.sides) if seat in seats)

    def side_tricks(self, side: int) -> int:
        return sum(self.tricks[s] for s in self.sides[side])


def journal_game_facts(setup: dict[str, Any], actions: list[dict[str, Any]],
                       game: int) -> list[HandFacts]:
    """``game_facts`` of a journaled game (its setup and live action list, as
    ``Journal.games`` gives them), without capturing its claims first."""
    record = GameRecord({}, dict(setup), [HandRecord(1, setup.get("dealer", 0),
                                                     [action_from_json(a) for a in actions])])
    return game_facts(record, game)


def game_facts(record: GameRecord, game: int) -> list[HandFacts]:
    """Every scored hand of ``record`` (game number ``game`` of its table)."""
    engine, views = replay(record)
    variant = record.config["variant"]
    family = family_of(variant)
    players = tuple(record.players)
    sides = tuple(tuple(seats) for seats in engine.state.sides)
    out: list[HandFacts] = []
    for view in views:
        if not view.deltas:
            continue
        tricks = [0] * len(players)
        for trick in view.tricks:
            if trick.winner is not None:
                tricks[trick.winner] += 1
        out.append(HandFacts(
            game, view.number, variant, family, players, sides, view.contract,
            tuple(view.bids), tuple(tricks), tuple(view.deltas), tuple(view.totals),
            view.result,
            tuple((r.seat, r.trick, r.suit, r.how, r.proven_in) for r in view.revokes)))
    return out

"""A journaled game's hand scores, as the club tallies them (team A = N/S, team B = E/W).

A table's host journals every action (``tricktable.serve.journal``); replaying a game's actions
through the engine gives one ``HandScored`` event per hand. Seat 0 of the physical table is
the club's N, so team A is the side holding seats 0 and 2. Only a four-seat game of two
partnerships can go on a progressive tally. A countdown's hands go on it as points counted
off (``night_games.tally_sign``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tricktable.club.errors import ClubError
from tricktable.club.night_games import tally_sign
from tricktable.club.tournament import Hand
from tricktable.engine import Engine
from tricktable.engine.actions import Action
from tricktable.engine.events import HandScored, PassedOut

__all__ = ["hands_from_game", "hands_and_rest", "scored_events"]


def hands_from_game(setup: Mapping[str, Any], actions: Iterable[Action]) -> list[Hand]:
    """(team A, team B) for each scored hand of a game given its setup and action list, as
    the tally takes them (a countdown's points counted off, ``night_games.tally_sign``)."""
    return hands_and_rest(setup, actions)[0]


def scored_events(setup: Mapping[str, Any], actions: Iterable[Action]
                  ) -> tuple[list[tuple[int, ...]], list[HandScored], int]:
    """Replay a journaled game: its sides (the seats of each), every ``HandScored`` event in
    order, and how many actions came after the last hand ended, scored or thrown in
    (``PassedOut``: nobody bid, a misdeal): 0 when no hand is in play."""
    engine = Engine.new(setup["variant"], setup.get("options"), setup.get("seed", 0),
                        setup.get("dealer", 0), setup.get("players"))
    sides = [tuple(side["seats"]) for side in engine.public_state()["sides"]]
    scored: list[HandScored] = []
    n = scored_at = 0
    for n, action in enumerate(actions, 1):
        outcome = engine.apply(action)
        if not outcome.ok:
            raise ClubError(f"the journal's action {n} is refused on replay: {outcome.reason}")
        for event in outcome.events:
            if isinstance(event, HandScored):
                scored.append(event)
            if isinstance(event, HandScored | PassedOut):
                scored_at = n
    return sides, scored, n - scored_at


def hands_and_rest(setup: Mapping[str, Any],
                   actions: Iterable[Action]) -> tuple[list[Hand], int]:
    """The scored hands (as ``hands_from_game``) and how many actions came after the last
    hand ended (``scored_events``): 0 when no hand is in play."""
    variant = setup["variant"]
    sides, scored, rest = scored_events(setup, actions)
    if sorted(sides) != [(0, 2), (1, 3)]:
        raise ClubError(f"a {variant} game is not two partnerships of two "
                        "(N/S against E/W), so it cannot go on a progressive tally")
    a_index = sides.index((0, 2))
    sign = tally_sign(variant)
    return [(sign * event.deltas[a_index], sign * event.deltas[1 - a_index])
            for event in scored], rest

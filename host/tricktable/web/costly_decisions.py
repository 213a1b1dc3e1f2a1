"""A player's costliest decisions of a night, from the single-dummy estimates (the player
page's "Costly decisions", ``/api/player/{id}/decisions``).

``night_decisions(estimates, journal, seats)``: of the hands ``seats`` names (where the
player sat: table, game, hand, seat), the decisions the estimate says cost most, costliest
first, each with where to replay it; and how many of those hands are
estimated, still being worked out (a game not yet estimated is queued for the background
worker, ``web.single_dummy``), or cannot be, and why. A hand passed out has no seats of its
own (the statistics count hands played): its bidding counts for the player who held one
seat through the game's other hands, and it has no replay to link to. Only games already estimated count:
the page asks again while some are being worked out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import groupby
from pathlib import Path
from typing import Any

from tricktable.analysis.cache import journal_cache
from tricktable.serve.journal import Journal
from tricktable.web.single_dummy import Estimates

__all__ = ["night_decisions", "Seat", "NOTICEABLE"]

Seat = tuple[str, int, int, int]
"""Where a player sat for a hand: (table, journal game, hand, seat)."""

NOTICEABLE = 0.05
"""A cost under this many points is no cost (it shows as 0.0)."""


def night_decisions(estimates: Estimates, journal: Path, seats: Iterable[Seat],
                    limit: int = 5) -> dict[str, Any]:
    """The ``limit`` costliest decisions of the player in the hands ``seats`` (see the module
    docstring): ``{"hands", "estimated", "pending", "unavailable": {why: hands},
    "decisions": [...]}``."""
    found: list[dict[str, Any]] = []
    hands = estimated = pending = 0
    missing: Counter[str] = Counter()
    with Journal(journal, readonly=True) as source:
        for (table, game), group in groupby(sorted(seats), key=lambda s: (s[0], s[1])):
            where = {hand: seat for _, _, hand, seat in group}
            hands += len(where)
            try:
                record = source.history(table, game)
            except KeyError as exc:
                missing[str(exc.args[0])] += len(where)
                continue
            status = estimates.status(record, journal_cache(journal, table, game))
            if "pending" in status:
                pending += len(where)
                continue
            if "unavailable" in status:
                missing[status["unavailable"]] += len(where)
                continue
            by_hand = {h["hand_number"]: h for h in status["hands"]}
            for hand, seat in where.items():
                decisions = by_hand.get(hand, {}).get("decisions")
                if not decisions:
                    missing[by_hand.get(hand, {}).get("decisions_none")
                            or "the hand has no decision to estimate"] += 1
                    continue
                estimated += 1
                found += _costly(table, game, hand, decisions, seat)
            seat_of_game = set(where.values())
            if len(seat_of_game) == 1:  # the player's seat for the game's passed-out hands
                for passed_out in status.get("hands_not_played", []):
                    found += _costly(table, game, passed_out["hand_number"],
                                     passed_out["decisions"], *seat_of_game, played=False)
    found.sort(key=lambda d: -d["cost"])
    return {"hands": hands, "estimated": estimated, "pending": pending,
            "unavailable": dict(missing), "decisions": found[:limit]}


def _costly(table: str, game: int, hand: int, decisions: list[dict[str, Any]], seat: int,
            played: bool = True) -> list[dict[str, Any]]:
    """The decisions of ``seat`` in a hand that cost something, each with where it was
    (``played_out``: the hand was played, so its replay shows it; else it was passed out)."""
    return [_entry(table, game, hand, i, d) | {"played_out": played}
            for i, d in enumerate(decisions) if d["seat"] == seat and d["cost"] >= NOTICEABLE]


def _entry(table: str, game: int, hand: int, index: int, d: dict[str, Any]
           ) -> dict[str, Any]:
    return {"table": table, "game": game, "hand": hand, "trick": d["trick"],
            "decision": index, "kind": d["kind"], "played": d["played"],
            "best": d["choices"][0]["choice"] if d["choices"] else None,
            "cost": d["cost"], "cost_ci95": d["cost_ci95"], "exact": d["exact"],
            "why": d["why"]}

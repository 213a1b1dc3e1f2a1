"""How a table's game of a club night ends: by the bell, never by the variant's own target.

"The lead table plays eight hands [...] then rings the bell [...] players at each table finish
their current hand and record their team score on an individual tally" (“Bid Euchre”, section
“Bid euchre variations”, "Progressive"): a night is counted in hands, and the tally takes a
team's points in the game of the night, not games won. So a table's game must not end before
the bell because its variant's game is over (Euchre's 10 points come after three hands at
times). Two ways, by variant (docs/club.md, "How a game of the night ends"):

- **It carries on** (``carries_on``): a variant whose score counts up plays the night with
  every end its house rules set switched off (``night_options``: ``target`` and ``lose_at``
  to none, no ``hand_limit``); its game then only ends at the bell.
- **A fresh game**: a variant that counts down to zero (Eau Claire Clubs, Jucker, Bauer) has
  nothing left to count once a side is there, so its game ends as the rules say and the table
  starts a fresh game at once, in the same game of the night, with the same players; the
  hands of both go on the tally (``club.live``).

A countdown's points go on the tally as points counted off (``tally_sign``: -1), so that on
the tally, as in every other variant, more is better (the standings' high score is the best).
``night_variants()`` lists the variants a night accepts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from tricktable.rules import get_variant, list_variants

__all__ = ["ENDS", "carries_on", "night_options", "night_variants", "tally_sign"]

ENDS = ("target", "lose_at", "hand_limit")
"""House rules that end a game, switched off in a night for a variant that carries on."""


def night_variants() -> list[str]:
    """Every variant a night accepts: a four-seat game of two partnerships, N/S against E/W
    (``journal_hands`` refuses any other on the tally)."""
    return [name for name in list_variants()
            for variant in [get_variant(name)] if 4 in variant.seat_counts
            and sorted(variant.sides(4, variant.Options())) == [(0, 2), (1, 3)]]


def carries_on(variant: str) -> bool:
    """True when ``variant``'s game plays on past its target in a night; False when it counts
    down to zero and a fresh game starts instead."""
    return not get_variant(variant).low_score_wins


def night_options(variant: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The house rules a table plays ``variant`` with in a night: the club file's
    ``options``, with every end of ``ENDS`` the variant has switched off when it carries on."""
    out = dict(options or {})
    if carries_on(variant):
        known = {f.name for f in fields(get_variant(variant).Options)}
        out.update({name: None for name in ENDS if name in known})
    return out


def tally_sign(variant: str) -> int:
    """1 when a hand's score change goes on the tally as it is; -1 for a countdown, whose
    points counted off are the points made."""
    return -1 if get_variant(variant).low_score_wins else 1

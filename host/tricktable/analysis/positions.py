"""Random opening positions of a variant's card play, for the solver's tests and benches.

``deal(variant, seed, trump=..., leader=..., cards=...)`` shuffles the variant's deck with
``random.Random(seed)``, gives each seat ``cards`` cards (the variant's hand size by
default) and returns the ``CardPlay`` before the first lead. ``out`` seats take no part
(a lone player's partner). Imports ``engine.intplay`` and ``rules``.
"""

from __future__ import annotations

import random

from tricktable.engine.intplay import CardPlay
from tricktable.rules import get_variant
from tricktable.rules.base import build_options

__all__ = ["deal"]


def deal(variant: str, seed: int, *, trump: str | None = None, leader: int = 0,
         cards: int | None = None, n: int | None = None,
         out: frozenset[int] = frozenset()) -> CardPlay:
    """A random opening position of ``variant``'s play (see the module docstring); ``trump``
    defaults to the variant's first trump name, ``n`` to its first seat count."""
    v = get_variant(variant)
    options = build_options(v.Options, None, v.name)
    n = n or v.seat_counts[0]
    size = cards or v.hand_size(n, options)
    pack = list(v.deck(n, options).physical)
    rng = random.Random(seed)
    rng.shuffle(pack)
    hands = [0] * n
    for i, p in enumerate(pack[:size * n]):
        hands[i % n] |= 1 << p
    sides = v.sides(n, options)
    side_of = [next(i for i, side in enumerate(sides) if s in side) for s in range(n)]
    seats = [s for s in range(n) if s not in out]
    return CardPlay(v, options, v.ordering(trump or v.trump_names[0]), hands, seats, side_of,
                    leader)

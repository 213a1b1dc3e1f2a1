"""Random opening positions of a variant's card play, for the solver's tests and benches.

``deal(variant, seed, trump=..., leader=..., cards=...)`` shuffles the variant's deck with
``random.Random(seed)``, gives each seat ``cards`` cards (the variant's hand size by
default) and returns the ``CardPlay`` before the first lead. ``out`` seats take no part
(a lone player's partner); ``options`` are house rules by name.

``bridge(seed, strain, leader)``: a bridge deal as the rules here play it, for a side by
side with DDS (the field's double-dummy solver, which knows bridge only): the ``spades``
variant with ``breaking_spades`` off is bridge's card play (four hands of 13 cards, two
partnerships, any card may be led, follow suit, the highest trump or card of the suit led
wins), and the strain is the ordering's trump (``S H D C``, ``NT``). ``pbn(cp)`` writes the
hands in PBN, seat 0 as North; ``table(cp)`` is a bridge deal's 5x4 table of tricks by
strain and declarer, as DDS's ``CalcDDtable`` gives it (from the deal as ``bridge`` makes it,
any strain and leader), and ``bridge_table(seed)`` that of bridge deal ``seed``.
"""

from __future__ import annotations

import random
from typing import Any

from tricktable.analysis.solver import Solver, Stats
from tricktable.cards import from_physical
from tricktable.engine.intplay import CardPlay
from tricktable.rules import get_variant
from tricktable.rules.base import build_options

__all__ = ["deal", "bridge", "bridge_table", "table", "pbn", "STRAINS"]

STRAINS = ("S", "H", "D", "C", "NT")
"""Bridge's strains in DDS's order."""


def deal(variant: str, seed: int, *, trump: str | None = None, leader: int = 0,
         cards: int | None = None, n: int | None = None,
         out: frozenset[int] = frozenset(), options: dict[str, Any] | None = None) -> CardPlay:
    """A random opening position of ``variant``'s play (see the module docstring); ``trump``
    defaults to the variant's first trump name, ``n`` to its first seat count."""
    v = get_variant(variant)
    options = build_options(v.Options, options, v.name)
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


def bridge(seed: int, strain: str, leader: int, cards: int = 13) -> CardPlay:
    """A random bridge deal (see the module docstring): ``strain`` ``S H D C`` or ``NT``;
    ``cards`` each (fewer than 13: an ending, the rest of the pack gone)."""
    return deal("spades", seed, trump=strain, leader=leader, cards=cards,
                options={"breaking_spades": False})


def bench_leader(seed: int) -> int:
    """The leader of deal ``seed``'s single solves in the benches beside DDS (``bench/``'s
    ``analysis.py --compare-dds``, ``ab_search.py``, ``search_work.py``): the declarer goes
    round the table from deal to deal (seat ``seed % 4``) and its left-hand opponent leads."""
    return (seed % 4 + 1) % 4


def pbn(cp: CardPlay) -> str:
    """The hands of a four-handed deal of one pack in PBN: ``N:`` then each seat's spades,
    hearts, diamonds and clubs, best first, seat 0 North, going round to the left."""
    hands = []
    for hand in cp.hands:
        suits: list[list[int]] = [[], [], [], []]
        for p in range(52):
            if hand >> p & 1:
                card = from_physical(p)[0]
                suits[int(card.suit)].append(card.rank)  # type: ignore[arg-type]
        hands.append(".".join("".join("23456789TJQKA"[r - 2] for r in sorted(ranks,
                                                                             reverse=True))
                              for ranks in suits))
    return "N:" + " ".join(hands)


def bridge_table(seed: int) -> list[list[int]]:
    """The 5x4 table of bridge deal ``seed`` (``table``)."""
    return table(bridge(seed, "NT", 0))


def table(cp: CardPlay, stats: Stats | None = None) -> list[list[int]]:
    """The 5x4 table of the bridge deal ``cp`` (before its first card; its strain and leader
    do not matter): per strain (``STRAINS``), per declarer (seat 0 North, going round), the
    declarer's side's tricks with its left-hand opponent leading (the leaders of one strain
    sharing the search's tables, as the contracts table does). The 20 positions are made
    from ``cp``'s hands, not dealt again; ``stats`` counts the searches' work."""
    if cp.trick or cp.tricks:
        raise ValueError("a table is of a deal before its first card")
    v = cp.variant
    rows = []
    for strain in STRAINS:
        order = v.ordering(strain)
        first: Solver | None = None
        row = []
        for declarer in range(4):
            at = CardPlay(v, cp.options, order, cp.hands, cp.seats, cp.side_of,
                          (declarer + 1) % 4)
            solver = Solver(at, stats, share=first)
            first = first or solver
            row.append(at.remaining - solver.tricks(at.side_of[at.to_play]))
        rows.append(row)
    return rows

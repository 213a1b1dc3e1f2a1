"""The hidden hands dealt as one seat may have imagined them: every consistent layout alike.

``Layouts(knowledge)`` deals the cards ``knowledge.hidden`` to the places they may be in
(the other seats' unknown cards and the stock) so that every fact holds (``Knowledge``:
hand sizes, voids, confined cards). The cards fall into classes by the places they may
be in (a suit a seat showed out of is one class, the rest of the suits another, the
up-card a dealer may have discarded its own); ``count`` is the exact number of
consistent layouts, worked out class by class over how many of each class each place
takes (the multinomial ways of each, times the ways the rest can fill what is left).
With the counts the layouts are numbered (``all``'s order: class by class, each class's
shares, then which cards go where, lowest cards first) and ``layout(rank)`` builds the
one of a number without the others: no rejection, so a layout with voids costs what one
without does.

- ``sample(rng)``: one layout, each consistent layout equally likely (a uniform number);
  ``sample_layouts(knowledge, n, seed)``: ``n`` of them from ``random.Random(seed)``;
- ``stratified(n, rng)``: ``n`` layouts, one uniform in each ``n``-th of the numbering
  (single dummy's draw: every layout as likely as with ``n`` uniform draws, alike layouts
  spread over the sample, so its mean varies less, never more, than theirs; the interval
  drawn as for uniform draws is wider than it needs to be, never narrower);
  ``stratified_layouts(knowledge, n, seed)``;
- ``exact_layouts(knowledge)``: every consistent layout once (small positions: the
  check of the sampled estimates, and single dummy's exact answer where the layouts are
  no more than its samples). All the same for the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations
from math import comb, factorial

from tricktable.analysis.knowledge import STOCK, Knowledge, Layout

__all__ = ["Layouts", "sample_layouts", "stratified_layouts", "exact_layouts",
           "count_layouts"]


class Layouts:
    """The consistent layouts of one ``Knowledge`` (see the module docstring)."""

    def __init__(self, knowledge: Knowledge) -> None:
        self.k = knowledge
        open_ = knowledge.open_places
        self.places: list[int] = [s for s in range(len(open_))
                                  if s != knowledge.seat and open_[s]]
        if knowledge.stock_size:
            self.places.append(STOCK)
        self.room = tuple(open_[s] if s != STOCK else knowledge.stock_size
                          for s in self.places)
        index = {place: i for i, place in enumerate(self.places)}
        classes: dict[tuple[int, ...], list[int]] = {}
        hidden = knowledge.hidden
        p = 0
        while hidden >> p:
            if hidden >> p & 1:
                where = tuple(index[w] for w in knowledge.places(p) if w in index)
                classes.setdefault(where, []).append(p)
            p += 1
        self.classes = sorted(classes.items())
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}

    @property
    def count(self) -> int:
        """How many consistent layouts there are (0: the facts contradict each other)."""
        return self._count(0, self.room)

    def _count(self, i: int, room: tuple[int, ...]) -> int:
        """The ways classes ``i`` on fill exactly the places' ``room``."""
        if i == len(self.classes):
            return 0 if any(room) else 1
        key = (i, room)
        got = self._ways.get(key)
        if got is None:
            got = sum(ways for _, ways, _ in self._splits(i, room))
            self._ways[key] = got
        return got

    def _splits(self, i: int, room: tuple[int, ...]
                ) -> Iterator[tuple[tuple[int, ...], int, tuple[int, ...]]]:
        """Each way class ``i`` can share out among its places (how many each), with the
        layouts it leaves (the cards' ways times the rest's) and the room left."""
        where, cards = self.classes[i]
        k = len(cards)
        for parts in _compositions(k, [room[w] for w in where]):
            left = list(room)
            for w, x in zip(where, parts, strict=True):
                left[w] -= x
            rest = self._count(i + 1, tuple(left))
            if rest:
                yield parts, _multinomial(k, parts) * rest, tuple(left)

    def layout(self, rank: int) -> Layout:
        """The consistent layout numbered ``rank`` (0 to ``count`` - 1) in the order ``all``
        gives them: class by class, each class's shares in turn, then its cards' deals."""
        if not 0 <= rank < self.count:
            raise ValueError(f"no layout {rank}: there are {self.count}")
        got: list[int] = [0] * len(self.places)
        room = self.room
        for i, (where, cards) in enumerate(self.classes):
            parts, left, rank = self._pick(i, room, rank)
            deal, rank = divmod(rank, self._count(i + 1, left))
            for w, share in zip(where, _deal(cards, parts, deal), strict=True):
                got[w] |= share
            room = left
        return self._layout(got)

    def _pick(self, i: int, room: tuple[int, ...], rank: int
              ) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """Class ``i``'s share that layout ``rank`` (of those the classes from ``i`` on
        make) falls in, the room it leaves and the rank within it."""
        for parts, ways, left in self._splits(i, room):
            if rank < ways:
                return parts, left, rank
            rank -= ways
        raise AssertionError("a rank below the count falls in a share")

    def sample(self, rng: random.Random) -> Layout:
        """One consistent layout, each equally likely."""
        total = self.count
        if not total:
            raise ValueError("no layout agrees with what the player knew")
        return self.layout(rng.randrange(total))

    def stratified(self, n: int, rng: random.Random) -> list[Layout]:
        """``n`` layouts, one from each of ``n`` equal stretches of the layouts in ``all``'s
        order (each layout is drawn ``n / count`` times on average, as with ``n`` uniform
        draws): the order deals the classes' shares and the low cards' places first, so
        the stretches are strata of alike layouts and a mean over them varies less than
        over ``n`` independent draws, whose standard error therefore overstates its own."""
        total = self.count
        if not total:
            raise ValueError("no layout agrees with what the player knew")
        return [self.layout((h * total + rng.randrange(total)) // n) for h in range(n)]

    def all(self) -> Iterator[Layout]:
        """Every consistent layout once."""
        yield from self._all(0, self.room, [0] * len(self.places))

    def _all(self, i: int, room: tuple[int, ...], got: list[int]) -> Iterator[Layout]:
        if i == len(self.classes):
            if not any(room):
                yield self._layout(got)
            return
        where, cards = self.classes[i]
        for parts, _, left in self._splits(i, room):
            for shares in _deals(cards, parts):
                now = list(got)
                for w, share in zip(where, shares, strict=True):
                    now[w] |= share
                yield from self._all(i + 1, left, now)

    def _layout(self, got: list[int]) -> Layout:
        k = self.k
        hands = list(k.held)
        stock = k.known_stock
        for place, cards in zip(self.places, got, strict=True):
            if place == STOCK:
                stock |= cards
            else:
                hands[place] |= cards
        return Layout(tuple(hands), stock)


def _compositions(k: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Each way to write ``k`` as a sum of ``len(caps)`` parts, each at most its cap."""
    if not caps:
        if k == 0:
            yield ()
        return
    if len(caps) == 1:
        if k <= caps[0]:
            yield (k,)
        return
    for x in range(min(k, caps[0]) + 1):
        for rest in _compositions(k - x, caps[1:]):
            yield (x, *rest)


def _deal(cards: list[int], parts: tuple[int, ...], index: int) -> tuple[int, ...]:
    """The ``index``-th of ``_deals(cards, parts)``, worked out without the others."""
    out = []
    left = list(cards)
    for j, k in enumerate(parts):
        which, index = divmod(index, _multinomial(len(left) - k, parts[j + 1:]))
        chosen = _combination(len(left), k, which)
        out.append(sum(1 << left[c] for c in chosen))
        left = [c for i, c in enumerate(left) if i not in chosen]
    return tuple(out)


def _multinomial(k: int, parts: tuple[int, ...]) -> int:
    """The ways to deal ``k`` cards into groups of ``parts`` cards."""
    ways = factorial(k)
    for x in parts:
        ways //= factorial(x)
    return ways


def _combination(m: int, k: int, index: int) -> list[int]:
    """The ``index``-th ``k``-combination of ``range(m)`` in ``itertools.combinations``'s
    order."""
    out: list[int] = []
    start = 0
    for slot in range(k):
        for c in range(start, m):
            block = comb(m - c - 1, k - slot - 1)
            if index < block:
                out.append(c)
                start = c + 1
                break
            index -= block
    return out


def _deals(cards: list[int], parts: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Each way to deal ``cards`` into groups of ``parts`` cards, as bit sets."""
    if not parts:
        yield ()
        return
    for chosen in combinations(range(len(cards)), parts[0]):
        mask = 0
        for j in chosen:
            mask |= 1 << cards[j]
        rest = [c for j, c in enumerate(cards) if j not in chosen]
        for more in _deals(rest, parts[1:]):
            yield (mask, *more)


def sample_layouts(knowledge: Knowledge, n: int, seed: int) -> list[Layout]:
    """``n`` consistent layouts drawn uniformly (with replacement) from ``seed``."""
    layouts = Layouts(knowledge)
    rng = random.Random(seed)
    return [layouts.sample(rng) for _ in range(n)]


def stratified_layouts(knowledge: Knowledge, n: int, seed: int) -> list[Layout]:
    """``n`` layouts drawn stratified (``Layouts.stratified``) from ``seed``."""
    return Layouts(knowledge).stratified(n, random.Random(seed))


def exact_layouts(knowledge: Knowledge) -> Iterator[Layout]:
    """Every consistent layout once."""
    return Layouts(knowledge).all()


def count_layouts(knowledge: Knowledge) -> int:
    """How many consistent layouts there are."""
    return Layouts(knowledge).count

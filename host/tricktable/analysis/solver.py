"""The double-dummy solver: the tricks a side takes from a position with best play by all.

A position is a ``CardPlay`` (``engine.intplay``): every hand known, trump (the ordering),
the trick in progress and who plays next. ``Solver(cp).tricks(side)`` is how many of the
tricks still to be finished ``side`` takes when it plays to take the most and every other
seat plays to stop it. With two sides that is the exact double-dummy result; with more
(cutthroat, five-handed) it is what the side can make against the others together.

The search is a null-window test ("can the side take ``need`` more tricks?") repeated as a
search on the target that starts from the solver's last answer (the positions of one hand
follow each other) or, for the first, from the side's share of the high cards, and steps
one trick at a time from there (the tests near the answer are the costly ones), with:

- a transposition table at trick starts, by partition search: a result is stored with the
  cards it depended on (per suit the best few left; the others are small cards, whose
  holders do not matter beyond each hand's count of the suit) and answers every trick start
  with the same leader and suit lengths whose holders of those cards, in rank order, are
  the same; bounds on the tricks the side takes from there, kept across one solver's tests;
- equivalent cards merged: cards of one suit in one hand with no card of another hand (or
  of the trick in progress) ranking between them play alike, so one of them is tried
  (the two copies of a double-deck card tie: a copy elsewhere breaks the run);
- sure tricks bound the search from both sides before it starts a trick: a hand's run of
  best trumps wins a trick each whoever leads (each in a trick of its own), and the leader
  cashes its runs of best cards in other suits (as many rounds as every opponent who holds
  a trump follows suit; the whole suit when nobody else holds it after the run and no
  opponent holds a trump); a team is sure of its surest hand's count;
- at a trick's last card, the trick starts after each card the player may play are looked
  up (the table, the sure tricks) before any is searched: one that answers for the player
  ends the node, and those that answer against it are not searched (enhanced transposition
  cutoff);
- move ordering: at a lead, the lead that settled the last test there, winners nobody can
  ruff (trumps last), then low cards to a partner's winner or to a partner who ruffs, then
  low cards of the suits an opponent heads (in both, the suits where the side's best card
  is lowest first), suits an opponent ruffs last; following, the lowest card that wins the
  trick first, low cards when the player's own side wins;
- the search walks its own copy of the hands (bit sets, the trick's best card carried
  down), with no ``CardPlay.play`` on its path.

The search itself is compiled: ``analysis/_search.c`` (``_search.Core``, one per side of a
solver, holding its transposition table), built from the rules as data (the ordering's
effective suits, strengths and trick keys, the seats and sides); this module drives it.
A variant's lead restriction is asked through a callback once per hand and set of cards
gone (what Spades' broken spades and Bauer's first lead depend on), and no more below a
position the variant calls free (``Variant.leads_free``); the callback shows the rules the
search's position through the ``CardPlay`` (its hands and finished tricks) and puts it
back, so the position is as it was after each call, even one stopped by an exception.
Solvers of the same deal with other leaders can share tables (``share``). Imports
``cards``, ``engine.intplay`` and ``analysis._search``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tricktable.analysis._search import Core
from tricktable.cards import bits as _bits
from tricktable.engine.intplay import CardPlay

__all__ = ["Solver", "Stats"]


@dataclass
class Stats:
    """The work of searches (several solvers may share one): nodes visited, transposition
    table probes and the probes answered by a stored bound."""

    nodes: int = 0
    probes: int = 0
    hits: int = 0


class Solver:
    """Double-dummy searches from one position (see the module docstring); ``stats`` counts
    their work (for the benches)."""

    def __init__(self, cp: CardPlay, stats: Stats | None = None,
                 share: Solver | None = None) -> None:
        """``share``: a solver of the same hands, trump and seats before any card is played
        (another leader): its transposition tables and last answers are used too, since
        the positions after the first trick are largely the same."""
        self.cp = cp
        self.stats = stats or Stats()
        if share is not None:
            other = share.cp
            if (other.hands != cp.hands or other.order is not cp.order
                    or other.seats != cp.seats or other.side_of != cp.side_of
                    or other.trick or other.tricks or cp.trick or cp.tricks):
                raise ValueError("a solver shares its tables only with one of the same deal")
            self._suit_order, self._key_order = share._suit_order, share._key_order
            self._cores, self._last = share._cores, share._last
            return
        order = cp.order
        present = self._present()
        self._suit_order = [
            sorted((p for p in _bits(present & m)), key=order.strength.__getitem__, reverse=True)
            for m in order.suit_masks]
        owner = {p: seat for seat in cp.seats for p in _bits(cp.hands[seat])}
        self._key_order = [
            [(p, owner[p], seq[i - 1] if i and order.strength[p] == order.strength[
                seq[i - 1]] else -1) for i, p in enumerate(seq) if p in owner]
            for seq in self._suit_order]
        """Per suit, each card held at the start (card, holder, the card above when the two
        tie, else -1): the transposition key of a trick start is the holders in rank order
        (+ 8 for a card that ties the one above)."""
        self._cores: dict[int, Core] = {}
        self._last: dict[int, int] = {}

    def tricks(self, side: int) -> int:
        """The tricks ``side`` takes of those still to be finished, with best play. With two
        sides, side 1 takes what side 0 does not (one search, one table)."""
        cp = self.cp
        if cp.over:
            return 0
        if side == 1 and len(cp.won) == 2:
            return cp.remaining - self.tricks(0)
        core = self._core(side)
        core.set_position(cp.hands, cp.trick, len(cp.tricks))
        present = self._present()
        trick = cp.trick
        gone = led = best = best_seat = 0
        if trick:
            led = cp.eff[trick[0][1]]
            keys = cp.order.keys[led]
            best = -2
            for s, q in trick:
                gone |= 1 << q
                if keys[q] > best:
                    best, best_seat = keys[q], s
        lo, hi = 0, cp.remaining
        total = self._last.get(side)  # the last answer, in tricks of the whole hand
        guess = self._guess(side, present) if total is None else total - cp.won[side]
        mid = min(hi, max(1, guess))
        try:
            while lo < hi:
                ok = core.test(mid, present, cp.to_play, len(trick), led, best, best_seat, gone)
                if ok:
                    lo = mid
                else:
                    hi = mid - 1
                mid = lo + 1 if ok else hi  # one trick at a time from the guess
        finally:
            nodes, probes, hits = core.counters()
            stats = self.stats
            stats.nodes += nodes
            stats.probes += probes
            stats.hits += hits
        self._last[side] = cp.won[side] + lo
        return lo

    def _core(self, side: int) -> Core:
        """The compiled search of ``side`` (its transposition table lives as long as the
        solver), built from the rules as data: the ordering, the seats and sides."""
        core = self._cores.get(side)
        if core is None:
            cp = self.cp
            order = cp.order
            core = self._cores[side] = Core(
                cp.seats, [cp.side_of[s] == side for s in range(len(cp.side_of))],
                order.eff, order.strength, order.keys, order.suit_masks, self._suit_order,
                self._key_order, order.trump_suit, self._lead_mask if cp.restricts else None)
        return core

    def _lead_mask(self, seat: int, hands: list[int], finished: list[tuple[int, list[
            tuple[int, int]], int]]) -> tuple[int, bool]:
        """The variant's lead restriction for the search's position (``hands`` and the
        tricks ``finished`` in the search, shown to the rules through the ``CardPlay``):
        the cards ``seat`` may lead, and whether no lead is restricted from here on."""
        cp = self.cp
        saved, done = list(cp.hands), len(cp.tricks)
        cp.hands[:] = hands
        cp.tricks.extend(finished)
        try:
            v = cp.variant
            return v.lead_mask(cp, seat, hands[seat]), v.leads_free(cp)  # type: ignore[arg-type]
        finally:
            cp.hands[:] = saved
            del cp.tricks[done:]

    def _guess(self, side: int, present: int) -> int:
        """A first target: the side's share of the high cards (the four best of each suit,
        trumps counting double) of the tricks left."""
        cp = self.cp
        points = [0, 0]  # the side's, everyone else's
        for s, seq in enumerate(self._suit_order):
            weight = 2 if s == cp.order.trump_suit else 1
            value = 4
            for p in seq:
                if not present >> p & 1 or not value:
                    continue
                holder = [x for x in cp.seats if cp.hands[x] >> p & 1]
                if holder:
                    points[cp.side_of[holder[0]] != side] += value * weight
                value -= 1
        total = points[0] + points[1]
        return round(cp.remaining * points[0] / total) if total else 0

    def _present(self) -> int:
        """Every card still in a playing hand or in the trick in progress."""
        cp = self.cp
        m = 0
        for s in cp.seats:
            m |= cp.hands[s]
        for _, p in cp.trick:
            m |= 1 << p
        return m

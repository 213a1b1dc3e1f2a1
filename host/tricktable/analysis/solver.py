"""The double-dummy solver: the tricks a side takes from a position with best play by all.

A position is a ``CardPlay`` (``engine.intplay``): every hand known, trump (the ordering),
the trick in progress and who plays next. ``Solver(cp).tricks(side)`` is how many of the
tricks still to be finished ``side`` takes when it plays to take the most and every other
seat plays to stop it. With two sides that is the exact double-dummy result; with more
(cutthroat, five-handed) it is what the side can make against the others together.

The search is a null-window test ("can the side take ``need`` more tricks?") repeated as a
search on the target that starts from the solver's last answer (the positions of one hand
follow each other) or, for the first, from the side's share of the high cards (with trumps
in play at a table of two partnerships, from half the tricks left moved by the high cards
and the trumps each side holds), and steps
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
  opponent holds a trump), or, when its run of best trumps is as long as every other
  hand's trumps, draws them: then each of its trumps and, as with no trump left, its runs;
  with partners opposite, the leader and its partner run one suit together (the shorter
  hand's best cards first, the longer keeping the lead) while the side's cards are above
  the opponents' or they are out of the suit and no opponent can ruff; with no trump in
  any hand, the leader cashes its runs and then leads to a partner who cashes its own (and
  the cards the leader's runs left the best); with partners opposite, a team holding the
  second best trump with another, sitting right after the best one's holder or with the
  third best too, is sure of a trick ("K behind A", "KQ"); a team that needs every trick
  left fails, at a table of four with partners opposite, when the leader is of it and the
  other team heads every suit the leader holds (none one the leader's partner ruffs), or,
  with no trump in any hand, when its longer hand's cards in the suits it heads come to
  fewer than the tricks left (DDS's later tricks); a leader whose team holds every trump
  left is sure of a trick more than its own trumps when a partner holding a trump is void
  of a suit the leader holds (the partner ruffs it; DDS's quick tricks), and of one trick
  by such a ruff when no opponent can overruff; a team is sure of its surest hand's count,
  and a trick start the sure tricks settle is stored in the table;
- at second hand, a side whose card beats whatever the opponents still to play can play is
  sure of the trick (by a ruff no opponent still to play can ruff: whatever the trumps'
  ranks), and its winning hand of its runs after it (with trumps left, as many
  rounds as every opponent holding a trump follows), then, with partners opposite, of its
  partner's runs (DDS's quick tricks at the second hand, and more);
- after a card of a suit is searched without a cutoff, the suit's other cards below every
  card that result depended on are not searched: they play as that one did (DDS);
- move ordering: at a table of four with partners opposite, DDS's weights (per suit and
  position: who holds the best cards, the lengths, voids and trumps; the lead that settled
  the last test there and the last lead that cut with as many cards in hand get a bonus);
  at other tables, at a lead, the lead that settled the last test there, winners nobody
  can ruff (trumps last), then low cards to a partner's winner or to a partner who ruffs,
  then low cards of the suits an opponent heads (in both, with no trump left the suits
  where the opponents hold fewest cards first, then those where the side's best card is
  lowest), suits an opponent ruffs last; following, the lowest card that wins the trick
  first, low cards when the player's own side wins;
- the search walks its own copy of the hands (bit sets, the trick's best card carried
  down), with no ``CardPlay.play`` on its path.

The search itself is compiled, the target steps included: ``analysis/_search.c``
(``_search.Core``, one per side of a solver, holding its transposition table), built from
the rules as data (the ordering's effective suits, strengths and trick keys as a
``_search.Rules`` made once per ordering, the seats and sides, the hands).
A variant's lead restriction is asked through a callback once per hand and set of cards
gone (what Spades' broken spades and Bauer's first lead depend on), and no more below a
position the variant calls free (``Variant.leads_free``); the callback shows the rules the
search's position through the ``CardPlay`` (its hands and finished tricks) and puts it
back, so the position is as it was after each call, even one stopped by an exception.
Solvers of the same deal with other leaders can share tables (``share``); a search whose
table holds another position's results looks first, at a trick's last card in the first three
tricks, for a card whose next trick start the table already answers (an enhanced
transposition cutoff).
"""

from __future__ import annotations

from dataclasses import dataclass

from tricktable.analysis._search import Core, Rules
from tricktable.cards import Ordering
from tricktable.engine.intplay import CardPlay

__all__ = ["Solver", "Stats"]


@dataclass
class Stats:
    """The work of searches (several solvers may share one): nodes visited, transposition
    table probes and the probes answered by a stored bound."""

    nodes: int = 0
    probes: int = 0
    hits: int = 0


_RULES: dict[int, tuple[Ordering, Rules]] = {}
"""Per ordering (by identity: orderings are interned), the rules as data for the compiled
search, built once."""


def _rules(order: Ordering) -> Rules:
    kept = _RULES.get(id(order))
    if kept is None or kept[0] is not order:
        kept = _RULES[id(order)] = (order, Rules(order.eff, order.strength, order.keys,
                                                 order.suit_masks, order.trump_suit))
    return kept[1]


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
            self._cores, self._last = share._cores, share._last
            return
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
        core = self._cores.get(side) or self._core(side)
        last = self._last.get(side)  # the last answer, in tricks of the whole hand
        free = cp.restricts and cp.variant.leads_free(cp)  # type: ignore[arg-type]
        try:
            got = core.solve(cp.hands, cp.trick, len(cp.tricks), cp.to_play, cp.remaining,
                             -1 if last is None else last - cp.won[side], free)
        finally:
            nodes, probes, hits = core.counters()
            stats = self.stats
            stats.nodes += nodes
            stats.probes += probes
            stats.hits += hits
        self._last[side] = cp.won[side] + got
        return got

    def _core(self, side: int) -> Core:
        """The compiled search of ``side`` (its transposition table lives as long as the
        solver), built from the rules as data: the ordering, the seats and sides, the cards
        as the solver starts (the transposition key's cards); the lead rule only where a lead
        may still be restricted (the positions asked of a solver follow its first one, so a
        hand whose leads are free then stays free: Spades with ``breaking_spades`` off)."""
        cp = self.cp
        free = cp.restricts and cp.variant.leads_free(cp)  # type: ignore[arg-type]
        core = self._cores[side] = Core(
            _rules(cp.order), cp.seats, [cp.side_of[s] == side for s in range(len(cp.side_of))],
            cp.hands, cp.trick, self._lead_mask if cp.restricts and not free else None)
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

"""Par for the auction: what every contract would make double dummy, and where the auction ends.

``hand_par(start, dd)`` takes the table as its auction begins (every hand dealt and known,
no bid yet) and returns a JSON-able dict (docs/analysis.md, "Par"):

- ``contracts``: every contract the variant's own auction can reach (each seat, each bid its
  ``legal_bids`` offers in some auction, each trump the declarer could name), with the
  double-dummy tricks of each side and the score the variant's ``score_hand`` gives them;
- ``par``: the contract a perfect-information auction ends in, each side bidding (and naming
  trump, and choosing what it discards or passes) to make its own score minus the other
  side's as large as it can (the other way round where the lower score wins); ``auction``:
  that auction's bids; ``by_bid``: each side's best contract at each bid, for a compact
  table.

The auction is the variant's: ``first_bidder``, ``may_pass``, ``legal_bids``,
``next_bidder``, ``auction_over`` and ``auction_result`` are asked of the variant on a copy
of the table, so one round of rising bids (Bid Euchre), Euchre's two rounds of ordering up
and naming a suit, a dealer who may match a pepper or is stuck all play as the rules say.
The hands after the auction are the dealt hands with the variant's ``exchanges`` made: the
up-card to the dealer, and every card a giver may pass (``exchange_refusal``) tried, the
giver keeping the best for its side (Euchre's discard, Buckpfeffer's forced best and worst
cards); exchanges with more than ``MAX_EXCHANGE_CHOICES`` ways to go (small pepper's free
card each way) are not searched: the row is played from the hands as dealt. Par is not
given where it has no meaning (said with ``none`` and why): more than two sides; Spades,
where every seat bids and no auction is won (the tricks each side takes, the bid that
makes, are given instead); a contract fixed before any bid.
Rows, the par and each bid carry ``text`` in words (``history.words``) for the replay page.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from tricktable.analysis.solver import Solver, Stats
from tricktable.engine.intplay import CardPlay
from tricktable.engine.state import State
from tricktable.history.words import bid_words, contract_words
from tricktable.rules.base import STOCK, Contract, Variant
from tricktable.rules.spades import Spades

__all__ = ["DoubleDummy", "hand_par", "auction_start", "contract_value", "contract_score",
           "side_margin", "PASS"]

PASS = "PASS"

MAX_EXCHANGE_CHOICES = 8
"""Exchanges with more ways to go than this (small pepper's card each way: 6 x 7) are not
searched: the row is played from the hands as dealt."""


class DoubleDummy:
    """The double-dummy tricks of each side of one table's variant, each position solved once
    (the contracts table and par share them), the leaders of one deal and trump sharing the
    search's tables."""

    def __init__(self, st: State, stats: Stats | None = None) -> None:
        self.variant, self.options, self.side_of = st.variant, st.options, st.side_of
        self.n_sides = len(st.sides)
        self.stats = stats
        self._solved: dict[tuple[Any, ...], list[int]] = {}
        self._sharing: dict[tuple[Any, ...], Solver] = {}  # the other leaders share its tables

    @property
    def positions(self) -> int:
        """How many positions have been solved."""
        return len(self._solved)

    def tricks(self, trump: str, hands: Sequence[int], seats: Sequence[int],
               leader: int) -> list[int]:
        """The tricks each side takes with best play from ``hands`` (a bit set per seat;
        only ``seats`` play), ``trump`` named and ``leader`` to lead."""
        held = tuple(hands[s] if s in seats else 0 for s in range(len(hands)))
        key = (trump, held, tuple(seats), leader)
        if key not in self._solved:
            v = self.variant
            cp = CardPlay(v, self.options, v.ordering(trump), held, seats, self.side_of, leader)
            deal = (trump, held, tuple(seats))
            solver = Solver(cp, self.stats, share=self._sharing.get(deal))
            self._sharing.setdefault(deal, solver)
            if self.n_sides == 2:
                first = solver.tricks(0)
                self._solved[key] = [first, cp.remaining - first]
            else:
                self._solved[key] = [solver.tricks(i) for i in range(self.n_sides)]
        return self._solved[key]


def auction_start(st: State) -> State:
    """A copy of a table in its deal or bidding phase, before any bid, as its auction begins
    (what ``hand_par`` takes); the engine's later changes do not reach it."""
    view = copy.copy(st)
    view.known = list(st.known)
    view.count = [st.hand_size] * st.n
    view.scores = list(st.scores)
    view.tally = dict(st.tally)
    view.phase, view.bids, view.high, view.contract = "bidding", [], None, None
    return view


def hand_par(start: State, dd: DoubleDummy) -> dict[str, Any]:
    """Par of the hand whose auction begins at ``start`` (see the module docstring)."""
    v = start.variant
    if len(start.sides) != 2:
        return {"none": "par needs two sides: with more, what a side takes double dummy is "
                        "against all the others together, and how they share the rest (so "
                        "their scores) is not fixed"}
    if any(start.known[s].bit_count() != start.hand_size for s in range(start.n)):
        return {"none": "every hand must be known as dealt to work out par"}
    if isinstance(v, Spades):
        return _spades(start, dd)
    if v.pre_auction_contract(start) is not None:
        return {"none": "the contract was fixed before any bid this hand: there is no auction"}
    try:
        return _Auction(start, dd).par()
    except _UpCardUnknown:
        return {"none": "the up-card is not known: the contracts that take it up cannot be "
                        "worked out"}


class _UpCardUnknown(Exception):
    """A contract takes up the up-card and nobody scanned it."""


def _spades(start: State, dd: DoubleDummy) -> dict[str, Any]:
    """Spades: each seat bids for its side and no auction is won, so par in the usual sense
    has no meaning; the tricks each side takes double dummy are the bid that makes."""
    view = copy.copy(start)
    view.contract = Contract(seat=start.dealer, bid="SPADES", need=0, trump="S")
    leader = start.variant.first_leader(view)
    tricks = dd.tricks("S", start.known, range(start.n), leader)
    return {"none": "every seat bids its own tricks and no auction is won: the tricks each "
                    "side takes double dummy are the bid that makes",
            "tricks": tricks, "leader": leader}


class _Auction:
    """The auction of one hand played with every hand known (``hand_par``)."""

    def __init__(self, start: State, dd: DoubleDummy) -> None:
        self.start, self.dd, self.v = start, dd, start.variant
        self.rows: list[dict[str, Any]] = []
        self._leaves: dict[Contract, tuple[int, dict[str, Any]]] = {}

    def par(self) -> dict[str, Any]:
        st = self.start
        margin, auction, best = self._walk((), self.v.first_bidder(st))
        text = "passed out" if best is None else best["text"]
        return {"par": best, "margin": margin, "text": text,
                "auction": [[seat, bid] for seat, bid in auction],
                "contracts": self.rows, "by_bid": self._by_bid()}

    def _view(self, bids: tuple[tuple[int, str], ...]) -> State:
        view = copy.copy(self.start)
        view.bids = list(bids)
        view.high = next(((s, b) for s, b in reversed(bids) if b != PASS), None)
        return view

    def _walk(self, bids: tuple[tuple[int, str], ...], seat: int
              ) -> tuple[int, tuple[tuple[int, str], ...], dict[str, Any] | None]:
        """(side 0's margin, the auction, the contract row) of best play by both sides from
        ``bids`` with ``seat`` to speak. A side prefers passing, then the lower bid, on a tie."""
        v, view = self.v, self._view(bids)
        sign = 1 if self.start.side_of[seat] == 0 else -1
        choices = ([PASS] if v.may_pass(view, seat) else []) + v.legal_bids(view, seat)
        best: tuple[int, tuple[tuple[int, str], ...], dict[str, Any] | None] | None = None
        for bid in choices:
            after = (*bids, (seat, bid))
            later = self._view(after)
            if v.auction_over(later):
                contract = v.auction_result(later)
                margin, row = (0, None) if contract is None else self._leaf(later, contract)
                result = (margin, after, row)
            else:
                result = self._walk(after, v.next_bidder(later, seat))
            if best is None or sign * result[0] > sign * best[0]:
                best = result
        assert best is not None, "a seat to speak always has a pass or a bid"
        return best

    def _leaf(self, view: State, contract: Contract) -> tuple[int, dict[str, Any]]:
        """Side 0's margin and the row of ``contract`` with the trump its declarer names."""
        if contract not in self._leaves:
            side = self.start.side_of[contract.seat]
            sign = 1 if side == 0 else -1
            best: tuple[int, dict[str, Any]] | None = None
            trumps = [contract.trump] if contract.trump else self.v.trump_choices(
                _with(view, contract=contract))
            for trump in trumps:
                margin, row = self._played(view, contract.with_trump(trump))
                self.rows.append(row)
                if best is None or sign * margin > sign * best[0]:
                    best = (margin, row)
            assert best is not None, "a contract has a trump to name"
            self._leaves[contract] = best
        return self._leaves[contract]

    def _played(self, view: State, contract: Contract) -> tuple[int, dict[str, Any]]:
        """Side 0's margin and the row of ``contract`` (trump named) played double dummy,
        after the exchanges the variant makes for it."""
        v, st = self.v, self.start
        view = _with(view, contract=contract, order=v.ordering(contract.trump or ""))
        out = v.sitting_out(view)
        seats = [s for s in range(st.n) if s not in out]
        leader = v.first_leader(view)
        while leader in out:
            leader = (leader + 1) % st.n

        def play(hands: list[int]) -> tuple[int, dict[str, Any]]:
            tricks = self.dd.tricks(contract.trump or "", hands, seats, leader)
            score = contract_score(view, contract, tricks, seats)
            row = {"seat": contract.seat, "bid": contract.bid, "trump": contract.trump,
                   "alone": contract.alone, "need": contract.need, "leader": leader,
                   "tricks": tricks, "score": score}
            return side_margin(self.v, score), row

        steps = v.exchanges(view)
        if self._choices(view, list(st.known), steps) <= MAX_EXCHANGE_CHOICES:
            margin, row = self._exchanged(view, list(st.known), steps, 0, play)
        else:
            margin, row = play(list(st.known))
            row["exchange_not_searched"] = True
        row["text"] = f"{contract_words(st.players, row)}: {_result(row['tricks'], row['score'])}"
        return margin, row

    def _exchanged(self, view: State, hands: list[int], steps: list[tuple[int, int]],
                   index: int, play: Any) -> tuple[int, dict[str, Any]]:
        """The best of the exchanges ``steps`` (from the ``index``-th of the hand) for each
        giver's side in turn, then ``play``: the up-card goes to its receiver; a giver
        passes (or discards) each card the rules let it, keeping the best for its side."""
        st = self.start
        if not steps:
            return play(hands)
        giver, receiver = steps[0]
        if giver == STOCK:
            if st.up_card is None:
                raise _UpCardUnknown
            moved = list(hands)
            moved[receiver] |= 1 << st.up_card
            view = _with(view, taken_up=st.up_card)
            return self._exchanged(view, moved, steps[1:], index + 1, play)
        sign = 1 if st.side_of[giver] == 0 else -1
        best: tuple[int, dict[str, Any]] | None = None
        allowed = self._allowed(view, hands, giver, receiver, index)
        if receiver == STOCK:
            allowed = _distinct(view, hands, giver, allowed)
        for p in allowed:
            moved = list(hands)
            moved[giver] &= ~(1 << p)
            if receiver != STOCK:
                moved[receiver] |= 1 << p
            margin, row = self._exchanged(view, moved, steps[1:], index + 1, play)
            if best is None or sign * margin > sign * best[0]:
                best = (margin, row | {"passed": [st.card_name(p), *row.get("passed", [])]})
        assert best is not None, "a giver holds a card it may pass"
        return best

    def _allowed(self, view: State, hands: list[int], giver: int, receiver: int,
                 index: int) -> list[int]:
        """The cards ``giver`` may pass now (``exchange_refusal``: Buckpfeffer's best and
        worst cards)."""
        now = _with(view, known=hands, count=[h.bit_count() for h in hands])
        return [p for p in range(hands[giver].bit_length()) if hands[giver] >> p & 1
                and not self.v.exchange_refusal(now, giver, receiver, index, p)]

    def _choices(self, view: State, hands: list[int], steps: list[tuple[int, int]]) -> int:
        """How many ways the exchanges ``steps`` can go, counted along their first choices
        (the cards a giver may pass seldom depend on what it was passed)."""
        ways = 1
        for index, (giver, receiver) in enumerate(steps):
            if giver == STOCK:
                if self.start.up_card is not None:
                    hands = list(hands)
                    hands[receiver] |= 1 << self.start.up_card
                continue
            allowed = self._allowed(view, hands, giver, receiver, index)
            ways *= max(1, len(allowed))
            if allowed:
                hands = list(hands)
                hands[giver] &= ~(1 << allowed[0])
                if receiver != STOCK:
                    hands[receiver] |= 1 << allowed[0]
        return ways

    def _by_bid(self) -> list[dict[str, Any]]:
        """Each bid the rows hold (ladder order), with each side's best row at that bid."""
        ladder = self.v.bid_ladder
        bids = sorted({r["bid"] for r in self.rows},
                      key=lambda b: ladder.index(b) if b in ladder else len(ladder))
        out = []
        for bid in bids:
            sides: list[dict[str, Any] | None] = []
            for side in range(2):
                mine = [r for r in self.rows
                        if r["bid"] == bid and self.start.side_of[r["seat"]] == side]
                sign = 1 if side == 0 else -1
                sides.append(max(mine, key=lambda r: sign * side_margin(self.v, r["score"]),
                                 default=None))
            out.append({"bid": bid, "text": bid_words(bid), "sides": sides})
        return out


def contract_value(start: State, bids: Sequence[tuple[int, str]], contract: Contract,
                   dd: DoubleDummy) -> tuple[int, dict[str, Any]]:
    """Side 0's margin (``side_margin``) and the row of ``contract``, reached by ``bids`` from
    the table ``start`` (as ``hand_par`` takes it: every hand known, no bid yet), played as
    par plays it: a trump the contract leaves open named by its declarer as best for its
    side, each exchange the best for its giver's side, then double dummy. Single dummy
    (``analysis.decisions``) values an auction's choices with it."""
    auction = _Auction(start, dd)
    return auction._leaf(auction._view(tuple(bids)), contract)


def contract_score(view: State, contract: Contract, tricks: Sequence[int],
                   seats: Sequence[int]) -> list[int]:
    """The variant's score change of each side for ``contract`` (trump named) on the table
    ``view`` when each side takes ``tricks`` (indexed as the sides; only ``seats`` play):
    the rules' own ``score_hand``, asked of a copy of the table."""
    won = [0] * view.n
    for side, members in enumerate(view.sides):
        playing = [s for s in members if s in seats] or list(members)
        taker = contract.seat if contract.seat in playing else playing[0]
        won[taker] = tricks[side]
    scored = _with(view, contract=contract, tricks_won=won, dropped=set(view.dropped),
                   phase="play")
    return list(view.variant.score_hand(scored).deltas)


def side_margin(variant: Variant, score: Sequence[int]) -> int:
    """How much better ``score`` (the change of each of two sides' scores) leaves side 0
    than side 1: the difference, turned round where the lower score wins (Buck Euchre, Eau
    Claire, Bauer)."""
    return (score[1] - score[0]) if variant.low_score_wins else (score[0] - score[1])


def _result(tricks: list[int], score: list[int]) -> str:
    """``5-1 tricks, +5/+1``: the tricks and the score of each side."""
    return f"{'-'.join(map(str, tricks))} tricks, {'/'.join(f'{d:+d}' for d in score)}"


def _distinct(view: State, hands: list[int], giver: int, cards: list[int]) -> list[int]:
    """One of each run of ``cards`` that discard alike: cards of one suit (under the trump
    named) of ``giver``'s hand with no card of another hand ranking between them; the
    positions they leave differ only in which of equals is held."""
    order = view.order
    assert order is not None, "trump is named before the exchanges"
    others = 0
    for seat, held in enumerate(hands):
        if seat != giver:
            others |= held
    kept: list[int] = []
    for p in sorted(cards, key=lambda c: (order.eff[c], order.strength[c])):
        if kept and order.eff[kept[-1]] == order.eff[p] and not any(
                others >> q & 1 and order.eff[q] == order.eff[p]
                and order.strength[kept[-1]] < order.strength[q] < order.strength[p]
                for q in range(others.bit_length())):
            continue
        kept.append(p)
    return kept


def _with(view: State, **fields: Any) -> State:
    """A shallow copy of ``view`` with ``fields`` replaced."""
    out = copy.copy(view)
    for name, value in fields.items():
        setattr(out, name, value)
    return out

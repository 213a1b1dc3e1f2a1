"""What each choice of a decision is worth on one layout of the hidden hands: single dummy's
valuation (``analysis.decisions`` weighs the decisions with it).

``Decision``: one decision as a game's replay met it. ``values(decision)`` is the function
that gives, for a layout (every hand and the stock), the tricks and points of the chooser's
side for each legal choice, in the order of ``decision.choices``:

- a card: the tricks the side has taken plus what it takes double dummy from the position
  after the card (one ``Solver`` per layout, its tables shared by the choices); points: the
  rules' score of the hand (``par.contract_score``) when the sides take those tricks, as the
  side's change minus the other's (``par.side_margin``);
- an auction choice: the choice made, then the rest of the auction as it went where each
  later call is still legal (the k-th call after this one, when the same seat speaks k-th),
  else a pass (a seat that may not pass bids the best for its side double dummy); the
  contract it ends in played as par plays it (``par.contract_value``; once a layout for
  the choices that end in the same contract, whose value is the contract's, not the
  calls'); passed out: 0;
- naming trump: the contract with that trump, played the same way;
- the dealer's discard: the play from the hands after it, double dummy.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tricktable.analysis.knowledge import Layout
from tricktable.analysis.par import (
    PASS,
    DoubleDummy,
    auction_start,
    contract_score,
    contract_value,
    side_margin,
)
from tricktable.analysis.solver import Solver
from tricktable.cards import physical_index
from tricktable.engine.actions import Action, Bid, DeclareTrump, Exchange, Play
from tricktable.engine.intplay import CardPlay
from tricktable.engine.state import State
from tricktable.rules.base import Contract

__all__ = ["Decision", "Valuer", "values", "physical", "same_choice", "bid_of"]


@dataclass
class Decision:
    """One decision as the replay met it: the table then (a copy), who decided, the legal
    choices, the action played, the cards the player had passed this hand and the
    decision's place among the hand's."""

    st: State
    seat: int
    choices: list[Action]
    played: Action
    passed: dict[int, int]
    index: int
    later: list[tuple[int, str]] = field(default_factory=list)
    """An auction's decision: the calls made after it in the hand's auction."""


def same_choice(a: Action, b: Action) -> bool:
    """Whether two actions are the same choice (a card of a known copy as its bare card)."""
    if type(a) is not type(b):
        return False
    if type(a) in (Play, Exchange):
        return a.card == b.card and (b.copy is None or a.copy == b.copy)  # type: ignore[attr-defined]
    return a == b



Valuer = Callable[[Layout], list[tuple[float, float]]]


def values(point: Decision) -> Valuer:
    """The function giving (tricks, points) of the player's side for each choice on a
    layout."""
    kind = type(point.played)
    if kind is Play:
        return _card_values(point)
    if kind is Exchange:
        return _discard_values(point)
    return _auction_values(point)


def _sign(st: State, seat: int) -> int:
    return 1 if st.side_of[seat] == 0 else -1


def _card_values(point: Decision) -> Valuer:
    st, seat = point.st, point.seat
    assert st.order is not None and st.contract is not None
    side = st.side_of[seat]
    seats = [s for s in range(st.n) if s not in st.out]
    cards = [physical(a) for a in point.choices]
    scores: dict[int, float] = {}

    def points(tricks: int) -> float:
        if tricks not in scores:
            split = [0, 0]
            split[side], split[1 - side] = tricks, st.hand_size - tricks
            score = contract_score(st, st.contract, split, seats)  # type: ignore[arg-type]
            scores[tricks] = _sign(st, seat) * side_margin(st.variant, score)
        return scores[tricks]

    def value(layout: Layout) -> list[tuple[float, float]]:
        cp = CardPlay(st.variant, st.options, st.order, layout.hands,  # type: ignore[arg-type]
                      seats, st.side_of, st.leader, st.trick, st.tricks)
        solver = Solver(cp)
        solver.tricks(side)  # the position before the card: its tables serve every choice
        out = []
        for p in cards:
            cp.play(p)
            tricks = cp.won[side] + solver.tricks(side)
            cp.undo()
            out.append((float(tricks), points(tricks)))
        return out

    return value


def physical(action: Action) -> int:
    """The card of a play or an exchange as its bit index (a legal action's: its copy
    named)."""
    return physical_index(action.card, action.copy or 0)  # type: ignore[attr-defined]


def _discard_values(point: Decision) -> Valuer:
    st, seat = point.st, point.seat
    contract = st.contract
    assert contract is not None and contract.trump is not None
    v = st.variant
    side = st.side_of[seat]
    out_seats = v.sitting_out(st)
    seats = [s for s in range(st.n) if s not in out_seats]
    leader = v.first_leader(st)
    while leader in out_seats:
        leader = (leader + 1) % st.n
    cards = [physical(a) for a in point.choices]
    trump = contract.trump

    def value(layout: Layout) -> list[tuple[float, float]]:
        dd = DoubleDummy(st)
        out = []
        for p in cards:
            hands = list(layout.hands)
            hands[seat] &= ~(1 << p)
            tricks = dd.tricks(trump, hands, seats, leader)
            score = contract_score(st, contract, tricks, seats)
            out.append((float(tricks[side]), float(_sign(st, seat) * side_margin(v, score))))
        return out

    return value


def _auction_values(point: Decision) -> Valuer:
    st, seat = point.st, point.seat
    side = st.side_of[seat]
    sign = _sign(st, seat)
    if type(point.played) is DeclareTrump:
        contract = st.contract
        assert contract is not None
        endings: list[tuple[list[tuple[int, str]], Contract | None]] = [
            (list(st.bids), contract.with_trump(a.trump))  # type: ignore[attr-defined]
            for a in point.choices]
        later: list[tuple[int, str]] = []
    else:
        later = point.later
        endings = []

    def value(layout: Layout) -> list[tuple[float, float]]:
        start = auction_start(st)
        start.known = list(layout.hands)
        dd = DoubleDummy(start)
        ends = endings or [_auction_after(start, dd, point, a, later) for a in point.choices]
        out = []
        valued: dict[Contract, tuple[int, dict[str, Any]]] = {}  # the choices that end alike
        for bids, contract in ends:
            if contract is None:
                out.append((0.0, 0.0))
                continue
            if contract not in valued:
                valued[contract] = contract_value(start, bids, contract, dd)
            margin, row = valued[contract]
            out.append((float(row["tricks"][side]), float(sign * margin)))
        return out

    return value


def _auction_after(start: State, dd: DoubleDummy, point: Decision, choice: Action,
                   later: list[tuple[int, str]]) -> tuple[list[tuple[int, str]],
                                                        Contract | None]:
    """The auction with ``choice`` made, then each later call as it went where still legal
    (the k-th call after this one, when the same seat speaks k-th), else a pass; a seat that
    may not pass bids the best for its side double dummy. Returns the bids and the contract
    (None: passed out)."""
    v = start.variant
    bids = [*point.st.bids, (choice.seat, bid_of(choice))]
    seat = choice.seat
    k = 0
    while True:
        view = _auction_view(start, bids)
        if v.auction_over(view):
            return bids, v.auction_result(view)
        seat = v.next_bidder(view, seat)
        wanted = later[k][1] if k < len(later) and later[k][0] == seat else PASS
        k += 1
        legal = v.legal_bids(view, seat)
        if wanted in legal or (wanted == PASS and v.may_pass(view, seat)):
            bids.append((seat, wanted))
        elif v.may_pass(view, seat):
            bids.append((seat, PASS))
        else:
            bids.append((seat, _best_bid(start, dd, bids, seat, legal)))


def _best_bid(start: State, dd: DoubleDummy, bids: list[tuple[int, str]], seat: int,
              legal: list[str]) -> str:
    """The bid best for ``seat``'s side double dummy when the auction ends with it."""
    v = start.variant
    sign = _sign(start, seat)
    best, best_margin = legal[0], -math.inf
    for bid in legal:
        after = [*bids, (seat, bid)]
        view = _auction_view(start, after)
        contract = v.auction_result(view) if v.auction_over(view) else None
        if contract is None:
            continue
        margin = sign * contract_value(start, after, contract, dd)[0]
        if margin > best_margin:
            best, best_margin = bid, margin
    return best


def _auction_view(start: State, bids: list[tuple[int, str]]) -> State:
    view = copy.copy(start)
    view.bids = list(bids)
    view.high = next(((s, b) for s, b in reversed(bids) if b != PASS), None)
    return view


def bid_of(action: Action) -> str:
    return action.bid if type(action) is Bid else PASS  # type: ignore[attr-defined]

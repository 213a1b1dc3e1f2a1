"""Single dummy: every decision a player made, weighed over the hands the player could not see.

``analyse_decisions(record, seed=, samples=)`` replays a game record on the engine and, at
each decision of each hand that reached its play (a bid, a pass, ordering up, going alone,
naming trump, the dealer's discard, a card; a decision with one legal choice is not one),
takes what the player knew then (``analysis.knowledge``), deals the hidden cards
``samples`` times consistently with it (``analysis.sampling``; every consistent layout once,
``exact``, where there are no more of them than ``samples``), and values each legal choice
(the engine's ``legal_actions``) on every layout, the same layouts for every choice (common
random numbers: the choices are compared layout by layout):

- a card: the tricks the player's side has taken plus what it takes double dummy from the
  position after the card (``analysis.solver``); points: the rules' score of the hand
  (``Variant.score_hand``, through ``analysis.par.contract_score``) when the sides take
  those tricks, as the player's side's change minus the other's (``par.side_margin``);
- an auction choice: the choice made, then the rest of the auction as it went where each
  actual call is still legal in the new auction, else a pass (a seat that may not pass bids
  what is best for its side double dummy); the contract it ends in played as par plays it
  (``par.contract_value``: a trump left open named best for the declarer's side, each
  exchange best for its giver's side, then double dummy); a hand passed out scores 0;
- naming trump: the contract with that trump, played the same way;
- the dealer's discard (the last exchange before the play): the play from the hands
  after it, double dummy.

Each choice gets the mean tricks and points over the layouts and a 95% interval for the
points (the mean plus or minus 1.96 standard errors, the sample's standard deviation;
none for an exact answer); the choice played is marked; ``cost`` is the best choice's mean
points minus the played one's (0 when the played was best), with the interval of the
layout-by-layout differences. ``why`` says it in words, with the hidden card whose place
most separated the layouts where the best choice did better.
Deterministic for a seed (each decision's layouts drawn from its own seed); ``cancel`` (a
callable, or a ``threading.Event``) is asked between layouts (``Cancelled``); ``progress(done,
total)`` is told after each decision. Not modelled: what the auction said beyond its
facts (a pass suggests a weak hand), cards passed between partners, sitting out; hands
of games with more than two sides.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tricktable.analysis.knowledge import STOCK, Knowledge, Layout
from tricktable.analysis.par import (
    PASS,
    DoubleDummy,
    auction_start,
    contract_score,
    contract_value,
    side_margin,
)
from tricktable.analysis.sampling import Layouts
from tricktable.analysis.solver import Solver
from tricktable.engine import Engine
from tricktable.engine.actions import Action, Bid, DeclareTrump, Exchange, Pass, Play
from tricktable.engine.intplay import CardPlay
from tricktable.engine.state import State
from tricktable.history.record import GameRecord
from tricktable.history.words import bid_words, card_words, trump_words
from tricktable.rules.base import TRUMP_SUITS, Contract
from tricktable.rules.euchre import ALONE, ORDER_UP

__all__ = ["analyse_decisions", "Cancelled", "Settings", "FORMAT", "Z95"]

FORMAT = 1
"""The version of the single-dummy JSON (docs/analysis.md, "Single dummy")."""

Z95 = 1.96
"""The 95% normal quantile the intervals are drawn with."""

Cancel = Callable[[], bool] | Any
Progress = Callable[[int, int], None]


class Cancelled(Exception):
    """The analysis was cancelled between two layouts."""


@dataclass(frozen=True)
class Settings:
    """How single dummy is run: the seed its layouts are drawn from, how many per decision."""

    seed: int = 0
    samples: int = 100

    def to_json(self, method: str = "sampled") -> dict[str, Any]:
        return {"seed": self.seed, "samples": self.samples, "method": method,
                "format": FORMAT}


@dataclass
class _Point:
    """One decision as the replay met it: the table then (a copy), who decided, the legal
    choices, the action played and the cards the player had passed this hand."""

    st: State
    seat: int
    choices: list[Action]
    played: Action
    passed: dict[int, int]
    index: int
    later: list[tuple[int, str]] = field(default_factory=list)
    """An auction's decision: the calls made after it in the hand's auction."""


def analyse_decisions(record: GameRecord, *, seed: int = 0, samples: int = 100,
                      cancel: Cancel | None = None, progress: Progress | None = None,
                      exact_up_to: int | None = None) -> list[dict[str, Any]]:
    """Per hand that reached its play, ``{"hand_number", "decisions"}`` (see the module
    docstring; the JSON in docs/analysis.md); ``exact_up_to``: enumerate every layout where
    there are at most this many (default ``samples``; 0: always sample)."""
    if samples < 2:
        raise ValueError(f"single dummy needs at least 2 samples a decision, not {samples}")
    hands = _decision_points(record)
    total = sum(len(points) for _, points, _ in hands)
    done = 0
    exact_up_to = samples if exact_up_to is None else exact_up_to
    out: list[dict[str, Any]] = []
    names = list(record.players)
    for number, points, none in hands:
        hand: dict[str, Any] = {"hand_number": number, "decisions": []}
        if none:
            hand["none"] = none
        for point in points:
            hand["decisions"].append(_decide(point, names, seed, samples, exact_up_to,
                                             cancel))
            done += 1
            if progress is not None:
                progress(done, total)
        out.append(hand)
    return out


def _decision_points(record: GameRecord) -> list[tuple[int, list[_Point], str]]:
    """Each hand that reached its play: its number, its decisions, and why it has none."""
    cfg = record.config
    eng = Engine.new(cfg["variant"], cfg.get("options"), cfg.get("seed", 0),
                     cfg.get("dealer", 0), cfg.get("players"))
    hands: list[tuple[int, list[_Point], str]] = []
    points: list[_Point] = []
    passed: dict[int, dict[int, int]] = {}
    calls: list[tuple[int, str]] = []  # the hand's auction
    callers: list[tuple[_Point, int]] = []  # its decisions, each with its place in it
    for action in record.actions():
        st = eng.state
        number = st.hand_number
        point = _point(eng, action, passed, len(points))
        if point is not None:
            points.append(point)
        if type(action) in (Bid, Pass):
            if point is not None:
                callers.append((point, len(calls)))
            calls.append((action.seat, _bid_of(action)))
        if type(action) is Exchange and st.exchange_queue:
            giver, receiver = st.exchange_queue[0]
            before = st.known[giver]
        out = eng.apply(action)
        if not out.ok:
            raise ValueError(f"hand {number}: {action.to_json()} refused: {out.reason}")
        st = eng.state
        if type(action) is Exchange and st.hand_number == number:
            for p in _bits(before & ~st.known[giver]):
                passed.setdefault(giver, {})[p] = receiver
        if st.hand_number != number or st.game_over:  # the hand is over (scored, passed out)
            if eng.state.hands_played and _reached_play(eng, number):
                none = "" if len(st.sides) == 2 else (
                    "single dummy needs two sides: with more, how the others share the "
                    "tricks (so the scores) is not fixed")
                hands.append((number, [] if none else points, none))
            for caller, at in callers:
                caller.later = calls[at + 1:]
            points, passed, calls, callers = [], {}, [], []
    if eng.state.phase == "play":  # a game stopped in the middle of a hand
        hands.append((eng.state.hand_number, points, ""))
    return hands


def _reached_play(eng: Engine, number: int) -> bool:
    last = eng.state.last_hand
    return last is not None and last["hand_number"] == number


def _point(eng: Engine, action: Action, passed: dict[int, dict[int, int]],
           index: int) -> _Point | None:
    """The decision ``action`` is, when it is one single dummy weighs, else None."""
    st = eng.state
    seat = action.seat
    if st.to_act != seat or type(action) not in (Play, Bid, Pass, DeclareTrump, Exchange):
        return None
    if type(action) is Exchange and (len(st.exchange_queue) != 1
                                     or st.exchange_queue[0][1] != STOCK):
        return None  # a card passed to a partner, or an exchange more follow
    if st.known[seat].bit_count() != st.count[seat]:
        return None
    choices = [a for a in eng.legal_actions() if type(a) is type(action)
               or {type(a), type(action)} <= {Bid, Pass}]
    if len(choices) < 2 or not any(_same(a, action) for a in choices):
        return None
    return _Point(copy.deepcopy(st), seat, choices, action,
                  dict(passed.get(seat, {})), index)


def _same(a: Action, b: Action) -> bool:
    """Whether two actions are the same choice (a card of a known copy as its bare card)."""
    if type(a) is not type(b):
        return False
    if type(a) in (Play, Exchange):
        return a.card == b.card and (b.copy is None or a.copy == b.copy)  # type: ignore[attr-defined]
    return a == b


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# -- one decision ----------------------------------------------------------------------


def _decide(point: _Point, names: list[str], seed: int, samples: int, exact_up_to: int,
            cancel: Cancel | None) -> dict[str, Any]:
    st, seat = point.st, point.seat
    knowledge = Knowledge.of(st, seat, point.passed)
    layouts = Layouts(knowledge)
    count = layouts.count
    exact = 0 < count <= exact_up_to
    if exact:
        drawn = list(layouts.all())
    else:
        rng = random.Random(_seed(seed, st.hand_number, point.index))
        drawn = []
        for _ in range(samples):
            _check(cancel)
            drawn.append(layouts.sample(rng))
    value = _valuer(point)
    results: list[list[tuple[float, float]]] = []
    for layout in drawn:
        _check(cancel)
        results.append(value(layout))
    return _report(point, names, knowledge, drawn, results, exact)


def _seed(seed: int, hand: int, index: int) -> int:
    """Each decision's own seed: its layouts do not depend on the decisions before it."""
    return (seed * 1_000_003 + hand) * 1_009 + index


def _check(cancel: Cancel | None) -> None:
    if cancel is None:
        return
    stop = cancel.is_set() if hasattr(cancel, "is_set") else cancel()
    if stop:
        raise Cancelled("single dummy cancelled")


Valuer = Callable[[Layout], list[tuple[float, float]]]


def _valuer(point: _Point) -> Valuer:
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


def _card_values(point: _Point) -> Valuer:
    st, seat = point.st, point.seat
    assert st.order is not None and st.contract is not None
    side = st.side_of[seat]
    seats = [s for s in range(st.n) if s not in st.out]
    cards = [_physical(a) for a in point.choices]
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


def _physical(action: Action) -> int:
    card = action.card  # type: ignore[attr-defined]
    return int(card.index + 53 * (action.copy or 0))  # type: ignore[attr-defined]


def _discard_values(point: _Point) -> Valuer:
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
    cards = [_physical(a) for a in point.choices]
    trump = contract.trump

    def value(layout: Layout) -> list[tuple[float, float]]:
        dd = DoubleDummy(st)
        out = []
        for p in cards:
            hands = list(layout.hands)
            hands[seat] &= ~(1 << p)
            tricks = dd.tricks(trump, hands, seats, leader)
            score = contract_score(st, contract, tricks, seats)
            out.append((float(tricks[side]), _sign(st, seat) * side_margin(v, score)))
        return out

    return value


def _auction_values(point: _Point) -> Valuer:
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
        for bids, contract in ends:
            if contract is None:
                out.append((0.0, 0.0))
                continue
            margin, row = contract_value(start, bids, contract, dd)
            out.append((float(row["tricks"][side]), float(sign * margin)))
        return out

    return value


def _auction_after(start: State, dd: DoubleDummy, point: _Point, choice: Action,
                   later: list[tuple[int, str]]) -> tuple[list[tuple[int, str]],
                                                        Contract | None]:
    """The auction with ``choice`` made, then each later call as it went where still legal
    (the k-th call after this one, when the same seat speaks k-th), else a pass; a seat that
    may not pass bids the best for its side double dummy. Returns the bids and the contract
    (None: passed out)."""
    v = start.variant
    bids = [*point.st.bids, (choice.seat, _bid_of(choice))]
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


def _bid_of(action: Action) -> str:
    return action.bid if type(action) is Bid else PASS  # type: ignore[attr-defined]


# -- the report ------------------------------------------------------------------------


def _report(point: _Point, names: list[str], knowledge: Knowledge, layouts: list[Layout],
            results: list[list[tuple[float, float]]], exact: bool) -> dict[str, Any]:
    st, seat = point.st, point.seat
    n = len(layouts)
    played_at = next(i for i, a in enumerate(point.choices) if _same(a, point.played))
    rows = []
    for i, action in enumerate(point.choices):
        tricks = [r[i][0] for r in results]
        pts = [r[i][1] for r in results]
        mean = sum(pts) / n
        rows.append({"choice": _label(st, action), "tricks": round(sum(tricks) / n, 4),
                     "points": round(mean, 4), "points_ci95": _interval(pts, exact),
                     "samples": n, "played": i == played_at, "_i": i, "_mean": mean})
    rows.sort(key=lambda r: (-r["_mean"], -r["tricks"], r["_i"]))
    best = rows[0]["_i"]
    diffs = [r[best][1] - r[played_at][1] for r in results]
    cost = max(0.0, sum(diffs) / n)
    lo, hi = _interval(diffs, exact)
    for row in rows:
        del row["_i"], row["_mean"]
    return {"seat": seat, "player": names[seat] if seat < len(names) else None,
            "kind": _kind(point.played, st), "trick": _trick(st, point.played),
            "played": _label(st, point.played), "choices": rows, "cost": round(cost, 4),
            "cost_ci95": [round(max(0.0, lo), 4), round(max(0.0, hi), 4)],
            "why": _why(point, names, knowledge, layouts, results, played_at, best, cost,
                        exact),
            "samples": n, "exact": exact}


def _interval(xs: Sequence[float], exact: bool) -> list[float]:
    """The mean plus or minus 1.96 standard errors (the sample's standard deviation, n - 1);
    the mean itself when ``exact`` (every layout counted, nothing sampled)."""
    n = len(xs)
    mean = sum(xs) / n
    if exact:
        return [round(mean, 4), round(mean, 4)]
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return [round(mean - half, 4), round(mean + half, 4)]


def _kind(action: Action, st: State) -> str:
    if type(action) is Play:
        return "card"
    if type(action) is Pass:
        return "pass"
    if type(action) is DeclareTrump:
        return "trump"
    if type(action) is Exchange:
        return "discard"
    bid = action.bid  # type: ignore[attr-defined]
    if bid.endswith(ALONE):
        return "alone"
    if bid == ORDER_UP:
        return "order-up"
    return "trump" if bid in TRUMP_SUITS else "bid"


def _trick(st: State, action: Action) -> int | None:
    return len(st.tricks) + 1 if type(action) is Play else None


def _label(st: State, action: Action) -> str:
    """A choice as the replay shows it: ``JH``, ``pass``, ``bid 4``, ``order up``,
    ``hearts, alone``, ``name hearts``, ``discard 9C``."""
    if type(action) is Play:
        return st.card_name(_physical(action))
    if type(action) is Exchange:
        return f"discard {st.card_name(_physical(action))}"
    if type(action) is DeclareTrump:
        return f"name {trump_words(action.trump)}"
    if type(action) is Pass:
        return "pass"
    bid = action.bid  # type: ignore[attr-defined]
    return f"bid {bid}" if bid.isdigit() else bid_words(bid)


def _doing(st: State, action: Action) -> str:
    """The choice as a doing: ``playing the ace of spades``, ``ordering up``."""
    if type(action) is Play:
        return f"playing the {card_words(st.card_name(_physical(action)))}"
    if type(action) is Exchange:
        return f"discarding the {card_words(st.card_name(_physical(action)))}"
    if type(action) is DeclareTrump:
        return f"naming {trump_words(action.trump)}"
    if type(action) is Pass:
        return "passing"
    bid = action.bid  # type: ignore[attr-defined]
    if bid.removesuffix(ALONE) == ORDER_UP:
        return "ordering up" + (" alone" if bid.endswith(ALONE) else "")
    return f"bidding {bid_words(bid)}"


def _why(point: _Point, names: list[str], knowledge: Knowledge, layouts: list[Layout],
         results: list[list[tuple[float, float]]], played: int, best: int,
         cost: float, exact: bool) -> str:
    st = point.st
    n = len(layouts)
    over = f"{n} layouts" + (" (every one there could be)" if exact else "")
    doing = _doing(st, point.played)
    if best == played or cost <= 0:
        return f"{doing[0].upper()}{doing[1:]} was as good as any choice over {over}."
    other = point.choices[best]
    better = [r[best][1] > r[played][1] for r in results]
    share = sum(better) / n
    text = (f"{doing[0].upper()}{doing[1:]} cost {cost:.2f} points on average over {over}: "
            f"{_doing(st, other)} did better in {share:.0%} of them")
    hint = _telling_card(point.seat, knowledge, layouts, better)
    if hint is not None:
        holder, p, with_, without = hint
        who = "the stock" if holder == STOCK else names[holder]
        verb = "was in" if holder == STOCK else "held"
        place = f"{who} {verb} the {card_words(st.card_name(p))}"
        text += f", most of all when {place} ({with_:.0%} of those layouts, {without:.0%} of the others)"
    return text + "."


def _telling_card(seat: int, knowledge: Knowledge, layouts: list[Layout],
                  better: list[bool]) -> tuple[int, int, float, float] | None:
    """The hidden card and place whose layouts most separate those where the best choice
    did better from the others: (place, card, share better with it there, without)."""
    best: tuple[float, int, int, float, float] | None = None
    for p in _bits(knowledge.hidden):
        for holder in knowledge.places(p):
            with_ = [b for b, lay in zip(better, layouts, strict=True)
                     if (lay.stock if holder == STOCK else lay.hands[holder]) >> p & 1]
            if not with_ or len(with_) == len(layouts):
                continue
            without_n = len(layouts) - len(with_)
            a = sum(with_) / len(with_)
            b = (sum(better) - sum(with_)) / without_n
            gap = a - b
            if best is None or gap > best[0] + 1e-12:
                best = (gap, holder, p, a, b)
    if best is None or best[0] < 0.2:
        return None
    return best[1], best[2], best[3], best[4]

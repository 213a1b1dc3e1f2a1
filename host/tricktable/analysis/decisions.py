"""Single dummy: every decision a player made, weighed over the hands the player could not see.

``analyse_decisions(record, seed=, samples=)`` replays a game record on the engine and, at
each decision of each hand (a bid, a pass, ordering up, going alone,
naming trump, the dealer's discard, a card; a decision with one legal choice is not one),
takes what the player knew then (``analysis.knowledge``), deals the hidden cards
``samples`` times consistently with it (``analysis.sampling``, stratified: one layout in
each ``samples``-th of them; every consistent layout once, ``exact``, where there are no
more of them than ``samples``), and values each legal choice
(the engine's ``legal_actions``) on every layout, the same layouts for every choice (common
random numbers: the choices are compared layout by layout), as ``analysis.valuation`` says:
a card by the tricks and score double dummy after it, an auction's choice by the contract
the auction then ends in (the later calls as they went where still legal), played as par
plays it, the dealer's discard by the play after it.

Each choice gets the mean tricks and points over the layouts and a 95% interval for the
points: the mean plus or minus 1.96 standard errors of as many independent uniform draws
(the normal interval, the sample's standard deviation over n - 1), which overstates the
error of the stratified draw, so it holds the exact value at least 95% of the time
(bench/analysis.py --single-dummy counts it); the mean itself for an exact answer. The
choice played is marked; ``cost`` is the best choice's mean
points minus the played one's (0 when the played was best), with the interval of the
layout-by-layout differences. ``why`` says it in words, with the hidden card whose place
most separated the layouts where the best choice did better.
Deterministic for a seed (each decision's layouts drawn from its own seed); ``cancel`` (a
callable, or a ``threading.Event``) is asked between layouts (``Cancelled``); ``progress(done,
total)`` is told after each decision. Not modelled: what the auction said beyond its
facts (a pass suggests a weak hand), cards passed between partners, sitting out; games
with more than two sides, or more than ``MAX_CARDS_IN_PLAY`` cards in play.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import random
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from tricktable.analysis.knowledge import STOCK, Knowledge, Layout
from tricktable.analysis.sampling import Layouts
from tricktable.analysis.valuation import Decision, bid_of, physical, same_choice, values
from tricktable.cards import bits
from tricktable.engine import Engine
from tricktable.engine.actions import Action, Bid, DeclareTrump, Exchange, Pass, Play
from tricktable.engine.state import State
from tricktable.history.record import GameRecord
from tricktable.history.words import bid_words, card_words, trump_words
from tricktable.rules.base import TRUMP_SUITS
from tricktable.rules.euchre import ALONE, ORDER_UP

__all__ = ["analyse_decisions", "decisions_of", "draw", "weigh", "Decision", "Hand", "Cancelled",
           "Settings", "Memo", "FORMAT", "Z95"]

FORMAT = 1
"""The version of the single-dummy JSON (docs/analysis.md, "Single dummy")."""

Z95 = 1.96
"""The 95% normal quantile the intervals are drawn with."""

MAX_CARDS_IN_PLAY = 32
"""The most cards in the hands at the start of the play of a game single dummy weighs (the
replay page's bound for double dummy: Euchre 20, Bid Euchre 24, Jucker 30, Bauer 32; not
Spades' 52 nor Double Deck's 48, where each layout's search takes up to seconds)."""

Cancel = Callable[[], bool] | Any
Progress = Callable[[int, int], None]
Memo = MutableMapping[tuple[str, int], dict[str, Any]]
"""Decisions already weighed (by one seed and sample count): ``(hand key, index)`` -> the
decision's JSON. A hand's key (``Hand.key``) is a digest of the game's set-up and every action
up to the hand's end, so a hand is weighed once even as its game goes on, and again only when
it, or a hand before it, changed (a correction)."""


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


def analyse_decisions(record: GameRecord, *, seed: int = 0, samples: int = 100,
                      cancel: Cancel | None = None, progress: Progress | None = None,
                      exact_up_to: int | None = None,
                      memo: Memo | None = None) -> list[dict[str, Any]]:
    """Per hand, ``{"hand_number", "key", "decisions"}`` (see the module docstring; the JSON
    in docs/analysis.md), with ``"played": false`` for a hand passed out (its auction's
    decisions) and ``none`` (why there are no decisions); ``exact_up_to``: enumerate every layout where
    there are at most this many (default ``samples``; 0: always sample); ``memo``: the
    decisions weighed before with this seed and sample count, taken from it, and each one
    weighed here put in it (so a cancelled analysis goes on where it stopped)."""
    if samples < 2:
        raise ValueError(f"single dummy needs at least 2 samples a decision, not {samples}")
    hands = decisions_of(record)
    total = sum(len(h.decisions) for h in hands)
    done = 0
    exact_up_to = samples if exact_up_to is None else exact_up_to
    out: list[dict[str, Any]] = []
    names = list(record.players)
    for found in hands:
        hand: dict[str, Any] = {"hand_number": found.number, "key": found.key, "decisions": []}
        if found.none:
            hand["none"] = found.none
        if not found.played:
            hand["played"] = False
        for index, point in enumerate(found.decisions):
            weighed = None if memo is None else memo.get((found.key, index))
            if weighed is None:
                knowledge, layouts, exact = draw(point, seed, samples, exact_up_to, cancel)
                weighed = weigh(point, names, knowledge, layouts, exact, cancel)
                if memo is not None:
                    memo[(found.key, index)] = weighed
            hand["decisions"].append(weighed)
            done += 1
            if progress is not None:
                progress(done, total)
        out.append(hand)
    return out


@dataclass
class Hand:
    """One hand's decisions as ``decisions_of`` finds them: those with more than one choice,
    of a player whose hand is known; ``none``: why a hand has none; ``played``: whether the
    hand reached its play (else it was passed out, or ended before it); ``key``: a digest of
    the game's set-up and its actions up to this hand's last (``Memo``)."""

    number: int
    decisions: list[Decision]
    none: str
    played: bool
    key: str


def decisions_of(record: GameRecord) -> list[Hand]:
    """Each hand of ``record`` with an auction or a play, in order, with its decisions."""
    cfg = record.config
    eng = Engine.new(cfg["variant"], cfg.get("options"), cfg.get("seed", 0),
                     cfg.get("dealer", 0), cfg.get("players"))
    none = _not_weighed(eng.state)
    hands: list[Hand] = []
    points: list[Decision] = []
    reached = False
    passed: dict[int, dict[int, int]] = {}
    calls: list[tuple[int, str]] = []  # the hand's auction
    callers: list[tuple[Decision, int]] = []  # its decisions, each with its place in it
    digest = hashlib.sha256(json.dumps(cfg, sort_keys=True).encode())
    for action in record.actions():
        digest.update(json.dumps(action.to_json(), sort_keys=True).encode())
        st = eng.state
        number = st.hand_number
        point = None if none else _point(eng, action, passed, len(points))
        if point is not None:
            points.append(point)
        if type(action) in (Bid, Pass):
            if point is not None:
                callers.append((point, len(calls)))
            calls.append((action.seat, bid_of(action)))
        if type(action) is Exchange and st.exchange_queue:
            giver, receiver = st.exchange_queue[0]
            before = st.known[giver]
        out = eng.apply(action)
        if not out.ok:
            raise ValueError(f"hand {number}: {action.to_json()} refused: {out.reason}")
        st = eng.state
        reached = reached or st.phase == "play"
        if type(action) is Exchange and st.hand_number == number:
            for p in bits(before & ~st.known[giver]):
                passed.setdefault(giver, {})[p] = receiver
        if st.hand_number != number or st.game_over:  # the hand is over (scored, passed out)
            if reached or calls:
                hands.append(Hand(number, points, none, reached, digest.hexdigest()))
            for caller, at in callers:
                caller.later = calls[at + 1:]
            points, passed, calls, callers, reached = [], {}, [], [], False
    if eng.state.phase == "play":  # a game stopped in the middle of a hand
        hands.append(Hand(eng.state.hand_number, points, none, True, digest.hexdigest()))
        for caller, at in callers:
            caller.later = calls[at + 1:]
    return hands


def _not_weighed(st: State) -> str:
    """Why single dummy does not weigh this game's decisions ("" when it does)."""
    if len(st.sides) != 2:
        return ("single dummy needs two sides: with more, how the others share the tricks "
                "(so the scores) is not fixed")
    cards = st.hand_size * st.n
    if cards > MAX_CARDS_IN_PLAY:
        return (f"single dummy weighs games of up to {MAX_CARDS_IN_PLAY} cards in play, not "
                f"{cards}: each of its layouts is a whole search")
    return ""


def _point(eng: Engine, action: Action, passed: dict[int, dict[int, int]],
           index: int) -> Decision | None:
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
    if len(choices) < 2 or not any(same_choice(a, action) for a in choices):
        return None
    return Decision(copy.deepcopy(st), seat, choices, action,
                  dict(passed.get(seat, {})), index)


# -- one decision ----------------------------------------------------------------------


def draw(decision: Decision, seed: int, samples: int, exact_up_to: int,
         cancel: Cancel | None = None) -> tuple[Knowledge, list[Layout], bool]:
    """What the player knew at ``decision`` and the layouts it is weighed over: every
    consistent layout (and True) where there are at most ``exact_up_to``, else ``samples``
    drawn stratified (``Layouts.stratified``) from the decision's own seed (``seed``, its
    hand and its place)."""
    knowledge = Knowledge.of(decision.st, decision.seat, decision.passed)
    layouts = Layouts(knowledge)
    if 0 < layouts.count <= exact_up_to:
        return knowledge, list(layouts.all()), True
    _check(cancel)
    rng = random.Random(_seed(seed, decision.st.hand_number, decision.index))
    return knowledge, layouts.stratified(samples, rng), False


def weigh(decision: Decision, names: Sequence[str], knowledge: Knowledge,
          layouts: list[Layout], exact: bool, cancel: Cancel | None = None) -> dict[str, Any]:
    """The decision's report (its JSON, docs/analysis.md): each choice valued on every one
    of ``layouts`` (``exact``: every consistent layout, counted once)."""
    value = values(decision)
    results: list[list[tuple[float, float]]] = []
    for layout in layouts:
        _check(cancel)
        results.append(value(layout))
    return _report(decision, list(names), knowledge, layouts, results, exact)


def _seed(seed: int, hand: int, index: int) -> int:
    """Each decision's own seed: its layouts do not depend on the decisions before it."""
    return (seed * 1_000_003 + hand) * 1_009 + index


def _check(cancel: Cancel | None) -> None:
    if cancel is None:
        return
    stop = cancel.is_set() if hasattr(cancel, "is_set") else cancel()
    if stop:
        raise Cancelled("single dummy cancelled")


# -- the report ------------------------------------------------------------------------


def _report(point: Decision, names: list[str], knowledge: Knowledge, layouts: list[Layout],
            results: list[list[tuple[float, float]]], exact: bool) -> dict[str, Any]:
    st, seat = point.st, point.seat
    n = len(layouts)
    played_at = next(i for i, a in enumerate(point.choices) if same_choice(a, point.played))
    rows: list[dict[str, Any]] = []
    for i, action in enumerate(point.choices):
        tricks = [r[i][0] for r in results]
        pts = [r[i][1] for r in results]
        mean = sum(pts) / n
        rows.append({"choice": _label(st, action), "tricks": round(sum(tricks) / n, 4),
                     "points": round(mean, 4), "points_ci95": _interval(pts, exact),
                     "points_sd": round(_sd(pts), 4), "samples": n,
                     "played": i == played_at, "_i": i, "_mean": mean})
    rows.sort(key=lambda r: (-r["_mean"], -r["tricks"], r["_i"]))
    best = rows[0]["_i"]
    diffs = [r[best][1] - r[played_at][1] for r in results]
    cost = max(0.0, sum(diffs) / n)
    lo, hi = _interval(diffs, exact)
    for row in rows:
        del row["_i"], row["_mean"]
    return {"seat": seat, "player": names[seat] if seat < len(names) else None,
            "kind": _kind(point.played, st), "trick": _trick(st, point.played),
            "played": _label(st, point.choices[played_at]), "choices": rows, "cost": round(cost, 4),
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
    half = Z95 * _sd(xs) / math.sqrt(n)
    return [round(mean - half, 4), round(mean + half, 4)]


def _sd(xs: Sequence[float]) -> float:
    """The standard deviation of ``xs`` (over n - 1)."""
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))


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
        return st.card_name(physical(action))
    if type(action) is Exchange:
        return f"discard {st.card_name(physical(action))}"
    if type(action) is DeclareTrump:
        return f"name {trump_words(action.trump)}"
    if type(action) is Pass:
        return "pass"
    bid = action.bid  # type: ignore[attr-defined]
    return f"bid {bid}" if bid.isdigit() else bid_words(bid)


def _doing(st: State, action: Action) -> str:
    """The choice as a doing: ``playing the ace of spades``, ``ordering up``."""
    if type(action) is Play:
        return f"playing the {card_words(st.card_name(physical(action)))}"
    if type(action) is Exchange:
        return f"discarding the {card_words(st.card_name(physical(action)))}"
    if type(action) is DeclareTrump:
        return f"naming {trump_words(action.trump)}"
    if type(action) is Pass:
        return "passing"
    bid = action.bid  # type: ignore[attr-defined]
    if bid.removesuffix(ALONE) == ORDER_UP:
        return "ordering up" + (" alone" if bid.endswith(ALONE) else "")
    return f"bidding {bid_words(bid)}"


def _why(point: Decision, names: list[str], knowledge: Knowledge, layouts: list[Layout],
         results: list[list[tuple[float, float]]], played: int, best: int,
         cost: float, exact: bool) -> str:
    st = point.st
    n = len(layouts)
    over = f"{n} layouts" + (" (every one there could be)" if exact else "")
    doing = _doing(st, point.choices[played])
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
        card = f"the {card_words(st.card_name(p))}"
        if holder == STOCK:
            place = f"{card} was in the kitty"
        else:
            partner = st.side_of[holder] == st.side_of[point.seat]
            place = f"{'your partner ' if partner else ''}{names[holder]} held {card}"
        text += (f", most of all when {place} ({with_:.0%} of those layouts, {without:.0%} "
                 "of the others)")
    return text + "."


def _telling_card(seat: int, knowledge: Knowledge, layouts: list[Layout],
                  better: list[bool]) -> tuple[int, int, float, float] | None:
    """The hidden card and place whose layouts most separate those where the best choice
    did better from the others: (place, card, share better with it there, without)."""
    best: tuple[float, int, int, float, float] | None = None
    for p in bits(knowledge.hidden):
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

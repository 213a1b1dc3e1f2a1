"""Properties of random legal play (issue 2): hands always end, every card is played once,
tricks per hand equal the hand size, score changes follow the scoring rules (“Bid Euchre”, section “Single Deck Bid Euchre”, “Leading”, taking tricks, and scoring), and a refused action changes
nothing. Game-level runs use a hand limit: random bidding overbids and may never reach 42."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tricktable.cards import CARDS
from tricktable.engine import Engine
from tricktable.engine.actions import (
    Bid,
    Call,
    Deal,
    DeclareTrump,
    Exchange,
    Pass,
    Play,
    ScanCard,
    SitOut,
)
from tricktable.engine.refusals import REFUSALS
from tricktable.rules.base import PHASES

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = st.fixed_dictionaries({
    "pepper_small_points": st.sampled_from([7, 12]),
    "set_penalty": st.sampled_from([5, 6]),
    "revoke_mode": st.sampled_from(["strict", "record"]),
    "min_bid": st.integers(1, 3),
})


def expected_deltas(last: dict[str, Any], o: dict[str, Any]) -> list[int]:
    """The scoring passage, written out again independently of the engine."""
    c = last["contract"]
    won = last["tricks_won"]
    side_tricks = [won[0] + won[2], won[1] + won[3]]
    bidders = c["seat"] % 2
    deltas = [0, 0]
    taken = side_tricks[bidders]
    if c["bid"].startswith("PEPPER"):
        value = o["pepper_small_points"] if c["bid"] == "PEPPER:SMALL" else 14
        deltas[bidders] = value if taken == 6 else -value
    else:
        deltas[bidders] = taken if taken >= int(c["bid"]) else -o["set_penalty"]
    d = 1 - bidders
    deltas[d] = side_tricks[d] if side_tricks[d] else -6
    return deltas


def snapshot(eng: Engine) -> tuple[Any, ...]:
    s = eng.state
    return (eng.public_state(), list(s.known), list(s.count), s.unseen, s.played, s.kitty,
            list(s.void), list(eng.actions), s.rng.getstate())


@FAST
@given(st.integers(0, 2**32), OPTIONS, st.booleans())
def test_random_legal_hands_end_and_score_by_the_rules(seed: int, options: dict[str, Any],
                                                       dealt: bool) -> None:
    rng = random.Random(seed)
    eng = Engine.new("bid-euchre", seed=seed, options=options | {"target": None, "hand_limit": 4})
    played: list[str] = []
    actions_in_hand = 0
    while not eng.state.game_over:
        if eng.phase == "deal" and dealt:
            out = eng.apply(Deal(eng.state.dealer))
        else:
            legal = eng.legal_actions()
            if eng.phase == "deal":
                legal = [a for a in legal if isinstance(a, Bid | Pass)]
            before = list(eng.state.scores)
            out = eng.apply(rng.choice(legal))
        assert out.ok
        actions_in_hand += 1
        assert actions_in_hand <= 4 + 1 + 2 + 24 + 1, "a hand must end"
        for e in out.events:
            if e.TYPE == "card_played":
                played.append(e.to_json()["card"])
            if e.TYPE == "hand_scored":
                last = eng.state.last_hand
                assert last is not None
                alone = last["contract"]["alone"]
                assert len(played) == (18 if alone else 24) == len(set(played))
                assert sum(last["tricks_won"]) == 6
                rules = expected_deltas(last, options)
                revokes = [r for r in last["detail"].split("; ") if r.startswith("revoke")]
                assert list(e.to_json()["deltas"]) == last["deltas"]
                if not revokes:
                    assert last["deltas"] == rules
                assert [b + d for b, d in zip(before, last["deltas"], strict=True)] == \
                    eng.state.scores
            if e.TYPE in ("hand_scored", "passed_out"):
                played, actions_in_hand = [], 0


def any_action(seat: int, rng: random.Random) -> Any:
    card = rng.choice(CARDS)
    return rng.choice([
        Deal(seat), ScanCard(seat, card, rng.choice([None, 0, 1])), Bid(seat, rng.choice(
            ["1", "3", "6", "7", "PEPPER:SMALL", "PEPPER:BIG", "NIL"])), Pass(seat),
        DeclareTrump(seat, rng.choice(["S", "H", "NT", "LOW", "X"])), Exchange(seat, card),
        Exchange(seat, None), SitOut(seat), Play(seat, card, rng.choice([None, 0, 1])),
        Call(seat, rng.choice(["TIME", "BOTTOMS"])),
    ])


@FAST
@given(st.integers(0, 2**32), st.sampled_from(["strict", "record"]), st.booleans())
def test_a_refused_action_changes_nothing(seed: int, mode: str, dealt: bool) -> None:
    """docs/architecture.md: 'A refused action leaves the engine exactly as it was', and says
    why with one of the listed codes; the table is always in one of the listed phases."""
    rng = random.Random(seed)
    eng = Engine.new("bid-euchre", seed=seed, options={"revoke_mode": mode, "target": None,
                                                       "hand_limit": 2})
    refusals = 0
    while not eng.state.game_over:
        for _ in range(3):
            action = any_action(rng.randrange(5), rng)
            before = snapshot(eng)
            out = eng.apply(action)
            if out.ok:
                continue
            refusals += 1
            assert out.code in REFUSALS and out.reason
            assert snapshot(eng) == before
            assert eng.public_state()["phase"] in PHASES
        if eng.state.game_over:
            break
        if eng.phase == "deal" and dealt:
            eng.apply(Deal(eng.state.dealer))
            continue
        legal = [a for a in eng.legal_actions() if not isinstance(a, ScanCard | Call)]
        assert eng.apply(rng.choice(legal)).ok
    assert refusals > 0

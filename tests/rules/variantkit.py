"""Helpers for the variant tests: set up a hand with chosen cards, apply actions that must
be accepted, and play whole games by random legal actions or by the simulator's bots while
checking that every hand's scores are consistent (scores move by exactly the announced
deltas)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tricktable.cards import parse_card
from tricktable.engine import Engine, Outcome
from tricktable.engine.actions import Action, Deal, ScanCard, TurnUp
from tricktable.sim.bots import Bot


def table(variant: str, hands: list[str], *, up: str | None = None, dealer: int = 0,
          options: dict[str, Any] | None = None, scores: list[int] | None = None) -> Engine:
    """A table whose seats hold ``hands`` (one space-separated string per seat), with the
    up-card ``up`` turned, ready to bid. ``scores`` overrides the starting scores."""
    eng = Engine.new(variant, options=options, seed=1, dealer=dealer, n_players=len(hands))
    if scores is not None:
        eng.state.scores[:] = scores
    if up is not None:
        ok(eng, TurnUp(dealer, parse_card(up)))
    for seat, hand in enumerate(hands):
        for name in hand.split():
            ok(eng, ScanCard(seat, parse_card(name.rstrip("'")), 1 if name.endswith("'") else 0))
    return eng


def ok(eng: Engine, *actions: Action) -> Outcome:
    """Apply ``actions``; each must be accepted. The last outcome."""
    out = Outcome(True)
    for action in actions:
        out = eng.apply(action)
        assert out.ok, f"{action} refused: {out.code} {out.reason}"
    return out


def refused(eng: Engine, action: Action, code: str) -> Outcome:
    """``action`` must be refused with ``code`` and leave the table unchanged."""
    before = eng.public_state()
    hands = [list(eng.known_hand(s)) for s in range(eng.state.n)]
    out = eng.apply(action)
    assert not out.ok and out.code == code, (out.code, out.reason)
    assert eng.public_state() == before
    assert [list(eng.known_hand(s)) for s in range(eng.state.n)] == hands
    return out


def finish(eng: Engine) -> None:
    """Play the first legal action for each seat until the hand is scored (or the game ends)."""
    number = eng.state.hand_number
    while eng.state.hand_number == number and not eng.state.game_over:
        ok(eng, eng.legal_actions()[0])


Chooser = Callable[[Engine, list[Action]], Action]


def play_out(eng: Engine, choose: Chooser, *, max_hands: int = 400) -> list[dict[str, Any]]:
    """Actions picked by ``choose`` until the game ends (or ``max_hands``); every
    ``hand_scored`` event is checked against the score change. The scored hands'
    ``last_hand`` records."""
    hands: list[dict[str, Any]] = []
    started = 0
    while not eng.state.game_over and started < max_hands:
        if eng.phase == "deal":
            ok(eng, Deal(eng.state.dealer))
            started += 1
            continue
        before = list(eng.state.scores)
        actions = eng.legal_actions()
        assert actions, f"no legal action in phase {eng.phase}"
        out = ok(eng, choose(eng, actions))
        for event in out.events:
            if event.TYPE == "hand_scored":
                last = eng.state.last_hand
                assert last is not None
                assert [b + d for b, d in zip(before, last["deltas"], strict=True)] \
                    == list(event.scores) == last["scores"]
                hands.append(last)
    return hands


def random_chooser(seed: int) -> Chooser:
    """Uniformly random legal actions."""
    rng = random.Random(seed)
    return lambda eng, actions: rng.choice(actions)


def bot_chooser(variant: str, n: int, seed: int) -> Chooser:
    """The simulator's bots (bids from hand strength), so contracts are mostly made."""
    rng = random.Random(seed)
    bots = [Bot(s, variant, rng) for s in range(n)]
    return lambda eng, actions: bots[eng.to_act].choose(  # type: ignore[index]
        eng.public_state(), eng.known_hand(eng.to_act), actions)  # type: ignore[arg-type]


def random_game(variant: str, n: int, seed: int, options: dict[str, Any] | None = None,
                *, bots: bool = False, max_hands: int = 400
                ) -> tuple[Engine, list[dict[str, Any]]]:
    """A game of ``variant`` for ``n`` players by random legal actions (or by the bots)."""
    eng = Engine.new(variant, options=options, seed=seed, dealer=seed % n, n_players=n)
    choose = bot_chooser(variant, n, seed) if bots else random_chooser(seed)
    return eng, play_out(eng, choose, max_hands=max_hands)

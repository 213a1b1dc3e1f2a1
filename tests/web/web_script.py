"""A scripted Bid Euchre game as the host publishes it: public_state-shaped table states.

The scoreboard only reads states, so its tests replay a fixed, hand-written game rather
than depend on the engine: four seats, two sides, hands of six tricks, a revoke in hand 2.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

SEATS = ["Ann", "Bob", "Cy", "Di"]
SIDES = [{"name": "Ann & Cy", "seats": [0, 2]}, {"name": "Bob & Di", "seats": [1, 3]}]
RANKS = ["9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]


def base_state(table: str = "1") -> dict[str, Any]:
    return {
        "v": 1, "table": table, "variant": "bid-euchre", "options": {}, "seats": list(SEATS),
        "partnerships": [[0, 2], [1, 3]], "dealer": 3, "phase": "bidding", "to_act": 0,
        "hand_number": 1, "bids": [], "contract": None, "trump": None,
        "trick": {"leader": 0, "cards": []}, "tricks_won": [0, 0, 0, 0], "tricks": [],
        "scores": [0, 0], "sides": copy.deepcopy(SIDES), "game_over": False, "winner": None,
        "revokes": [], "last_hand": None, "boards_online": [],
    }


def hand_states(state: dict[str, Any], points: list[int], revoke: bool = False) -> Iterator[dict]:
    """Every state of one hand, from the first bid to the hand scored with ``points``."""
    s = copy.deepcopy(state)
    s.update(phase="bidding", bids=[], contract=None, trump=None, tricks=[], revokes=[],
             tricks_won=[0, 0, 0, 0], trick={"leader": (s["dealer"] + 1) % 4, "cards": []})
    first = (s["dealer"] + 1) % 4
    for i, bid in enumerate(["3", "PASS", "4", "PASS"]):
        seat = (first + i) % 4
        s["bids"] = s["bids"] + [{"seat": seat, "bid": bid}]
        s["to_act"] = (seat + 1) % 4
        yield copy.deepcopy(s)
    maker = (first + 2) % 4
    s.update(phase="play", contract={"seat": maker, "bid": "4", "trump": "H", "alone": False},
             trump="H", to_act=maker, trick={"leader": maker, "cards": []})
    yield copy.deepcopy(s)
    leader = maker
    for t in range(6):
        cards = []
        for k in range(4):
            seat = (leader + k) % 4
            cards.append({"seat": seat, "card": RANKS[(t + k) % 6] + SUITS[(t + seat) % 4]})
            s["trick"] = {"leader": leader, "cards": list(cards)}
            s["to_act"] = (seat + 1) % 4
            if revoke and t == 3 and k == 2:
                s["revokes"] = [{"seat": seat, "trick": 4, "suit": "spades",
                                 "proof": "showed out of spades in trick 2", "proven_in": 4}]
            yield copy.deepcopy(s)
        winner = (leader + t) % 4
        s["tricks"] = s["tricks"] + [{"leader": leader, "cards": cards, "winner": winner}]
        s["tricks_won"] = [w + (seat == winner) for seat, w in enumerate(s["tricks_won"])]
        s["trick"] = {"leader": winner, "cards": []}
        s["to_act"] = winner
        leader = winner
        yield copy.deepcopy(s)
    s["scores"] = [a + b for a, b in zip(s["scores"], points, strict=True)]
    s.update(phase="hand_over", to_act=None,
             last_hand={"hand_number": s["hand_number"], "points": points})
    yield copy.deepcopy(s)


def game_states(table: str = "1", hands: int = 3) -> list[dict[str, Any]]:
    """A game of ``hands`` hands; the second has a revoke; the last ends the game."""
    out: list[dict[str, Any]] = []
    state = base_state(table)
    for h in range(hands):
        states = list(hand_states(state, [4, -2] if h % 2 == 0 else [-4, 3], revoke=h == 1))
        out.extend(states)
        state = copy.deepcopy(states[-1])
        state.update(hand_number=state["hand_number"] + 1, dealer=(state["dealer"] + 1) % 4)
    out[-1] = dict(out[-1], phase="game_over", game_over=True, winner=0)
    return out

"""Bots: players that bid from hand strength and play sensibly, for every variant.

A ``Bot`` sees what a player at the table sees: its own cards, the table's public state,
and the actions the rules allow it now (``engine.legal_actions()`` for its seat: a player
knows the rules). ``choose(state, hand, legal)`` returns one of them, except that a bot
with a ``revoke_rate`` now and then fails to follow suit when it could (it returns a
``Play`` the rules do not allow), so that the host's revoke detection has work to do.

Strength is measured with the variant's own card ordering (``Variant.ordering``), so
bowers, the joker, no-trump and low no-trump count as the rules say. Deterministic for a
given ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tricktable.cards import Ordering, parse_card_copy, physical_index
from tricktable.engine.actions import (
    Action,
    Bid,
    Call,
    DeclareTrump,
    Exchange,
    Pass,
    Play,
    SitOut,
)
from tricktable.rules import get_variant
from tricktable.rules.base import Variant

TOP_TRUMP = 14  # ace of trump and better (bowers, joker) count as a sure trick
ALONE = ":ALONE"  # suffix of a bid that goes alone (Euchre)
ORDER_UP = "ORDER_UP"  # Euchre's first round: the up-card's suit becomes trump


def physical(card: str) -> int:
    """The bit index of a printed physical card (``AS``, ``AS'``)."""
    face, copy = parse_card_copy(card)
    return physical_index(face, copy or 0)


class Bot:
    """One seat's player."""

    def __init__(self, seat: int, variant: str | Variant, rng: random.Random,
                 revoke_rate: float = 0.0, boldness: float = 0.0) -> None:
        if not 0.0 <= revoke_rate <= 1.0:
            raise ValueError(f"revoke_rate must be between 0 and 1, got {revoke_rate}")
        self.seat = seat
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self.rng = rng
        self.revoke_rate = revoke_rate
        self.boldness = boldness

    # -- the decision ----------------------------------------------------------------------
    def choose(self, state: dict[str, Any], hand: Sequence[str], legal: Sequence[Action],
               honest: bool = False) -> Action:
        """One action for this seat now, from ``legal`` (which must hold some of this seat's).

        ``honest``: never revoke this time (the player took a refused card back)."""
        mine = [a for a in legal if a.seat == self.seat]
        if not mine:
            raise ValueError(f"seat {self.seat} has nothing legal to do")
        plays = [a for a in mine if isinstance(a, Play)]
        if plays:
            return self._play(state, hand, plays, honest)
        bids = [a for a in mine if isinstance(a, Bid | Pass)]
        if bids:
            return self._bid(state, hand, bids)
        trumps = [a for a in mine if isinstance(a, DeclareTrump)]
        if trumps:
            return max(trumps, key=lambda a: self.estimate(hand, a.trump))
        exchanges = [a for a in mine if isinstance(a, Exchange)]
        if exchanges:
            return self._exchange(state, exchanges)
        sitouts = [a for a in mine if isinstance(a, SitOut)]
        if sitouts:
            weak = self.estimate(hand, state.get("trump") or "NT") < len(hand) / 4
            return next((a for a in sitouts if a.out == weak), sitouts[0])
        calls = [a for a in mine if isinstance(a, Call)]
        return calls[0] if calls else mine[0]

    # -- bidding ---------------------------------------------------------------------------
    def estimate(self, hand: Sequence[str], trump: str) -> float:
        """Tricks this hand should take itself with ``trump`` as trump."""
        order = self._ordering(trump)
        tricks = 0.0
        trumps = 0
        for card in hand:
            p = physical(card)
            strength = order.strength[p]
            if order.trump is not None and order.eff[p] == order.trump_suit:
                trumps += 1
                tricks += 1.0 if strength >= TOP_TRUMP else 0.6 if strength >= 12 else 0.35
            elif strength == (14 if not order.low else 7):
                tricks += 0.8
            elif strength == (13 if not order.low else 6):
                tricks += 0.3
        if trumps >= 3:
            tricks += 0.3 * (trumps - 2)  # long trumps ruff the other suits
        return tricks

    def _ordering(self, trump: str) -> Ordering:
        return self.variant.ordering(trump)

    def _bid(self, state: dict[str, Any], hand: Sequence[str], bids: list[Action]) -> Action:
        partner_help = 1.0 if state.get("partnerships") else 0.0
        luck = self.boldness + self.rng.uniform(-0.4, 0.4)
        naming = [(a, t) for a in bids if isinstance(a, Bid)
                  for t in [self._named_trump(a.bid, state)] if t is not None]
        if naming:  # Euchre-like: order up or name a suit; alone with a near-sure hand
            action, trump = max(naming, key=lambda at: (self.estimate(hand, at[1]),
                                                        not at[0].bid.endswith(ALONE)))
            own = self.estimate(hand, trump)
            if own + partner_help + luck >= len(hand) / 2 + 0.5:
                alone = own >= len(hand) - 0.5
                wanted = action.bid.removesuffix(ALONE) + (ALONE if alone else "")
                return next((a for a, _ in naming if a.bid == wanted), action)
        best = max((self.estimate(hand, t) for t in self.variant.trump_names), default=0.0)
        reach = best + partner_help + luck
        numeric = [a for a in bids if isinstance(a, Bid) and a.bid.isdigit()]
        fitting = [a for a in numeric if int(a.bid) <= reach]
        if "NIL" in {a.bid for a in bids if isinstance(a, Bid)} and best < 0.6:
            return next(a for a in bids if isinstance(a, Bid) and a.bid == "NIL")
        if fitting:
            return max(fitting, key=lambda a: int(a.bid))  # type: ignore[attr-defined]
        passes = [a for a in bids if isinstance(a, Pass)]
        if passes:
            return passes[0]
        if numeric:  # the dealer is stuck: the cheapest bid
            return min(numeric, key=lambda a: int(a.bid))  # type: ignore[attr-defined]
        if naming:
            return max(naming, key=lambda at: self.estimate(hand, at[1]))[0]
        return bids[0]

    def _named_trump(self, bid: str, state: dict[str, Any]) -> str | None:
        """The trump a bid fixes when it names one (``S``, ``H:ALONE``, ``ORDER_UP``)."""
        base = bid.removesuffix(ALONE)
        if base in self.variant.trump_names and not base.isdigit():
            return base
        if base == ORDER_UP and state.get("up_card"):
            card, _copy = parse_card_copy(state["up_card"])
            return None if card.suit is None else card.suit.letter
        return None

    # -- exchanges -------------------------------------------------------------------------
    def _exchange(self, state: dict[str, Any], exchanges: list[Exchange]) -> Action:
        known = [a for a in exchanges if a.card is not None]
        if not known:
            return exchanges[0]
        order = self._ordering(state.get("trump") or "NT")
        contract = state.get("contract") or {}
        helping_maker = _same_side(state, self.seat, contract.get("seat"))
        by_value = sorted(known, key=lambda a: _value(order, physical(_printed(a))))
        return by_value[-1] if helping_maker else by_value[0]

    # -- play ------------------------------------------------------------------------------
    def _play(self, state: dict[str, Any], hand: Sequence[str], plays: list[Play],
              honest: bool) -> Action:
        order = self._ordering(state.get("trump") or "NT")
        trick = [(c["seat"], physical(c["card"])) for c in (state.get("trick") or {}).get("cards", [])]
        legal = {physical(_printed(a)): a for a in plays}
        if trick and not honest and self.revoke_rate and self.rng.random() < self.revoke_rate:
            renege = [c for c in hand if physical(c) not in legal]
            if renege:
                card, copy = parse_card_copy(min(renege, key=lambda c: _value(order, physical(c))))
                return Play(self.seat, card, copy)
        if not trick:
            return legal[self._lead(state, order, list(legal))]
        led = order.eff[trick[0][1]]
        keys = [order.key(p, led) for _, p in trick]
        best = max(range(len(trick)), key=lambda i: (keys[i], -i))
        cheapest = min(legal, key=lambda p: _value(order, p))
        last_to_play = len(trick) == len(state["seats"]) - 1
        if _same_side(state, self.seat, trick[best][0]) and (last_to_play or keys[best] >= TOP_TRUMP):
            return legal[cheapest]  # partner has it: do not waste a card
        winners = [p for p in legal if order.key(p, led) > keys[best]]
        return legal[min(winners, key=lambda p: order.key(p, led)) if winners else cheapest]

    def _lead(self, state: dict[str, Any], order: Ordering, legal: list[int]) -> int:
        trumps = [p for p in legal if order.trump is not None and order.eff[p] == order.trump_suit]
        contract = state.get("contract") or {}
        if trumps and len(trumps) >= 2 and _same_side(state, self.seat, contract.get("seat")):
            return max(trumps, key=lambda p: order.strength[p])
        side_aces = [p for p in legal if p not in trumps and order.strength[p] >= 14]
        if side_aces:
            return side_aces[0]
        return min(legal, key=lambda p: _value(order, p))


def _printed(action: Play | Exchange) -> str:
    return str(action.card) + ("'" if action.copy == 1 else "")


def _value(order: Ordering, p: int) -> int:
    """How much a card is worth keeping: trumps above every side card."""
    trump = order.trump is not None and order.eff[p] == order.trump_suit
    return order.strength[p] + (100 if trump else 0)


def _same_side(state: dict[str, Any], a: int, b: Any) -> bool:
    if not isinstance(b, int):
        return False
    if a == b:
        return True
    return any(a in side and b in side for side in state.get("partnerships") or [])

"""The state of one table: game-level fields and the current hand, plus ``public_state()``.

Cards are tracked as bit sets of physical indices (``tricktable.cards``): for each seat the
cards *known* to be in the hand (dealt by the engine, scanned, or passed face up) and how
many cards it holds, so a hand can be fully known, partly known or unknown. ``unseen`` is
every card of the deck that is neither played nor known to be anywhere: an unknown card
in a hand is one of those. ``void``/``void_trick`` remember the suits a seat showed out of
(and in which trick), which is how a revoke is proven when hands are unknown.

This is plain data; the rules of play live in ``engine.core`` and ``engine.cardplay``.
"""

from __future__ import annotations

import random
from typing import Any

from mypy_extensions import mypyc_attr

from tricktable.cards import CARDS, Deck, Ordering, format_card
from tricktable.rules.base import CommonOptions, Contract, Phase, Variant

__all__ = ["State"]


# Compiled by mypyc (setup.py), ``copy.copy`` needs a serializable class; mypy 2.4's
# ``serializable=True`` alone skips ``__init__`` when the class is called from Python.
@mypyc_attr(allow_interpreted_subclasses=True)
class State:
    """Everything the engine knows about one table (see the module docstring)."""

    def __init__(self, variant: Variant, options: CommonOptions, players: list[str],
                 dealer: int, seed: int) -> None:
        self.variant = variant
        self.options = options
        self.strict = options.revoke_mode == "strict"
        """Refuse a provably illegal play (the house rule, read once: options are frozen)."""
        self.players = players
        self.n = len(players)
        self.sides: list[tuple[int, ...]] = variant.sides(self.n, options)
        self.side_of = [0] * self.n
        for i, side in enumerate(self.sides):
            for s in side:
                self.side_of[s] = i
        self.scores = variant.starting_scores(len(self.sides), options)
        self.deck: Deck = variant.deck(self.n, options)
        self.deck_mask = self.deck.mask
        self.names = [format_card(c, k if self.deck.copies > 1 else 0)
                      for k in (0, 1) for c in CARDS]
        self.hand_size = variant.hand_size(self.n, options)
        self.ring = tuple((s + 1) % self.n for s in range(self.n))
        """The seat after each seat, clockwise: ``next_active`` when nobody sits out."""
        self.rng = random.Random(seed)
        self.dealer = dealer
        self.hand_number = 1
        self.hands_played = 0
        self.game_over = False
        self.winner: int | None = None
        self.time_up = False
        self.last_hand: dict[str, Any] | None = None
        self.tally: dict[str, Any] = {}
        self.new_hand()

    def new_hand(self) -> None:
        """Reset every per-hand field; the phase is the deal."""
        n = self.n
        self.phase: Phase = "deal"
        self.to_act: int | None = self.dealer
        self.known = [0] * n
        self.count = [0] * n
        self.dealt = False
        self.unseen = self.deck_mask
        self.kitty = 0
        self.up_card: int | None = None
        self.taken_up: int | None = None
        """The up-card the dealer took up this hand (Euchre keeps it out of the discard)."""
        self.played = 0
        self.void = [0] * n
        self.void_trick: dict[tuple[int, int], int] = {}
        """(seat, suit) -> the trick in which the seat showed out of the suit."""
        self.bids: list[tuple[int, str]] = []
        self.high: tuple[int, str] | None = None
        self.contract: Contract | None = None
        self.order: Ordering | None = None
        self.exchange_queue: list[tuple[int, int]] = []
        self.exchanges_done = 0
        self.sitout_queue: list[int] = []
        self.dropped: set[int] = set()
        self.out: frozenset[int] = frozenset()
        self.next_active = list(self.ring)
        self.active = n
        self.leader = 0
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[int, list[tuple[int, int]], int]] = []
        self.tricks_won = [0] * n
        self.revokes: list[dict[str, Any]] = []

    # -- views used by hooks -------------------------------------------------------------
    def side_tricks(self, side: int) -> int:
        won = self.tricks_won
        total = 0
        for s in self.sides[side]:
            total += won[s]
        return total

    def card_name(self, p: int) -> str:
        """How bit index ``p`` prints in this game (``AS``; ``AS'`` for a second copy)."""
        return self.names[p]

    def side_name(self, side: int) -> str:
        return " & ".join(self.players[s] for s in self.sides[side])

    def public_state(self) -> dict[str, Any]:
        """The table's retained state (docs/architecture.md, the engine contract)."""
        name = self.card_name
        return {
            "variant": self.variant.name,
            "options": _options_json(self.options),
            "seats": list(self.players),
            "partnerships": ([list(s) for s in self.sides] if self.variant.partnerships
                             else None),
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand_number": self.hand_number,
            "bids": [{"seat": s, "bid": b} for s, b in self.bids],
            "contract": self.contract.to_json() if self.contract else None,
            "trump": self.contract.trump if self.contract else None,
            "up_card": name(self.up_card) if self.up_card is not None else None,
            "trick": {"leader": self.leader if self.phase == "play" else None,
                      "cards": [{"seat": s, "card": name(p)} for s, p in self.trick]},
            "tricks_won": list(self.tricks_won),
            "tricks": [{"leader": lead, "cards": [{"seat": s, "card": name(p)} for s, p in cards],
                        "winner": win} for lead, cards, win in self.tricks],
            "scores": list(self.scores),
            "sides": [{"name": self.side_name(i), "seats": list(s)}
                      for i, s in enumerate(self.sides)],
            "game_over": self.game_over,
            "winner": self.winner,
            "revokes": [dict(r) for r in self.revokes],
            "last_hand": self.last_hand,
            "tally": self.tally,
        }


def _options_json(options: CommonOptions) -> dict[str, Any]:
    return dict(vars(options))

"""The engine's integer actions: every action of the seat to act as one small int.

Like OpenSpiel's games, a table can be driven by ints: ``Engine.legal_ids()`` lists the legal
actions of the seat to act as ints and ``Engine.apply_id(a)`` applies one (or raises
``IllegalAction``, changing nothing). The numbering is fixed for an engine:

- ``0 .. 105``: a physical card by its bit index (``card.index + 53 * copy``, see
  ``tricktable.cards``): a play in the play phase, a card passed in the exchange phase.
- ``DEAL`` (106), ``PASS`` (107), ``EXCHANGE_UNSEEN`` (108, a card passed that the engine
  does not know), ``SIT_OUT`` (109), ``PLAY_ON`` (110, the answer "I play" when asked to
  sit out), then the variant's bid ladder in order, then its trump names in order
  (``BIDS_FROM`` onwards); any other bid, trump (no trump, low) or named call gets the next
  free number the first time it is seen (``ActionIds.id_of``): stable within one engine.

Scanning cards and turning up a card (tables whose hands are read by the pads) stay with the
dataclass actions. ``ActionIds`` translates both ways; it knows nothing of the state.
"""

from __future__ import annotations

from tricktable.cards import COPY_STRIDE, from_physical
from tricktable.engine.actions import (
    Action,
    Bid,
    Call,
    Deal,
    DeclareTrump,
    Exchange,
    Pass,
    Play,
    SitOut,
)
from tricktable.engine.refusals import Refusal
from tricktable.rules.base import Phase, Variant

__all__ = ["ActionIds", "IllegalAction", "CARD_IDS", "DEAL", "PASS", "EXCHANGE_UNSEEN",
           "SIT_OUT", "PLAY_ON", "BIDS_FROM"]

CARD_IDS = 2 * COPY_STRIDE
DEAL, PASS, EXCHANGE_UNSEEN, SIT_OUT, PLAY_ON = range(CARD_IDS, CARD_IDS + 5)
BIDS_FROM = CARD_IDS + 5


class IllegalAction(ValueError):
    """An int action refused by ``Engine.apply_id``: ``code`` and ``reason`` as in the
    engine's ``Outcome``; the table is unchanged."""

    def __init__(self, code: Refusal, reason: str) -> None:
        super().__init__(reason)
        self.code: Refusal = code
        self.reason = reason


class ActionIds:
    """The int numbering of one engine's actions (see the module docstring)."""

    def __init__(self, variant: Variant) -> None:
        self.kinds: list[tuple[type[Action], object]] = [
            (Deal, None), (Pass, None), (Exchange, None), (SitOut, True), (SitOut, False)]
        self.kinds += [(Bid, b) for b in variant.bid_ladder]
        self.kinds += [(DeclareTrump, t) for t in variant.trump_names]
        self._ids = {kind: CARD_IDS + i for i, kind in enumerate(self.kinds)}
        self._made: dict[tuple[int, int, bool], Action] = {}
        """``action_of``'s actions, made once (they are frozen)."""

    def number(self, kind: type[Action], arg: object = None) -> int:
        """The int of a non-card action: its kind (``Bid`` ...) and argument (the bid, the
        trump, the call, ``out``); a new one gets the next free number."""
        key = (kind, arg)
        a = self._ids.get(key)
        if a is None:
            a = self._ids[key] = CARD_IDS + len(self.kinds)
            self.kinds.append(key)
        return a

    def id_of(self, action: Action) -> int:
        """The int of ``action`` (its seat is implied: the seat to act)."""
        kind = type(action)
        if kind is Play or (kind is Exchange and action.card is not None):  # type: ignore[attr-defined]
            return action.card.index + COPY_STRIDE * (action.copy or 0)  # type: ignore[attr-defined]
        arg = {Bid: "bid", DeclareTrump: "trump", Call: "call", SitOut: "out"}.get(kind)
        if arg is None and (kind, None) not in self._ids:
            raise IllegalAction("unknown_action", f"no int action for {action!r}")
        return self.number(kind, getattr(action, arg) if arg else None)

    def action_of(self, a: int, seat: int, phase: Phase) -> Action:
        """The dataclass action of int ``a`` for ``seat`` in ``phase`` (one shared instance)."""
        if type(a) is not int:
            raise IllegalAction("unknown_action", f"not an int action of this table: {a!r}")
        key = (a, seat, phase == "exchange")
        made = self._made.get(key)
        if made is not None:
            return made
        if not 0 <= a < CARD_IDS + len(self.kinds):
            raise IllegalAction("unknown_action", f"not an int action of this table: {a!r}")
        if a < CARD_IDS:
            card, copy = from_physical(a)
            made = Exchange(seat, card, copy) if key[2] else Play(seat, card, copy)
        else:
            kind, arg = self.kinds[a - CARD_IDS]
            made = kind(seat) if arg is None else kind(seat, arg)  # type: ignore[call-arg]
        self._made[key] = made
        return made

"""What one seat knew at one moment of a hand: the hard facts single dummy deals by.

``Knowledge.of(st, seat, passed)`` reads, from the engine's table ``st`` at a decision of
``seat``, what that player had seen:

- its own hand (every card of it: the engine dealt it, or every card was scanned);
- the up-card and what became of it: on the table or turned down (in the stock, nobody
  holds it); taken up by the dealer, who then holds it until it is played, or, where the
  rules let the dealer discard the up-card itself (``Variant.exchange_refusal`` says
  nothing against it), who holds it or discarded it;
- the cards it passed or discarded itself (``passed``: card -> receiver, ``STOCK`` for a
  discard), still where it put them unless played;
- every card played, and each suit a seat showed out of: a seat that did not follow the
  suit led holds no card of that suit, the suit as the engine's ordering has it
  (``Ordering.eff``, ``Ordering.suit_masks``: the left bower is a trump in the Euchre
  family; nothing is learnt from a joker led under no trump, which nothing can follow). A
  seat that revoked this hand (record mode) proved nothing by showing out: its voids are
  not used;
- how many cards each seat holds.

The auction's inferences (a pass suggesting a weak hand) are not facts and are not here.
The rest, ``hidden``, is every card whose place the seat did not know: each in one of the
other hands or in the stock (kitty, undealt cards). ``analysis.sampling`` deals them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tricktable.cards import JOKER_SUIT
from tricktable.engine.state import State
from tricktable.rules.base import STOCK

__all__ = ["Knowledge", "Layout", "STOCK"]


@dataclass(frozen=True)
class Layout:
    """Where every card not yet played is: each seat's hand (a bit set) and the stock."""

    hands: tuple[int, ...]
    stock: int


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knew (see the module docstring). Per seat: ``held`` the cards it is
    known to hold (the seat's own hand whole), ``counts`` how many it holds, ``barred`` the
    cards it cannot hold (the suits it showed out of). ``hidden``: the cards whose place is
    not known; ``confined``: hidden cards known to be in one of a few places (seats or
    ``STOCK``: the up-card a dealer may have discarded). ``stock_size``: how many hidden
    cards are in the stock."""

    seat: int
    held: tuple[int, ...]
    counts: tuple[int, ...]
    barred: tuple[int, ...]
    hidden: int
    confined: tuple[tuple[int, tuple[int, ...]], ...] = ()
    known_stock: int = 0
    """Cards known to be in the stock (the up-card turned down, the seat's own discard)."""

    def __post_init__(self) -> None:
        for s, (held, count) in enumerate(zip(self.held, self.counts, strict=True)):
            if held.bit_count() > count:
                raise ValueError(f"seat {s} is known to hold {held.bit_count()} cards, "
                                 f"more than the {count} it holds")
            if held & self.barred[s]:
                raise ValueError(f"seat {s} is known to hold a card of a suit it showed out of")
        if self.stock_size < 0:
            raise ValueError("more unknown places than hidden cards")

    @property
    def open_places(self) -> tuple[int, ...]:
        """Per seat, how many of its cards are not known."""
        return tuple(c - h.bit_count() for h, c in zip(self.held, self.counts, strict=True))

    @property
    def stock_size(self) -> int:
        return self.hidden.bit_count() - sum(self.open_places)

    @classmethod
    def of(cls, st: State, seat: int, passed: Mapping[int, int] | None = None) -> Knowledge:
        """What ``seat`` knew at table ``st`` (see the module docstring); ``passed``: the
        cards it passed or discarded this hand, each to its receiver (``STOCK``)."""
        n = st.n
        own = st.known[seat]
        if own.bit_count() != st.count[seat]:
            raise ValueError(f"{st.players[seat]}'s hand is not known: single dummy deals "
                             "the others' hands around the cards the player held")
        held = [0] * n
        held[seat] = own
        stock = 0
        confined: list[tuple[int, tuple[int, ...]]] = []
        if st.up_card is not None:  # on the table, or turned down
            stock |= 1 << st.up_card
        up = st.taken_up
        taker = next((r for g, r in st.variant.exchanges(st) if g == STOCK), seat)
        if up is not None and taker != seat and not st.played >> up & 1:
            discarded = st.exchanges_done > 1 and not st.variant.exchange_refusal(
                st, taker, STOCK, 1, up)  # the taker's discard is done and may be the up-card
            if discarded:
                confined.append((up, (taker, STOCK)))
            else:
                held[taker] |= 1 << up
        for p, receiver in (passed or {}).items():
            if (st.played | own) >> p & 1:
                continue
            if receiver == STOCK:
                stock |= 1 << p
            else:
                held[receiver] |= 1 << p
        barred = _voids(st)
        known = stock
        for h in held:
            known |= h
        hidden = st.deck_mask & ~st.played & ~known
        return cls(seat, tuple(held), tuple(st.count), tuple(barred), hidden,
                   tuple(confined), stock)

    def places(self, p: int) -> tuple[int, ...]:
        """The places (seats, ``STOCK``) hidden card ``p`` may be in."""
        for card, where in self.confined:
            if card == p:
                return tuple(w for w in where if w == STOCK or not self.barred[w] >> p & 1)
        open_ = self.open_places
        out = [s for s in range(len(self.counts))
               if s != self.seat and open_[s] and not self.barred[s] >> p & 1]
        return (*out, STOCK) if self.stock_size else tuple(out)

    def consistent(self, layout: Layout) -> bool:
        """Whether ``layout`` agrees with every fact: each hand holds what it is known to,
        as many cards as it holds and none it cannot; the hidden cards are each in a
        place they may be, each once; the known stock cards in the stock."""
        seen = 0
        for s, hand in enumerate(layout.hands):
            if hand & self.held[s] != self.held[s] or hand.bit_count() != self.counts[s] \
                    or hand & self.barred[s] or hand & seen:
                return False
            seen |= hand
        if layout.stock & seen or layout.stock & self.known_stock != self.known_stock:
            return False
        if (seen | layout.stock) != (self.hidden | self.known_stock | _union(self.held)):
            return False
        for p, where in self.confined:
            places = [s for s, h in enumerate(layout.hands) if h >> p & 1]
            if layout.stock >> p & 1:
                places.append(STOCK)
            if places[0] not in where:
                return False
        return True


def _union(hands: Sequence[int]) -> int:
    out = 0
    for h in hands:
        out |= h
    return out


def _voids(st: State) -> list[int]:
    """Per seat, the cards of the suits it showed out of this hand (none for a seat that
    revoked), by the engine's ordering."""
    barred = [0] * st.n
    order = st.order
    if order is None:
        return barred
    revoked = {r["seat"] for r in st.revokes}
    tricks = [cards for _, cards, _ in st.tricks]
    if st.trick:
        tricks.append(st.trick)
    for cards in tricks:
        led = order.eff[cards[0][1]]
        if led == JOKER_SUIT:
            continue
        for s, p in cards[1:]:
            if order.eff[p] != led and s not in revoked:
                barred[s] |= order.suit_masks[led]
    return barred

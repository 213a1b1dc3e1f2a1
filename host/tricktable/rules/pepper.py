"""Pepper as played in Progressive Euchre (“Bid Euchre”, section “Bid euchre variations”, “Progressive”, Play).

24 cards, four players in partnerships, six each. One round of bids from the dealer's left:
1..6 tricks, then PEPPER (all six with a passed card: the partner gives the best card of the
named suit and sits out, the bidder passes one card back) and the pre-emptive ALONE (all six
without help). Suits only. The high bidder leads. One point for the contract, two for every
trick, four for a pepper or loner; a failed contract gives the other side two, or four for a
euchre sweep. Progressive plays eight hands at a table. docs/rules/pepper.md has the details.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from mypy_extensions import mypyc_attr

from tricktable.rules.base import (
    CommonOptions,
    Contract,
    HandResult,
    TableView,
    Variant,
    opt,
)
from tricktable.rules.common import partner_of

__all__ = ["Pepper", "PepperOptions", "PEPPER", "ALONE", "VARIANTS"]

SOURCE = "“Bid Euchre”, section “Bid euchre variations”, “Progressive”, Play"
PEPPER = "PEPPER"
ALONE = "ALONE"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class PepperOptions(CommonOptions):
    """House rules of Progressive Pepper (each field names its passage)."""

    hand_limit: "Optional[int]" = opt(
        8, "“Bid Euchre”, section “Progressive”: 'The lead table plays eight hands ... so that each player "
        "has dealt twice'. The higher score wins (a tie plays on).")
    points_made: int = opt(1, f"{SOURCE}: 'Teams score one point for three or four tricks'.")
    points_march: int = opt(
        2, f"{SOURCE}: 'two points for all five tricks' (all six here: the article's figures are "
        "for a five-trick game).")
    points_alone: int = opt(4, f"{SOURCE}: 'four points for a loner' (a pepper too).")
    points_set: int = opt(
        2, f"{SOURCE}: 'A team failing to achieve their number of tricks receives no points ... "
        "and two points go to the other partner's score.'")
    points_sweep: int = opt(4, f"{SOURCE}: 'An euchre sweep nets four points.'")
    revoke_points: int = opt(
        2, "The Progressive passage names no revoke penalty. Judgement: Euchre's (“Euchre”, "
        "section “Renege”: 'the opposing team is awarded two points').")


@mypyc_attr(allow_interpreted_subclasses=True)
class Pepper(Variant):
    """Pepper in Progressive Euchre (“Bid Euchre”, section “Progressive”, “Play”)."""

    name = "pepper"
    title = "Pepper (Progressive Euchre)"
    aliases = ("progressive-pepper", "progressive")
    Options = PepperOptions
    seat_counts = (4,)
    deck_name = "24"
    cards_per_hand = 6
    bid_ladder = ("1", "2", "3", "4", "5", "6", PEPPER, ALONE)

    def make_contract(self, st: TableView, seat: int, bid: str, forced: bool = False) -> Contract:
        """'A pepper consists of winning all six tricks with a passed card'; a loner bids
        all six without help."""
        if bid in (PEPPER, ALONE):
            return Contract(seat=seat, bid=bid, need=st.hand_size, alone=True)
        return Contract(seat=seat, bid=bid, need=int(bid))

    def trump_choices(self, st: TableView) -> list[str]:
        """'Only suits may be declared trump'."""
        return list(self.trump_names)

    def exchanges(self, st: TableView) -> list[tuple[int, int]]:
        """'His partner gives the requested card to the bidder, face down, before seeing the
        bidder's passed card': the partner gives first, then the bidder passes one."""
        c = st.contract
        if c is None or c.bid != PEPPER:
            return []
        partner = partner_of(st, c.seat)
        return [(partner, c.seat), (c.seat, partner)]

    def exchange_refusal(self, st: TableView, giver: int, receiver: int, index: int,
                         card_bit: int | None) -> str:
        """'Give me your best heart': the partner's best card of the named suit (any card
        when the partner has none of it; judgement)."""
        c = st.contract
        if c is None or giver == c.seat or card_bit is None or st.order is None:
            return ""
        order = st.order
        trumps = [p for p in range(st.known[giver].bit_length())
                  if st.known[giver] >> p & 1 and order.eff[p] == order.trump_suit]
        if not trumps:
            return ""
        best = max(trumps, key=lambda p: order.strength[p])
        if card_bit == best:
            return ""
        return (f"{st.players[giver]} must give the best card of the named suit, "
                f"{st.card_name(best)}")

    def score_hand(self, st: TableView) -> HandResult:
        """“Bid Euchre”, section “Progressive”, “Play”: 'Teams score one point for three or four tricks, two
        points for all five tricks and four points for a loner ...'."""
        c = st.contract
        assert c is not None
        o = st.options
        side = st.side_of[c.seat]
        other = 1 - side
        taken = st.side_tricks(side)
        deltas = [0, 0]
        if taken >= c.need:
            if c.alone:
                deltas[side], note = o.points_alone, f"{c.bid.lower()} made"
            elif taken == st.hand_size:
                deltas[side], note = o.points_march, "every trick"
            else:
                deltas[side], note = o.points_made, f"made {c.need} with {taken}"
        elif st.side_tricks(other) == st.hand_size:
            deltas[other], note = o.points_sweep, f"failed {c.bid}: euchre sweep"
        else:
            deltas[other], note = o.points_set, f"failed {c.bid} with {taken}"
        return HandResult(tuple(deltas), f"{note}: " + ", ".join(f"{d:+d}" for d in deltas))

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        deltas = [0, 0]
        deltas[1 - st.side_of[seat]] = st.options.revoke_points
        return tuple(deltas)


VARIANTS = (Pepper(),)

"""Hasenpfeffer (seed 001, Bid euchre variations, Hasenpfeffer).

A 24-card pack plus the joker, the best bauer. Four players in partnerships, six cards each
dealt in batches of three; the 25th card is out of play. One round of bids 1..6; if nobody
bids, the holder of the joker must bid three, and the deal is annulled when the joker is the
card out of play. The declarer names a suit or no trump and (judgement) leads. The bidders
score a point a trick when they make the bid and lose a point per undertrick when they do
not. Game to 10. docs/rules/hasenpfeffer.md lists the judgement calls.
Imports ``cards``, ``rules.base`` and ``rules.common``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tricktable.cards import JOKER
from tricktable.rules.base import (
    CommonOptions,
    Contract,
    HandResult,
    TableView,
    Variant,
    opt,
)
from tricktable.rules.common import offender_pays

__all__ = ["Hasenpfeffer", "HasenpfefferOptions", "VARIANTS"]

SEED = "seed 001, Hasenpfeffer"


@dataclass(frozen=True)
class HasenpfefferOptions(CommonOptions):
    """House rules of Hasenpfeffer (each field names its passage)."""

    target: int | None = opt(10, f"{SEED}: 'The play goes up to 10 points.'")
    revoke_points: int = opt(
        1, "The seed names no revoke penalty. Judgement: the offending side loses a point, one "
        "undertrick (record mode).")
    forced_bid: int = opt(3, f"{SEED}: 'If no one bids, the holder of the best bauer is obliged "
                             "to bid three'.")


class Hasenpfeffer(Variant):
    """Hasenpfeffer (seed 001, Hasenpfeffer)."""

    name = "hasenpfeffer"
    title = "Hasenpfeffer"
    aliases = ("hasenpepper",)
    Options = HasenpfefferOptions
    seat_counts = (4,)
    deck_name = "25"
    cards_per_hand = 6
    deal_packets = (3,)
    bid_ladder = ("1", "2", "3", "4", "5", "6")
    trump_names = ("S", "H", "D", "C", "NT")

    def on_all_pass(self, st: TableView) -> Contract | None:
        """The joker's holder bids three; if it is out of play (or nobody is known to hold
        it: hands not scanned), the deal is annulled."""
        joker = 1 << JOKER.index
        holder = next((s for s in range(st.n) if st.known[s] & joker), None)
        if holder is None:
            return None
        return Contract(seat=holder, bid=str(st.options.forced_bid),
                        need=st.options.forced_bid, forced=True)

    def dealer_after_pass_out(self, st: TableView) -> int:
        """'the deal is annulled': the same dealer deals again (judgement)."""
        return st.dealer

    def score_hand(self, st: TableView) -> HandResult:
        """'The bidder's side scores one point per trick won if this is not less than the bid,
        otherwise, it loses one point per undertrick.' The defenders score nothing."""
        c = st.contract
        assert c is not None
        side = st.side_of[c.seat]
        taken = st.side_tricks(side)
        deltas = [0, 0]
        deltas[side] = taken if taken >= c.need else taken - c.need
        note = f"{c.bid} {'made' if taken >= c.need else 'failed'} with {taken}: {deltas[side]:+d}"
        return HandResult(tuple(deltas), note)

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        return offender_pays(st, seat, st.options.revoke_points)


VARIANTS = (Hasenpfeffer(),)

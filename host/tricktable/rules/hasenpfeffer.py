"""Hasenpfeffer (“Bid Euchre”, section “Bid euchre variations”, “Hasenpfeffer”).

A 24-card pack plus the joker, the best bauer. Four players in partnerships, six cards each
dealt in batches of three; the 25th card is out of play. One round of bids 1..6; if nobody
bids, the holder of the joker must bid three, and the deal is annulled when the joker is the
card out of play; with real (unscanned) hands the holder declares in one more round. The declarer names a suit or no trump and (judgement) leads. The bidders
score a point a trick when they make the bid and lose a point per undertrick when they do
not. Game to 10. docs/rules/hasenpfeffer.md lists the judgement calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from mypy_extensions import mypyc_attr

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

SOURCE = "“Bid Euchre”, section “Hasenpfeffer”"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class HasenpfefferOptions(CommonOptions):
    """House rules of Hasenpfeffer (each field names its passage)."""

    target: "Optional[int]" = opt(10, f"{SOURCE}: 'The play goes up to 10 points.'")
    revoke_points: int = opt(
        1, "The article names no revoke penalty. Judgement: the offending side loses a point, one "
        "undertrick (record mode).")
    forced_bid: int = opt(3, f"{SOURCE}: 'If no one bids, the holder of the best bauer is obliged "
                             "to bid three'.")


@mypyc_attr(allow_interpreted_subclasses=True)
class Hasenpfeffer(Variant):
    """Hasenpfeffer (“Bid Euchre”, section “Hasenpfeffer”)."""

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

    # -- if all pass: the joker's holder --------------------------------------------------
    @staticmethod
    def _joker_holder(st: TableView) -> int | None:
        joker = 1 << JOKER.index
        return next((s for s in range(st.n) if st.known[s] & joker), None)

    def _joker_unplaced(self, st: TableView) -> bool:
        """Nobody is known to hold the joker, yet some hand is not known card by card (real
        cards, not scanned): only the players can say where it is."""
        return self._joker_holder(st) is None and any(
            st.count[s] != st.known[s].bit_count() for s in range(st.n))

    def _joker_round(self, st: TableView) -> bool:
        """All passed and the joker's holder is unknown: one more round in which the holder
        declares (``BID:3``, the forced bid) and everybody else passes."""
        return len(st.bids) >= st.n and st.high is None and self._joker_unplaced(st)

    def legal_bids(self, st: TableView, seat: int) -> list[str]:
        if len(st.bids) >= st.n:  # the joker round: only the holder's forced bid
            return [str(st.options.forced_bid)] if self._joker_round(st) else []
        return super().legal_bids(st, seat)

    def auction_over(self, st: TableView) -> bool:
        """One round; after four passes with the joker's holder unknown, the joker round
        ends at the holder's bid or at four more passes."""
        if len(st.bids) < st.n or st.high is not None:
            return len(st.bids) >= st.n
        return len(st.bids) >= 2 * st.n or not self._joker_unplaced(st)

    def auction_result(self, st: TableView) -> Contract | None:
        """The high bid; a bid of the joker round is the forced bid of the joker's holder."""
        if st.high is not None and len(st.bids) > st.n:
            return self._forced(st, st.high[0])
        return super().auction_result(st)

    def on_all_pass(self, st: TableView) -> Contract | None:
        """'If no one bids, the holder of the best bauer is obliged to bid three, and if it
        then proves to be the card out of play, the deal is annulled': the holder the engine
        knows (dealt or scanned) bids; None (annulled) when the joker is out of play or
        nobody declared it in the joker round."""
        holder = self._joker_holder(st)
        return None if holder is None else self._forced(st, holder)

    @staticmethod
    def _forced(st: TableView, seat: int) -> Contract:
        return Contract(seat=seat, bid=str(st.options.forced_bid),
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

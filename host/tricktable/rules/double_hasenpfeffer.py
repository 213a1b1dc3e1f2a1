"""Double Hasenpfeffer (“Bid Euchre”, section “Double Deck Bid Euchre”, “Double Hasenpfeffer”).

The 48-card pinochle pack (two packs of A K Q J 10 9), four or six players in two teams,
every card dealt. No bauers: every suit ranks A K Q J 10 9, trump too. One round of bids
from six; if all pass the dealer names trump at six. With four players the high bidder may
call ALONE before naming trump: two cards pass each way with the partner, who sits out.
Scoring as Double Deck (made: the tricks; failed: minus the bid), a forced dealer losing only
half the bid (rounded up), alone doubling both. Game to 42 (judgement).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from mypy_extensions import mypyc_attr

from tricktable.rules.base import (
    CommonOptions,
    Contract,
    HandResult,
    Phase,
    TableView,
    Variant,
    opt,
)
from tricktable.rules.common import offender_pays, partner_of
from tricktable.rules.double_deck import bid_or_set

__all__ = ["DoubleHasenpfeffer", "DoubleHasenpfefferOptions", "ALONE", "VARIANTS"]

SOURCE = "“Bid Euchre”, section “Double Hasenpfeffer”"
ALONE = "ALONE"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class DoubleHasenpfefferOptions(CommonOptions):
    """House rules of Double Hasenpfeffer (each field names its passage)."""

    revoke_points: int = opt(
        6, "The article names no revoke penalty. Judgement: the offending team loses the minimum "
        "bid, the smallest set (record mode).")
    target: "Optional[int]" = opt(
        42, f"{SOURCE} names no target; 'Scoring is the same as in 24-card pepper above', whose "
        "standard goal is 42 (“Bid Euchre”, section “Single Deck Bid Euchre”, “Winning”). Judgement.")


@mypyc_attr(allow_interpreted_subclasses=True)
class DoubleHasenpfeffer(Variant):
    """Double Hasenpfeffer (“Bid Euchre”)."""

    name = "double-hasenpfeffer"
    title = "Double Hasenpfeffer"
    aliases = ("double-pepper",)
    Options = DoubleHasenpfefferOptions
    seat_counts = (4, 6)
    deck_name = "48"
    bowers = False
    """'may be played without bauers, so all cards rank A K Q J 10 9 in each suit'."""
    bid_ladder = tuple(str(i) for i in range(6, 13))
    """'The minimum bid is six.'"""

    def hand_size(self, n: int, options: DoubleHasenpfefferOptions) -> int:  # type: ignore[override]
        """'All cards are dealt out.'"""
        return 48 // n

    def legal_bids(self, st: TableView, seat: int) -> list[str]:
        return [b for b in super().legal_bids(st, seat) if int(b) <= st.hand_size]

    def on_all_pass(self, st: TableView) -> Contract | None:
        """'If all pass, the dealer names trump at a minimum bid of six tricks.'"""
        return Contract(seat=st.dealer, bid="6", need=6, forced=True)

    def trump_choices(self, st: TableView) -> list[str]:
        return list(self.trump_names)

    def legal_calls(self, st: TableView, seat: int, phase: Phase) -> list[str]:
        """'In a four-player game, a high bidder may opt to play alone' (before naming trump)."""
        calls = super().legal_calls(st, seat, phase)
        c = st.contract
        if phase == "trump" and st.n == 4 and c is not None and seat == c.seat and not c.alone:
            calls.append(ALONE)
        return calls

    def apply_call(self, st: TableView, seat: int, call: str) -> str | None:
        st.contract = replace(st.contract, alone=True)  # type: ignore[type-var]
        return None

    def exchanges(self, st: TableView) -> list[tuple[int, int]]:
        """'exchange any two cards with his or her partner and then play solo'."""
        c = st.contract
        if c is None or not c.alone:
            return []
        partner = partner_of(st, c.seat)
        return [(c.seat, partner)] * 2 + [(partner, c.seat)] * 2

    def score_hand(self, st: TableView) -> HandResult:
        """'Scoring is the same as in 24-card pepper above, with a forced declaration by the
        dealer losing only half (rounding up) if not made. Playing alone scores double'."""
        c = st.contract
        assert c is not None
        half = -(-c.need // 2) if c.forced else None
        return bid_or_set(st, made_factor=2 if c.alone else 1, set_value=half)

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        return offender_pays(st, seat, st.options.revoke_points)


VARIANTS = (DoubleHasenpfeffer(),)

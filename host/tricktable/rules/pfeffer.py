"""Pfeffer and Buckpfeffer (“Bid Euchre”, section “Bid euchre variations”: Pfeffer; Buckpfeffer).

Pfeffer: 24 cards, four players in partnerships, six each; one round of bids 1..6 or
PFEFFER (all six, alone); if the other three pass, the dealer is stuck with at least four.
The high bidder names a suit or no trump; the dealer's left leads at a suit, the player on
the declarer's right at no trump. A point a trick when made (all six also sets the opponents
5 and a hickey); short of the bid: -5 and a hickey; Pfeffer: +12 (opponents -5) or -10 and
two hickeys; the opponents score their tricks. Game to 42, the bidders winning a tie.

Buckpfeffer is Pfeffer with bids from three, HIGH and LOW (no trump, aces or nines high) with
the forced best-card / worst-card exchange with the declarer's left, skunk scoring and game
to 25. docs/rules/pfeffer.md and buckpfeffer.md list the passages and judgement calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

from mypy_extensions import mypyc_attr

from tricktable.rules.base import (
    CommonOptions,
    Contract,
    HandResult,
    TableView,
    Variant,
    opt,
)
from tricktable.rules.common import offender_pays

__all__ = ["Pfeffer", "PfefferOptions", "Buckpfeffer", "BuckpfefferOptions", "PFEFFER",
           "VARIANTS"]

SOURCE = "“Bid Euchre”, section “Pfeffer”"
BUCK_SEED = "“Bid Euchre”, section “Buckpfeffer”"
PFEFFER = "PFEFFER"
NO_TRUMPS = ("NT", "HIGH", "LOW")


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class StuckDealerOptions(CommonOptions):
    """House rules of a game where the dealer is stuck when the others pass."""

    target: "Optional[int]" = opt(42, f"{SOURCE}, Scoring & Winning: 'The game is to 42 points. In "
                                 "cases of a tie at 42, the bidding team wins.'")
    stuck_bid: int = opt(4, f"{SOURCE}: 'the dealer is forced to make a four Trick Bid when all "
                            "players pass in front of the dealer'.")
    revoke_points: int = opt(
        5, "The article names no revoke penalty. Judgement: the offending side loses what a set "
        "costs in Pfeffer, five points (record mode).")


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class PfefferOptions(StuckDealerOptions):
    """House rules of Pfeffer (each field names its passage)."""

    set_points: int = opt(5, f"{SOURCE}, Scoring & Winning: 'they too will set, lose five "
                             "points and also receive a hickey'.")
    pfeffer_made: int = opt(12, f"{SOURCE}, Scoring & Winning: 'For Pfeffer bids, if the "
                                "declaring team takes all six tricks, they get twelve points'.")
    pfeffer_set: int = opt(10, f"{SOURCE}, Scoring & Winning: 'If the declaring team fails to "
                               "take all six tricks, they are set, lose ten points, and receive "
                               "two hickeys.'")


@mypyc_attr(allow_interpreted_subclasses=True)
class Pfeffer(Variant):
    """Pfeffer (“Bid Euchre”, section “Pfeffer”)."""

    name = "pfeffer"
    title = "Pfeffer"
    aliases: ClassVar[tuple[str, ...]] = ("double-pfeffer",)
    Options: ClassVar[type[StuckDealerOptions]] = PfefferOptions
    seat_counts = (4,)
    deck_name = "24"
    cards_per_hand = 6
    bid_ladder: ClassVar[tuple[str, ...]] = ("1", "2", "3", "4", "5", "6", PFEFFER)
    trump_names: ClassVar[tuple[str, ...]] = ("S", "H", "D", "C", "NT")

    # -- the auction -----------------------------------------------------------------------
    def _stuck(self, st: TableView, seat: int) -> bool:
        """The dealer, the other three having passed."""
        return seat == st.dealer and st.high is None and len(st.bids) == st.n - 1

    def legal_bids(self, st: TableView, seat: int) -> list[str]:
        """'The minimum bid for a dealer is four tricks' when stuck."""
        bids = super().legal_bids(st, seat)
        if self._stuck(st, seat):
            return [b for b in bids if not b.isdigit() or int(b) >= st.options.stuck_bid]
        return bids

    def may_pass(self, st: TableView, seat: int) -> bool:
        return not self._stuck(st, seat)

    def make_contract(self, st: TableView, seat: int, bid: str, forced: bool = False) -> Contract:
        """'A Pfeffer bid (a/k/a double-Pfeffer) is a bid to win all six tricks, alone.'"""
        forced = seat == st.dealer and all(b == "PASS" for _, b in st.bids[:-1])
        if bid == PFEFFER:
            return Contract(seat=seat, bid=bid, need=st.hand_size, alone=True, forced=forced)
        return Contract(seat=seat, bid=bid, need=int(bid), forced=forced)

    def first_leader(self, st: TableView) -> int:
        """'For trump bids, the player to the left of the dealer leads to the first trick';
        'For no-trump bids, the player to the right of the Declarer leads.'"""
        c = st.contract
        assert c is not None
        if c.trump in NO_TRUMPS:
            return (c.seat - 1) % st.n
        return (st.dealer + 1) % st.n

    # -- scoring ---------------------------------------------------------------------------
    def score_hand(self, st: TableView) -> HandResult:
        """“Bid Euchre”, section “Pfeffer”, “Scoring & Winning”."""
        c = st.contract
        assert c is not None
        o = st.options
        side = st.side_of[c.seat]
        other = 1 - side
        taken = st.side_tricks(side)
        hickeys = list(st.tally.get("hickeys", [0, 0]))
        deltas = [0, 0]
        deltas[other] = st.side_tricks(other)
        made = taken >= c.need
        if c.bid == PFEFFER:
            deltas[side] = o.pfeffer_made if made else -o.pfeffer_set
            hickeys[side] += 0 if made else 2
        elif made:
            deltas[side] = taken
        else:
            deltas[side] = -o.set_points
            hickeys[side] += 1
        if taken == st.hand_size:  # the opponents are set
            deltas[other] = -o.set_points
            hickeys[other] += 1
        note = (f"{c.bid} {'made' if made else 'set'} with {taken}: "
                + ", ".join(f"{d:+d}" for d in deltas))
        return HandResult(tuple(deltas), note, {"hickeys": hickeys})

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        return offender_pays(st, seat, st.options.revoke_points)


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class BuckpfefferOptions(StuckDealerOptions):
    """House rules of Buckpfeffer (each field names its passage)."""

    target: "Optional[int]" = opt(25, f"{BUCK_SEED}: 'the game is generally played to 25 or more'.")
    stuck_bid: int = opt(4, f"{BUCK_SEED}: 'the dealer is forced to bid four tricks'.")
    revoke_points: int = opt(
        4, "The article names no revoke penalty. Judgement: the offending side loses what a set of "
        "the dealer's forced bid costs, four points (record mode).")


@mypyc_attr(allow_interpreted_subclasses=True)
class Buckpfeffer(Pfeffer):
    """Buckpfeffer (“Bid Euchre”, section “Buckpfeffer”)."""

    name = "buckpfeffer"
    title = "Buckpfeffer"
    aliases = ("buckenpeffer", "buckenpfeffer")
    Options = BuckpfefferOptions
    bid_ladder = ("3", "4", "5", "6", PFEFFER)
    """'The minimum bid is three'; 'There is no bidding two'."""
    trump_names = ("S", "H", "D", "C", "HIGH", "LOW")

    def exchanges(self, st: TableView) -> list[tuple[int, int]]:
        """'the bidder calls hi or low and must exchange their best card ... for the worst card
        ... from the player on the callers left' (not after a Pfeffer bid)."""
        c = st.contract
        if c is None or c.bid == PFEFFER or c.trump not in ("HIGH", "LOW"):
            return []
        left = (c.seat + 1) % st.n
        return [(c.seat, left), (left, c.seat)]

    def exchange_refusal(self, st: TableView, giver: int, receiver: int, index: int,
                         card_bit: int | None) -> str:
        """Best card: 'ace if high is called, 9 if low is called'; worst: 'a 9 if high is
        called, ace if low is called' (the nearest rank held, judgement)."""
        c, order = st.contract, st.order
        if c is None or order is None or card_bit is None:
            return ""
        hand = [p for p in range(st.known[giver].bit_length()) if st.known[giver] >> p & 1]
        values = [order.strength[p] for p in hand]
        best = giver == c.seat
        want = max(values) if best else min(values)
        if order.strength[card_bit] == want:
            return ""
        card = st.card_name(hand[values.index(want)])
        return (f"{st.players[giver]} must pass their {'best' if best else 'worst'} card "
                f"({card} or one of the same rank)")

    def score_hand(self, st: TableView) -> HandResult:
        """'Points awarded are the number of tricks taken'; a skunk scores 'six plus the
        number of the tricks they bid' and 'The skunked team has the number of the winning
        trump bid subtracted'; short of the bid: minus the bid (judgement)."""
        c = st.contract
        assert c is not None
        side = st.side_of[c.seat]
        other = 1 - side
        taken = st.side_tricks(side)
        deltas = [0, 0]
        if taken == st.hand_size:
            deltas[side], deltas[other] = st.hand_size + c.need, -c.need
            note = "skunk"
        elif taken >= c.need:
            deltas[side], deltas[other] = taken, st.side_tricks(other)
            note = f"made {c.need} with {taken}"
        else:
            deltas[side], deltas[other] = -c.need, st.side_tricks(other)
            note = f"set: {taken} of {c.need}"
        return HandResult(tuple(deltas), f"{note}: " + ", ".join(f"{d:+d}" for d in deltas))


VARIANTS = (Pfeffer(), Buckpfeffer())

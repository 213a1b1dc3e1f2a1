"""Single Deck Bid Euchre, as “Bid Euchre” ("Single Deck Bid Euchre") describes it.

Four players in two partnerships, a 24-card pack (9 to A), six cards each dealt one at a
time from the dealer's left; one round of bidding in which each bid beats the last (the two
bid is a signal of two jacks of one colour, and an ordinary bid); small pepper (one card
passed each way with the partner, who may send the same card back, then alone) and big
pepper (alone, no exchange); trump is a suit or no trump; the bidder leads; a point a trick
when made, set back 6 when not; defenders score a point a trick and go back 6 with none;
game to 42, reached on offense. Every number the articles give two ways is an option below.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal, Optional

from mypy_extensions import mypyc_attr

from tricktable.rules.base import (
    TRUMP_SUITS,
    CommonOptions,
    Contract,
    HandResult,
    TableView,
    Variant,
    opt,
)

__all__ = ["BidEuchre", "BidEuchreOptions", "PEPPER_SMALL", "PEPPER_BIG", "VARIANTS"]

PEPPER_SMALL = "PEPPER:SMALL"
PEPPER_BIG = "PEPPER:BIG"
PEPPERS = (PEPPER_SMALL, PEPPER_BIG)
SOURCE = "“Bid Euchre”, section “Single Deck Bid Euchre”"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class BidEuchreOptions(CommonOptions):
    """House rules of Single Deck Bid Euchre (each field names its passage)."""

    target: "Optional[int]" = opt(
        42, f"{SOURCE}, Winning: 'The standard winning number or goal is 42 (32 in hawsy)'. "
        "null plays to a hand or time limit instead.")
    win_on_defense: bool = opt(
        False, f"{SOURCE}, Winning: 'The first team to reach or exceed 42 while on offense "
        "wins', so a side that passes the target on defense plays on.")
    min_bid: int = opt(
        1, f"{SOURCE}, Bidding: 'One is not a typical bid' (atypical, not forbidden; Progressive "
        "also allows bids of one to six). Set 2 or 3 to forbid low bids.")
    pepper: bool = opt(
        True, f"{SOURCE}, Pepper exchanges: small and big pepper are the two special bids above six.")
    pepper_small_points: int = opt(
        12, f"{SOURCE}: Pepper exchanges says a made small pepper 'receives seven points'; "
        "Leading, taking tricks, and scoring says small pepper wins or loses 12. The scoring "
        "passage is the one that gives both made and failed values, so 12 is the default; 7 "
        "is the other reading (applies to made and failed alike).")
    pepper_big_points: int = opt(
        14, f"{SOURCE}: both passages agree a big pepper is worth 14, made or set.")
    dealer_can_match_pepper: bool = opt(
        True, f"{SOURCE}, Pepper exchanges: 'If someone calls one best, moon, or super moon, the "
        "dealer is allowed to call the same or higher bid and win the bid.'")
    set_penalty: int = opt(
        6, f"{SOURCE}, Leading, taking tricks, and scoring: a failed contract is 'set back (loses) "
        "six points ... regardless of the value of the contract'.")
    defender_shutout_penalty: int = opt(
        6, f"{SOURCE}, Leading, taking tricks, and scoring: 'If the side playing defense ... fails "
        "to get any tricks, it goes back six points' (in peppers too).")
    no_trump: bool = opt(
        True, f"{SOURCE}: 'When playing with no trumps, all four suits follow the plain suit "
        "ranking', so the bidder may name no trump.")
    all_pass: "Literal['pass_deal', 'same_dealer', 'stick_dealer']" = opt(
        "pass_deal", "The single-deck passage does not say. Default follows the family's Euchre "
        "rule (“Euchre”, 'If no trump is selected, the hand is discarded and the deal passes to "
        "the left'); 'same_dealer' redeals; 'stick_dealer' makes the dealer bid (“Bid Euchre”, "
        "Pfeffer: 'the dealer is forced to make a four Trick Bid when all players pass').")
    stick_dealer_bid: int = opt(
        4, "“Bid Euchre”, section “Pfeffer”: 'The minimum bid for a dealer is four tricks' (with stick_dealer).")
    revoke_penalty: int = opt(
        6, "The Bid Euchre passages name no revoke penalty. Judgement: the offending side loses "
        "the value of a set (6, as in Leading, taking tricks, and scoring), the counterpart of "
        "“Euchre” rule that a renege costs the offending side a fixed number of points.")


@mypyc_attr(allow_interpreted_subclasses=True)
class BidEuchre(Variant):
    """Single Deck Bid Euchre (“Bid Euchre”)."""

    name = "bid-euchre"
    title = "Single Deck Bid Euchre"
    aliases = ("bid euchre", "auction euchre", "single-deck-bid-euchre")
    Options = BidEuchreOptions
    seat_counts = (4,)
    deck_name = "24"
    cards_per_hand = 6
    deal_packets = (1,)
    bid_ladder = ("1", "2", "3", "4", "5", "6", PEPPER_SMALL, PEPPER_BIG)

    def legal_bids(self, st: TableView, seat: int) -> list[str]:
        o = st.options
        low = o.stick_dealer_bid if self._stuck(st, seat) else o.min_bid
        start = 0 if st.high is None else _RANK[st.high[1]] + 1
        if st.high is not None and st.high[1] in PEPPERS and self._may_match(st, seat):
            start -= 1
        return list(_bids_from(start, low, o.pepper))

    def bid_beats(self, new: str, old: str, st: TableView, seat: int) -> bool:
        i, j = _RANK[new], _RANK[old]
        return i > j or (i == j and new in PEPPERS and self._may_match(st, seat))

    def _may_match(self, st: TableView, seat: int) -> bool:
        """The dealer may call the same pepper and win it (“Bid Euchre”, section “Pepper exchanges”)."""
        return seat == st.dealer and st.options.dealer_can_match_pepper

    def may_pass(self, st: TableView, seat: int) -> bool:
        return not self._stuck(st, seat)

    def _stuck(self, st: TableView, seat: int) -> bool:
        """The dealer, everyone else having passed, under the stick-the-dealer rule."""
        return (st.options.all_pass == "stick_dealer" and seat == st.dealer
                and st.high is None and len(st.bids) == st.n - 1)

    def dealer_after_pass_out(self, st: TableView) -> int:
        if st.options.all_pass == "same_dealer":
            return st.dealer
        return (st.dealer + 1) % st.n

    def make_contract(self, st: TableView, seat: int, bid: str, forced: bool = False) -> Contract:
        pepper = bid in PEPPERS
        forced = forced or (seat == st.dealer and all(b == "PASS" for _, b in st.bids[:-1])
                            and st.options.all_pass == "stick_dealer")
        return Contract(seat=seat, bid=bid, need=st.hand_size if pepper else int(bid),
                        alone=pepper, forced=forced)

    def trump_choices(self, st: TableView) -> list[str]:
        return list(TRUMP_SUITS) + (["NT"] if st.options.no_trump else [])

    def exchanges(self, st: TableView) -> list[tuple[int, int]]:
        """Small pepper: the bidder passes a card to the partner, who passes one back (it may
        be the same card: 'the option to return the original card'). “Bid Euchre”, section “Pepper”
        exchanges."""
        c = st.contract
        if c is None or c.bid != PEPPER_SMALL:
            return []
        partner = next(s for s in st.sides[st.side_of[c.seat]] if s != c.seat)
        return [(c.seat, partner), (partner, c.seat)]

    def score_hand(self, st: TableView) -> HandResult:
        """“Bid Euchre”, section “Single Deck Bid Euchre”, “Leading, taking tricks, and scoring”."""
        c = st.contract
        assert c is not None
        o = st.options
        side = st.side_of[c.seat]
        deltas = [0] * len(st.sides)
        taken = st.side_tricks(side)
        notes = []
        if c.bid in PEPPERS:
            value = o.pepper_small_points if c.bid == PEPPER_SMALL else o.pepper_big_points
            made = taken == st.hand_size
            deltas[side] = value if made else -value
            notes.append(f"{'made' if made else 'failed'} {c.bid.lower()}: "
                         f"{'+' if made else '-'}{value}")
        elif taken >= c.need:
            deltas[side] = taken
            notes.append(f"made {c.need} with {taken}: +{taken}")
        else:
            deltas[side] = -o.set_penalty
            notes.append(f"set: {taken} of {c.need}, -{o.set_penalty}")
        for other in range(len(st.sides)):
            if other == side:
                continue
            got = st.side_tricks(other)
            deltas[other] = got if got else -o.defender_shutout_penalty
            notes.append(f"defenders {got} trick(s): "
                         + (f"+{got}" if got else f"-{o.defender_shutout_penalty}"))
        return HandResult(tuple(deltas), "; ".join(notes))

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        deltas = [0] * len(st.sides)
        deltas[st.side_of[seat]] = -st.options.revoke_penalty
        return tuple(deltas)

    def game_winner(self, st: TableView, contract_side: int | None) -> int | None:
        """First to 42 'while on offense' (“Bid Euchre”, section “Winning”); a limit otherwise."""
        target = st.options.target
        if st.options.win_on_defense or target is None:
            return super().game_winner(st, contract_side)
        if contract_side is not None and st.scores[contract_side] >= target:
            return contract_side
        return self.limit_winner(st)


_RANK = {b: i for i, b in enumerate(BidEuchre.bid_ladder)}
"""Each bid's place on the ladder: 0 for 1 ... 6 for PEPPER:SMALL, 7 for PEPPER:BIG."""


@cache
def _bids_from(start: int, low: int, pepper: bool) -> tuple[str, ...]:
    """The ladder from place ``start`` up, without number bids under ``low``, and without
    the peppers when they are off. Few distinct answers, asked at every turn of bidding."""
    return tuple(b for b in BidEuchre.bid_ladder[start:]
                 if (int(b) >= low if b.isdigit() else pepper))

VARIANTS = (BidEuchre(),)

"""Buck Euchre / Dirty Clubs (“Bid Euchre”, section “Bid euchre variations”, “Buck euchre”).

Three to six players, each for themselves; the pack grows with the players (10-A for three,
then the nines, eights, sevens). Five cards each, the next card turned up: a club makes clubs
trump with no bidding ("dirty clubs"); otherwise one round of bids (optionally two) for the
right to name trump. The dealer's left leads. Everybody starts at 15 and subtracts the tricks
taken; a high bidder short of the bid adds 5. Options: a player with no tricks is bumped 5
(and may then drop out after trump is named), and no trump when nobody bids.
docs/rules/buck-euchre.md has the details.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mypy_extensions import mypyc_attr

from tricktable.cards import CARDS, COPY_STRIDE, Deck, Suit, make_deck
from tricktable.rules.base import (
    CommonOptions,
    Contract,
    HandResult,
    TableView,
    Variant,
    opt,
)
from tricktable.rules.common import offender_pays

__all__ = ["BuckEuchre", "BuckEuchreOptions", "DIRTY_CLUBS", "VARIANTS", "club_up_contract"]

SOURCE = "“Bid Euchre”, section “Buck euchre”"
DIRTY_CLUBS = "DIRTY_CLUBS"
NO_BID = "NO_BID"
LOWEST_RANK = {3: 10, 4: 9, 5: 8, 6: 7}


def club_up_contract(st: TableView, bid: str) -> Contract | None:
    """When the turned-up card is known and is a club: the hand is played with clubs trump and
    no bidding (recorded as ``bid`` for the dealer's left, with nothing to make); else None.
    Buck Euchre's dirty clubs and Eau Claire Clubs' clubs-up share this rule."""
    if st.up_card is None or CARDS[st.up_card % COPY_STRIDE].suit != Suit.CLUBS:
        return None
    return Contract(seat=(st.dealer + 1) % st.n, bid=bid, need=0, trump="C")


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class BuckEuchreOptions(CommonOptions):
    """House rules of Buck Euchre / Dirty Clubs (each field names its passage)."""

    start: int = opt(15, f"{SOURCE}, Scoring: 'Each player starts with the same number of points, "
                         "which may be 15. The goal is to get to zero.'")
    second_round: bool = opt(
        False, f"{SOURCE}, Play: 'The bid can go around a second time, giving players the chance "
        "to raise their bid.' ('can': off by default).")
    all_pass: "Literal['pass_deal', 'no_trump']" = opt(
        "pass_deal", f"{SOURCE}, Scoring: 'Another variation is that if the call goes all the way "
        "around without a bid, there is no trump'. Without it the article is silent; judgement: "
        "the hand is thrown in and the deal passes, as in Euchre.")
    bump_no_tricks: bool = opt(
        False, f"{SOURCE}, Scoring: 'One variation is that a player who takes no tricks is bumped "
        "(penalized) five points regardless of his bid. When this rule is in place, the players "
        "are usually given a chance to drop out after trump is called.'")
    set_points: int = opt(5, f"{SOURCE}, Scoring: 'he must add five to his score'.")


@mypyc_attr(allow_interpreted_subclasses=True)
class BuckEuchre(Variant):
    """Buck Euchre / Dirty Clubs (“Bid Euchre”, section “Buck euchre”)."""

    name = "buck-euchre"
    title = "Buck Euchre / Dirty Clubs"
    aliases = ("dirty-clubs", "buck")
    Options = BuckEuchreOptions
    seat_counts = (4, 3, 5, 6)
    cards_per_hand = 5
    partnerships = False
    has_up_card = True
    low_score_wins = True
    bid_ladder = ("1", "2", "3", "4", "5")

    def deck(self, n: int, options: BuckEuchreOptions) -> Deck:  # type: ignore[override]
        """'the 10, J, Q, K, and A of each suit (three players), with lower cards (9, 8, 7,
        etc.) added if necessary for more players'."""
        return make_deck(LOWEST_RANK[n])

    def starting_scores(self, n_sides: int, options: BuckEuchreOptions) -> list[int]:  # type: ignore[override]
        return [options.start] * n_sides

    def pre_auction_contract(self, st: TableView) -> Contract | None:
        """'If this face-up card is a club - this is called dirty clubs - there is no bidding
        and clubs are automatic trumps.'"""
        return club_up_contract(st, DIRTY_CLUBS)

    def auction_over(self, st: TableView) -> bool:
        rounds = 2 if st.options.second_round else 1
        return len(st.bids) >= rounds * st.n

    def on_all_pass(self, st: TableView) -> Contract | None:
        if st.options.all_pass == "no_trump":
            return Contract(seat=(st.dealer + 1) % st.n, bid=NO_BID, need=0, trump="NT")
        return None

    def trump_choices(self, st: TableView) -> list[str]:
        """'The high bidder gets to call trump' (a suit)."""
        return list(self.trump_names)

    def sitout_deciders(self, st: TableView) -> list[int]:
        """With the bump rule, every player but the high bidder may drop out after trump is
        called, in turn from the dealer's left; not when nobody bid, and (judgement) not on a
        dirty-clubs hand, which has no high bidder to play against."""
        c = st.contract
        if not st.options.bump_no_tricks or c is None or c.bid in (NO_BID, DIRTY_CLUBS):
            return []
        order = [(st.dealer + i) % st.n for i in range(1, st.n + 1)]
        return [s for s in order if s != c.seat]

    def sit_out_ends_hand(self, st: TableView, seat: int, out: bool) -> bool:
        return False

    def first_leader(self, st: TableView) -> int:
        """'Play begins with the player to the left of the dealer.'"""
        return (st.dealer + 1) % st.n

    def score_hand(self, st: TableView) -> HandResult:
        """“Bid Euchre”, section “Buck euchre”, “Scoring”."""
        c = st.contract
        assert c is not None
        o = st.options
        deltas: list[int] = []
        notes: list[str] = []
        bidder = c.seat if c.bid not in (NO_BID, DIRTY_CLUBS) else None
        for seat in range(st.n):
            taken = st.tricks_won[seat]
            if seat in st.dropped:
                deltas.append(0)
                notes.append(f"{st.players[seat]} dropped out")
            elif seat == bidder and taken < c.need:
                deltas.append(o.set_points)
                notes.append(f"{st.players[seat]} set ({taken} of {c.need}) +{o.set_points}")
            elif taken == 0 and o.bump_no_tricks:
                deltas.append(o.set_points)
                notes.append(f"{st.players[seat]} bumped +{o.set_points}")
            else:
                deltas.append(-taken)
                notes.append(f"{st.players[seat]} -{taken}")
        return HandResult(tuple(deltas), "; ".join(notes))

    def game_winner(self, st: TableView, contract_side: int | None) -> int | None:
        """The first to zero; several at once: the lowest score, then the high bidder, then
        the first from the dealer's left (judgement)."""
        done = [s for s in range(st.n) if st.scores[s] <= 0]
        if not done:
            return self.limit_winner(st)
        low = min(st.scores[s] for s in done)
        best = [s for s in done if st.scores[s] == low]
        if contract_side in best and st.contract is not None \
                and st.contract.bid not in (NO_BID, DIRTY_CLUBS):
            return contract_side
        return min(best, key=lambda s: (s - st.dealer - 1) % st.n)

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        """The article names no revoke penalty. Judgement: the offender is set (+``set_points``)."""
        return offender_pays(st, seat, st.options.set_points)


VARIANTS = (BuckEuchre(),)

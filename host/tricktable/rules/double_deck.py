"""Double Deck Bid Euchre, Indiana Double Deck and the five-handed game (“Bid Euchre”, section “Double”
Deck Bid Euchre and its Variations).

Double Deck: two 24-card packs (48 cards), four players in two partnerships, twelve cards
each; one round of bids from three; the high bidder names a suit and leads; made: a point a
trick; failed: minus the bid; the opponents score their tricks; game to 50. Indiana Double
Deck is the same game with a pinochle pack (the same 48 cards). Five-handed: two packs
without nines, eight cards each, every player for themselves; six and seven players add the
nines and then the eights. ``bid_or_set`` is the scoring the Double Hasenpfeffer module
shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

from mypy_extensions import mypyc_attr

from tricktable.cards import Deck, make_deck
from tricktable.rules.base import CommonOptions, HandResult, TableView, Variant, opt
from tricktable.rules.common import offender_pays

__all__ = ["DoubleDeck", "IndianaDoubleDeck", "FiveHanded", "DoubleDeckOptions", "bid_or_set",
           "VARIANTS"]

SOURCE = "“Bid Euchre”, section “Double Deck Bid Euchre”"
LOWEST_RANK = {5: 10, 6: 9, 7: 8}


def bid_or_set(st: TableView, made_factor: int = 1, set_value: int | None = None) -> HandResult:
    """The contract side scores its tricks if it made the bid and loses ``set_value`` (the
    bid by default) if not, both times ``made_factor``; every other side scores its tricks."""
    c = st.contract
    assert c is not None
    side = st.side_of[c.seat]
    deltas = [st.side_tricks(s) for s in range(len(st.sides))]
    taken = deltas[side]
    made = taken >= c.need
    lost = c.need if set_value is None else set_value
    deltas[side] = made_factor * (taken if made else -lost)
    note = (f"{c.bid} {'made' if made else 'set'} with {taken}: "
            + ", ".join(f"{d:+d}" for d in deltas))
    return HandResult(tuple(deltas), note)


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class DoubleDeckOptions(CommonOptions):
    """House rules of Double Deck Bid Euchre (each field names its passage)."""

    revoke_points: int = opt(
        3, "The article names no revoke penalty. Judgement: the offending team loses the minimum "
        "bid, the smallest set (record mode).")
    target: "Optional[int]" = opt(50, f"{SOURCE}: 'The game is won by the first team to score 50 "
                                 "points' (the bidders win a tie: judgement, as in Pfeffer).")


@mypyc_attr(allow_interpreted_subclasses=True)
class DoubleDeck(Variant):
    """Double Deck Bid Euchre (“Bid Euchre”)."""

    name = "double-deck"
    title = "Double Deck Bid Euchre"
    aliases = ("double-deck-bid-euchre",)
    Options = DoubleDeckOptions
    seat_counts: ClassVar[tuple[int, ...]] = (4,)
    deck_name = "48"
    cards_per_hand = 12
    bid_ladder = tuple(str(i) for i in range(3, 13))
    """'The minimum bid is three'."""

    def trump_choices(self, st: TableView) -> list[str]:
        """'the winning bid is the highest bid, and they get to make trump' (a suit)."""
        return list(self.trump_names)

    def score_hand(self, st: TableView) -> HandResult:
        """'If the player makes the bid, they get one point for each trick the team takes. If
        the team with the highest bid fails to make their bid, they lose points equal to their
        bid. Their opponents get one point for each trick they take.'"""
        return bid_or_set(st)

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        return offender_pays(st, seat, st.options.revoke_points)


@mypyc_attr(allow_interpreted_subclasses=True)
class IndianaDoubleDeck(DoubleDeck):
    """Indiana Double Deck: 'played by four players in teams of two. A deck of 48 cards (a
    Pinochle Deck is used' (“Bid Euchre”, section “Double Deck Bid Euchre”, “Variations”)."""

    name = "indiana-double-deck"
    title = "Indiana Double Deck"
    aliases = ("indiana",)


@mypyc_attr(allow_interpreted_subclasses=True)
class FiveHanded(DoubleDeck):
    """The five-handed game (“Bid Euchre”, section “Double Deck Bid Euchre”, “Variations”): 'two decks with
    nines removed. Each player competes against all the others ... If six play, eight nines
    are added ... for seven players, add the nines and eights ... Each player receives eight
    cards.'"""

    name = "five-handed"
    title = "Five-handed Double Deck Bid Euchre"
    aliases = ("five-handed-bid-euchre",)
    seat_counts = (5, 6, 7)
    partnerships = False
    cards_per_hand = 8
    bid_ladder = tuple(str(i) for i in range(3, 9))

    def deck(self, n: int, options: DoubleDeckOptions) -> Deck:  # type: ignore[override]
        return make_deck(LOWEST_RANK[n], copies=2)


VARIANTS = (DoubleDeck(), IndianaDoubleDeck(), FiveHanded())

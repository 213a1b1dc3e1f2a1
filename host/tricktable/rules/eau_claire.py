"""Eau Claire Clubs (“Bid Euchre”, section “Eau Claire Clubs”: Cards, Dealing, Bidding, Sitting out,
Cardplay, Set, Scoring, Winning, Bottoms, Misdeal).

Four players in two partnerships, 24 cards, five each; the next card is turned up and stays
put. A club up-card: clubs are trump, no bidding, no sit-out, no calls, the dealer's left
leads. Otherwise one bid each on the ladder 3HC < 4HC < 2 < 5HC < 3 < 4 < 5 (HC: high card,
no trump); the high bidder names any suit and leads. The defenders may sit out (the bidders
then count their bid). Before the bidding a player may call Bottoms (three of a kind for the
three cards under the up-card), or a misdeal for four of a kind or Ace No Face. Both sides
start at 15 and count down; a set adds 5, capped at 20; the first side to zero wins, the
bidders on a tie. docs/rules/eau-claire-clubs.md lists the options and judgement calls.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from mypy_extensions import mypyc_attr

from tricktable.cards import CARDS, COPY_STRIDE
from tricktable.rules.base import (
    CommonOptions,
    Contract,
    HandResult,
    Phase,
    TableView,
    Variant,
    opt,
)
from tricktable.rules.buck_euchre import club_up_contract
from tricktable.rules.common import offender_pays

__all__ = ["EauClaireClubs", "EauClaireOptions", "CLUBS_UP", "VARIANTS"]

SOURCE = "“Bid Euchre”, section “Eau Claire Clubs”"
CLUBS_UP = "CLUBS_UP"
BOTTOMS, MISDEAL = "BOTTOMS", "MISDEAL"
FACES = (11, 12, 13)
SET_POINTS = 5
"""Set: 'the partnership's score is increased by 5'."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class EauClaireOptions(CommonOptions):
    """House rules of Eau Claire Clubs (each field names its passage)."""

    start: int = opt(15, f"{SOURCE}, Scoring: 'The game begins with both partnerships at 15.'")
    cap: int = opt(20, f"{SOURCE}, Set: 'the partnership's score is increased by 5, up to a "
                       "maximum of 20'.")
    calls_before: "Literal['any_bid', 'own_bid']" = opt(
        "any_bid", f"{SOURCE}, Bottoms: 'the official rule is that a player must call Bottoms "
        "before anybody else bids/passes — at the table, however, this rule is often loosened'. "
        "'own_bid' allows a call until the caller's own bid (the same for misdeals).")
    ace_no_face: "Literal['any', 'strict', 'off']" = opt(
        "any", f"{SOURCE}, Misdeal: 'If a player's hand contains 1+ aces and no face-cards, the "
        "player may call Ace No Face' (any); 'some places commonly restrict Ace No Face to only "
        "the precise holding of A-10-10-9-9' (strict); off disallows it.")


@mypyc_attr(allow_interpreted_subclasses=True)
class EauClaireClubs(Variant):
    """Eau Claire Clubs (“Bid Euchre”)."""

    name = "eau-claire-clubs"
    title = "Eau Claire Clubs"
    aliases = ("clubs", "dirrties", "eau-claire")
    Options = EauClaireOptions
    seat_counts = (4,)
    deck_name = "24"
    cards_per_hand = 5
    deal_packets = (2, 3)
    has_up_card = True
    low_score_wins = True
    bid_ladder = ("3HC", "4HC", "2", "5HC", "3", "4", "5")
    """Bidding: 'Any higher trump-suit bid beats any lower', '3HC or 4HC is beaten by any
    trump-suit bid', '5HC is beaten by a trump-suit bid of 3 or more': one ladder."""

    def starting_scores(self, n_sides: int, options: EauClaireOptions) -> list[int]:  # type: ignore[override]
        return [options.start] * n_sides

    def pre_auction_contract(self, st: TableView) -> Contract | None:
        """Sitting out: 'If the up-card IS a club: There is no bidding; instead, the hand is
        played with clubs as trump.'"""
        return club_up_contract(st, CLUBS_UP)

    def make_contract(self, st: TableView, seat: int, bid: str, forced: bool = False) -> Contract:
        """An HC bid plays at high card (no trump); a trump bid names a suit next."""
        return Contract(seat=seat, bid=bid, need=int(bid[0]),
                        trump="NT" if bid.endswith("HC") else None)

    def trump_choices(self, st: TableView) -> list[str]:
        """Bidding: 'The high bidder may call any trump suit, regardless of the suit of the
        up-card.'"""
        return list(self.trump_names)

    # -- calls before the bidding ----------------------------------------------------------
    def legal_calls(self, st: TableView, seat: int, phase: Phase) -> list[str]:
        calls = super().legal_calls(st, seat, phase)
        if not self._may_call(st, seat, phase):
            return calls
        ranks = _ranks(st.known[seat])
        if 3 in ranks.values() and st.tally.get("bottoms_hand") != st.hand_number:
            calls.append(BOTTOMS)
        if 4 in ranks.values() or self._ace_no_face(st.options.ace_no_face, ranks):
            calls.append(MISDEAL)
        return calls

    def _may_call(self, st: TableView, seat: int, phase: Phase) -> bool:
        """Bottoms: 'must call Bottoms before anybody else bids/passes' (or, loosened, before
        the caller's own bid). A call shows the cards, so the engine must know the caller's
        whole hand: dealt by it, or scanned. With real cards the caller scans the five cards
        on the pad during the deal, once the up-card is turned (a club: no calls), then calls
        (docs/rules/eau-claire-clubs.md, "Calls with real cards")."""
        if phase == "deal":
            if st.up_card is None or self.pre_auction_contract(st) is not None:
                return False
        elif phase != "bidding":
            return False
        if not st.count[seat] == st.known[seat].bit_count() == st.hand_size:
            return False
        if st.options.calls_before == "any_bid":
            return not st.bids
        return all(s != seat for s, _ in st.bids)

    def call_refusal(self, st: TableView, seat: int, call: str) -> str:
        """Why a ``BOTTOMS`` or ``MISDEAL`` call is refused, in the order a player meets it."""
        if call not in (BOTTOMS, MISDEAL):
            return ""
        who = st.players[seat]
        if st.phase not in ("deal", "bidding") or (
                st.options.calls_before == "any_bid" and st.bids) or any(
                s == seat for s, _ in st.bids):
            return f"{call} is called before the bidding ({SOURCE}, Bottoms: 'before anybody " \
                   "else bids/passes'; option calls_before)"
        if st.phase == "deal" and st.up_card is None:
            return f"{call} waits for the up-card: the dealer turns it up first"
        if self.pre_auction_contract(st) is not None:
            return f"no {call} on a club hand ({SOURCE}, Sitting out: no calls)"
        if not st.count[seat] == st.known[seat].bit_count() == st.hand_size:
            if st.phase == "deal":
                return (f"a call shows the cards: {who} scans all {st.hand_size} cards on the "
                        f"pad first, then calls {call}")
            return (f"a call shows the cards: {who}'s hand was not scanned before the bidding "
                    "began, so the call cannot be checked")
        return (f"{who}'s hand does not allow {call} (Bottoms: three of a kind, once a hand; "
                "Misdeal: four of a kind or Ace No Face)")

    @staticmethod
    def _ace_no_face(rule: str, ranks: Counter[int]) -> bool:
        if rule == "off" or any(ranks[r] for r in FACES) or not ranks[14]:
            return False
        return rule == "any" or sorted(ranks.elements()) == [9, 9, 10, 10, 14]

    def apply_call(self, st: TableView, seat: int, call: str) -> str | None:
        """Misdeal (four of a kind or Ace No Face, one ``MISDEAL`` call for both): 'all cards
        are returned to the dealer, and the dealer shuffles & deals again'. Bottoms: 'the
        player exchanges their 3 of a kind for the 3 cards on the bottom of the pile ...
        placed face-up beneath the up-card'."""
        if call == MISDEAL:
            return "redeal"
        rank = next(r for r, k in _ranks(st.known[seat]).items() if k == 3)
        three = sum(1 << p for p in _bits(st.known[seat]) if CARDS[p % COPY_STRIDE].rank == rank)
        up = 0 if st.up_card is None else 1 << st.up_card
        bottom = st.kitty & ~up  # the three under the up-card, when the engine dealt them
        st.known[seat] = (st.known[seat] & ~three) | bottom
        st.kitty = (st.kitty & ~bottom) | three
        st.tally["bottoms_hand"] = st.hand_number
        return None

    # -- sitting out, the lead -------------------------------------------------------------
    def sitout_deciders(self, st: TableView) -> list[int]:
        """Sitting out: the defenders may sit out, but not 'If they have sat out the 2
        previous hands' or 'If their score is 3, 2, or 1'; never on a club hand. The defender
        at the bidder's left answers for the side."""
        c = st.contract
        if c is None or c.bid == CLUBS_UP:
            return []
        side = 1 - st.side_of[c.seat]
        if st.tally.get("sat_out", [0, 0])[side] >= 2 or st.scores[side] in (1, 2, 3):
            return []
        return [(c.seat + 1) % st.n]

    def first_leader(self, st: TableView) -> int:
        """Cardplay: 'the winning bidder leads'; on a club hand 'The player to the left of the
        dealer leads to the opening trick.'"""
        c = st.contract
        assert c is not None
        return (st.dealer + 1) % st.n if c.bid == CLUBS_UP else c.seat

    # -- scoring ---------------------------------------------------------------------------
    def score_hand(self, st: TableView) -> HandResult:
        """Scoring, Set and Sitting out (“Bid Euchre”, section “Eau Claire Clubs”)."""
        c = st.contract
        assert c is not None
        bidders = st.side_of[c.seat]
        streak = list(st.tally.get("sat_out", [0, 0]))
        deltas = [0, 0]
        notes: list[str] = []
        if st.dropped:
            deltas[bidders] = -c.need
            streak[1 - bidders] += 1
            streak[bidders] = 0
            notes.append(f"defenders sat out: bidders -{c.need}")
        else:
            streak = [0, 0]
            for side in (0, 1):
                taken = st.side_tricks(side)
                swept = c.bid == CLUBS_UP and st.side_tricks(1 - side) == st.hand_size
                if c.bid == CLUBS_UP and taken == st.hand_size:
                    deltas[side], why = -SET_POINTS, "all five on a club hand"
                elif taken == 0 or swept or (side == bidders and c.bid != CLUBS_UP
                                             and taken < c.need):
                    deltas[side] = min(st.scores[side] + SET_POINTS, st.options.cap) - st.scores[side]
                    why = f"set with {taken}"
                else:
                    deltas[side], why = -taken, f"{taken} tricks"
                notes.append(f"{st.side_name(side)}: {why} {deltas[side]:+d}")
        tally = {"sat_out": streak}
        return HandResult(tuple(deltas), "; ".join(notes), tally)

    def game_winner(self, st: TableView, contract_side: int | None) -> int | None:
        """Winning: the first side at zero; both at once: 'bidder wins'; on a club hand the
        lower score, then the higher trick total."""
        done = [side for side in (0, 1) if st.scores[side] <= 0]
        if len(done) == 1:
            return done[0]
        if not done:
            return self.limit_winner(st)
        c = st.contract
        if c is not None and c.bid != CLUBS_UP:
            return contract_side
        if st.scores[0] != st.scores[1]:
            return 0 if st.scores[0] < st.scores[1] else 1
        tricks = [st.side_tricks(0), st.side_tricks(1)]
        return tricks.index(max(tricks))

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        """The article names no revoke penalty. Judgement: the offending side is set, +5 (not
        capped: the cap belongs to the hand's own set)."""
        return offender_pays(st, seat, SET_POINTS)


def _bits(m: int) -> list[int]:
    return [p for p in range(m.bit_length()) if m >> p & 1]


def _ranks(hand: int) -> Counter[int]:
    """How many cards of each rank a hand (bit set) holds."""
    return Counter(CARDS[p % COPY_STRIDE].rank for p in _bits(hand))


VARIANTS = (EauClaireClubs(),)

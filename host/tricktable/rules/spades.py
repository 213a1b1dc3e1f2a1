"""Spades, partnership and cutthroat (“Spades”).

52 cards, 13 each dealt one at a time; spades are always trump. Every player bids once,
from the dealer's left: 1..13, nil, or blind nil (when the side is far enough behind); in
partnership the two bids of a side add up to its contract. The dealer's left leads;
breaking spades and no spade lead to the first trick are options. A contract made scores 10
a bid trick and 1 a bag; a set loses 10 a bid trick; nil +/-100, blind nil +/-200; every
``bag_limit`` bags cost ``bag_penalty``. Game to 500, or lost at -200. Revokes: the side
loses its bid, or three tricks are added to it. docs/rules/spades.md has the passages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, Optional

from mypy_extensions import mypyc_attr

from tricktable.cards import Suit
from tricktable.rules.base import (
    CommonOptions,
    Contract,
    HandResult,
    TableView,
    Variant,
    opt,
)
from tricktable.rules.common import partner_of

__all__ = ["Spades", "SpadesCutthroat", "SpadesOptions", "NIL", "BLIND_NIL", "VARIANTS"]

SOURCE = "“Spades”"
NIL = "NIL"
BLIND_NIL = "BLINDNIL"
NIL_VALUE = {NIL: 100, BLIND_NIL: 200}


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class SpadesOptions(CommonOptions):
    """House rules of Spades (each field names its passage)."""

    target: "Optional[int]" = opt(
        500, f"{SOURCE}, section “Scoring”: 'the first to reach 500 points'. The short game plays "
        "to 250 (section “Scoring”). null plays to a hand or time limit.")
    lose_at: "Optional[int]" = opt(
        -200, f"{SOURCE}, section “Scoring”: 'or forcing the opposing team to drop to -200 points'.")
    blind_nil: bool = opt(
        True, f"{SOURCE}, section “Bidding”: 'A combined bid of two blind nil is usually allowed'; "
        "blind nil is one of the two 'very common variants of bidding' (section “Bidding”).")
    blind_nil_behind: int = opt(
        100, f"{SOURCE}, section “Nil”: 'Usually teams must be down by 100 points to bid blind "
        "nil' (0 allows it at any score).")
    breaking_spades: bool = opt(
        True, f"{SOURCE}, section “Play”: 'A common variant rule ... a player may not lead spades "
        "until a spade has been played to trump another trick'. A hand of only spades may "
        "lead one (judgement: there is no other card).")
    no_spade_first_lead: bool = opt(
        False, f"{SOURCE}, section “Play”: 'Another common variant rule ... a player cannot lead "
        "spades in the first trick'. Off: it is the second of the two variants named.")
    bag_limit: int = opt(
        10, f"{SOURCE}, section “Scoring”: 'a 100-point penalty when 10 bags are "
        "accumulated'; the short game uses 5.")
    bag_penalty: int = opt(
        100, f"{SOURCE}, section “Scoring”: 100 (50 in the short game: 'a 50-point penalty would be "
        "assessed when 5 bags are accumulated').")
    nil_pass: "Literal[0, 1, 2]" = opt(
        0, f"{SOURCE}, section “Nil”: 'In some variants, the player bidding nil passes one or two "
        "of their cards ... to their partner and receives an equal number of cards back'. "
        "'some variants': no pass by default (partnership only).")
    nil_pass_blind_only: bool = opt(
        True, f"{SOURCE}, section “Nil”: 'Nil passing may be allowed only in the case of a blind "
        "nil.' (with nil_pass).")
    nils_per_game: "Optional[int]" = opt(
        None, f"{SOURCE}, section “Play”: 'Nil rules: One nil per game.' (the rest of that list "
        "is lost). Counted per side, a blind nil included; 1 applies it. null (default): no "
        "limit, as section “Bidding” 'A combined bid of two blind nil is usually allowed' and the "
        "rest of the article treat nil as a bid of any hand.")
    failed_nil_tricks: "Literal['partner', 'bags']" = opt(
        "partner", f"{SOURCE}, section “Scoring”: 'If a player failed a nil bid but the partnership "
        "bid and took 5 tricks, the net score is -50' (partner: the nil bidder's tricks count "
        "towards the partner's contract); 'If a nil bid is set, most tournament rules dictate "
        "that the overtricks make the nil invalid' (bags: a failed nil bidder's tricks never "
        "help the partner's contract and each is a bag for the side).")
    revoke_penalty: "Literal['lose_bid', 'add_three']" = opt(
        "lose_bid", f"{SOURCE}, section “Reneging”: 'Common penalties for reneging are for the "
        "reneging player to automatically lose their bid, or for the reneger to have three "
        "tricks added to their bid'. The first is the default.")


@mypyc_attr(allow_interpreted_subclasses=True)
class Spades(Variant):
    """Partnership Spades: four players, partners opposite (“Spades”)."""

    name = "spades"
    title = "Spades (partnership)"
    aliases: ClassVar[tuple[str, ...]] = ("partnership-spades",)
    Options = SpadesOptions
    seat_counts = (4,)
    deck_name = "52"
    cards_per_hand = 13
    deal_packets = (1,)
    bowers = False
    restricts_leads = True
    bid_ladder = (NIL, BLIND_NIL, *(str(i) for i in range(1, 14)))
    trump_names = ("S",)

    def legal_bids(self, st: TableView, seat: int) -> list[str]:
        """Sections “Bidding”, “Nil”: any number of tricks or nil; blind nil when allowed; no nil
        once the side has bid its ``nils_per_game`` (section “Play”)."""
        if not self._nil_allowed(st, seat):
            return [b for b in self.bid_ladder if b not in NIL_VALUE]
        bids = [b for b in self.bid_ladder if b != BLIND_NIL]
        if self._blind_nil_allowed(st, seat):
            bids.insert(1, BLIND_NIL)
        return bids

    def _nil_allowed(self, st: TableView, seat: int) -> bool:
        limit = st.options.nils_per_game
        if limit is None:
            return True
        side = st.side_of[seat]
        this_hand = sum(1 for s, b in st.bids if b in NIL_VALUE and st.side_of[s] == side)
        return _nils(st)[side] + this_hand < limit

    def _blind_nil_allowed(self, st: TableView, seat: int) -> bool:
        o = st.options
        if not o.blind_nil:
            return False
        side = st.side_of[seat]
        best_other = max(s for i, s in enumerate(st.scores) if i != side)
        return st.scores[side] <= best_other - o.blind_nil_behind

    def may_pass(self, st: TableView, seat: int) -> bool:
        """Section “Bidding”: 'Players must bid at least one if they don't want to bid nil'."""
        return False

    def auction_result(self, st: TableView) -> Contract | None:
        """Every bid stands; spades are trump. The contract records the opening bidder."""
        seat = self.first_bidder(st)
        return Contract(seat=seat, bid="SPADES", need=0, trump="S")

    def exchanges(self, st: TableView) -> list[tuple[int, int]]:
        """Section “Nil”: a nil bidder passes ``nil_pass`` cards to the partner, then receives
        as many back (in bidding order when both partners bid nil)."""
        o = st.options
        passing = (BLIND_NIL,) if o.nil_pass_blind_only else (NIL, BLIND_NIL)
        if not o.nil_pass or not self.partnerships:
            return []
        out: list[tuple[int, int]] = []
        for seat, bid in st.bids:
            if bid in passing:
                partner = partner_of(st, seat)
                out += [(seat, partner)] * o.nil_pass + [(partner, seat)] * o.nil_pass
        return out

    def first_leader(self, st: TableView) -> int:
        """Section “Scoring”: 'The player on the dealer's left makes the opening lead'."""
        return (st.dealer + 1) % st.n

    def lead_refusal(self, st: TableView, seat: int, card_bit: int) -> str:
        """Section “Play”, refused only when the hand is known to hold another suit."""
        spades = st.order.suit_masks[Suit.SPADES]  # type: ignore[union-attr]
        if not spades >> card_bit & 1:
            return ""
        return self._no_spade_lead(st, seat, spades)

    def lead_mask(self, st: TableView, seat: int, cands: int) -> int:
        spades = st.order.suit_masks[Suit.SPADES]  # type: ignore[union-attr]
        return cands & ~spades if cands & spades and self._no_spade_lead(st, seat, spades) \
            else cands

    def leads_free(self, st: TableView) -> bool:
        """Section “Play”: once a spade has gone to an earlier trick (and the first trick is
        over, where spades may not open it) any lead is allowed for the rest of the hand."""
        if st.options.no_spade_first_lead and not st.tricks:
            return False
        spades = st.order.suit_masks[Suit.SPADES]  # type: ignore[union-attr]
        return not st.options.breaking_spades or any(
            spades >> p & 1 for _, cards, _ in st.tricks for _, p in cards)

    @staticmethod
    def _no_spade_lead(st: TableView, seat: int, spades: int) -> str:
        """Why ``seat`` may not lead a spade now, or ""."""
        if not st.known[seat] & ~spades:
            return ""
        if st.options.no_spade_first_lead and not st.tricks:
            return "spades may not be led to the first trick"
        broken = any(spades >> p & 1 for _, cards, _ in st.tricks for _, p in cards)
        if st.options.breaking_spades and not broken:
            return "spades may not be led until a spade has been played to another trick"
        return ""

    def score_hand(self, st: TableView) -> HandResult:
        """Section “Scoring”: contracts, bags, nil and blind nil."""
        o = st.options
        bids = dict(st.bids)
        revoked = [st.side_of[r["seat"]] for r in st.revokes]
        bags = list(st.tally.get("bags", [0] * len(st.sides)))
        deltas: list[int] = []
        notes: list[str] = []
        for side, seats in enumerate(st.sides):
            delta, note, taken_bags = self._side_score(st, side, seats, bids,
                                                       revoked.count(side))
            bags[side] += taken_bags
            while bags[side] >= o.bag_limit:
                bags[side] -= o.bag_limit
                delta -= o.bag_penalty
                note.append(f"{o.bag_limit} bags -{o.bag_penalty}")
            deltas.append(delta)
            notes.append(f"{st.side_name(side)}: " + ", ".join(note))
        tally: dict[str, list[int]] = {"bags": bags}
        if o.nils_per_game is not None:
            tally["nils"] = [n + sum(1 for s in seats if bids[s] in NIL_VALUE)
                             for n, seats in zip(_nils(st), st.sides, strict=True)]
        return HandResult(tuple(deltas), "; ".join(notes), tally)

    def _side_score(self, st: TableView, side: int, seats: tuple[int, ...],
                    bids: dict[int, str], revokes: int) -> tuple[int, list[str], int]:
        """(score change, notes, bags taken) for one side."""
        o = st.options
        delta = 0
        notes: list[str] = []
        for s in seats:
            if bids[s] in NIL_VALUE:
                value = NIL_VALUE[bids[s]] * (1 if st.tricks_won[s] == 0 else -1)
                delta += value
                notes.append(f"{bids[s].lower()} {value:+d}")
        contract = sum(int(bids[s]) for s in seats if bids[s] not in NIL_VALUE)
        if revokes and o.revoke_penalty == "add_three":
            contract += 3 * revokes
        taken = st.side_tricks(side)
        set_by_revoke = revokes and o.revoke_penalty == "lose_bid"
        bags = 0
        if o.failed_nil_tricks == "bags":  # a failed nil's tricks are bags, not contract tricks
            nil_tricks = sum(st.tricks_won[s] for s in seats if bids[s] in NIL_VALUE)
            taken -= nil_tricks
            bags += nil_tricks
            if nil_tricks:
                notes.append(f"{nil_tricks} nil trick{'s' if nil_tricks > 1 else ''} as bags")
        if contract and (taken < contract or set_by_revoke):
            delta += bags - 10 * contract  # bags here: a failed nil's tricks (option)
            notes.append(f"set {taken}/{contract} {-10 * contract:+d}"
                         + (" (revoke)" if set_by_revoke else ""))
        else:
            bags += taken - contract
            delta += 10 * contract + bags
            notes.append(f"made {taken}/{contract} {10 * contract + bags:+d}")
        return delta, notes, bags

    def game_winner(self, st: TableView, contract_side: int | None) -> int | None:
        """Section “Scoring”: first to the target wins (a tie plays one more round); a side at
        or below ``lose_at`` loses and the best other side wins (all of them at once: the
        best score, judgement)."""
        o = st.options
        if o.target is not None and max(st.scores) >= o.target:
            return self._best(st, range(len(st.scores)))
        if o.lose_at is not None and min(st.scores) <= o.lose_at:
            alive = [i for i, s in enumerate(st.scores) if s > o.lose_at]
            return self._best(st, alive or range(len(st.scores)))
        return self.limit_winner(st)


def _nils(st: TableView) -> list[int]:
    """Nil bids (blind nil included) each side made in earlier hands of this game."""
    return list(st.tally.get("nils", [0] * len(st.sides)))


@mypyc_attr(allow_interpreted_subclasses=True)
class SpadesCutthroat(Spades):
    """Cutthroat Spades: each for themselves (“Spades”, sections “Players”, “Bidding”)."""

    name = "spades-cutthroat"
    title = "Spades (cutthroat)"
    aliases = ("cutthroat-spades", "solo-spades")
    partnerships = False
    seat_counts = (4,)


VARIANTS = (Spades(), SpadesCutthroat())

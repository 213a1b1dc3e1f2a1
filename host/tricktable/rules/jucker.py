"""Jucker as far as “Jucker” describes it: the Hunsrück Bauer, "the closest relative of
Juckerspiel" (“Jucker”, sections “Bauer”, “Rules”, “Variations”; section “History” for Jucker itself),
and the Saarland Bauer (section “Bauer”).

Hunsrück Bauer (``jucker``): 32 cards, two teams (six players in threes, or four in twos),
five cards each; the trump jack and the jack of the same colour are the top trumps. The top
card of the skat is turned: a jack fixes trump (the dealer's side declares); otherwise the
players are asked in turn whether they will play the turned suit (the dealer may exchange
with it), then another suit; if all pass the cards are redealt. Teams start with five lines
and play for the best of five tricks: declarers who win erase a line, declarers who lose add
one and the winners erase one; a Durch (every trick) is worth more. No lines left wins.

Saarland Bauer (``bauer-saarland``): four players in partnerships, eight cards each in two
packets of four; forehand names trump and leads a trump; teams count down from eight, a
point a deal; Karten weg (one player alone for every trick) earns a Brot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from mypy_extensions import mypyc_attr

from tricktable.cards import CARDS, COPY_STRIDE, Deck
from tricktable.cards import deck as named_deck
from tricktable.rules.base import (
    STOCK,
    TRUMP_SUITS,
    CommonOptions,
    Contract,
    HandResult,
    TableView,
    Variant,
    opt,
)
from tricktable.rules.common import offender_pays, partner_of
from tricktable.rules.euchre import ORDER_UP, Euchre

__all__ = ["Jucker", "JuckerOptions", "BauerSaarland", "BauerOptions", "JACK_UP", "VARIANTS"]

SOURCE = "“Jucker”"
JACK_UP = "JACK_UP"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class JuckerOptions(CommonOptions):
    """House rules of Jucker / Hunsrück Bauer (each field names its passage)."""

    lines: int = opt(5, f"{SOURCE}, section “Variations”: 'Teams start with five lines marked on a slate "
                        "(Striche)'.")
    target: "Optional[int]" = opt(0, f"{SOURCE}, sections “Variations”, “Bauer”: lines are erased as hands are "
                                "won; the first team with none left wins.")
    durch_lines: int = opt(
        2, f"{SOURCE}, section “Bauer”: 'there is a bonus for a slam, known as a Durch'. The article "
        "gives no figure; judgement: two lines, as a march doubles a Euchre hand.")
    revoke_lines: int = opt(
        1, "The article names no revoke penalty for Jucker. Judgement: the offending team adds "
        "a line, as losing declarers do (record mode).")


@mypyc_attr(allow_interpreted_subclasses=True)
class Jucker(Euchre):
    """Jucker / Hunsrücker Bauern (“Jucker”)."""

    name = "jucker"
    title = "Jucker (Hunsrück Bauer)"
    aliases = ("juckerspiel", "hunsruecker-bauern", "bauer-hunsrueck")
    Options = JuckerOptions
    stated_options = ()
    seat_counts = (6, 4)
    """Section “Bauer”: 'a six-handed, two-team game'; four players in two teams is the Euchre
    shape of the same game (judgement)."""
    low_score_wins = True
    bid_ladder = (ORDER_UP, *TRUMP_SUITS)

    def deck(self, n: int, options: JuckerOptions) -> Deck:  # type: ignore[override]
        """Section “Bauer”: 'uses 32 French-suited cards'."""
        return named_deck("32")

    def starting_scores(self, n_sides: int, options: JuckerOptions) -> list[int]:  # type: ignore[override]
        return [options.lines] * n_sides

    def pre_auction_contract(self, st: TableView) -> Contract | None:
        """Section “Rules”: 'the top card of the skat is turned for trump. If it is a Jack, it
        determines trumps'. Judgement: the dealer's side declares it."""
        if st.up_card is not None and CARDS[st.up_card % COPY_STRIDE].rank == 11:
            return Contract(seat=st.dealer, bid=JACK_UP, need=self._need(st),
                            trump=self._up_suit(st))
        return None

    @staticmethod
    def _need(st: TableView) -> int:
        """Section “Variations”: 'play for the best of five tricks'."""
        return st.hand_size // 2 + 1

    def legal_bids(self, st: TableView, seat: int) -> list[str]:
        """Section “Variations”: 'players are asked in turn if they will play with the turnup suit
        ... If no-one wants to play with the turnup suit, it is turned over again and players
        are asked if they will play with another suit.'"""
        return [b for b in super().legal_bids(st, seat) if ":" not in b]

    def auction_result(self, st: TableView) -> Contract | None:
        contract = super().auction_result(st)
        return None if contract is None else Contract(
            seat=contract.seat, bid=contract.bid, need=self._need(st), trump=contract.trump)

    def may_pass(self, st: TableView, seat: int) -> bool:
        return True

    def exchanges(self, st: TableView) -> list[tuple[int, int]]:
        """Sections “Rules”, “Variations”: 'dealer may exchange with it' (discarding the turned card
        itself declines the exchange)."""
        c = st.contract
        if c is None or c.bid not in (ORDER_UP, JACK_UP):
            return []
        return [(STOCK, st.dealer), (st.dealer, STOCK)]

    def exchange_refusal(self, st: TableView, giver: int, receiver: int, index: int,
                         card_bit: int | None) -> str:
        """Any card: 'dealer may exchange with it', and discarding the turned card itself
        declines the exchange (Euchre's up-card rule is not Jucker's)."""
        return ""

    def dealer_after_pass_out(self, st: TableView) -> int:
        """Section “Variations”: 'If all pass, the cards are redealt' (by the same dealer)."""
        return st.dealer

    def score_hand(self, st: TableView) -> HandResult:
        """Sections “Variations”, “Bauer”: 'If the declarers win, they erase a line; if they lose, they add
        a line and the winners erase a line.' A Durch erases ``durch_lines``."""
        c = st.contract
        assert c is not None
        side = st.side_of[c.seat]
        taken = st.side_tricks(side)
        deltas = [0, 0]
        if taken == st.hand_size:
            deltas[side], note = -st.options.durch_lines, "Durch"
        elif taken >= c.need:
            deltas[side], note = -1, f"declarers won with {taken}"
        else:
            deltas[side], deltas[1 - side] = 1, -1
            note = f"declarers lost with {taken}"
        return HandResult(tuple(deltas), f"{note}: " + ", ".join(f"{d:+d}" for d in deltas))

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        return offender_pays(st, seat, st.options.revoke_lines)


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class BauerOptions(CommonOptions):
    """House rules of the Saarland Bauer (each field names its passage)."""

    points: int = opt(8, f"{SOURCE}, section “Bauer”: 'Teams start with eight points and aim to be "
                         "first to zero'.")
    target: "Optional[int]" = opt(0, f"{SOURCE}, section “Bauer”: 'On reaching zero, the team "
                                "earns a Brot'.")
    forehand_leads_trump: bool = opt(
        True, f"{SOURCE}, section “Bauer”: 'Forehand leads with a trump (sometimes optional)'.")
    revoke_points: int = opt(
        1, "The article names no revoke penalty. Judgement: the offending team adds a point, as "
        "losing declarers do (record mode).")


@mypyc_attr(allow_interpreted_subclasses=True)
class BauerSaarland(Variant):
    """The Saarland Bauer (“Jucker”, section “Bauer”)."""

    name = "bauer-saarland"
    title = "Bauer (Saarland)"
    aliases = ("saarland-bauer",)
    Options = BauerOptions
    seat_counts = (4,)
    deck_name = "32"
    cards_per_hand = 8
    deal_packets = (4,)
    """Section “Bauer”: '8 cards are dealt to each player clockwise in two packets of 4'."""
    low_score_wins = True
    restricts_leads = True
    bid_ladder = TRUMP_SUITS
    """Section “Bauer”: 'trumps being chosen by forehand after the first packet has been dealt':
    forehand's one bid names the suit (judgement: the engine sees whole hands; at the table
    forehand names it between the packets)."""

    def starting_scores(self, n_sides: int, options: BauerOptions) -> list[int]:  # type: ignore[override]
        return [options.points] * n_sides

    def legal_bids(self, st: TableView, seat: int) -> list[str]:
        return list(TRUMP_SUITS)

    def may_pass(self, st: TableView, seat: int) -> bool:
        return False

    def auction_over(self, st: TableView) -> bool:
        return bool(st.bids)

    def auction_result(self, st: TableView) -> Contract | None:
        seat, bid = st.bids[0]
        return Contract(seat=seat, bid=bid, need=st.hand_size // 2 + 1, trump=bid)

    def sitout_deciders(self, st: TableView) -> list[int]:
        """Section “Bauer”: 'Karten weg ("cards away") ... is announced by a player who intends
        to take every trick. The partner's cards are set aside': each player in turn from
        forehand may set their cards aside (``SIT_OUT``) for their partner."""
        return [(st.dealer + i) % st.n for i in range(1, st.n + 1)]

    def sitout_refusal(self, st: TableView, seat: int, out: bool) -> str:
        if out and st.dropped:
            return "one player is already playing Karten weg"
        return ""

    def sit_out_ends_hand(self, st: TableView, seat: int, out: bool) -> bool:
        return False

    def first_leader(self, st: TableView) -> int:
        """Forehand leads; 'the player wanting to make a march leads off'."""
        for seat in st.dropped:
            return partner_of(st, seat)
        return (st.dealer + 1) % st.n

    def lead_refusal(self, st: TableView, seat: int, card_bit: int) -> str:
        """Section “Bauer”: 'Forehand leads with a trump' (to the first trick, if able)."""
        order = st.order
        if not st.options.forehand_leads_trump or st.tricks or order is None:
            return ""
        trumps = order.suit_masks[order.trump_suit]
        if trumps >> card_bit & 1 or not st.known[seat] & trumps:
            return ""
        return "the first lead must be a trump"

    def leads_free(self, st: TableView) -> bool:
        """Section “Bauer”: only the first lead is bound."""
        return bool(st.tricks) or not st.options.forehand_leads_trump

    def score_hand(self, st: TableView) -> HandResult:
        """Section “Bauer”: 'one point being deducted to the winners of a deal if they declared
        trumps. If the declarers lose, they add a point and their opponents deduct one.'
        Section “Bauer”: Karten weg made 'earns an extra Brot' (judgement: the team reaches zero
        at once). A deal is won with more than half the tricks (judgement: 4-4 loses)."""
        c = st.contract
        assert c is not None
        side = st.side_of[c.seat]
        taken = st.side_tricks(side)
        deltas = [0, 0]
        lone = next((partner_of(st, seat) for seat in st.dropped), None)
        if lone is not None and st.tricks_won[lone] == st.hand_size:
            winner = st.side_of[lone]
            deltas[winner] = -st.scores[winner]
            note = f"Karten weg made by {st.players[lone]}: a Brot"
        elif taken >= c.need:
            deltas[side], note = -1, f"declarers won with {taken}"
        else:
            deltas[side], deltas[1 - side] = 1, -1
            note = f"declarers lost with {taken}"
        return HandResult(tuple(deltas), f"{note}: " + ", ".join(f"{d:+d}" for d in deltas))

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        return offender_pays(st, seat, st.options.revoke_points)


VARIANTS = (Jucker(), BauerSaarland())

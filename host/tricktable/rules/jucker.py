"""Jucker as far as seed 002 describes it: the Hunsrück Bauer, "the closest relative of
Juckerspiel" (seed 002, Jucker, fragments 3040, 3192, 5472, 532; 2432 for Jucker itself).

32 cards, two teams (six players in threes, or four in twos), five cards each; the trump
jack and the jack of the same colour are the top trumps. The top card of the skat is turned:
a jack fixes trump (the dealer's side declares); otherwise the players are asked in turn
whether they will play the turned suit (the dealer may exchange with it), then another suit;
if all pass the cards are redealt. Teams start with five lines and play for the best of five
tricks: declarers who win erase a line, declarers who lose add one and the winners erase
one; a Durch (every trick) is worth more. The first team with no lines wins.
Imports ``cards``, ``rules.base``, ``rules.common`` and ``rules.euchre`` (the turn-up
auction).
"""

from __future__ import annotations

from dataclasses import dataclass

from tricktable.cards import CARDS, COPY_STRIDE, Deck
from tricktable.cards import deck as named_deck
from tricktable.rules.base import (
    STOCK,
    TRUMP_SUITS,
    CommonOptions,
    Contract,
    HandResult,
    TableView,
    opt,
)
from tricktable.rules.common import offender_pays
from tricktable.rules.euchre import ORDER_UP, Euchre

__all__ = ["Jucker", "JuckerOptions", "JACK_UP", "VARIANTS"]

SEED = "seed 002, Jucker"
JACK_UP = "JACK_UP"


@dataclass(frozen=True)
class JuckerOptions(CommonOptions):
    """House rules of Jucker / Hunsrück Bauer (each field names its passage)."""

    lines: int = opt(5, f"{SEED}, fragment 5472: 'Teams start with five lines marked on a slate "
                        "(Striche)'.")
    target: int | None = opt(0, f"{SEED}, fragments 5472, 532: lines are erased as hands are "
                                "won; the first team with none left wins.")
    durch_lines: int = opt(
        2, f"{SEED}, fragment 3040: 'there is a bonus for a slam, known as a Durch'. The seed "
        "gives no figure; judgement: two lines, as a march doubles a Euchre hand.")
    revoke_lines: int = opt(
        1, "The seed names no revoke penalty for Jucker. Judgement: the offending team adds "
        "a line, as losing declarers do (record mode).")


class Jucker(Euchre):
    """Jucker / Hunsrücker Bauern (seed 002)."""

    name = "jucker"
    title = "Jucker (Hunsrück Bauer)"
    aliases = ("juckerspiel", "hunsruecker-bauern", "bauer")
    Options = JuckerOptions
    seat_counts = (6, 4)
    """Fragment 3040: 'a six-handed, two-team game'; four players in two teams is the Euchre
    shape of the same game (judgement)."""
    low_score_wins = True
    bid_ladder = (ORDER_UP, *TRUMP_SUITS)

    def deck(self, n: int, options: JuckerOptions) -> Deck:  # type: ignore[override]
        """Fragment 3040: 'uses 32 French-suited cards'."""
        return named_deck("32")

    def starting_scores(self, n_sides: int, options: JuckerOptions) -> list[int]:  # type: ignore[override]
        return [options.lines] * n_sides

    def pre_auction_contract(self, st: TableView) -> Contract | None:
        """Fragment 3192: 'the top card of the skat is turned for trump. If it is a Jack, it
        determines trumps'. Judgement: the dealer's side declares it."""
        if st.up_card is not None and CARDS[st.up_card % COPY_STRIDE].rank == 11:
            return Contract(seat=st.dealer, bid=JACK_UP, need=self._need(st),
                            trump=self._up_suit(st))
        return None

    @staticmethod
    def _need(st: TableView) -> int:
        """Fragment 5472: 'play for the best of five tricks'."""
        return st.hand_size // 2 + 1

    def legal_bids(self, st: TableView, seat: int) -> list[str]:
        """Fragment 5472: 'players are asked in turn if they will play with the turnup suit
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
        """Fragments 3192, 5472: 'dealer may exchange with it' (discarding the turned card
        itself declines the exchange)."""
        c = st.contract
        if c is None or c.bid not in (ORDER_UP, JACK_UP):
            return []
        return [(STOCK, st.dealer), (st.dealer, STOCK)]

    def dealer_after_pass_out(self, st: TableView) -> int:
        """Fragment 5472: 'If all pass, the cards are redealt' (by the same dealer)."""
        return st.dealer

    def score_hand(self, st: TableView) -> HandResult:
        """Fragments 5472, 532: 'If the declarers win, they erase a line; if they lose, they add
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


VARIANTS = (Jucker(),)

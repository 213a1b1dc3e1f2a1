"""Euchre: the North American four-hand game, Mathews' 1844 rules and the British game with
the Benny (“Euchre”).

Four players in two partnerships, five cards each dealt 2+3, the next card turned up.
Round one: each player in turn, from the dealer's left, passes or accepts the turn-up suit
(``ORDER_UP``; the dealer's partner "assists", the dealer "takes it up"); the dealer then
takes the up-card into the hand and discards one card to the kitty (in North America not the
up-card itself, which stays on the table until played; option ``discard_up_card``). Round two: pass or
name another suit. A player who fixes trump may go alone (``:ALONE``). Eldest leads. Makers
score 1 for 3-4 tricks, 2 for a march, 4 for a lone march; euchred makers give the
defenders 2. The British game adds the joker (the Benny, top trump; turned up, the dealer
names trump blind) and lets any player go alone before the first trick (the partner sits
out). docs/rules/euchre.md lists the options and the passages followed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, Optional

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

__all__ = ["Euchre", "Euchre1844", "EuchreBritish", "EuchreOptions", "Euchre1844Options",
           "EuchreBritishOptions", "ORDER_UP", "ALONE", "BENNY", "VARIANTS"]

SOURCE = "“Euchre”"
ORDER_UP: Final = "ORDER_UP"
ALONE: Final = ":ALONE"
BENNY: Final = "BENNY"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class EuchreRules(CommonOptions):
    """House rules every Euchre variant has (each field names its passage)."""

    target: "Optional[int]" = opt(
        10, f"{SOURCE}, section “Variations”: 'The first team to score the target number of points (5, "
        "7 or 10) wins the game. In Columbus, the target is 10.' Judgement: 10, the one "
        "figure the article ties to a place. null plays to a hand or time limit.")
    stick_the_dealer: bool = opt(
        False, f"{SOURCE}, section “Making trump”: 'If no trump is selected, the hand is discarded and the "
        "deal passes to the left.' True makes the dealer name a suit in round two (a rule "
        "only named in the lost list of North American variations, section “Scoring”).")
    discard_up_card: bool = opt(
        False, f"{SOURCE}, section “Making trump”: 'If the dealer acquires the top card ... it becomes part "
        "of the dealer's hand. It is left in place until played, and the dealer discards a card to "
        "the bottom of the kitty': the up-card stays on the table until the dealer plays it, so it "
        "is not a discard. True lets the dealer discard the up-card itself (the house rule of "
        "tables that pick it up into the hand).")
    revoke_penalty: "Literal['award_two', 'deduct_two']" = opt(
        "award_two", f"{SOURCE}, section “Renege”: 'the opposing team is awarded two points or two "
        "points are deducted from the offending team' (per revoke, record mode).")


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class EuchreOptions(EuchreRules):
    """House rules of North American Euchre."""

    deck: "Literal[24, 28, 32]" = opt(
        24, f"{SOURCE}, section “Rules”: 'A pack of 32 cards (AKQJ10987) or 28 cards (no 7s) may "
        "also be used, but 24 cards is the standard.'")


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Euchre1844Options(EuchreOptions):
    """Mathews' 1844 rules: the 32-card Piquet pack, game to five, the up-card picked up."""

    discard_up_card: bool = opt(
        True, f"{SOURCE}, section “History” (the summary of Mathews' 1844 rules): 'If anyone orders up, "
        "the dealer picks up the upcard and discards a card in return': picked up, the up-card is "
        "one of the dealer's six cards and may be the discard. False keeps it on the table until "
        "played (the North American rule).")

    target: "Optional[int]" = opt(5, f"{SOURCE}, section “Making trump”: 'Game is 5 points.'")
    deck: "Literal[24, 28, 32]" = opt(
        32, f"{SOURCE}, section “History”: 'A 32-card French-suited Piquet pack is used'.")


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class EuchreBritishOptions(EuchreRules):
    """British Euchre: 'Play and scoring are as in the 1844 rules' (section “Going alone”)."""

    target: "Optional[int]" = opt(5, f"{SOURCE}, section “Going alone”: play and scoring 'as in the 1844 "
                                "rules' (section “Making trump”: 'Game is 5 points').")
    discard_up_card: bool = opt(
        True, f"{SOURCE}, section “Making trump” (British Euchre): 'The dealer picks it up and discards "
        "a card face down': picked up, the up-card may be the discard. False keeps it on the table "
        "until played (the North American rule).")


@mypyc_attr(allow_interpreted_subclasses=True)
class Euchre(Variant):
    """North American four-hand Euchre (“Euchre”, sections “Rules”, “Scoring”)."""

    name = "euchre"
    title = "Euchre (North American four-hand)"
    aliases: ClassVar[tuple[str, ...]] = ("north-american-euchre", "euchre-na")
    Options: ClassVar[type[CommonOptions]] = EuchreOptions
    seat_counts: ClassVar[tuple[int, ...]] = (4,)
    cards_per_hand = 5
    deal_packets = (2, 3)
    has_up_card = True
    stated_options: ClassVar[tuple[tuple[str, Any], ...]] = (("discard_up_card", True),)
    """Before the option the engine let the dealer discard the up-card: a record that does not
    say is read so."""
    bid_ladder = (ORDER_UP, ORDER_UP + ALONE, *TRUMP_SUITS, *(s + ALONE for s in TRUMP_SUITS))

    def deck(self, n: int, options: EuchreOptions) -> Deck:  # type: ignore[override]
        return named_deck(str(options.deck))

    @staticmethod
    def _round_one(st: TableView) -> bool:
        return len(st.bids) < st.n

    @staticmethod
    def _up_suit(st: TableView) -> str | None:
        if st.up_card is None:
            return None
        suit = CARDS[st.up_card % COPY_STRIDE].suit
        return None if suit is None else TRUMP_SUITS[suit]

    def legal_bids(self, st: TableView, seat: int) -> list[str]:
        """Round one: order up (alone or not), only once the up-card is known. Round two:
        any suit but the turned-down one (section “Making trump”)."""
        if self._round_one(st):
            return [ORDER_UP, ORDER_UP + ALONE] if self._up_suit(st) else []
        up = self._up_suit(st)
        suits = [s for s in TRUMP_SUITS if s != up]
        return suits + [s + ALONE for s in suits]

    def may_pass(self, st: TableView, seat: int) -> bool:
        last = len(st.bids) == 2 * st.n - 1
        return not (st.options.stick_the_dealer and last and seat == st.dealer)

    def auction_over(self, st: TableView) -> bool:
        return st.high is not None or len(st.bids) >= 2 * st.n

    def auction_result(self, st: TableView) -> Contract | None:
        if st.high is None:
            return None
        seat, bid = st.high
        base = bid.removesuffix(ALONE)
        trump = self._up_suit(st) if base == ORDER_UP else base
        return Contract(seat=seat, bid=bid, need=3, alone=bid.endswith(ALONE), trump=trump)

    def exchanges(self, st: TableView) -> list[tuple[int, int]]:
        """An ordered-up card goes to the dealer, who discards one (section “Making trump”).
        Judgement: a dealer sitting out (the partner went alone) leaves it in the kitty."""
        c = st.contract
        if c is None or not (c.bid.startswith(ORDER_UP) or c.bid == BENNY) \
                or st.dealer in self.sitting_out(st):
            return []
        return [(STOCK, st.dealer), (st.dealer, STOCK)]

    def exchange_refusal(self, st: TableView, giver: int, receiver: int, index: int,
                         card_bit: int | None) -> str:
        """Option ``discard_up_card`` off: the up-card the dealer took up 'is left in place until
        played' (section “Making trump”), so it is not the discard."""
        if receiver == STOCK and card_bit is not None and card_bit == st.taken_up \
                and not st.options.discard_up_card:
            return (f"{st.card_name(card_bit)} is the up-card: it stays on the table until "
                    "played; discard a card from the hand")
        return ""

    def first_leader(self, st: TableView) -> int:
        """'The eldest leads to the first trick' (sections “Making trump”, “Variations”)."""
        return (st.dealer + 1) % st.n

    def score_hand(self, st: TableView) -> HandResult:
        """Section “Making trump”: 3-4 tricks 1, march 2, alone march 4; euchred: defenders 2."""
        c = st.contract
        assert c is not None
        side = st.side_of[c.seat]
        taken = st.side_tricks(side)
        alone = c.alone or any(st.side_of[s] == side for s in st.dropped)
        deltas = [0] * len(st.sides)
        if taken == st.hand_size:
            deltas[side] = 4 if alone else 2
            note = f"march{' alone' if alone else ''}: +{deltas[side]}"
        elif taken >= c.need:
            deltas[side] = 1
            note = f"made with {taken} tricks: +1"
        else:
            deltas[1 - side] = 2
            note = f"euchred with {taken} tricks: defenders +2"
        return HandResult(tuple(deltas), note)

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        """Section “Renege”: two points to the opponents, or two off the offenders."""
        side = st.side_of[seat]
        deltas = [0, 0]
        if st.options.revoke_penalty == "award_two":
            deltas[1 - side] = 2
        else:
            deltas[side] = -2
        return tuple(deltas)


@mypyc_attr(allow_interpreted_subclasses=True)
class Euchre1844(Euchre):
    """Mathews' 1844 rules (“Euchre”, sections “History”, “Card ranking”, “Making trump”)."""

    name = "euchre-1844"
    title = "Euchre (1844 rules)"
    aliases = ("mathews-euchre",)
    Options = Euchre1844Options


@mypyc_attr(allow_interpreted_subclasses=True)
class EuchreBritish(Euchre):
    """British Euchre with the Benny (“Euchre”, sections “British Euchre”, “Deal”, “Making trump”, “Going alone”)."""

    name = "euchre-british"
    title = "Euchre (British, with the Benny)"
    aliases = ("british-euchre", "benny-euchre")
    Options = EuchreBritishOptions
    bid_ladder = (ORDER_UP, ORDER_UP + ALONE, *TRUMP_SUITS)

    def deck(self, n: int, options: EuchreRules) -> Deck:  # type: ignore[override]
        """Section “British Euchre”: 'a pack of 25 cards with a joker', the Benny, the top trump."""
        return named_deck("25")

    def pre_auction_contract(self, st: TableView) -> Contract | None:
        """Section “Making trump”: 'If the upcard is the Benny, the dealer must announce trumps before
        picking up their own hand cards and the dealer's team are the makers'."""
        if st.up_card is not None and CARDS[st.up_card % COPY_STRIDE].is_joker:
            return Contract(seat=st.dealer, bid=BENNY, need=3)
        return None

    def legal_bids(self, st: TableView, seat: int) -> list[str]:
        """Section “Making trump”: 'the dealer's partner cannot make trumps and play with the dealer,
        but can only pass or play alone'; other lone hands are announced after trump is fixed.
        Round two: another suit."""
        if self._round_one(st):
            if not self._up_suit(st):
                return []
            return [ORDER_UP + ALONE] if seat == (st.dealer + 2) % st.n else [ORDER_UP]
        up = self._up_suit(st)
        return [s for s in TRUMP_SUITS if s != up]

    def sitout_deciders(self, st: TableView) -> list[int]:
        """Section “Going alone”: 'Before the first trick any player may announce they are going
        alone, whereupon the partner of the lone player puts their cards face down ... A maker
        and a defender may both go alone'. The partner of a lone player answers SIT OUT; each
        player is asked in turn from the eldest, unless their side already has a lone hand."""
        done = {st.side_of[s] for s in self.sitting_out(st)}
        order = [(st.dealer + i) % st.n for i in range(1, st.n + 1)]
        return [s for s in order if st.side_of[s] not in done]

    def sitout_refusal(self, st: TableView, seat: int, out: bool) -> str:
        if out and any(st.side_of[d] == st.side_of[seat] for d in st.dropped):
            return f"{st.players[seat]}'s partner already sits out: only one may go alone"
        return ""

    def sit_out_ends_hand(self, st: TableView, seat: int, out: bool) -> bool:
        return False


VARIANTS = (Euchre(), Euchre1844(), EuchreBritish())

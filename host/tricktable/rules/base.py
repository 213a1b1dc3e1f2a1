"""The variant declaration: declarative attributes, a few named hooks, typed house rules.

What lives here:
- ``opt(default, doc)`` and ``CommonOptions``: house-rule options are frozen dataclasses, one
  field per rule with a ``doc`` (the passage and why the default); ``build_options``
  checks names and types and raises ``OptionError`` with a clear message.
- ``Contract`` (who holds the auction, the bid, trump, alone, tricks needed) and
  ``HandResult`` (score changes per side and a sentence saying why).
- ``Phase`` and ``PHASES``: the phases of a hand, the one list of them (a ``Literal`` type:
  a misspelt phase is a type error, and the value is the plain string the JSON carries).
- ``TableView``: the part of the engine's state a hook may read (a Protocol, so ``rules``
  does not import ``engine``).
- ``Variant``: the base class, modelled on python-chess's ``variant.py``. A variant sets
  attributes (deck, seat counts, partnerships, hand size, deal packets, bid ladder, trump
  names) and overrides hooks only where a rule cannot be data (``legal_bids``,
  ``auction_result``, ``exchanges``, ``first_leader``, ``score_hand``, ``game_winner`` ...).
  The defaults implement the common Bid Euchre family behaviour.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Literal, Optional, Protocol

from mypy_extensions import mypyc_attr

from tricktable.cards import Deck, Ordering, Suit, deck

__all__ = [
    "opt", "CommonOptions", "OptionError", "build_options", "option_docs", "Contract",
    "HandResult", "TableView", "Variant", "TRUMP_SUITS", "SUIT_OF_TRUMP", "STOCK", "Phase",
    "PHASES",
]

TRUMP_SUITS = ("S", "H", "D", "C")
SUIT_OF_TRUMP = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}
STOCK = -1
"""In ``Variant.exchanges``: a giver ``STOCK`` is the up-card taken into the receiver's hand
(the engine moves it, no action needed); a receiver ``STOCK`` is a discard to the kitty."""

Phase = Literal["deal", "bidding", "trump", "exchange", "sitout", "play", "game_over"]
"""Where a table is: the phases of a hand in order (``engine.core`` says what each one is),
then the end of the game. A scored hand goes straight to the next hand's ``deal``. These
are the strings the table's state carries in JSON (``public_state()["phase"]``), so
journals, hand histories and pages read them as they always did."""
PHASES: tuple[Phase, ...] = typing.get_args(Phase)
"""Every phase, in order (for whoever lists them: words for people, docs, tests)."""

NOBODY: frozenset[int] = frozenset()
"""No seat (``Variant.sitting_out`` when everybody plays; one shared empty set)."""


class OptionError(ValueError):
    """A house-rule option with an unknown name or a value of the wrong type."""


def opt(default: Any, doc: str) -> Any:
    """Declare one house-rule option: its default and its documentation line."""
    return field(default=default, metadata={"doc": doc})


@mypyc_attr(native_class=False)  # compiled, ``build_options`` reads the field types
@dataclass(frozen=True)
class CommonOptions:
    """House rules every variant has."""

    revoke_mode: "Literal['strict', 'record']" = opt(
        "strict", "The table's house rule on revokes: strict refuses a provably illegal play (the player takes "
        "the card back); record accepts it and applies the revoke penalty when the hand is "
        "scored. Strict by default: the table can say no at once, which is its point.")
    hand_limit: "Optional[int]" = opt(
        None, "“Bid Euchre”, section “Single Deck Bid Euchre”, “Winning”: 'other variations ... set a time "
        "limit'; a fixed number of hands is the engine's clock-free form of it (highest total "
        "wins; a tie plays on). Off by default: the articles' standard is a target score.")
    time_limit_minutes: "Optional[int]" = opt(
        None, "“Bid Euchre”, section “Winning”: 'set a time limit such as one or two hours'. The engine has "
        "no clock: the host sends Call('TIME') when time is up and the game ends with that "
        "hand. Off by default.")


def build_options(cls: type[CommonOptions], given: Mapping[str, Any] | None,
                  variant: str = "") -> CommonOptions:
    """``cls`` with ``given`` applied; unknown names and wrong types raise ``OptionError``."""
    given = dict(given or {})
    hints = typing.get_type_hints(cls)
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(given) - known)
    where = f" for {variant}" if variant else ""
    if unknown:
        raise OptionError(f"unknown option(s){where}: {', '.join(unknown)}; "
                          f"known: {', '.join(sorted(known))}")
    for name, value in given.items():
        if not _fits(value, hints[name]):
            raise OptionError(f"option {name!r}{where} must be {_describe(hints[name])}, "
                              f"got {value!r}")
    return cls(**given)


def _fits(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin is Literal:
        return value in typing.get_args(hint) and type(value) in {type(a) for a in typing.get_args(hint)}
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is int:
        return type(value) is int
    return isinstance(value, hint)


def _describe(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(h) for h in typing.get_args(hint))
    return "null" if hint is type(None) else hint.__name__


def option_docs(cls: type[CommonOptions]) -> list[tuple[str, Any, str]]:
    """(name, default, doc) for every option, for ``tricktable variants`` and the docs."""
    return [(f.name, f.default if f.default is not MISSING else None, f.metadata.get("doc", ""))
            for f in fields(cls)]


@dataclass(unsafe_hash=True)
class Contract:
    """The auction's result. ``need``: tricks the contract side must take. ``alone``: the
    holder plays without a partner (pepper, Pfeffer, going alone). ``forced``: the dealer
    was stuck with it. ``trump`` is None until declared. Read-only by convention and
    hashed by value (not frozen: one is made each hand, and compiled, a frozen dataclass
    is made three times slower)."""

    seat: int
    bid: str
    need: int
    alone: bool = False
    forced: bool = False
    trump: str | None = None

    def with_trump(self, trump: str) -> Contract:
        """This contract with ``trump`` named (half the cost of ``dataclasses.replace``,
        once a hand)."""
        return Contract(self.seat, self.bid, self.need, self.alone, self.forced, trump)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bid": self.bid, "trump": self.trump, "alone": self.alone,
                "need": self.need, "forced": self.forced}

    def __deepcopy__(self, memo: dict[int, object]) -> Contract:
        return self  # immutable


@dataclass
class HandResult:
    """Score changes per side for one hand and the sentence that explains them.
    ``tally``: when not None, the game-level counters the variant keeps beside the scores
    (Spades bags, Pfeffer hickeys, Eau Claire sit-outs), replacing ``TableView.tally``.
    Read-only by convention (not frozen: one is made each hand, and compiled, a frozen
    dataclass is made three times slower)."""

    deltas: tuple[int, ...]
    detail: str
    tally: Mapping[str, Any] | None = None


class TableView(Protocol):
    """What a variant hook may read from the engine's state (read-only by convention)."""

    variant: Variant
    options: Any
    n: int
    players: list[str]
    phase: Phase
    sides: list[tuple[int, ...]]
    side_of: list[int]
    scores: list[int]
    dealer: int
    hand_number: int
    hand_size: int
    bids: list[tuple[int, str]]
    high: tuple[int, str] | None
    contract: Contract | None
    tricks_won: list[int]
    revokes: list[Any]
    time_up: bool
    hands_played: int
    dropped: set[int]
    up_card: int | None
    taken_up: int | None
    known: list[int]
    count: list[int]
    kitty: int
    order: Ordering | None
    tricks: list[tuple[int, list[tuple[int, int]], int]]
    tally: dict[str, Any]

    def side_tricks(self, side: int) -> int: ...

    def side_name(self, side: int) -> str: ...

    def card_name(self, p: int) -> str: ...


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py), declarable outside rules/
class Variant:
    """A game of the family, declared. Subclasses set the attributes and override hooks."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    Options: ClassVar[type[CommonOptions]] = CommonOptions
    seat_counts: ClassVar[tuple[int, ...]] = (4,)
    deck_name: ClassVar[str] = "24"
    cards_per_hand: ClassVar[int] = 6
    deal_packets: ClassVar[tuple[int, ...]] = (1,)
    """Cards given to each player per round of the deal, cycled until hands are full."""
    partnerships: ClassVar[bool] = True
    bid_ladder: ClassVar[tuple[str, ...]] = ()
    """Every bid, lowest first; by default a bid beats another when it stands higher."""
    trump_names: ClassVar[tuple[str, ...]] = TRUMP_SUITS
    bowers: ClassVar[bool] = True
    low_score_wins: ClassVar[bool] = False
    has_up_card: ClassVar[bool] = False
    """After the deal the top card of the stock is turned up (Buck Euchre, Euchre ...)."""
    restricts_leads: ClassVar[bool] = False
    """True when ``lead_refusal`` can refuse a lead (Spades: breaking spades)."""
    stated_options: ClassVar[tuple[tuple[str, Any], ...]] = ()
    """House rules a game's setup always states (``Engine.config``), each with the value a
    stored record that does not state it is read with: the rule the engine played before the
    option existed (``rules.recorded_options``)."""

    # -- the table -----------------------------------------------------------------------
    def deck(self, n: int, options: Any) -> Deck:
        return deck(self.deck_name)

    def hand_size(self, n: int, options: Any) -> int:
        return self.cards_per_hand

    def packets(self, n: int, options: Any) -> tuple[int, ...]:
        return self.deal_packets

    def sides(self, n: int, options: Any) -> list[tuple[int, ...]]:
        """Partnerships sit opposite: seats i, i + n/2, ... ; otherwise each for themselves."""
        if not self.partnerships:
            return [(s,) for s in range(n)]
        teams = 2
        return [tuple(range(t, n, teams)) for t in range(teams)]

    def starting_scores(self, n_sides: int, options: Any) -> list[int]:
        return [0] * n_sides

    # -- the auction ---------------------------------------------------------------------
    def pre_auction_contract(self, st: TableView) -> Contract | None:
        """A contract fixed before any bid (a club turned up in Dirty Clubs), or None."""
        return None

    def first_bidder(self, st: TableView) -> int:
        """Bidding begins at the dealer's left (“Bid Euchre”, section “Bidding”)."""
        return (st.dealer + 1) % st.n

    def next_bidder(self, st: TableView, seat: int) -> int:
        return (seat + 1) % st.n

    def legal_bids(self, st: TableView, seat: int) -> list[str]:
        """Bids ``seat`` may make now: those that beat the high bid."""
        high = st.high[1] if st.high else None
        return [b for b in self.bid_ladder if high is None or self.bid_beats(b, high, st, seat)]

    def bid_beats(self, new: str, old: str, st: TableView, seat: int) -> bool:
        return self.bid_ladder.index(new) > self.bid_ladder.index(old)

    def may_pass(self, st: TableView, seat: int) -> bool:
        return True

    def auction_over(self, st: TableView) -> bool:
        """One round: every seat has bid or passed once."""
        return len(st.bids) >= st.n

    def auction_result(self, st: TableView) -> Contract | None:
        """The high bidder's contract, or ``on_all_pass`` when nobody bid."""
        if st.high is None:
            return self.on_all_pass(st)
        seat, bid = st.high
        return self.make_contract(st, seat, bid)

    def on_all_pass(self, st: TableView) -> Contract | None:
        """None: the hand is thrown in (``PassedOut``)."""
        return None

    def dealer_after_pass_out(self, st: TableView) -> int:
        return (st.dealer + 1) % st.n

    def make_contract(self, st: TableView, seat: int, bid: str, forced: bool = False) -> Contract:
        return Contract(seat=seat, bid=bid, need=int(bid), forced=forced)

    # -- trump, exchanges, who plays -----------------------------------------------------
    def trump_choices(self, st: TableView) -> list[str]:
        return list(self.trump_names)

    def ordering(self, trump: str) -> Ordering:
        """``S H D C`` a suit with bowers (if the variant has them); ``NT``/``HIGH`` no
        trump; ``LOW`` low no-trump."""
        if trump in SUIT_OF_TRUMP:
            return Ordering.get(SUIT_OF_TRUMP[trump], self.bowers)
        return Ordering.get(None, False, trump == "LOW")

    def exchanges(self, st: TableView) -> list[tuple[int, int]]:
        """(giver, receiver) card passes after trump is named, in order. None by default."""
        return []

    def exchange_refusal(self, st: TableView, giver: int, receiver: int, index: int,
                         card_bit: int | None) -> str:
        """Why this card may not be passed ("" when it may); for forced hi/lo passes.
        ``index``: how many passes of this hand's ``exchanges`` list are already done;
        ``card_bit`` None: a card passed unseen (hands unknown)."""
        return ""

    def sitout_deciders(self, st: TableView) -> list[int]:
        """Seats asked, in order, whether to sit the hand out (Eau Claire defenders). None."""
        return []

    def sitout_refusal(self, st: TableView, seat: int, out: bool) -> str:
        """Why ``seat`` may not give this answer now ("" when it may). None by default."""
        return ""

    def sit_out_ends_hand(self, st: TableView, seat: int, out: bool) -> bool:
        """After ``seat`` answered: True scores the hand now (``score_hand`` sees
        ``st.dropped``), False asks the next seat or starts the play."""
        return out

    def sitting_out(self, st: TableView) -> frozenset[int]:
        """Seats that take no part in the play (the partner of a lone player)."""
        c = st.contract
        if c is None or not c.alone:
            return NOBODY
        return frozenset(st.sides[st.side_of[c.seat]]).difference((c.seat,))

    def first_leader(self, st: TableView) -> int:
        """The contract holder leads (“Bid Euchre”, section “Single Deck Bid Euchre”, “Leading ...”)."""
        assert st.contract is not None
        return st.contract.seat

    def lead_refusal(self, st: TableView, seat: int, card_bit: int) -> str:
        """Why ``seat`` may not lead this card now ("" when it may). Consulted only when
        ``restricts_leads``; refuse only what the known hand proves (hands may be unknown)."""
        return ""

    def lead_mask(self, st: TableView, seat: int, cands: int) -> int:
        """The cards of ``cands`` (a bit set) ``seat`` may lead: those ``lead_refusal``
        allows. Override with a mask computation where that is faster."""
        for p in range(cands.bit_length()):
            if cands >> p & 1 and self.lead_refusal(st, seat, p):
                cands &= ~(1 << p)
        return cands

    def leads_free(self, st: TableView) -> bool:
        """True when no lead can be refused any more this hand, whatever is played from
        here (once a restriction lifts it stays lifted): a search stops asking
        ``lead_mask`` below such a position. Consulted only when ``restricts_leads``."""
        return not self.restricts_leads

    # -- calls ---------------------------------------------------------------------------
    def legal_calls(self, st: TableView, seat: int, phase: Phase) -> list[str]:
        """Named calls the variant accepts now; ``TIME`` ends a timed game after this hand."""
        return ["TIME"] if st.options.time_limit_minutes and not st.time_up else []

    def call_refusal(self, st: TableView, seat: int, call: str) -> str:
        """Why ``call`` is not offered to ``seat`` now, said for the player ("" for the
        engine's plain "cannot be called now")."""
        return ""

    def apply_call(self, st: TableView, seat: int, call: str) -> str | None:
        """Carry out a call offered by ``legal_calls`` (other than ``TIME``). Return None,
        or ``"redeal"`` to throw the hand in with the same dealer, or ``"pass_deal"``."""
        raise NotImplementedError(f"{self.name} offers call {call!r} but does not apply it")

    # -- scoring and the end -------------------------------------------------------------
    def score_hand(self, st: TableView) -> HandResult:
        raise NotImplementedError

    def revoke_penalty(self, st: TableView, seat: int) -> tuple[int, ...]:
        """Score change per side for one revoke by ``seat`` (applied in record mode and for
        revokes proven after the fact). None by default."""
        return (0,) * len(st.sides)

    def game_winner(self, st: TableView, contract_side: int | None) -> int | None:
        """The winning side after a hand, or None to play on. Default: first to the target
        (the contract side wins a tie), else ``limit_winner``."""
        target = getattr(st.options, "target", None)
        if target is not None:
            reached = [i for i, s in enumerate(st.scores)
                       if (s <= target if self.low_score_wins else s >= target)]
            if contract_side in reached:
                return contract_side
            if reached:
                return self._best(st, reached)
        return self.limit_winner(st)

    def limit_winner(self, st: TableView) -> int | None:
        """At the hand limit or when time is called: the best total (None on a tie)."""
        limit = st.options.hand_limit
        if st.time_up or (limit is not None and st.hands_played >= limit):
            return self._best(st, range(len(st.scores)))
        return None

    def _best(self, st: TableView, candidates: Any) -> int | None:
        """The single best score among ``candidates``; None on a tie (play on)."""
        cands = list(candidates)
        sign = -1 if self.low_score_wins else 1
        top = max(sign * st.scores[c] for c in cands)
        best = [c for c in cands if sign * st.scores[c] == top]
        return best[0] if len(best) == 1 else None

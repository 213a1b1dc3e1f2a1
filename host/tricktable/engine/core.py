"""The engine: one table's state machine, driven by ``apply(action) -> Outcome``.

Phases of a hand (``rules.base.Phase`` lists them): ``deal`` (the engine deals from its
seed, or players scan their cards, or nobody does and the first bid starts the hand with
unknown hands) -> ``bidding`` -> ``trump`` -> ``exchange`` (card passes the variant asks
for) -> ``sitout`` (seats the variant asks) -> ``play`` -> scored, then the next hand's
``deal`` or ``game_over``. Every handler checks the whole action before it changes
anything, so a refused action leaves the table exactly as it was (its code one of
``engine.refusals``). The variant (``rules``) is consulted through its named
hooks; nothing here is specific to one game. Deterministic: the only randomness is
``random.Random(seed)`` used by ``Deal``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from mypy_extensions import mypyc_attr

from tricktable.cards import COPY_STRIDE, from_physical
from tricktable.cards import bits as _bits
from tricktable.engine import cardplay
from tricktable.engine.actions import (
    Action,
    Bid,
    Call,
    Deal,
    DeclareTrump,
    Exchange,
    Pass,
    Play,
    ScanCard,
    SitOut,
    TurnUp,
)
from tricktable.engine.events import (
    AuctionWon,
    BidMade,
    Called,
    CardExchanged,
    CardScanned,
    Dealt,
    Event,
    GameOver,
    HandScored,
    HandStarted,
    Passed,
    PassedOut,
    SatOut,
    TrumpDeclared,
    UpCardTurned,
)
from tricktable.engine.ids import (
    CARD_IDS,
    DEAL,
    EXCHANGE_UNSEEN,
    PASS,
    PLAY_ON,
    SIT_OUT,
    ActionIds,
    IllegalAction,
)
from tricktable.engine.refusals import Refusal, Verdict
from tricktable.engine.state import State
from tricktable.rules import get_variant
from tricktable.rules.base import STOCK, Contract, Phase, Variant, build_options

__all__ = ["Engine", "Outcome", "EngineError"]


class EngineError(ValueError):
    """A table that cannot be set up (bad seat count, dealer) or a replay that fails."""


class Outcome:
    """The answer to ``apply``: ``ok``; ``code`` ("" or a ``Refusal``, ``engine.refusals``); ``reason``
    (a sentence naming the rule); ``events`` (what an accepted action caused)."""

    __slots__ = ("ok", "code", "reason", "events")

    def __init__(self, ok: bool, code: Verdict = "", reason: str = "",
                 events: list[Event] | None = None) -> None:
        self.ok = ok
        self.code = code
        self.reason = reason
        self.events = events if events is not None else []

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "code": self.code, "reason": self.reason,
                "events": [e.to_json() for e in self.events]}

    def __repr__(self) -> str:
        return f"Outcome(ok={self.ok}, code={self.code!r}, reason={self.reason!r})"


def _no(code: Refusal, reason: str) -> Outcome:
    return Outcome(False, code, reason)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: copyable (see engine.state)
class Engine:
    """One table. Build with ``Engine.new``; drive with ``legal_actions``/``apply``."""

    def __init__(self, state: State, config: dict[str, Any]) -> None:
        self.state = state
        self.config = config
        self.actions: list[Action] = []
        self._plays = [_play_row(seat) for seat in range(state.n)]
        self._places: dict[int, list[list[int]]] = {}
        self._bids: list[str] = []
        self._bids_at, self._bids_seat, self._bids_state = -1, -1, state
        """``_legal_bids``: the bids, and the position and seat they are for."""
        self.ids = ActionIds(state.variant)
        """The int numbering of this table's actions (``engine.ids``)."""
        self._bid_ids = {b: self.ids.number(Bid, b) for b in state.variant.bid_ladder}
        self._memo_at, self._memo_state, self._memo_mask = -1, state, 0
        """The play-phase ``legal_ids`` mask, its state and how many actions it followed."""
        self._telling = True
        """False inside ``apply_id``: accepted actions make no events (nobody reads them)."""

    @classmethod
    def new(cls, variant: str | Variant, options: Mapping[str, Any] | None = None,
            seed: int = 0, dealer: int = 0, players: list[str] | None = None,
            n_players: int | None = None) -> Engine:
        """A table at the start of a game. ``variant`` is a registered name (or a ``Variant``
        instance); ``options`` are its house rules by name (checked: ``OptionError``);
        ``players`` names the seats clockwise."""
        v = variant if isinstance(variant, Variant) else get_variant(variant)
        opts = build_options(v.Options, options, v.name)
        n = len(players) if players else (n_players or v.seat_counts[0])
        if n not in v.seat_counts:
            raise EngineError(f"{v.name} is played by {', '.join(map(str, v.seat_counts))} "
                              f"players, not {n}")
        if not 0 <= dealer < n:
            raise EngineError(f"dealer must be a seat 0..{n - 1}, got {dealer}")
        names = list(players) if players else [f"Seat {i + 1}" for i in range(n)]
        stated = {name: getattr(opts, name) for name, _ in v.stated_options}
        config = {"variant": v.name, "options": stated | dict(options or {}), "seed": seed,
                  "dealer": dealer, "players": names}
        return cls(State(v, opts, names, dealer, seed), config)

    @classmethod
    def replay(cls, config: Mapping[str, Any], actions: Iterable[Action]) -> Engine:
        """Rebuild a table from its config and accepted actions (undo = all but the last)."""
        eng = cls.new(config["variant"], config.get("options"), config.get("seed", 0),
                      config.get("dealer", 0), config.get("players"))
        for i, action in enumerate(actions):
            out = eng.apply(action)
            if not out.ok:
                raise EngineError(f"action {i + 1} ({action.to_json()}) refused: {out.reason}")
        return eng

    # -- the public view -----------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def to_act(self) -> int | None:
        return self.state.to_act

    def public_state(self) -> dict[str, Any]:
        return self.state.public_state()

    def known_hand(self, seat: int) -> list[str]:
        """The cards the engine knows ``seat`` holds (all of them once dealt or scanned)."""
        return [self.state.card_name(p) for p in _bits(self.state.known[seat])]

    # -- apply ---------------------------------------------------------------------------
    def apply(self, action: Action) -> Outcome:
        """Apply one action: accepted with its events, or refused with nothing changed."""
        st = self.state
        if (type(action) is Play and st.phase == "play" and action.seat == st.to_act
                and type(action.seat) is int):  # the hot path: most actions are plays in turn
            return self._play_card(action)
        if type(action) not in _KINDS:
            return _no("unknown_action", f"not an engine action: {action!r}")
        if type(action.seat) is not int or not 0 <= action.seat < st.n:
            return _no("bad_seat", f"seat must be 0..{st.n - 1}, got {action.seat!r}")
        if st.game_over:
            return _no("game_over", "the game is over")
        if (st.phase == "deal" and type(action) in _OPENERS
                and st.variant.pre_auction_contract(st) is not None):
            return self._open_with(action)
        out = self._handle(action)
        if out.ok:
            self.actions.append(action)
        return out

    def _handle(self, a: Action) -> Outcome:
        """Check ``a`` by the handler of its kind and, when it is allowed, carry it out."""
        if type(a) is Bid:
            return self._bid(a)
        if type(a) is Pass:
            return self._pass(a)
        if type(a) is Exchange:
            return self._exchange(a)
        if type(a) is Deal:
            return self._deal(a)
        if type(a) is Play:
            return self._play(a)
        if type(a) is DeclareTrump:
            return self._declare(a)
        if type(a) is SitOut:
            return self._sit_out(a)
        if type(a) is Call:
            return self._call(a)
        if type(a) is ScanCard:
            return self._scan(a)
        assert type(a) is TurnUp  # one of _KINDS
        return self._turn_up(a)

    def _open_with(self, action: Action) -> Outcome:
        """Hands neither dealt nor scanned, and a contract fixed before any bid (a club turned
        up): no bid will open the hand, so its first action does. Refused, the table is put
        back exactly as it was."""
        st = self.state
        saved = copy.deepcopy(st, {id(st.variant): st.variant, id(st.options): st.options})
        events: list[Event] = []
        self._begin_auction(events)
        out = self._handle(action)
        if not out.ok:
            self.state = saved
            return out
        self.actions.append(action)
        out.events[:0] = events
        return out

    def _turn(self, seat: int, phase: Phase, doing: str) -> Outcome | None:
        st = self.state
        if st.phase != phase:
            return _no("wrong_phase", f"cannot {doing} now: the table is in the {st.phase} phase")
        if seat != st.to_act:
            return _no("not_your_turn", f"it is {st.players[st.to_act]}'s turn, "  # type: ignore[index]
                                        f"not {st.players[seat]}'s")
        return None

    # -- deal ----------------------------------------------------------------------------
    def _deal(self, a: Deal) -> Outcome:
        st = self.state
        refused = self._turn(a.seat, "deal", "deal")
        if refused:
            return refused
        if any(st.count) or st.up_card is not None:
            return _no("wrong_phase", "cards were scanned for this hand: scan the rest or bid")
        v = st.variant
        cards = list(st.deck.physical)
        _shuffle(st.rng, cards)
        known = st.known
        for seat, places in enumerate(self._deal_places(st.dealer)):
            hand = 0
            for i in places:
                hand |= 1 << cards[i]
            known[seat] |= hand
        st.count = [st.hand_size] * st.n
        rest = cards[st.n * st.hand_size:]
        for p in rest:
            st.kitty |= 1 << p
        st.unseen = 0
        st.dealt = True
        events: list[Event] = [Dealt(st.dealer)] if self._telling else []
        if v.has_up_card and rest:
            st.up_card = rest[0]
            if self._telling:
                events.append(UpCardTurned(st.card_name(rest[0])))
        self._begin_auction(events)
        return Outcome(True, "", "", events)

    def _deal_places(self, dealer: int) -> list[list[int]]:
        """For each seat, the places in the shuffled pack of the cards it receives: packets
        of the variant's sizes, clockwise from the dealer's left, until every hand is full
        (the rest of the pack is the kitty)."""
        places = self._places.get(dealer)
        if places is None:
            st = self.state
            packets = st.variant.packets(st.n, st.options)
            places = [[] for _ in range(st.n)]
            dealt, k = 0, 0
            while len(places[dealer]) < st.hand_size:
                size = packets[k % len(packets)]
                k += 1
                for j in range(1, st.n + 1):
                    seat = (dealer + j) % st.n
                    take = min(size, st.hand_size - len(places[seat]))
                    places[seat] += range(dealt, dealt + take)
                    dealt += take
            self._places[dealer] = places
        return places

    def _scan(self, a: ScanCard) -> Outcome:
        st = self.state
        if st.phase != "deal":
            return _no("wrong_phase", "cards are scanned during the deal, before the bidding")
        if st.count[a.seat] >= st.hand_size:
            return _no("hand_full", f"{st.players[a.seat]} has already scanned "
                                    f"{st.hand_size} cards")
        p, code, reason = self._unseen(a.card, a.copy)
        if code:
            return _no(code, reason)
        st.known[a.seat] |= 1 << p
        st.unseen &= ~(1 << p)
        st.count[a.seat] += 1
        events: list[Event] = [CardScanned(a.seat, st.card_name(p))]
        if sum(st.count) == st.n * st.hand_size and not self.awaits_up_card():
            self._begin_auction(events)
        return Outcome(True, "", "", events)

    def _turn_up(self, a: TurnUp) -> Outcome:
        st = self.state
        refused = self._turn(a.seat, "deal", "turn up a card")
        if refused:
            return refused
        if not st.variant.has_up_card or st.up_card is not None:
            return _no("not_allowed", "this game has no up-card to turn now")
        p, code, reason = self._unseen(a.card, a.copy)
        if code:
            return _no(code, reason)
        st.kitty |= 1 << p
        st.unseen &= ~(1 << p)
        st.up_card = p
        events: list[Event] = [UpCardTurned(st.card_name(p))]
        if sum(st.count) == st.n * st.hand_size:
            self._begin_auction(events)
        return Outcome(True, events=events)

    def awaits_up_card(self) -> bool:
        """The deal of a variant with an up-card that is not turned (or scanned) yet: the
        bidding waits for it (the up-card decides the bids, and a club ends them)."""
        st = self.state
        return st.phase == "deal" and st.variant.has_up_card and st.up_card is None

    def _unseen(self, card: Any, copy: int | None) -> tuple[int, Verdict, str]:
        """The physical card for a scan: an unseen copy, or a refusal."""
        st = self.state
        deck = st.deck
        if not st.deck_mask >> card.index & 1 or (copy is not None and copy >= deck.copies):
            return -1, "card_not_in_deck", f"{card} is not in this game's {deck.name} deck"
        for k in (range(deck.copies) if copy is None else (copy,)):
            p = card.index + COPY_STRIDE * k
            if st.unseen >> p & 1:
                return p, "", ""
        label = st.card_name(card.index + COPY_STRIDE * (copy or 0))
        return -1, "already_scanned", f"{label} was already scanned or turned up this hand"

    # -- auction -------------------------------------------------------------------------
    def _begin_auction(self, events: list[Event]) -> None:
        st = self.state
        st.count = [st.hand_size] * st.n
        st.phase = "bidding"
        st.to_act = st.variant.first_bidder(st)
        fixed = st.variant.pre_auction_contract(st)
        if fixed is not None:
            self._award(fixed, events)

    def _auction_check(self, seat: int, doing: str) -> Outcome | None:
        """Refusal for a bid/pass out of phase or turn; in the deal phase the first bid
        starts the hand with whatever cards are known."""
        st = self.state
        if st.phase == "deal":
            if self.awaits_up_card():
                return _no("up_card_first", "the up-card is not turned yet: the dealer turns "
                                            "it up (scans it) before the bidding")
            if st.variant.pre_auction_contract(st) is not None:
                return _no("wrong_phase", "there is no bidding this hand")
            first = st.variant.first_bidder(st)
            if seat != first:
                return _no("not_your_turn", f"the bidding begins with {st.players[first]}")
            return None
        return self._turn(seat, "bidding", doing)

    def _bid(self, a: Bid) -> Outcome:
        st = self.state
        refused = self._auction_check(a.seat, "bid")
        if refused:
            return refused
        v = st.variant
        if a.bid not in v.bid_ladder:
            return _no("unknown_bid", f"{a.bid!r} is not a bid in {v.title}; bids: "
                                      f"{', '.join(v.bid_ladder)}")
        if a.bid not in self._legal_bids(a.seat):
            high = f"the high bid is {st.high[1]}" if st.high else "it is below the minimum"
            return _no("bid_too_low", f"{st.players[a.seat]} cannot bid {a.bid}: {high}")
        events: list[Event] = []
        if st.phase == "deal":
            self._begin_auction(events)
        st.bids.append((a.seat, a.bid))
        st.high = (a.seat, a.bid)
        if self._telling:
            events.append(BidMade(a.seat, a.bid))
        self._after_auction_turn(a.seat, events)
        return Outcome(True, "", "", events)

    def _pass(self, a: Pass) -> Outcome:
        st = self.state
        refused = self._auction_check(a.seat, "pass")
        if refused:
            return refused
        if not st.variant.may_pass(st, a.seat):
            return _no("must_bid", f"{st.players[a.seat]} may not pass: the dealer is stuck")
        events: list[Event] = []
        if st.phase == "deal":
            self._begin_auction(events)
        st.bids.append((a.seat, "PASS"))
        if self._telling:
            events.append(Passed(a.seat))
        self._after_auction_turn(a.seat, events)
        return Outcome(True, "", "", events)

    def _after_auction_turn(self, seat: int, events: list[Event]) -> None:
        st = self.state
        v = st.variant
        if not v.auction_over(st):
            st.to_act = v.next_bidder(st, seat)
            return
        contract = v.auction_result(st)
        if contract is None:
            nxt = v.dealer_after_pass_out(st)
            if self._telling:
                events.append(PassedOut(st.hand_number, nxt))
            if st.time_up:
                self._maybe_end(None, events)
            if not st.game_over:
                self._next_hand(nxt, events)
        else:
            self._award(contract, events)

    def _award(self, contract: Contract, events: list[Event]) -> None:
        st = self.state
        st.contract = contract
        if self._telling:
            events.append(AuctionWon(contract.seat, contract.bid, contract.forced))
        if contract.trump is not None:
            self._set_trump(contract.trump, events)
        else:
            st.phase = "trump"
            st.to_act = contract.seat

    # -- trump, exchanges, sitting out ---------------------------------------------------
    def _declare(self, a: DeclareTrump) -> Outcome:
        st = self.state
        refused = self._turn(a.seat, "trump", "name trump")
        if refused:
            return refused
        choices = st.variant.trump_choices(st)
        if a.trump not in choices:
            return _no("bad_trump", f"{a.trump!r} cannot be named trump; choose one of "
                                    f"{', '.join(choices)}")
        events: list[Event] = []
        self._set_trump(a.trump, events)
        return Outcome(True, "", "", events)

    def _set_trump(self, trump: str, events: list[Event]) -> None:
        st = self.state
        v = st.variant
        if st.contract.trump != trump:  # type: ignore[union-attr]
            st.contract = st.contract.with_trump(trump)  # type: ignore[union-attr]
        st.order = v.ordering(trump)
        if self._telling:
            events.append(TrumpDeclared(st.contract.seat, trump))  # type: ignore[union-attr]
        st.exchange_queue = v.exchanges(st)
        st.sitout_queue = v.sitout_deciders(st)
        self._advance(events)

    def _advance(self, events: list[Event]) -> None:
        st = self.state
        while st.exchange_queue and st.exchange_queue[0][0] == STOCK:
            self._take_up_card(st.exchange_queue.pop(0)[1], events)
        if st.exchange_queue:
            st.phase, st.to_act = "exchange", st.exchange_queue[0][0]
        elif st.sitout_queue:
            st.phase, st.to_act = "sitout", st.sitout_queue[0]
        else:
            self._start_play()

    def _take_up_card(self, receiver: int, events: list[Event]) -> None:
        """The up-card (known or not) goes from the kitty into ``receiver``'s hand."""
        st = self.state
        p = st.up_card
        if p is not None:
            st.kitty &= ~(1 << p)
            st.known[receiver] |= 1 << p
            st.up_card = None
        st.taken_up = p
        st.count[receiver] += 1
        st.exchanges_done += 1
        if self._telling:
            events.append(CardExchanged(STOCK, receiver, None if p is None else st.card_name(p)))

    def _exchange(self, a: Exchange) -> Outcome:
        st = self.state
        refused = self._turn(a.seat, "exchange", "pass a card")
        if refused:
            return refused
        giver, receiver = st.exchange_queue[0]
        index = st.exchanges_done
        if a.card is None:
            if st.count[giver] <= st.known[giver].bit_count():
                return _no("card_required", f"the engine knows {st.players[giver]}'s hand: "
                                            "say which card is passed")
            p = -1
        else:
            p, code, reason = cardplay.locate(st, giver, a.card, a.copy)
            if code:
                return _no(code, reason)
        why = st.variant.exchange_refusal(st, giver, receiver, index, None if p < 0 else p)
        if why:
            return _no("exchange_refused", why)
        if p >= 0:
            bit = 1 << p
            if st.known[giver] & bit:
                st.known[giver] ^= bit
            else:
                st.unseen &= ~bit
            if receiver == STOCK:
                st.kitty |= bit
            else:
                st.known[receiver] |= bit
        st.count[giver] -= 1
        if receiver != STOCK:
            st.count[receiver] += 1
        st.exchange_queue.pop(0)
        st.exchanges_done += 1
        events: list[Event] = []
        if self._telling:
            events.append(CardExchanged(giver, receiver, None if p < 0 else st.card_name(p)))
        self._advance(events)
        return Outcome(True, "", "", events)

    def _sit_out(self, a: SitOut) -> Outcome:
        st = self.state
        refused = self._turn(a.seat, "sitout", "sit out")
        if refused:
            return refused
        why = st.variant.sitout_refusal(st, a.seat, a.out)
        if why:
            return _no("sit_out_refused", why)
        if a.out:
            st.dropped.add(a.seat)
        st.sitout_queue.pop(0)
        events: list[Event] = [SatOut(a.seat, a.out)] if self._telling else []
        if st.variant.sit_out_ends_hand(st, a.seat, a.out):
            self._score(events)
        else:
            self._advance(events)
        return Outcome(True, "", "", events)

    def _call(self, a: Call) -> Outcome:
        st = self.state
        v = st.variant
        if a.call not in v.legal_calls(st, a.seat, st.phase):
            return _no("unknown_call", v.call_refusal(st, a.seat, a.call)
                       or f"{a.call!r} cannot be called now")
        events: list[Event] = [Called(a.seat, a.call)] if self._telling else []
        if a.call == "TIME":
            st.time_up = True
            if st.phase == "deal" and not any(st.count):
                self._maybe_end(None, events)
            return Outcome(True, "", "", events)
        directive = v.apply_call(st, a.seat, a.call)
        if directive in ("redeal", "pass_deal"):
            nxt = st.dealer if directive == "redeal" else (st.dealer + 1) % st.n
            if self._telling:
                events.append(PassedOut(st.hand_number, nxt))
            self._next_hand(nxt, events)
        return Outcome(True, "", "", events)

    # -- play ----------------------------------------------------------------------------
    def _start_play(self) -> None:
        st = self.state
        v = st.variant
        out = v.sitting_out(st)
        st.out = out | frozenset(st.dropped) if st.dropped else out
        if st.out:  # else ``new_hand`` left every seat in the ring
            active = [s for s in range(st.n) if s not in st.out]
            st.active = len(active)
            for i, s in enumerate(active):
                st.next_active[s] = active[(i + 1) % len(active)]
        leader = v.first_leader(st)
        while leader in st.out:
            leader = (leader + 1) % st.n
        st.phase = "play"
        st.leader = st.to_act = leader

    def _play(self, a: Play) -> Outcome:
        """A play that ``apply`` did not take on its hot path: refused unless in turn."""
        refused = self._turn(a.seat, "play", "play a card")
        if refused:
            return refused
        out = self._play_card(a)
        if out.ok:
            self.actions.pop()  # ``apply`` records the actions its handlers accept
        return out

    def _play_card(self, a: Play) -> Outcome:
        """``a.seat`` is to play: locate the card, check the lead, play it, score the hand
        when it was the last card. Records the action when accepted (``apply``'s hot path
        returns this outcome as it is)."""
        st = self.state
        seat = a.seat
        copy = a.copy
        p = a.card.index + COPY_STRIDE * copy if copy is not None else -1
        if p < 0 or not st.known[seat] >> p & 1:  # the fast path: a known physical card
            p, code, reason = cardplay.locate(st, seat, a.card, copy)
            if code:
                return _no(code, reason)
        if not st.trick and st.variant.restricts_leads:
            why = st.variant.lead_refusal(st, seat, p)
            if why:
                return _no("lead_refused", why)
        events: list[Event] = []
        try:
            over = cardplay.play(st, seat, p, events)
        except cardplay.Refused as no:
            return _no(no.code, no.reason)
        self.actions.append(a)
        if over:
            self._score(events)
        return Outcome(True, "", "", events)

    # -- scoring -------------------------------------------------------------------------
    def _score(self, events: list[Event]) -> None:
        st = self.state
        v = st.variant
        result = v.score_hand(st)
        deltas, detail = result.deltas, result.detail
        if st.revokes:
            deltas, detail = self._with_revoke_penalties(deltas, detail)
        for i, d in enumerate(deltas):
            st.scores[i] += d
        if result.tally is not None:
            st.tally = dict(result.tally)
        st.hands_played += 1
        c = st.contract
        st.last_hand = {"hand_number": st.hand_number, "dealer": st.dealer,
                        "contract": c.to_json() if c else None, "tricks_won": list(st.tricks_won),
                        "deltas": list(deltas), "scores": list(st.scores), "detail": detail}
        if self._telling:
            events.append(HandScored(st.hand_number, tuple(deltas), tuple(st.scores), detail))
        self._maybe_end(st.side_of[c.seat] if c else None, events)
        if not st.game_over:
            self._next_hand((st.dealer + 1) % st.n, events)

    def _with_revoke_penalties(self, deltas: tuple[int, ...],
                               detail: str) -> tuple[tuple[int, ...], str]:
        """The hand's score changes and explanation with each revoke's penalty added."""
        st = self.state
        notes = [detail] if detail else []
        for r in st.revokes:
            penalty = st.variant.revoke_penalty(st, r["seat"])
            deltas = tuple(d + x for d, x in zip(deltas, penalty, strict=True))
            notes.append(f"revoke by {st.players[r['seat']]} in trick {r['trick']}: "
                         + ", ".join(str(x) for x in penalty if x))
        return deltas, "; ".join(notes)

    def _maybe_end(self, contract_side: int | None, events: list[Event]) -> None:
        st = self.state
        winner = st.variant.game_winner(st, contract_side)
        if winner is not None:
            st.game_over, st.winner = True, winner
            st.phase, st.to_act = "game_over", None
            if self._telling:
                events.append(GameOver(winner, tuple(st.scores)))

    def _next_hand(self, dealer: int, events: list[Event]) -> None:
        st = self.state
        st.dealer = dealer
        st.hand_number += 1
        st.new_hand()
        if self._telling:
            events.append(HandStarted(st.hand_number, dealer))

    # -- legal actions -------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now (plays as exact physical cards)."""
        st = self.state
        phase, seat = st.phase, st.to_act
        if phase == "play":
            plays = self._plays[seat]  # type: ignore[index]
            out: list[Action] = []
            m = cardplay.legal_mask(st, seat)  # type: ignore[arg-type]
            while m:
                low = m & -m
                out.append(plays[low.bit_length() - 1])
                m ^= low
            return out
        if phase == "game_over" or seat is None:
            return []
        if phase == "deal":
            return self._deal_actions() + [Call(seat, c)
                                           for c in st.variant.legal_calls(st, seat, phase)]
        action_of = self.ids.action_of
        return [action_of(a, seat, phase) for a in self.legal_ids()]

    # -- the integer API (engine.ids) -----------------------------------------------------
    def legal_ids(self) -> list[int]:
        """The legal actions of the seat to act as ints (``engine.ids``), ascending for plays.
        In the deal phase only ``DEAL`` (scanning stays with the dataclass actions)."""
        st = self.state
        phase, seat = st.phase, st.to_act
        if phase == "play":
            m = cardplay.legal_mask(st, seat)  # type: ignore[arg-type]
            self._memo_at, self._memo_state, self._memo_mask = len(self.actions), st, m
            return _bits(m)
        if phase == "game_over" or seat is None:
            return []
        if phase == "deal":
            return [DEAL] if not any(st.count) and st.up_card is None else []
        v = st.variant
        ids = self.ids
        calls = v.legal_calls(st, seat, phase)
        out = [ids.number(Call, c) for c in calls] if calls else []
        if phase == "bidding":
            bid_ids = self._bid_ids
            out += [bid_ids[b] for b in self._legal_bids(seat)]
            if v.may_pass(st, seat):
                out.append(PASS)
        elif phase == "trump":
            out += [ids.number(DeclareTrump, t) for t in v.trump_choices(st)]
        elif phase == "exchange":
            giver, receiver = st.exchange_queue[0]
            index = st.exchanges_done
            known = st.known[giver]
            out += [p for p in _bits(known)
                    if not v.exchange_refusal(st, giver, receiver, index, p)]
            if st.count[giver] > known.bit_count():
                out.append(EXCHANGE_UNSEEN)
        else:
            if not v.sitout_refusal(st, seat, True):
                out.append(SIT_OUT)
            if not v.sitout_refusal(st, seat, False):
                out.append(PLAY_ON)
        return out

    def apply_id(self, a: int) -> None:
        """Apply int action ``a`` for the seat to act, or raise ``IllegalAction`` (code and
        reason as ``apply`` gives them) with nothing changed. A legal play takes a short path
        that records the same action and state as ``apply`` but builds no ``Outcome``
        (a hand the engine dealt: only ``cardplay.place``). No events are made."""
        st = self.state
        if st.phase == "play" and type(a) is int and 0 <= a < CARD_IDS:
            seat: int = st.to_act  # type: ignore[assignment]
            if self._memo_state is st and self._memo_at == len(self.actions):
                m = self._memo_mask
            else:
                m = cardplay.legal_mask(st, seat)
            if m >> a & 1:
                if st.dealt:
                    over = cardplay.place(st, seat, a, None)
                else:
                    over = cardplay.play(st, seat, a, [])
                self.actions.append(self._plays[seat][a])
                if over:
                    self._telling = False
                    try:
                        self._score([])
                    finally:
                        self._telling = True
                return
        if st.to_act is None:
            raise IllegalAction("game_over", "the game is over")
        self._telling = False
        try:
            out = self.apply(self.ids.action_of(a, st.to_act, st.phase))
        finally:
            self._telling = True
        if out.code:  # refused (an accepted action's code is "")
            raise IllegalAction(out.code, out.reason)

    def _legal_bids(self, seat: int) -> list[str]:
        """The variant's ``legal_bids`` for ``seat``, computed once per position: a random or
        bot player asks ``legal_actions`` and then ``apply`` checks the bid it chose. The
        position is the number of accepted actions (a refused one changes nothing)."""
        st, at = self.state, len(self.actions)
        if self._bids_at != at or self._bids_seat != seat or self._bids_state is not st:
            self._bids = st.variant.legal_bids(st, seat)
            self._bids_at, self._bids_seat, self._bids_state = at, seat, st
        return self._bids

    def _deal_actions(self) -> list[Action]:
        st = self.state
        v = st.variant
        acts: list[Action] = []
        if not any(st.count) and st.up_card is None:
            acts.append(Deal(st.dealer))
        for seat in range(st.n):
            if st.count[seat] < st.hand_size:
                for p in _bits(st.unseen):
                    card, copy = from_physical(p)
                    acts.append(ScanCard(seat, card, copy))
        if v.has_up_card and st.up_card is None:
            for p in _bits(st.unseen):
                card, copy = from_physical(p)
                acts.append(TurnUp(st.dealer, card, copy))
        if v.pre_auction_contract(st) is None and not self.awaits_up_card():
            first = v.first_bidder(st)
            acts += [Bid(first, b) for b in self._legal_bids(first)]
            if v.may_pass(st, first):
                acts.append(Pass(first))
        return acts


_KINDS = frozenset((Play, Bid, Pass, Deal, ScanCard, TurnUp, DeclareTrump, Exchange, SitOut,
                    Call))
"""The actions ``Engine.apply`` knows."""

_OPENERS = frozenset((Play, DeclareTrump, Exchange, SitOut))
"""Actions that can open a hand whose contract was fixed before any bid (``Engine.apply``)."""


def _shuffle(rng: random.Random, cards: list[int]) -> None:
    """Shuffle in place exactly as ``rng.shuffle`` does in CPython 3.11 (Fisher-Yates drawing
    each index by rejection from ``getrandbits``), so a seed deals the hands it always dealt,
    without two Python calls per card. ``tests/engine`` checks it against ``rng.shuffle``."""
    bits = rng.getrandbits
    for i, k in _draw_sizes(len(cards)):
        j = bits(k)
        while j > i:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


@cache
def _draw_sizes(n: int) -> tuple[tuple[int, int], ...]:
    """(i, bits drawn for an index 0..i) for each step of a Fisher-Yates shuffle of ``n``."""
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


@cache
def _play_row(seat: int) -> tuple[Play, ...]:
    """``seat``'s play of each physical card, by bit index: shared by every engine (actions
    are frozen), so ``legal_actions`` in the play phase allocates nothing but its list."""
    return tuple(Play(seat, *from_physical(p)) for p in range(2 * COPY_STRIDE))

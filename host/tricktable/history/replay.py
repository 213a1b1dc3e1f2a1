"""Replay a game record hand by hand, as the rules compute it (``tricktable replay``, the
replay page).

``replay(record)`` re-applies the record's actions on a fresh engine and returns one
``HandView`` per hand: the hands as dealt (or, when nobody saw the deal, as the play showed
them), the up-card, the auction, the contract and trump, the exchanges, every trick (who
led, the cards in play order, who won), each revoke with the card that broke the rule and the
card that proved it, the result and the running score. ``HandView.to_json`` is what the
replay page shows (with the hand's double-dummy analysis when the caller has one: this
module does not compute it); the words come from ``history.words``. Rendering lives in the CLI and the
web page; this module only walks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tricktable.cards import format_card
from tricktable.engine import Engine, EngineError
from tricktable.engine.actions import Deal, ScanCard
from tricktable.engine.cardplay import SUIT_WORDS
from tricktable.history.record import GameRecord
from tricktable.history.words import (
    bid_words,
    contract_words,
    event_words,
    revoke_words,
    trump_words,
)

__all__ = ["HandView", "TrickView", "RevokeView", "replay", "game_json", "hand_analysis"]


@dataclass
class TrickView:
    number: int
    leader: int
    cards: list[tuple[int, str]]
    winner: int | None
    """None while the trick is unfinished (a record that stops mid-trick)."""


@dataclass
class RevokeView:
    """A revoke: ``card`` is the card ``seat`` played in trick ``trick`` instead of following
    ``suit``; ``proof`` is the card that proved it (the card of that suit played later, in
    trick ``proven_in``, or the one the hand was known to hold)."""

    seat: int
    trick: int
    suit: str
    how: str
    proven_in: int
    card: str | None = None
    proof: str | None = None


@dataclass
class HandView:
    number: int
    dealer: int
    deal: str = "unknown"
    """``seed`` (the engine dealt), ``scan`` (the players scanned their cards) or ``unknown``."""
    hands: dict[int, str] = field(default_factory=dict)
    up_card: str | None = None
    bids: list[tuple[int, str]] = field(default_factory=list)
    contract: dict[str, Any] | None = None
    exchanges: list[dict[str, Any]] = field(default_factory=list)
    sitting_out: list[int] = field(default_factory=list)
    tricks: list[TrickView] = field(default_factory=list)
    revokes: list[RevokeView] = field(default_factory=list)
    result: str = ""
    deltas: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    before: tuple[int, ...] = ()
    """The sides' scores when the hand began."""

    @property
    def trump(self) -> str | None:
        return self.contract["trump"] if self.contract else None

    def played(self) -> dict[int, list[str]]:
        """The cards each seat played, in order: the hands as the play showed them."""
        out: dict[int, list[str]] = {}
        for trick in self.tricks:
            for seat, card in trick.cards:
                out.setdefault(seat, []).append(card)
        return out

    def known_hands(self) -> tuple[str, dict[int, list[str]]]:
        """Where the hands shown come from (``deal``, ``scan`` or ``play``) and the hands:
        as dealt when the engine dealt or the players scanned, else as the play showed them."""
        if self.hands:
            return ("deal" if self.deal == "seed" else "scan",
                    {s: cards.split() for s, cards in sorted(self.hands.items())})
        return "play", dict(sorted(self.played().items()))

    def to_json(self, players: list[str], sides: list[dict[str, Any]], game: int = 1,
                analysis: dict[str, Any] | None = None) -> dict[str, Any]:
        """The hand for the replay page (and any program): data and the words to show, and
        the hand's double-dummy analysis when one is given (``hand_analysis``)."""
        source, hands = self.known_hands()
        return {
            "game": game,
            "hand": self.number,
            "dealer": self.dealer,
            "seats": players,
            "sides": sides,
            "deal": self.deal,
            "hands_from": source,
            "hands": [hands.get(s, []) for s in range(len(players))],
            "up_card": self.up_card,
            "bids": [{"seat": s, "bid": b, "text": bid_words(b)} for s, b in self.bids],
            "contract": self.contract,
            "contract_text": contract_words(players, self.contract) if self.contract else None,
            "trump": self.trump,
            "trump_text": trump_words(self.trump),
            "exchanges": [{**e, "text": event_words(e, players)} for e in self.exchanges],
            "sitting_out": self.sitting_out,
            "tricks": [{"trick": t.number, "leader": t.leader, "winner": t.winner,
                        "cards": [{"seat": s, "card": c} for s, c in t.cards]}
                       for t in self.tricks],
            "revokes": [{"seat": r.seat, "trick": r.trick, "suit": r.suit, "how": r.how,
                         "proven_in": r.proven_in, "card": r.card, "proof": r.proof,
                         "text": revoke_words(players, {"seat": r.seat, "trick": r.trick,
                                                        "suit": r.suit, "proof": r.how,
                                                        "proven_in": r.proven_in})}
                        for r in self.revokes],
            "result": self.result,
            "deltas": list(self.deltas),
            "scores_before": list(self.before),
            "scores_after": list(self.totals) or list(self.before),
            "complete": bool(self.result),
            "analysis": analysis,
        }


def replay(record: GameRecord) -> tuple[Engine, list[HandView]]:
    """The engine at the end of the record and a view of each hand played."""
    cfg = record.config
    eng = Engine.new(cfg["variant"], cfg.get("options"), cfg.get("seed", 0),
                     cfg.get("dealer", 0), cfg.get("players"))
    st = eng.state
    views = [HandView(st.hand_number, st.dealer, before=tuple(st.scores))]
    played: list[tuple[int, str]] = []
    for i, action in enumerate(record.actions()):
        view = views[-1]
        if isinstance(action, ScanCard):
            view.deal = "scan"
            name = format_card(action.card, action.copy) if st.deck.copies > 1 else str(action.card)
            view.hands[action.seat] = (view.hands.get(action.seat, "") + " " + name).strip()
        out = eng.apply(action)
        if not out.ok:
            raise EngineError(f"action {i + 1} ({action.to_json()}) refused: {out.reason}")
        if isinstance(action, Deal):
            view.deal = "seed"
            view.hands = {s: " ".join(eng.known_hand(s)) for s in range(st.n)}
        for event in out.events:
            e = event.to_json()
            kind = e["type"]
            if kind == "up_card":
                view.up_card = e["card"]
            elif kind == "bid":
                view.bids.append((e["seat"], e["bid"]))
            elif kind == "pass":
                view.bids.append((e["seat"], "PASS"))
            elif kind == "trump":
                view.contract = st.contract.to_json() if st.contract else None
            elif kind == "exchange":
                view.exchanges.append(e)
            elif kind == "sit_out" and e["out"]:
                view.sitting_out.append(e["seat"])
            elif kind == "card_played":
                played.append((e["seat"], e["card"]))
            elif kind == "revoke":
                view.revokes.append(_revoke(eng, e, played))
            elif kind == "trick_won":
                view.tricks.append(TrickView(e["trick"], e["leader"], played, e["winner"]))
                played = []
            elif kind == "hand_scored":
                view.result, view.deltas, view.totals = e["detail"], tuple(e["deltas"]), tuple(e["scores"])
            elif kind == "passed_out":
                view.result = "passed out"
            elif kind == "hand_started":
                views.append(HandView(e["hand_number"], e["dealer"], before=tuple(st.scores)))
    if played:
        views[-1].tricks.append(TrickView(len(views[-1].tricks) + 1, played[0][0], played, None))
    for view in views:
        _revoke_cards(view)
    return eng, [v for v in views if v.bids or v.tricks or v.result]


def _revoke(eng: Engine, e: dict[str, Any], played: list[tuple[int, str]]) -> RevokeView:
    """The revoke event; a revoke known from the hand is proved by a card of the suit the
    hand still holds (the engine knew it: that is how it knew the revoke)."""
    view = RevokeView(e["seat"], e["trick"], e["suit"], e["proof"], e["proven_in"])
    if e["proof"] == "hand":
        st = eng.state
        led = SUIT_WORDS.index(e["suit"])
        held = st.known[e["seat"]] & st.order.suit_masks[led]  # type: ignore[union-attr]
        if held:
            view.proof = st.names[(held & -held).bit_length() - 1]
    return view


def _revoke_cards(view: HandView) -> None:
    """Fill in each revoke's cards from the tricks: the card played in the revoke's trick,
    and for a show-out, the card of the suit played in the trick that proved it."""
    def card_of(seat: int, trick: int) -> str | None:
        if 1 <= trick <= len(view.tricks):
            return next((c for s, c in view.tricks[trick - 1].cards if s == seat), None)
        return None

    for r in view.revokes:
        r.card = card_of(r.seat, r.trick)
        if r.how != "hand":
            r.proof = card_of(r.seat, r.proven_in)


def game_json(record: GameRecord, game: int = 1,
              analysis: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every hand of ``record`` as ``HandView.to_json`` gives it (for the replay page), each
    with its part of the game's ``analysis`` when one is given."""
    eng, views = replay(record)
    st = eng.state
    sides = [{"name": st.side_name(i), "seats": list(seats)} for i, seats in enumerate(st.sides)]
    return [v.to_json(record.players, sides, game, hand_analysis(analysis, v.number))
            for v in views]


def hand_analysis(analysis: dict[str, Any] | None, number: int) -> dict[str, Any] | None:
    """Hand ``number``'s part of a game's analysis (``tricktable.analysis``'s JSON, or
    ``{"unavailable": reason}`` for the whole game); None when there is none."""
    if analysis is None or "unavailable" in analysis:
        return analysis
    return next((h for h in analysis["hands"] if h["hand_number"] == number), None)

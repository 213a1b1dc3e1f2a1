"""Replay a game record hand by hand, as the rules compute it (for ``tricktable replay``).

``replay(record)`` re-applies the record's actions on a fresh engine and returns one
``HandView`` per hand: the deal, the auction, the contract, every trick (who led, the cards
in play order, who won), revokes, the result and the running score. Rendering lives in the
CLI; this module only walks. Imports ``engine``, ``history.record``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tricktable.cards import format_card
from tricktable.engine import Engine, EngineError
from tricktable.engine.actions import Deal, ScanCard
from tricktable.history.record import GameRecord, contract_text

__all__ = ["HandView", "TrickView", "replay"]


@dataclass
class TrickView:
    number: int
    leader: int
    cards: list[tuple[int, str]]
    winner: int


@dataclass
class HandView:
    number: int
    dealer: int
    deal: str = "unknown"
    hands: dict[int, str] = field(default_factory=dict)
    bids: list[tuple[int, str]] = field(default_factory=list)
    contract: str = ""
    tricks: list[TrickView] = field(default_factory=list)
    revokes: list[str] = field(default_factory=list)
    result: str = ""
    deltas: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()


def replay(record: GameRecord) -> tuple[Engine, list[HandView]]:
    """The engine at the end of the record and a view of each hand played."""
    cfg = record.config
    eng = Engine.new(cfg["variant"], cfg.get("options"), cfg.get("seed", 0),
                     cfg.get("dealer", 0), cfg.get("players"))
    st = eng.state
    views = [HandView(st.hand_number, st.dealer)]
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
            if kind == "bid":
                view.bids.append((e["seat"], e["bid"]))
            elif kind == "pass":
                view.bids.append((e["seat"], "Pass"))
            elif kind == "trump":
                view.contract = contract_text(st.players, st.contract.to_json())  # type: ignore[union-attr]
            elif kind == "card_played":
                played.append((e["seat"], e["card"]))
            elif kind == "trick_won":
                view.tricks.append(TrickView(e["trick"], e["leader"], played, e["winner"]))
                played = []
            elif kind == "revoke":
                view.revokes.append(f"{st.players[e['seat']]} revoked {e['suit']} in trick "
                                    f"{e['trick']} (proven in trick {e['proven_in']})")
            elif kind == "hand_scored":
                view.result, view.deltas, view.totals = e["detail"], tuple(e["deltas"]), tuple(e["scores"])
            elif kind == "passed_out":
                view.result = "passed out"
            elif kind == "hand_started":
                views.append(HandView(e["hand_number"], e["dealer"]))
    return eng, [v for v in views if v.bids or v.tricks or v.result]

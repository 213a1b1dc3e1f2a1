"""Engine events: what an accepted action caused, as dataclasses that serialise.

Events are read-only by convention (not frozen: they are made on the hot path, and a
frozen dataclass costs a ``object.__setattr__`` per field).

``event.to_json()`` gives a dict with a ``"type"`` key (cards printed as ``AS``/``AS'``);
the service publishes them on the table's event topic and the web page shows them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from tricktable.cards import Card, format_card

__all__ = [
    "Event", "HandStarted", "Dealt", "CardScanned", "UpCardTurned", "BidMade", "Passed",
    "Called", "AuctionWon", "PassedOut", "TrumpDeclared", "CardExchanged", "SatOut",
    "CardPlayed", "Revoke", "TrickWon", "HandScored", "GameOver", "EVENT_TYPES",
]


@dataclass(slots=True)
class Event:
    """Base of every event."""

    @property
    def TYPE(self) -> str:
        """The event's ``"type"`` in JSON (``EVENT_TYPES``; a property, not a class constant:
        mypyc, which compiles this module, would take a constant for a dataclass field)."""
        return _TYPE_OF[type(self)]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass(slots=True)
class HandStarted(Event):
    hand_number: int
    dealer: int


@dataclass(slots=True)
class Dealt(Event):
    """The engine dealt from its seed: every hand is known."""

    dealer: int


@dataclass(slots=True)
class CardScanned(Event):
    seat: int
    card: str


@dataclass(slots=True)
class UpCardTurned(Event):
    card: str


@dataclass(slots=True)
class BidMade(Event):
    seat: int
    bid: str


@dataclass(slots=True)
class Passed(Event):
    seat: int


@dataclass(slots=True)
class Called(Event):
    seat: int
    call: str


@dataclass(slots=True)
class AuctionWon(Event):
    """The auction is over: ``seat`` holds the contract ``bid`` (``forced`` when stuck)."""

    seat: int
    bid: str
    forced: bool = False


@dataclass(slots=True)
class PassedOut(Event):
    """Nobody bid: the hand is thrown in and ``next_dealer`` deals."""

    hand_number: int
    next_dealer: int


@dataclass(slots=True)
class TrumpDeclared(Event):
    seat: int
    trump: str


@dataclass(slots=True)
class CardExchanged(Event):
    """``giver`` passed a card to ``receiver`` (``card`` None when not scanned)."""

    giver: int
    receiver: int
    card: str | None


@dataclass(slots=True)
class SatOut(Event):
    seat: int
    out: bool


@dataclass(slots=True)
class CardPlayed(Event):
    seat: int
    card: str
    trick: int

    @classmethod
    def of(cls, seat: int, card: Card, copy: int | None, trick: int) -> CardPlayed:
        return cls(seat, format_card(card, copy), trick)


@dataclass(slots=True)
class Revoke(Event):
    """``seat`` failed to follow ``suit`` in trick ``trick`` (1-based).

    ``proof`` says how it is known: ``"hand"`` (the card of the suit was known to be in the
    hand at that moment) or ``"showed_out"`` (the player showed out of the suit in that trick
    and has now played it, in trick ``proven_in``). ``accepted``: record mode kept the play
    and the penalty applies when the hand is scored."""

    seat: int
    trick: int
    suit: str
    proof: str
    proven_in: int
    accepted: bool = True


@dataclass(slots=True)
class TrickWon(Event):
    trick: int
    winner: int
    leader: int
    cards: tuple[str, ...]


@dataclass(slots=True)
class HandScored(Event):
    """``deltas`` and ``scores`` are per side; ``detail`` is the variant's explanation."""

    hand_number: int
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    detail: str


@dataclass(slots=True)
class GameOver(Event):
    winner: int | None
    scores: tuple[int, ...]


EVENT_TYPES: dict[str, type[Event]] = {
    "hand_started": HandStarted,
    "dealt": Dealt,
    "card_scanned": CardScanned,
    "up_card": UpCardTurned,
    "bid": BidMade,
    "pass": Passed,
    "call": Called,
    "auction_won": AuctionWon,
    "passed_out": PassedOut,
    "trump": TrumpDeclared,
    "exchange": CardExchanged,
    "sit_out": SatOut,
    "card_played": CardPlayed,
    "revoke": Revoke,
    "trick_won": TrickWon,
    "hand_scored": HandScored,
    "game_over": GameOver,
}
_TYPE_OF = {cls: name for name, cls in EVENT_TYPES.items()}

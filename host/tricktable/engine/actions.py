"""Engine actions: what a seat (or the table) can do, as frozen dataclasses that serialise.

Every action carries ``seat``. ``to_json()`` gives a dict with a ``"type"`` key and cards
printed as in ``tricktable.cards`` (``AS``, ``10H``, ``JOKER``; the copy is its own key);
``action_from_json(d)`` reads it back and raises ``ActionError`` naming the problem.
The journal and the hand history store actions in this form.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any

from tricktable.cards import Card, CardError, parse_card

__all__ = [
    "Action", "Deal", "ScanCard", "TurnUp", "Bid", "Pass", "DeclareTrump", "Exchange",
    "SitOut", "Play", "Call", "ActionError", "action_from_json", "ACTION_TYPES",
]


class ActionError(ValueError):
    """A JSON action that cannot be read."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action."""

    seat: int

    @property
    def TYPE(self) -> str:
        """The action's ``"type"`` in JSON (``ACTION_TYPES``; a property, not a class constant:
        mypyc, which compiles this module, would take a constant for a dataclass field)."""
        return _TYPE_OF[type(self)]

    def __copy__(self) -> Action:
        return self  # frozen

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = str(value) if isinstance(value, Card) else value
        return out


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """The dealer deals from the engine's seed: every hand becomes known to the engine."""


@dataclass(frozen=True, slots=True)
class ScanCard(Action):
    """During the deal, a player taps one of their own cards: the engine now knows it."""

    card: Card
    copy: int | None = None


@dataclass(frozen=True, slots=True)
class TurnUp(Action):
    """The dealer turns (and scans) the up-card, in variants that have one."""

    card: Card
    copy: int | None = None


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """A bid from the variant's ladder: ``"4"``, ``"PEPPER:SMALL"``, ``"3HC"``, ``"NIL"`` ..."""

    bid: str


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """A pass in the auction."""


@dataclass(frozen=True, slots=True)
class DeclareTrump(Action):
    """The contract holder names trump: ``"S" "H" "D" "C"``, ``"NT"``, ``"HIGH"``, ``"LOW"``."""

    trump: str


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """One card passed face down to another player (pepper, hi/lo, alone, nil passes).

    ``card`` is None when the card was not scanned (hands unknown)."""

    card: Card | None = None
    copy: int | None = None


@dataclass(frozen=True, slots=True)
class SitOut(Action):
    """A defender's choice to sit the hand out (``out=True``) or play it (``out=False``)."""

    out: bool = True


@dataclass(frozen=True, slots=True)
class Play(Action):
    """A card played to the trick. ``copy`` None: a bare card whose copy is not known."""

    card: Card
    copy: int | None = None


@dataclass(frozen=True, slots=True)
class Call(Action):
    """A named call the variant understands (``"BOTTOMS"``, ``"MISDEAL"``, ``"ALONE"``,
    ``"TIME"`` to end a timed game after this hand ...)."""

    call: str


ACTION_TYPES: dict[str, type[Action]] = {
    "deal": Deal, "scan": ScanCard, "turn_up": TurnUp, "bid": Bid, "pass": Pass,
    "trump": DeclareTrump, "exchange": Exchange, "sit_out": SitOut, "play": Play, "call": Call,
}
_TYPE_OF = {cls: name for name, cls in ACTION_TYPES.items()}
_FIELD_KINDS: dict[str, tuple[type, ...]] = {
    "seat": (int,), "bid": (str,), "trump": (str,), "call": (str,), "out": (bool,),
}


def action_from_json(d: Any) -> Action:
    """Read an action dict; raise ``ActionError`` naming the type, field or value at fault."""
    if not isinstance(d, dict):
        raise ActionError(f"an action must be a JSON object, got {type(d).__name__}")
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise ActionError(f"unknown action type {kind!r}; known: {', '.join(ACTION_TYPES)}")
    cls = ACTION_TYPES[kind]
    names = {f.name: f for f in fields(cls)}
    extra = set(d) - set(names) - {"type"}
    if extra:
        raise ActionError(f"{kind}: unexpected field(s) {', '.join(sorted(extra))}")
    kwargs: dict[str, Any] = {}
    for name, f in names.items():
        if name not in d:
            if f.default is MISSING:
                raise ActionError(f"{kind}: missing field {name!r}")
            continue
        kwargs[name] = _read_field(kind, name, d[name])
    return cls(**kwargs)


def _read_field(kind: str, name: str, value: Any) -> Any:
    if name == "card":
        if value is None and kind == "exchange":
            return None
        if not isinstance(value, str):
            raise ActionError(f"{kind}: card must be a string like 'AS', got {value!r}")
        try:
            return parse_card(value)
        except CardError as exc:
            raise ActionError(f"{kind}: {exc}") from None
    if name == "copy":
        if value is None or (type(value) is int and value in (0, 1)):
            return value
        raise ActionError(f"{kind}: copy must be 0, 1 or null, got {value!r}")
    allowed = _FIELD_KINDS[name]
    if type(value) not in allowed or (name == "seat" and value < 0):
        raise ActionError(f"{kind}: {name} must be {allowed[0].__name__}, got {value!r}")
    return value

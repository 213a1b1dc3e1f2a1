"""The physical kit of one simulated table: a card deck and a token set, enrolled.

``Kit.enroll(registry, ...)`` makes up a UID for every card of the deck and every token of
``tags.TOKENS``, enrolls them in the deck registry (as ``tricktable enroll`` would) and keeps
each tag's 16-byte record, so that a virtual board reads UID and record like a real one.
``tag_for(action)`` says which tag a player puts on the pad to do an engine action: the card
for a play, a scan, a turn-up or an exchange; otherwise the token that the host reads back
as that action (``tricktable.serve.table.action_token``, the host's own spelling, so both agree).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tricktable.cards import format_card
from tricktable.deckkit.decks import CARD_DECKS, Registry, deck_slots
from tricktable.engine.actions import Action, Exchange, Play, ScanCard, TurnUp
from tricktable.serve.table import action_token

UID_MAGIC = (0x7A, 0x11)


class KitError(LookupError):
    """No tag of this kit does that action."""


@dataclass(frozen=True)
class Tag:
    uid: bytes
    record: bytes
    name: str


class Kit:
    """Every tag of one table, by card name and by token."""

    def __init__(self, cards: dict[str, Tag], tokens: dict[str, Tag]) -> None:
        self.cards = cards
        self.tokens = tokens

    @classmethod
    def enroll(cls, registry: Registry, table_no: int, cards: Iterable[str], card_deck: int,
               token_deck: int) -> Kit:
        """Enroll, for table ``table_no`` (0..255), the smallest registry deck that holds
        every one of ``cards`` (printed, ``AS``/``AS'``) and a token set."""
        if not 0 <= table_no <= 255:
            raise ValueError(f"table_no must be 0..255, got {table_no}")
        needed = set(cards)
        kind = next((k for k in CARD_DECKS
                     if needed <= {slot.name for slot in deck_slots(k)}), None)
        if kind is None:
            raise KitError(f"no enrollable deck holds all of {sorted(needed)}")
        made: dict[int, dict[str, Tag]] = {}
        for deck_id, deck_kind in ((card_deck, kind), (token_deck, "tokens")):
            registry.create_deck(deck_id, deck_kind, f"demo table {table_no} {deck_kind}")
            made[deck_id] = {}
            for slot in deck_slots(deck_kind):
                uid = bytes([0x04, table_no, deck_id & 0xFF, slot.code, slot.copy, *UID_MAGIC])
                registry.enroll(uid, deck_id, slot)
                made[deck_id][slot.name] = Tag(uid, registry.record_for(uid), slot.name)
        return cls(made[card_deck], made[token_deck])

    def card(self, printed: str) -> Tag:
        try:
            return self.cards[printed]
        except KeyError:
            raise KitError(f"the deck has no card {printed!r}") from None

    def has_tag(self, action: Action) -> bool:
        """Whether some tag of the kit does ``action`` (there is no token for a bid of 14)."""
        try:
            self.tag_for(action)
        except KitError:
            return False
        return True

    def tag_for(self, action: Action) -> Tag:
        """The tag that does ``action`` when placed on the acting seat's pad."""
        if isinstance(action, Play | ScanCard | TurnUp | Exchange):
            if action.card is None:
                raise KitError("an exchange of an unseen card has no tag")
            return self.card(format_card(action.card, action.copy or 0))
        tag = self.tokens.get(action_token(action) or "")
        if tag is None:
            raise KitError(f"no token does {action.to_json()}")
        return tag

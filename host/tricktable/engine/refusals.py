"""The engine's refusal codes: the one list of why ``Engine.apply`` can say no.

``Refusal`` is a ``Literal`` type, so a misspelt code is a type error (mypyc, which compiles
the engine, type-checks it with ``--strict-equality``: ``setup.py``), while the value stays
the plain string that verdicts, journals and pages carry (docs/protocol.md, "refused").
``Outcome.code`` is a ``Verdict``: ``""`` for an accepted action, else a ``Refusal``.
The reason beside each code is a sentence for people; the code is for programs.
"""

from __future__ import annotations

import typing
from typing import Literal

__all__ = ["Refusal", "REFUSALS", "Verdict"]

Refusal = Literal[
    "unknown_action",       # not an action this engine knows (or no int action of this table)
    "bad_seat",             # a seat number outside the table
    "game_over",            # the game has ended
    "wrong_phase",          # not an action of the phase the table is in
    "not_your_turn",        # another seat is to act
    "up_card_first",        # a bid or pass before the dealer has turned up the up-card
    "not_allowed",          # no up-card to turn now
    "hand_full",            # a seat scans more cards than a hand holds
    "card_not_in_deck",     # a card (or copy) this game's deck does not have
    "already_scanned",      # a card scanned or turned up twice in one deal
    "card_not_in_hand",     # a card played or passed that the seat does not hold
    "card_already_played",  # every copy of the card is already played this hand
    "unknown_bid",          # not a bid of the variant's ladder
    "bid_too_low",          # a bid the auction does not allow now
    "must_bid",             # a pass by a seat that may not pass (the dealer is stuck)
    "bad_trump",            # a trump the contract holder may not name
    "card_required",        # a pass of an unnamed card from a hand the engine knows
    "exchange_refused",     # a card the variant's exchange does not allow
    "sit_out_refused",      # a sit-out choice the variant does not allow
    "unknown_call",         # a call not offered now
    "lead_refused",         # a lead the variant forbids (spades not broken ...)
    "must_follow_suit",     # strict revokes: the hand is known to hold the suit led
]
REFUSALS: tuple[Refusal, ...] = typing.get_args(Refusal)
"""Every refusal code (docs, tests)."""

Verdict = Literal[""] | Refusal
"""``Outcome.code``: ``""`` for an accepted action, else why not."""

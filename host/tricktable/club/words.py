"""A table's actions and phases in the players' words, for the director's console and its log.

``action_words({"type": "play", "seat": 1, "card": "KD"}, players)`` is "East (Bob) played
the K♦"; ``phase_words("play")`` is "playing". Seat 0 of a club table is North, then East,
South, West (docs/club.md). Pure functions; imports nothing of ours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["SEAT_WORDS", "action_words", "card_words", "phase_words"]

SEAT_WORDS = ("North", "East", "South", "West")
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
TRUMP_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "no trump",
               "HIGH": "high (no trump)", "LOW": "low (no trump)"}
PHASE_WORDS = {"deal": "dealing", "scan": "scanning hands", "bid": "bidding",
               "bidding": "bidding", "trump": "naming trump", "exchange": "passing cards",
               "sit_out": "deciding who sits out", "play": "playing",
               "hand_over": "hand scored", "game_over": "game over"}


def card_words(card: object) -> str:
    """``KD`` as ``K♦``, ``JOKER`` as the joker; a copy's mark (``'``) kept as ``′``."""
    text = str(card)
    copy = text.endswith("'")
    core = text.rstrip("'")
    if core == "JOKER":
        return "the joker"
    return core[:-1] + SUIT_SIGNS.get(core[-1:], core[-1:]) + ("′" if copy else "")


def _who(seat: object, players: Sequence[str]) -> str:
    if not isinstance(seat, int) or not 0 <= seat < len(SEAT_WORDS):
        return f"seat {seat}"
    name = players[seat] if seat < len(players) else None
    return f"{SEAT_WORDS[seat]} ({name})" if name else SEAT_WORDS[seat]


def action_words(action: Mapping[str, Any], players: Sequence[str] = ()) -> str:
    """One action as a sentence: who did what."""
    who = _who(action.get("seat"), players)
    kind = action.get("type")
    card = card_words(action["card"]) if action.get("card") is not None else None
    if kind == "play":
        return f"{who} played the {card}"
    if kind == "scan":
        return f"{who} showed the {card} (hand scan)"
    if kind == "turn_up":
        return f"{who} turned up the {card}"
    if kind == "bid":
        return f"{who} bid {str(action.get('bid')).replace(':', ' ').lower()}"
    if kind == "pass":
        return f"{who} passed"
    if kind == "trump":
        return f"{who} named {TRUMP_WORDS.get(str(action.get('trump')), action.get('trump'))}"
    if kind == "exchange":
        return f"{who} passed a card" + (f": the {card}" if card else "")
    if kind == "sit_out":
        return f"{who} sat out" if action.get("out", True) else f"{who} chose to play"
    if kind == "call":
        return f"{who} called {str(action.get('call')).lower()}"
    if kind == "deal":
        return f"{who} dealt"
    return f"{who}: {kind}"


def phase_words(phase: object) -> str:
    """A table's phase as the director says it: "bidding", "playing"."""
    return PHASE_WORDS.get(str(phase), str(phase or "no game").replace("_", " "))

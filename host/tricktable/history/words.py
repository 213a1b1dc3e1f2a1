"""Words for people: bids, trumps, contracts, cards and engine events as a player says them.

The one place that turns the engine's codes (``ORDER_UP``, ``PEPPER:SMALL``, ``NT``,
``{"type": "exchange", "giver": -1, ...}``) into words (``orders up``, ``small pepper``,
``no trump``, ``Di picks up the up-card``). ``tricktable replay``, the replay page's API
(``web.journal_hands``), the live scoreboard's event list (``web.model``) and the director's
console (an action, ``action_words``: "East (Bob) played the king of diamonds"; a table's
phase, ``phase_words``: "playing") all use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tricktable.rules.base import PHASES, STOCK, Phase

__all__ = ["bid_words", "trump_words", "contract_words", "card_words", "event_words",
           "revoke_words", "action_words", "phase_words"]

SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_TRUMPS = {**SUITS, "NT": "no trump", "HIGH": "high (no trump, aces high)",
           "LOW": "low (no trump, low cards win)"}
_BIDS = {
    "ORDER_UP": "order up", "PEPPER:SMALL": "small pepper", "PEPPER:BIG": "big pepper",
    "PEPPER": "pepper", "ALONE": "alone", "PFEFFER": "pfeffer", "NIL": "nil",
    "BLINDNIL": "blind nil", "JACK_UP": "jack turned up", "CLUBS_UP": "club turned up",
    "DIRTY_CLUBS": "dirty clubs", "NO_BID": "no bid", "BENNY": "the Benny turned up",
}
_RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
_PHASES: dict[Phase, str] = {
    "deal": "dealing", "bidding": "bidding", "trump": "naming trump", "exchange": "passing cards",
    "sitout": "choosing who sits out", "play": "playing", "game_over": "game over"}
_SUFFIX_ALONE = ":ALONE"


def trump_words(trump: str | None) -> str:
    """``H`` -> ``hearts``, ``NT`` -> ``no trump``; ``-`` when there is none yet."""
    if not trump:
        return "-"
    return _TRUMPS.get(trump, trump.lower())


def bid_words(bid: str) -> str:
    """A bid as a player says it: ``order up, alone``, ``small pepper``, ``4``, ``3 high
    clubs`` (Eau Claire's ``3HC``), ``spades``."""
    alone = bid.endswith(_SUFFIX_ALONE)
    base = bid.removesuffix(_SUFFIX_ALONE)
    if base in _BIDS:
        words = _BIDS[base]
    elif base in SUITS:
        words = SUITS[base]
    elif base.endswith("HC") and base[:-2].isdigit():
        words = f"{base[:-2]} high clubs"
    else:
        words = base.lower() if base.isalpha() else base
    return f"{words}, alone" if alone else words


def contract_words(names: Sequence[str], contract: Mapping[str, Any]) -> str:
    """``4 in hearts by Di``, ``hearts, ordered up by Bob``, ``spades, called by Cy, alone``."""
    who = names[contract["seat"]] if 0 <= contract["seat"] < len(names) else "?"
    base = str(contract["bid"]).removesuffix(_SUFFIX_ALONE)
    trump = trump_words(contract.get("trump"))
    if base == "ORDER_UP":
        text = f"{trump}, ordered up by {who}"
    elif base in SUITS:
        text = f"{trump}, called by {who}"
    elif contract.get("trump"):
        text = f"{bid_words(base)} in {trump} by {who}"
    else:
        text = f"{bid_words(base)} by {who}"
    if contract.get("alone"):
        text += ", alone"
    if contract.get("forced"):
        text += " (stuck: the dealer had to bid)"
    return text


def card_words(card: str | None) -> str:
    """``10H`` -> ``10 of hearts``, ``JC'`` -> ``jack of clubs (second copy)``."""
    if not card:
        return "a card nobody saw"
    copy = card.endswith("'")
    core = card.rstrip("'?")
    if core == "JOKER":
        text = "the joker"
    else:
        rank, suit = core[:-1], core[-1]
        text = f"{_RANKS.get(rank, rank)} of {SUITS.get(suit, suit)}"
    return text + (" (second copy)" if copy else "")


def revoke_words(names: Sequence[str], revoke: Mapping[str, Any]) -> str:
    """``Ann revoked in trick 3 (did not follow hearts), proven in trick 4``."""
    who = names[revoke["seat"]]
    if revoke.get("proof") == "hand":
        how = "known from the hand"
    else:
        how = f"proven in trick {revoke['proven_in']}"
    return f"{who} revoked in trick {revoke['trick']} (did not follow {revoke['suit']}), {how}"


def event_words(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """One engine event (``Event.to_json()``) as a sentence."""
    def who(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "someone"

    kind = event.get("type")
    seat = who(event.get("seat"))
    if kind == "hand_started":
        return f"hand {event['hand_number']}: {who(event['dealer'])} deals"
    if kind == "dealt":
        return f"{who(event['dealer'])} deals from the shuffle"
    if kind == "card_scanned":
        return f"{seat} scans a card"
    if kind == "up_card":
        return f"the up-card is the {card_words(event['card'])}"
    if kind == "bid":
        return f"{seat}: {bid_words(event['bid'])}"
    if kind == "pass":
        return f"{seat} passes"
    if kind == "call":
        return f"{seat} calls {bid_words(event['call'])}"
    if kind == "auction_won":
        forced = " (stuck)" if event.get("forced") else ""
        return f"{seat} wins the auction: {bid_words(event['bid'])}{forced}"
    if kind == "passed_out":
        return f"everyone passed: hand {event['hand_number']} is thrown in"
    if kind == "trump":
        return f"{seat} makes {trump_words(event['trump'])} trump"
    if kind == "exchange":
        return _exchange_words(event, who)
    if kind == "sit_out":
        return f"{seat} {'sits out' if event.get('out') else 'plays'}"
    if kind == "card_played":
        return f"{seat} plays the {card_words(event['card'])}"
    if kind == "revoke":
        return revoke_words(names, event)
    if kind == "trick_won":
        return f"{who(event['winner'])} takes trick {event['trick']}"
    if kind == "hand_scored":
        return f"hand {event['hand_number']}: {event.get('detail', '')}".rstrip(": ")
    if kind == "game_over":
        return "game over"
    return f"{seat}: {str(kind).replace('_', ' ')}"


def _exchange_words(event: Mapping[str, Any], who: Any) -> str:
    card = event.get("card")
    if event.get("giver") == STOCK:
        what = f"the {card_words(card)}" if card else "the up-card"
        return f"{who(event['receiver'])} picks up {what}"
    if event.get("receiver") == STOCK:
        what = f"the {card_words(card)}" if card else "a card"
        return f"{who(event['giver'])} discards {what}"
    what = f"the {card_words(card)}" if card else "a card"
    return f"{who(event['giver'])} passes {what} to {who(event['receiver'])}"


def action_words(action: Mapping[str, Any], names: Sequence[str]) -> str:
    """One action (``Action.to_json()``) as a sentence: "East (Bob) played the king of
    diamonds", "North (Ann) bid 4". ``names``: what to call each seat."""
    seat = action.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"
    kind = action.get("type")
    card = card_words(action["card"]) if action.get("card") is not None else None
    if kind == "play":
        return f"{who} played the {card}"
    if kind == "scan":
        return f"{who} showed the {card} (hand scan)"
    if kind == "turn_up":
        return f"{who} turned up the {card}"
    if kind == "bid":
        return f"{who} bid {bid_words(str(action.get('bid')))}"
    if kind == "pass":
        return f"{who} passed"
    if kind == "trump":
        return f"{who} named {trump_words(action.get('trump'))}"
    if kind == "exchange":
        return f"{who} passed a card" + (f": the {card}" if card else "")
    if kind == "sit_out":
        return f"{who} sat out" if action.get("out", True) else f"{who} chose to play"
    if kind == "call":
        return f"{who} called {bid_words(str(action.get('call')))}"
    if kind == "deal":
        return f"{who} dealt"
    return f"{who}: {str(kind).replace('_', ' ')}"


def phase_words(phase: object) -> str:
    """A table's phase as a director says it: "bidding", "playing"."""
    if phase in PHASES:
        return _PHASES[phase]
    return str(phase or "no game").replace("_", " ")

"""The counters one scored hand adds, per player and per partnership (docs/stats.md defines
each one in the club's words).

``hand_counts(facts)`` returns ``{(name, partner): {stat: amount}}``: ``partner`` is ``""``
for the player's own counters, else the partner's name (a partnership is counted once, under
its two names in alphabetical order of their keys). Names are keys (casefolded), as the
journal spells them; ``players.roster`` gathers a player's names when reading. Everything
here is a sum, so counting hands in any order (live, as they score, or in a rebuild from the
journals) gives the same counters.
"""

from __future__ import annotations

from collections import defaultdict

from tricktable.players.roster import name_key
from tricktable.rules.spades import BLIND_NIL, NIL
from tricktable.stats.facts import HandFacts

__all__ = ["hand_counts", "Counts", "bid_level"]

Counts = dict[tuple[str, str], dict[str, int]]

NIL_BIDS = {NIL: "nil", BLIND_NIL: "blind_nil"}


def bid_level(facts: HandFacts, bid: str) -> str:
    """The level a contract is counted under: the bid itself in the Bid Euchre family
    (``4``, ``PEPPER:SMALL`` ...); in Euchre ``order_up`` (round one) or ``call`` (round two),
    going alone or not."""
    if facts.family == "euchre":
        return "order_up" if bid.startswith("ORDER_UP") else "call"
    return bid


def _contract_game(facts: HandFacts, own: dict[int, dict[str, int]],
                   side: dict[int, dict[str, int]]) -> None:
    """Bid Euchre family and Euchre: one contract per hand, held by a bidder."""
    contract = facts.contract
    if contract is None:
        return
    bidder = contract["seat"]
    makers = facts.side_of(bidder)
    taken = facts.side_tricks(makers)
    made = taken >= contract["need"]
    outcome = "made" if made else "set"
    level = bid_level(facts, contract["bid"])
    mine = own[bidder]
    for stat in ("declared", f"declared:{outcome}", f"bid:{level}", f"bid:{level}:{outcome}",
                 f"trump:{contract['trump']}"):
        mine[stat] += 1
    if contract["trump"] == "NT":
        mine["notrump"] += 1
        mine[f"notrump:{outcome}"] += 1
    if contract["bid"].startswith("PEPPER"):
        mine["pepper"] += 1
        mine[f"pepper:{outcome}"] += 1
    if contract.get("alone"):
        mine["alone"] += 1
        mine[f"alone:{outcome}"] += 1
    mine["bidder_hands"] += 1
    mine["bidder_tricks"] += taken
    hand_size = sum(facts.tricks)
    for number, seats in enumerate(facts.sides):
        counts = side[number]
        if number == makers:
            counts["contracts"] += 1
            counts["made" if made else "set_suffered"] += 1
            if facts.family == "euchre" and taken == hand_size:
                counts["march"] += 1
        else:
            counts["defended"] += 1
            if not made:
                counts["set_inflicted"] += 1
        for seat in seats:
            if seat != bidder and number != makers:
                own[seat]["defender_hands"] += 1
                own[seat]["defender_tricks"] += facts.side_tricks(number)


def _spades(facts: HandFacts, own: dict[int, dict[str, int]],
            side: dict[int, dict[str, int]]) -> None:
    """Spades: every player bids; a side's contract is its players' bids other than nil."""
    bids = dict(facts.bids)
    outcomes: dict[int, str] = {}
    for number, seats in enumerate(facts.sides):
        contract = sum(int(bids[s]) for s in seats if bids.get(s) not in NIL_BIDS)
        taken = facts.side_tricks(number)
        counts = side[number]
        if contract:
            outcome = "made" if taken >= contract else "set"
            outcomes[number] = outcome
            counts["contracts"] += 1
            if outcome == "set":
                counts["set_suffered"] += 1
            else:
                counts["made"] += 1
                counts["bags"] += taken - contract
    for number, _seats in enumerate(facts.sides):
        if any(outcomes.get(other) == "set" for other in outcomes if other != number):
            side[number]["set_inflicted"] += 1
    for seat, bid in bids.items():
        mine = own[seat]
        if bid in NIL_BIDS:
            kind = NIL_BIDS[bid]
            outcome = "made" if facts.tricks[seat] == 0 else "set"
            mine[kind] += 1
            mine[f"{kind}:{outcome}"] += 1
        else:
            outcome = outcomes[facts.side_of(seat)]
            mine[f"bid:{bid}"] += 1
            mine[f"bid:{bid}:{outcome}"] += 1


def hand_counts(facts: HandFacts) -> Counts:
    """The counters this hand adds (see the module docstring)."""
    own: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    side: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    if facts.family == "spades":
        _spades(facts, own, side)
    else:
        _contract_game(facts, own, side)
    for seat, _trick, _suit, _how, _proven in facts.revokes:
        own[seat]["revokes"] += 1
    for number in range(len(facts.sides)):
        counts = side[number]
        counts["hands"] += 1
        counts["points"] += facts.deltas[number]
        counts["side_tricks"] += facts.side_tricks(number)
    out: Counts = {}
    for seat, name in enumerate(facts.players):
        number = facts.side_of(seat)
        mine = dict(side[number]) | dict(own[seat])
        mine["tricks"] = facts.tricks[seat]
        out[(name_key(name), "")] = {k: v for k, v in mine.items() if v}
    for number, seats in enumerate(facts.sides):
        if len(seats) == 2:
            a, b = sorted(name_key(facts.players[s]) for s in seats)
            out[(a, b)] = {k: v for k, v in side[number].items() if v}
    return out

"""An independent recount of the statistics from the raw journal actions.

It does not use the engine, the hand-history replay or ``tricktable.stats``: it walks each
game's journaled action list (the JSON the tables stored), splits it into hands, works out
who won each trick and who revoked with a few lines of its own card rules, and counts. The
rules it needs, in the project's words:

- Euchre and Bid Euchre: the jack of trump (right bower) is the best card, then the other jack
  of the same colour (left bower, a trump); then A K Q 10 9 of trump; no trump: plain ranks.
  ("Euchre", section "Making trump"; "Bid Euchre", "Single Deck Bid Euchre").
- Spades: spades are trump; A high ("Spades", section "Play").
- A trick is won by the highest trump, else the highest card of the suit led.
- A player who holds a card of the suit led must play one; a play off suit while holding one
  is a revoke (hands are scanned at the deal, so what each seat holds is known).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
PARTNER_SUIT = {"S": "C", "C": "S", "H": "D", "D": "H"}


def split(card: str) -> tuple[str, str]:
    return card[:-1], card[-1]


def effective_suit(card: str, trump: str | None, bowers: bool = True) -> str:
    rank, suit = split(card)
    if bowers and trump in PARTNER_SUIT and rank == "J" and suit == PARTNER_SUIT[trump]:
        return trump  # the left bower
    return suit


def power(card: str, led: str, trump: str | None, bowers: bool = True) -> int:
    rank, suit = split(card)
    eff = effective_suit(card, trump, bowers)
    if bowers and trump in PARTNER_SUIT and rank == "J" and eff == trump:
        return 300 if suit == trump else 299
    if eff == trump:
        return 200 + RANKS.index(rank)
    if eff == led:
        return 100 + RANKS.index(rank)
    return 0


class Hand:
    def __init__(self) -> None:
        self.held: dict[int, list[str]] = defaultdict(list)
        self.bids: list[tuple[int, str]] = []
        self.trump: str | None = None
        self.up: str | None = None
        self.out: set[int] = set()
        self.plays: list[tuple[int, str]] = []
        self.tricks: Counter[int] = Counter()
        self.revokes: Counter[int] = Counter()


def hands_of(family: str, actions: list[dict[str, Any]]) -> list[Hand]:
    """The finished hands of one game (thrown-in and unfinished hands left out)."""
    done: list[Hand] = []
    hand = Hand()
    for a in actions:
        kind = a["type"]
        if kind in ("scan", "turn_up", "deal") and (hand.bids or hand.plays):
            hand = Hand()  # the last one was thrown in
        if kind == "scan":
            hand.held[a["seat"]].append(a["card"])
        elif kind == "turn_up":
            hand.up = a["card"]
        elif kind == "bid":
            hand.bids.append((a["seat"], a["bid"]))
        elif kind == "pass":
            hand.bids.append((a["seat"], "PASS"))
        elif kind == "trump":
            hand.trump = a["trump"]
        elif kind == "sit_out" and a["out"]:
            hand.out.add(a["seat"])
        elif kind == "exchange":
            _exchange(family, hand, a["seat"], a["card"])
        elif kind == "play":
            _play(family, hand, a["seat"], a["card"])
            if _finished(family, hand):
                done.append(hand)
                hand = Hand()
    return done


def contract(family: str, hand: Hand) -> tuple[int, str] | None:
    bids = [(s, b) for s, b in hand.bids if b != "PASS"]
    return bids[-1] if bids and family != "spades" else None


def _trump(family: str, hand: Hand) -> str | None:
    if family == "spades":
        return "S"
    if family == "euchre" and hand.trump is None:
        won = contract(family, hand)
        if won is not None:
            bid = won[1].removesuffix(":ALONE")
            return split(hand.up)[1] if bid == "ORDER_UP" and hand.up else bid
    return None if hand.trump == "NT" else hand.trump


def _partner(seat: int) -> int:
    return (seat + 2) % 4


def _exchange(family: str, hand: Hand, seat: int, card: str) -> None:
    if family == "euchre":  # the dealer takes the up-card and discards
        hand.held[seat].append(hand.up or "")
        hand.held[seat].remove(card)
        return
    hand.held[seat].remove(card)
    hand.held[_partner(seat)].append(card)  # pepper: between the bidder and the partner


def _alone(family: str, hand: Hand) -> set[int]:
    won = contract(family, hand)
    if won is None:
        return set(hand.out)
    seat, bid = won
    alone = bid.startswith("PEPPER") or bid.endswith(":ALONE")
    return set(hand.out) | ({_partner(seat)} if alone else set())


def _play(family: str, hand: Hand, seat: int, card: str) -> None:
    trump = _trump(family, hand)
    bowers = family != "spades"

    def suit_of(c: str) -> str:
        return effective_suit(c, trump, bowers)

    players = 4 - len(_alone(family, hand))
    in_trick = len(hand.plays) % players
    trick = hand.plays[len(hand.plays) - in_trick:]
    if trick:
        led = suit_of(trick[0][1])
        if suit_of(card) != led and any(suit_of(c) == led for c in hand.held[seat] if c != card):
            hand.revokes[seat] += 1
    if card in hand.held[seat]:
        hand.held[seat].remove(card)
    hand.plays.append((seat, card))
    if in_trick + 1 == players:
        trick = hand.plays[-players:]
        led = suit_of(trick[0][1])
        winner = max(trick, key=lambda p: power(p[1], led, trump, bowers))[0]
        hand.tricks[winner] += 1


def _finished(family: str, hand: Hand) -> bool:
    players = 4 - len(_alone(family, hand))
    per_seat = {"spades": 13, "euchre": 5, "bid-euchre": 6}[family]
    return len(hand.plays) == per_seat * players


def recount(family: str, games: list[tuple[list[str], list[dict[str, Any]]]]
            ) -> dict[str, Counter[str]]:
    """Per player (name as in the journal, casefolded): the counters the recount can make."""
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for players, actions in games:
        for hand in hands_of(family, actions):
            for seat, name in enumerate(players):
                mine = out[name.casefold()]
                mine["hands"] += 1
                mine["tricks"] += hand.tricks[seat]
                if hand.revokes[seat]:
                    mine["revokes"] += hand.revokes[seat]
            if family == "spades":
                _spades(hand, players, out)
            else:
                _contract(family, hand, players, out)
    return out


def _side_tricks(hand: Hand, seat: int) -> int:
    return hand.tricks[seat] + hand.tricks[_partner(seat)]


def _contract(family: str, hand: Hand, players: list[str], out: dict[str, Counter[str]]) -> None:
    won = contract(family, hand)
    assert won is not None, "a finished hand has a contract"
    seat, bid = won
    if family == "euchre":
        need, level = 3, ("order_up" if bid.startswith("ORDER_UP") else "call")
    else:
        need, level = (6 if bid.startswith("PEPPER") else int(bid)), bid
    made = _side_tricks(hand, seat) >= need
    outcome = "made" if made else "set"
    bidder = out[players[seat].casefold()]
    bidder["declared"] += 1
    bidder[f"declared:{outcome}"] += 1
    bidder[f"bid:{level}:{outcome}"] += 1
    bidder[f"trump:{_trump(family, hand) or 'NT'}"] += 1
    for other in range(4):
        mine = out[players[other].casefold()]
        if other in (seat, _partner(seat)):
            mine["set_suffered"] += not made
        else:
            mine["set_inflicted"] += not made


def _spades(hand: Hand, players: list[str], out: dict[str, Counter[str]]) -> None:
    bids = dict(hand.bids)
    for seat, bid in bids.items():
        mine = out[players[seat].casefold()]
        if bid in ("NIL", "BLINDNIL"):
            kind = "nil" if bid == "NIL" else "blind_nil"
            mine[f"{kind}:{'made' if hand.tricks[seat] == 0 else 'set'}"] += 1
            continue
        side = (seat, _partner(seat))
        contract_ = sum(int(bids[s]) for s in side if bids[s] not in ("NIL", "BLINDNIL"))
        outcome = "made" if _side_tricks(hand, seat) >= contract_ else "set"
        mine[f"bid:{bid}:{outcome}"] += 1
    for seat, name in enumerate(players):  # a side's contract: its bids other than nil
        side = (seat, _partner(seat))
        mine_bid = sum(int(bids[s]) for s in side if bids[s] not in ("NIL", "BLINDNIL"))
        theirs = [o for o in range(4) if o not in side]
        their_bid = sum(int(bids[s]) for s in theirs if bids[s] not in ("NIL", "BLINDNIL"))
        if mine_bid and _side_tricks(hand, seat) < mine_bid:
            out[name.casefold()]["set_suffered"] += 1
        if their_bid and _side_tricks(hand, theirs[0]) < their_bid:
            out[name.casefold()]["set_inflicted"] += 1

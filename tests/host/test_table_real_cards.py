"""Real cards at a physical table (hands not known to the engine until tapped).

The up-card: the bidding waits for it, and the table says how to give it.

Euchre (“Euchre”, section “Making trump”-399 and the auction passage at line 137: the eldest 'may
either "order it up" ... or "turn it down"'), Buck Euchre / Dirty Clubs (“Bid Euchre”, section “Buck”
Euchre: 'the top card, which is flipped face up. If this face-up card is a club ... there is
no bidding') and Eau Claire Clubs (“Bid Euchre”, section “Eau Claire Clubs”, “Dealing”: 'flips the top one
up — this is the "up-card". If the up-card is a club, then clubs are trump ... and no bidding
occurs') all bid on the up-card, so a bid or pass before it is turned is refused; the dealer
turns it by tapping it on the dealer's pad (the dealer's first card of the deal).

Eau Claire's calls (“Bid Euchre”, section “Eau Claire Clubs”, “Bottoms and Misdeal”) show the cards: the
caller taps the five cards on the pad, then the call's token.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from tricktable.cards import parse_card
from tricktable.clubfile import TableConfig
from tricktable.deckkit.decks import Registry
from tricktable.engine import Engine
from tricktable.engine.actions import Pass, ScanCard, TurnUp
from tricktable.serve.table import TableSession
from tricktable.sim.kit import Kit
from tricktable.sim.table_sim import deck_cards

pytestmark = pytest.mark.timeout(60)

UP_CARD_GAMES = ("euchre", "buck-euchre", "eau-claire-clubs")
PLAYERS = ("N", "E", "S", "W")


@contextmanager
def table(variant: str) -> Iterator[tuple[TableSession, Kit]]:
    """A four-seat table of ``variant`` (dealer seat 0, board ``b{seat}`` pad 0) and its kit."""
    config = TableConfig(id="t", variant=variant, options={}, players=PLAYERS, dealer=0,
                         seed=3, pads={(f"b{s}", 0): s for s in range(4)})
    setup = {"variant": variant, "options": {}, "dealer": 0, "seed": 3, "players": list(PLAYERS)}
    with Registry(":memory:") as registry:
        kit = Kit.enroll(registry, 0, deck_cards(setup), card_deck=1, token_deck=2)
        session = TableSession(config, registry)
        assert session.start_game().ok
        yield session, kit


@pytest.mark.parametrize("variant", UP_CARD_GAMES)
def test_no_bid_or_pass_before_the_up_card(variant: str) -> None:
    """The auction is on the up-card: before it is turned the engine offers no bid and
    refuses one, changing nothing."""
    eng = Engine.new(variant, n_players=4, seed=1, dealer=0)
    first = eng.state.variant.first_bidder(eng.state)
    before = eng.public_state()
    out = eng.apply(Pass(first))
    assert not out.ok and out.code == "up_card_first" and "up-card" in out.reason
    assert eng.public_state() == before
    assert not any(isinstance(a, Pass) for a in eng.legal_actions())
    assert eng.apply(TurnUp(0, parse_card("9H"), 0)).ok
    assert eng.apply(Pass(first)).ok


@pytest.mark.parametrize("variant", UP_CARD_GAMES)
def test_scanned_hands_wait_for_the_up_card(variant: str) -> None:
    """Every hand scanned but no up-card: still the deal; the turn-up opens the bidding."""
    eng = Engine.new(variant, n_players=4, seed=1, dealer=0)
    pack = deck_cards({"variant": variant, "options": {}, "dealer": 0, "seed": 1,
                       "players": list(PLAYERS)})
    up, *hands = ["9H", *(c for c in pack if c != "9H")]
    for i, name in enumerate(hands[:20]):
        assert eng.apply(ScanCard(i % 4, parse_card(name), 0)).ok
    assert eng.phase == "deal"
    assert eng.apply(TurnUp(0, parse_card(up), 0)).ok
    assert eng.phase == "bidding"


@pytest.mark.parametrize("variant", UP_CARD_GAMES)
def test_table_refusal_says_tap_the_up_card_on_the_dealers_pad(variant: str) -> None:
    with table(variant) as (session, kit):
        first = session.engine.state.variant.first_bidder(session.engine.state)
        before = copy.deepcopy(session.state())
        result = session.on_pad(f"b{first}", 0, kit.tokens["PASS"].uid, None)
        assert not result.ok and result.code == "up_card_first"
        assert "tap the turned-up card on the dealer's pad first (N deals)" in result.reason
        assert session.state() == before


@pytest.mark.parametrize("variant", UP_CARD_GAMES)
def test_the_dealers_first_card_is_the_up_card(variant: str) -> None:
    """At the table the dealer turns the up-card by tapping it on the dealer's pad (before
    scanning the dealer's own hand); other seats' cards are their hands; then bids open."""
    with table(variant) as (session, kit):
        scan = session.on_pad("b1", 0, kit.card("9S").uid, None)
        assert scan.ok and scan.action["type"] == "scan"
        up = session.on_pad("b0", 0, kit.card("10H").uid, None)
        assert up.ok and up.action == {"type": "turn_up", "seat": 0, "card": "10H", "copy": 0}
        assert session.state()["up_card"] == "10H"
        own = session.on_pad("b0", 0, kit.card("AS").uid, None)
        assert own.ok and own.action["type"] == "scan"
        first = session.engine.state.variant.first_bidder(session.engine.state)
        assert session.on_pad(f"b{first}", 0, kit.tokens["PASS"].uid, None).ok


def test_eau_claire_call_by_taps_the_hand_then_the_token() -> None:
    """Bottoms: 'If a player's hand contains 3 cards of the same rank, that player may call
    Bottoms'; with real cards the token alone is refused with how to show the hand."""
    with table("eau-claire-clubs") as (session, kit):
        assert session.on_pad("b0", 0, kit.card("10H").uid, None).action["type"] == "turn_up"
        early = session.on_pad("b2", 0, kit.tokens["BOTTOMS"].uid, None)
        assert not early.ok and "scans all 5 cards on the pad first, then calls BOTTOMS" \
            in early.reason
        for name in ("9S", "9H", "9D", "AH", "KH"):
            assert session.on_pad("b2", 0, kit.card(name).uid, None).ok
        called = session.on_pad("b2", 0, kit.tokens["BOTTOMS"].uid, None)
        assert called.ok and called.action == {"type": "call", "seat": 2, "call": "BOTTOMS"}
        assert {"type": "call", "seat": 2, "call": "BOTTOMS"} in called.events

"""The engine as a table: known, scanned and unknown hands; revokes in strict and record
mode (DESIGN.md, Revokes); double-deck copies (DESIGN.md, Identity of a card); serialising
actions and events; refusals that change nothing. Bid Euchre is the game played here."""

from __future__ import annotations

import json
import random

import pytest
from tricktable.cards import parse_card, parse_card_copy
from tricktable.engine import Engine, EngineError
from tricktable.engine.actions import (
    ACTION_TYPES,
    ActionError,
    Bid,
    Call,
    Deal,
    DeclareTrump,
    Exchange,
    Pass,
    Play,
    ScanCard,
    SitOut,
    TurnUp,
    action_from_json,
)
from tricktable.rules.bid_euchre import BidEuchre
from variantkit import ok, refused, table


def play(eng: Engine, *names: str) -> list[dict]:
    """Play cards in turn order; the events of the last play as JSON."""
    out = None
    for name in names:
        card, copy = parse_card_copy(name)
        out = ok(eng, Play(eng.to_act, card, None if eng.state.deck.copies == 1 else copy))  # type: ignore[arg-type]
    return [e.to_json() for e in out.events]  # type: ignore[union-attr]


def unknown_hands(options: dict | None = None) -> Engine:
    """A table where nobody scanned: the first bid starts the hand. Seat 1 holds 4 NT."""
    eng = Engine.new("bid-euchre", options=options, players=["N", "E", "S", "W"])
    ok(eng, Bid(1, "4"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "NT"))
    return eng


# -- setting up a game -------------------------------------------------------------------

def test_new_checks_seats_dealer_and_variant() -> None:
    with pytest.raises(EngineError, match="played by 4 players, not 3"):
        Engine.new("bid-euchre", players=["a", "b", "c"])
    with pytest.raises(EngineError, match="dealer must be a seat 0..3"):
        Engine.new("bid-euchre", dealer=4)
    with pytest.raises(KeyError, match="unknown variant 'bridge'"):
        Engine.new("bridge")


def test_public_state_has_the_contract_keys() -> None:
    """docs/architecture.md, the engine contract: the public_state() keys."""
    state = Engine.new("bid-euchre", players=["Ann", "Bob", "Cy", "Di"]).public_state()
    for key in ("variant options seats partnerships dealer phase to_act hand_number bids "
                "contract trump trick tricks_won tricks scores sides game_over winner revokes "
                "last_hand").split():
        assert key in state
    assert state["sides"] == [{"name": "Ann & Cy", "seats": [0, 2]},
                              {"name": "Bob & Di", "seats": [1, 3]}]
    assert state["phase"] == "deal" and state["to_act"] == 0
    json.dumps(state)


def test_deal_is_deterministic_from_the_seed() -> None:
    a, b, c = (Engine.new("bid-euchre", seed=s) for s in (5, 5, 6))
    for eng in (a, b, c):
        ok(eng, Deal(0))
    hands = [[e.known_hand(s) for s in range(4)] for e in (a, b, c)]
    assert hands[0] == hands[1] != hands[2]


@pytest.mark.parametrize("seed", range(10))
def test_a_seed_deals_what_random_shuffle_deals(seed: int) -> None:
    """The engine's shuffle draws exactly as ``random.Random(seed).shuffle`` of the deck did,
    so a journal that stores a seed deals the same hands; one card at a time from the
    dealer's left."""
    eng = Engine.new("bid-euchre", seed=seed)
    ok(eng, Deal(0))
    cards = list(eng.state.deck.physical)
    random.Random(seed).shuffle(cards)
    for seat in range(4):
        dealt = sorted(cards[(seat - 1) % 4::4])
        assert eng.known_hand(seat) == [eng.state.card_name(p) for p in dealt]


def test_deal_only_by_the_dealer_and_not_after_scanning() -> None:
    """Seed 001, Single Deck Bid Euchre: the dealer deals ('Cards are dealt one at a time to
    each player ... starting with the player to the dealer's left'); once a hand is being
    scanned (DESIGN.md, Revokes: real cards already dealt) the engine may not deal again."""
    eng = Engine.new("bid-euchre", dealer=2)
    refused(eng, Deal(1), "not_your_turn")
    ok(eng, ScanCard(0, parse_card("AS")))
    refused(eng, Deal(2), "wrong_phase")


# -- scanned and unknown hands -----------------------------------------------------------

def test_scanning_every_hand_starts_the_bidding() -> None:
    """Seed 001, Single Deck Bid Euchre: 'Each player receives six cards' (a seventh is
    refused); DESIGN.md, Revokes: 'each player taps their cards on their pad before bidding',
    so the last card scanned opens the bidding."""
    eng = table("bid-euchre", ["AS KS QS JS 10S 9S", "AH KH QH JH 10H 9H",
                               "AC KC QC JC 10C 9C", "AD KD QD JD 10D"])
    assert eng.phase == "deal"
    refused(eng, ScanCard(0, parse_card("9D")), "hand_full")
    refused(eng, ScanCard(3, parse_card("AS")), "already_scanned")
    out = ok(eng, ScanCard(3, parse_card("9D")))
    assert [e.TYPE for e in out.events] == ["card_scanned"] and eng.phase == "bidding"


def test_unknown_hands_play_a_whole_hand() -> None:
    """DESIGN.md, Revokes: 'hands unknown' - the engine follows the cards as they appear."""
    eng = unknown_hands()
    assert eng.phase == "play" and eng.to_act == 1
    assert len(eng.legal_actions()) == 24
    play(eng, "AH", "9H", "10H", "JH")
    assert eng.state.tricks[0][2] == 1
    refused(eng, Play(1, parse_card("AH")), "card_already_played")
    rest = ["KH QH 9S AS", "KS 10S JS QS", "AD KD QD JD", "AC KC QC JC", "10D 9D 10C 9C"]
    for row in rest:
        play(eng, *row.split())
    assert eng.state.hand_number == 2 and eng.state.last_hand["tricks_won"] == [0, 6, 0, 0]  # type: ignore[index]
    assert eng.state.scores == [-6, 6]


def test_partly_scanned_hand_refuses_a_card_known_elsewhere() -> None:
    eng = Engine.new("bid-euchre")
    ok(eng, ScanCard(3, parse_card("AH")))
    ok(eng, Bid(1, "4"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "S"))
    out = refused(eng, Play(1, parse_card("AH")), "card_not_in_hand")
    assert "AH is in Seat 4's hand" in out.reason


def test_wrong_phase_and_turn_are_refused() -> None:
    """Seed 001, Single Deck Bid Euchre, Leading, taking tricks, and scoring: 'Going
    clockwise, the other players each play a card' (out of turn is refused); and actions of
    another phase (bids in play, calls Bid Euchre has not got) are refused by name."""
    eng = unknown_hands()
    refused(eng, Play(2, parse_card("AH")), "not_your_turn")
    refused(eng, Bid(1, "5"), "wrong_phase")
    refused(eng, Exchange(1, parse_card("AH")), "wrong_phase")
    refused(eng, SitOut(1), "wrong_phase")
    refused(eng, Call(1, "BOTTOMS"), "unknown_call")
    refused(eng, Play(9, parse_card("AH")), "bad_seat")
    refused(eng, TurnUp(0, parse_card("AH")), "wrong_phase")


# -- revokes -------------------------------------------------------------------------------

def test_strict_refuses_a_provable_revoke_record_accepts_it() -> None:
    """DESIGN.md, Revokes: 'hands scanned at the deal: an illegal play is known the instant
    it is made'; strict refuses it, record accepts it and applies the penalty."""
    hands = ["9H AS KS QS JS 10S", "AH KH QH JH 10H JD", "AC KC QC JC 10C 9C",
             "AD KD QD 10D 9D 9S"]
    strict = table("bid-euchre", hands)
    ok(strict, Bid(1, "4"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "NT"))
    play(strict, "AH", "9C", "9D")
    out = refused(strict, Play(0, parse_card("AS")), "must_follow_suit")
    assert out.reason == "Seat 1 must follow hearts"

    record = table("bid-euchre", hands, options={"revoke_mode": "record"})
    ok(record, Bid(1, "4"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "NT"))
    events = play(record, "AH", "9C", "9D", "AS")
    revoke = next(e for e in events if e["type"] == "revoke")
    assert revoke == {"type": "revoke", "seat": 0, "trick": 1, "suit": "hearts",
                      "proof": "hand", "proven_in": 1, "accepted": True}
    assert record.public_state()["revokes"][0]["seat"] == 0
    while record.state.hand_number == 1:
        ok(record, record.legal_actions()[0])
    last = record.state.last_hand
    assert "revoke by Seat 1 in trick 1: -6" in last["detail"]  # type: ignore[index]


@pytest.mark.parametrize("mode", ["strict", "record"])
def test_unknown_hands_revoke_is_proven_when_the_suit_appears(mode: str) -> None:
    """DESIGN.md, Revokes: 'a player who showed out of a suit and later plays that suit has
    revoked; the host says so the instant the proof appears, naming the trick.'"""
    eng = unknown_hands({"revoke_mode": mode})
    play(eng, "AH", "9C", "9D", "9S")          # seat 0 shows out of hearts in trick 1
    play(eng, "KH", "10C", "10D")
    events = play(eng, "QH")                   # ... and plays a heart in trick 2
    revoke = next(e for e in events if e["type"] == "revoke")
    assert (revoke["seat"], revoke["trick"], revoke["proven_in"], revoke["proof"]) == \
        (0, 1, 2, "showed_out")
    assert eng.state.revokes[0]["suit"] == "hearts"


def test_showed_out_suit_is_not_offered_as_a_legal_play() -> None:
    """Seed 001, Single Deck Bid Euchre, Leading, taking tricks, and scoring: players 'must
    follow suit if possible', so a seat that showed out of hearts holds none: a heart from it
    is never offered (DESIGN.md, Revokes: 'a player who showed out of a suit')."""
    eng = unknown_hands()
    play(eng, "AH", "9C", "9D", "9S")
    play(eng, "KH", "10C", "10D")
    assert not any(a.card.suit is not None and a.card.suit.letter == "H"  # type: ignore[attr-defined]
                   for a in eng.legal_actions())


def test_record_mode_penalty_applies_at_scoring_for_proven_revokes() -> None:
    """The Bid Euchre passages name no revoke penalty; the option ``revoke_penalty`` (6, the
    set of “Bid Euchre”, section “Single Deck Bid Euchre”, “Leading”, taking tricks, and scoring: 'set back
    (loses) six points') is charged at the end of the hand in record mode (DESIGN.md,
    Revokes)."""
    eng = unknown_hands({"revoke_mode": "record"})
    play(eng, "AH", "9C", "9D", "9S", "KH", "10C", "10D", "QH")
    rest = ["JH 10H 9H JC", "AS KS QS JS", "AD KD QD JD", "AC KC 10S QC"]
    for row in rest:
        play(eng, *row.split())
    last = eng.state.last_hand
    assert "revoke by N in trick 1: -6" in last["detail"]  # type: ignore[index]


# -- double deck ---------------------------------------------------------------------------

class DoubleDeck(BidEuchre):
    """A 48-card test table: two copies of every card, twelve each."""

    name = "test-double-deck"
    deck_name = "48"
    cards_per_hand = 12
    bid_ladder = tuple(str(i) for i in range(1, 13))


def double_table() -> Engine:
    eng = Engine.new(DoubleDeck())
    ok(eng, Bid(1, "6"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "NT"))
    return eng


def test_double_deck_card_already_played_means_that_copy() -> None:
    """DESIGN.md: copy numbers matter in double-deck games."""
    eng = double_table()
    ok(eng, Play(1, parse_card("AS"), 0))
    refused(eng, Play(2, parse_card("AS"), 0), "card_already_played")
    ok(eng, Play(2, parse_card("AS"), 1))


def test_double_deck_bare_card_takes_an_unplayed_copy_and_first_played_wins() -> None:
    """DESIGN.md: 'of two identical cards played to one trick, the first played wins'. A bare
    card (copy unknown) is the first copy not yet seen; refused once both are played."""
    eng = double_table()
    events = None
    for seat, name in ((1, "KS"), (2, "AS"), (3, "AS"), (0, "9S")):
        events = ok(eng, Play(seat, parse_card(name))).events
    won = events[-1].to_json()  # type: ignore[index]
    assert won["winner"] == 2 and won["cards"] == ["KS", "AS", "AS'", "9S"]
    refused(eng, Play(2, parse_card("AS")), "card_already_played")
    refused(eng, Play(2, parse_card("AS"), 1), "card_already_played")


def test_single_deck_has_no_second_copy() -> None:
    eng = unknown_hands()
    refused(eng, Play(1, parse_card("AS"), 1), "card_not_in_deck")


# -- JSON ----------------------------------------------------------------------------------

@pytest.mark.parametrize("action", [
    Deal(0), ScanCard(1, parse_card("10H"), 1), TurnUp(0, parse_card("JOKER")),
    Bid(2, "PEPPER:SMALL"), Pass(3), DeclareTrump(1, "NT"), Exchange(1, None),
    Exchange(2, parse_card("AS"), 0), SitOut(1, False), Play(0, parse_card("9C")),
    Call(2, "TIME"),
])
def test_actions_round_trip_through_json(action) -> None:  # type: ignore[no-untyped-def]
    d = action.to_json()
    assert d["type"] in ACTION_TYPES
    assert action_from_json(json.loads(json.dumps(d))) == action


@pytest.mark.parametrize(("bad", "message"), [
    ([], "must be a JSON object"),
    ({"type": "fly"}, "unknown action type 'fly'"),
    ({"type": "play", "seat": 0}, "play: missing field 'card'"),
    ({"type": "play", "seat": 0, "card": "XX"}, "not a card: 'XX'"),
    ({"type": "play", "seat": "0", "card": "AS"}, "seat must be int"),
    ({"type": "play", "seat": -1, "card": "AS"}, "seat must be int"),
    ({"type": "play", "seat": 0, "card": "AS", "copy": 2}, "copy must be 0, 1 or null"),
    ({"type": "pass", "seat": 0, "bid": "3"}, "unexpected field"),
    ({"type": "sit_out", "seat": 0, "out": 1}, "out must be bool"),
])
def test_bad_json_actions_name_the_problem(bad, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ActionError, match=message):
        action_from_json(bad)


def test_events_serialise_with_a_type() -> None:
    eng = unknown_hands()
    events = play(eng, "AH", "9H", "10H", "JH")
    assert [e["type"] for e in events] == ["card_played", "trick_won"]
    assert events[1] == {"type": "trick_won", "trick": 1, "winner": 1, "leader": 1,
                         "cards": ["AH", "9H", "10H", "JH"]}


def test_partly_scanned_hand_must_follow_with_a_known_card() -> None:
    """DESIGN.md, Revokes: a scanned card of the suit led proves the seat can follow."""
    eng = Engine.new("bid-euchre")
    ok(eng, ScanCard(2, parse_card("9H")))
    ok(eng, Bid(1, "4"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "NT"))
    play(eng, "AH")
    refused(eng, Play(2, parse_card("AS")), "must_follow_suit")
    ok(eng, Play(2, parse_card("KH")))       # an unknown heart is fine too

"""Every variant can be played with taps alone: each non-card action the engine offers is a
token tap, read back by the table as exactly that action.

DESIGN.md: "a whole game can be played with taps alone" (bid, trump-suit and control tokens
are tagged chips); docs/rules/tokens.md lists the token of every action per variant. A game
driven by bots through ``TableSession`` taps (cards as card tags, everything else as token
tags) ends exactly as the same bots' game on the engine directly; a tap the rules do not
allow now is refused with a reason and changes nothing.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from tricktable.clubfile import TableConfig
from tricktable.deckkit.decks import Registry
from tricktable.engine import Engine
from tricktable.engine.actions import Action, Bid, Deal, Exchange, Pass, Play, ScanCard, TurnUp
from tricktable.rules import get_variant, list_variants
from tricktable.serve.table import TableSession, action_token, token_actions, token_tries
from tricktable.sim.bots import Bot
from tricktable.sim.kit import Kit
from tricktable.sim.table_sim import deck_cards

pytestmark = pytest.mark.timeout(120)

CARD_ACTIONS = (Play, ScanCard, TurnUp, Exchange)
# seven-handed five-handed plays the 56-card kind (two packs of eights to aces, “Bid Euchre”,
# Double Deck Bid Euchre, Variations)
CASES = [pytest.param(name, n)
         for name in list_variants() for n in get_variant(name).seat_counts]
# house rules that open more actions to a tap (besides time_limit_minutes: TIME), Eau Claire's calls
# with 'Ace No Face' on any hand, Buck Euchre's second round
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "eau-claire-clubs": [{"ace_no_face": "any", "calls_before": "own_bid"}],
    "buck-euchre": [{"second_round": True}],
}
HANDS = 8  # a game still on after this many hands is compared there (a complete hand)
MAX_ACTIONS = 1500  # the random walks stop here


def setup_for(variant: str, n: int, seed: int, options: dict[str, Any] | None = None) -> dict:
    return {"variant": variant, "options": options or {}, "dealer": 0, "seed": seed,
            "players": [f"P{s}" for s in range(n)]}


@contextmanager
def table(setup: dict[str, Any]) -> Iterator[tuple[TableSession, Kit]]:
    """A table session for ``setup`` with one board per seat (pad 0), and its enrolled kit."""
    n = len(setup["players"])
    config = TableConfig(id="t", variant=setup["variant"], options=setup["options"],
                         players=tuple(setup["players"]), dealer=setup["dealer"],
                         seed=setup["seed"], pads={(f"b{s}", 0): s for s in range(n)})
    with Registry(":memory:") as registry:
        kit = Kit.enroll(registry, 0, deck_cards(setup), card_deck=1, token_deck=2)
        session = TableSession(config, registry)
        assert session.start_game().ok
        yield session, kit


def tap(session: TableSession, kit: Kit, seat: int, name: str):
    """``seat`` places the tag called ``name`` (a printed card or a token) on its pad."""
    tag = kit.cards.get(name) or kit.tokens[name]
    return session.on_pad(f"b{seat}", 0, tag.uid, tag.record)


def tag_name(action: Action) -> str:
    """What a player puts on the pad for ``action``: the card, else the action's token."""
    if isinstance(action, CARD_ACTIONS):
        assert action.card is not None
        return str(action.card) + ("'" if action.copy == 1 else "")
    token = action_token(action)
    assert token is not None, f"no token makes {action.to_json()}"
    return token


def bot_step(engine: Engine, bots: list[Bot]) -> Action:
    """The dealer deals; otherwise the seat to act chooses, as the table's bots do."""
    legal = engine.legal_actions()
    deal = next((a for a in legal if isinstance(a, Deal)), None)
    if deal is not None:
        return deal
    seat = engine.to_act
    assert seat is not None
    return bots[seat].choose(engine.public_state(), engine.known_hand(seat), legal)


def bots_for(setup: dict[str, Any]) -> list[Bot]:
    return [Bot(s, setup["variant"], random.Random(setup["seed"] * 100 + s))
            for s in range(len(setup["players"]))]


def finished(engine: Engine) -> bool:
    """The game is over, or hand ``HANDS`` is complete (the next one is being dealt)."""
    return engine.phase == "game_over" or engine.state.hand_number > HANDS


def direct_game(setup: dict[str, Any]) -> Engine:
    engine = Engine.replay(setup, [])
    bots = bots_for(setup)
    while not finished(engine):
        assert engine.apply(bot_step(engine, bots)).ok
    return engine


@pytest.mark.parametrize(("variant", "n"), CASES)
def test_a_bot_game_by_taps_ends_as_the_engine_game(variant: str, n: int) -> None:
    """DESIGN.md, 'a whole game can be played with taps alone'."""
    setup = setup_for(variant, n, seed=7)
    direct = direct_game(setup)
    with table(setup) as (session, kit):
        bots = bots_for(setup)
        tokens = 0
        while not finished(session.engine):
            action = bot_step(session.engine, bots)
            result = tap(session, kit, action.seat, tag_name(action))
            assert result.ok, result.reason
            assert result.action == action.to_json()
            tokens += not isinstance(action, CARD_ACTIONS)
        assert session.actions == direct.actions
        assert session.engine.public_state() == direct.public_state()
        assert tokens > 0


def random_walk(setup: dict[str, Any], rng: random.Random) -> Iterator[tuple[Engine, Action]]:
    """States of a game played by random legal actions (the deal by the engine), and the
    action taken next in each: mostly a token action when there is one, often a pass (so
    auctions reach their later rounds)."""
    engine = Engine.replay(setup, [])
    while engine.phase != "game_over" and len(engine.actions) < MAX_ACTIONS:
        legal = engine.legal_actions()
        words = [a for a in legal if not isinstance(a, CARD_ACTIONS)]
        first = [a for a in words if isinstance(a, Deal)] or [
            a for a in words if isinstance(a, Pass) and rng.random() < 0.5]
        action = first[0] if first else rng.choice(
            words if words and rng.random() < 0.8 else legal)
        yield engine, action
        assert engine.apply(action).ok


def documented_tokens() -> dict[str, set[str]]:
    """The tokens of each variant in docs/rules/tokens.md, 'The tokens of each variant'."""
    text = (Path(__file__).parents[2] / "docs" / "rules" / "tokens.md").read_text()
    rows = re.findall(r"^\| ([a-z0-9-]+) \| ((?:`[A-Z0-9_:]+` ?)+) \|", text, re.M)
    return {name: set(re.findall(r"`([^`]+)`", tokens)) for name, tokens in rows}


@pytest.mark.parametrize("variant", list_variants())
def test_every_offered_action_has_one_token_that_means_it(variant: str) -> None:
    """docs/rules/tokens.md: every non-card action a variant offers is one tap, no two actions
    offered to a seat share a token (a tap is never ambiguous), and the doc lists exactly the
    tokens the variant offers (random games, every seat count, with the options that open
    more actions)."""
    offered_tokens: set[str] = set()
    option_sets = [{}, {"time_limit_minutes": 60}, *OPTION_SETS.get(variant, [])]
    for n in get_variant(variant).seat_counts:
        for k, options in enumerate(option_sets):
            for seed in range(4):
                setup = setup_for(variant, n, seed=seed * 10 + k, options=options)
                for engine, _ in random_walk(setup, random.Random(seed)):
                    legal = engine.legal_actions()
                    offered: dict[tuple[int, str], Action] = {}
                    for a in legal:
                        if isinstance(a, CARD_ACTIONS):
                            continue
                        token = tag_name(a)
                        assert token_tries(token, a.seat, legal)[0] == a
                        assert offered.setdefault((a.seat, token), a) == a, (
                            f"{token} is both {offered[(a.seat, token)]} and {a}")
                    offered_tokens |= {token for _, token in offered}
    assert offered_tokens == documented_tokens()[variant]


@pytest.mark.parametrize(("variant", "n"), CASES)
def test_random_games_by_taps_take_the_actions_tapped(variant: str, n: int) -> None:
    """Random legal play (mostly token actions) through the table: each tap is the action."""
    for seed in range(2):
        setup = setup_for(variant, n, seed=seed, options={"time_limit_minutes": 60})
        with table(setup) as (session, kit):
            for _, action in random_walk(setup, random.Random(seed)):
                result = tap(session, kit, action.seat, tag_name(action))
                assert result.ok and result.action == action.to_json(), result.reason


def test_the_score_display_asks_a_defender_to_sit_out_in_words() -> None:
    """Eau Claire's defenders choose to sit out or play: the display says whose choice it is
    as the players say it (``P2 TO SIT OUT``), as it says ``TO BID`` and ``TO PLAY``."""
    setup = setup_for("eau-claire-clubs", 4, seed=0)
    with table(setup) as (session, kit):
        for _, action in random_walk(setup, random.Random(0)):
            if session.engine.phase == "sitout":
                break
            assert tap(session, kit, action.seat, tag_name(action)).ok
        assert session.engine.phase == "sitout"
        assert session.display().lines[1] == f"P{session.engine.to_act} TO SIT OUT"


# --- refusals: specific, and nothing changes ------------------------------------------------

def refused(session: TableSession, kit: Kit, seat: int, token: str):
    before = copy.deepcopy(session.state())
    result = tap(session, kit, seat, token)
    assert not result.ok and result.code and result.reason.startswith(f"token {token}: ")
    assert session.state() == before
    return result


@contextmanager
def dealt(variant: str) -> Iterator[tuple[TableSession, Kit]]:
    """A four-handed table of ``variant`` whose dealer (seat 0) has dealt: seat 1 bids first."""
    with table(setup_for(variant, 4, seed=3)) as (session, kit):
        assert tap(session, kit, 0, "DEAL").ok
        yield session, kit


@pytest.fixture
def euchre() -> Iterator[tuple[TableSession, Kit]]:
    with dealt("euchre") as dealt_table:
        yield dealt_table


@pytest.fixture
def spades() -> Iterator[tuple[TableSession, Kit]]:
    with dealt("spades") as dealt_table:
        yield dealt_table


def test_a_bid_of_another_variant_is_refused_by_name(euchre) -> None:
    """“Euchre” (Euchre): the bidding is ordering up or naming a suit; 3HC is Eau Claire's."""
    result = refused(*euchre, 1, "BID:3HC")
    assert result.code == "unknown_bid"
    assert "'3HC' is not a bid in Euchre" in result.reason
    assert result.reason.endswith("P1 may tap ORDER_UP, ORDER_UP:ALONE, PASS")


def test_a_tap_out_of_turn_names_whose_turn_it_is(spades) -> None:
    result = refused(*spades, 3, "BID:4")
    assert result.code == "not_your_turn" and "it is P1's turn, not P3's" in result.reason


def test_naming_a_suit_in_the_first_round_is_refused_with_what_may_be_tapped(euchre) -> None:
    """Euchre's first round only orders up the turned card; a suit is named in the second."""
    result = refused(*euchre, 1, "TRUMP:S")
    assert result.reason.endswith("P1 may tap ORDER_UP, ORDER_UP:ALONE, PASS")


def test_a_token_of_no_use_in_this_variant_is_refused(spades) -> None:
    result = refused(*spades, 1, "HIGH")
    assert result.code == "unknown_bid" and "'HIGH' is not a bid in Spades" in result.reason


def test_a_token_out_of_phase_is_refused_by_the_engine(spades) -> None:
    session, kit = spades
    result = refused(session, kit, 1, "SIT_OUT")
    assert result.code == "wrong_phase"


def test_trump_token_names_the_suit_in_euchre_round_two_and_declares_it_in_bid_euchre(
        euchre) -> None:
    """“Euchre” (Euchre), second round: a player names any suit but the turned one; “Bid Euchre”, section “Single Deck Bid Euchre”: the high bidder declares trump."""
    session, kit = euchre
    for seat in (1, 2, 3, 0):
        assert tap(session, kit, seat, "PASS").ok
    named = next(a for a in session.engine.legal_actions() if isinstance(a, Bid))
    result = tap(session, kit, 1, tag_name(named))
    assert result.ok and result.action == {"type": "bid", "seat": 1, "bid": named.bid}
    with table(setup_for("bid-euchre", 4, seed=3)) as (session, kit):
        for seat, token in ((0, "DEAL"), (1, "BID:3"), (2, "PASS"), (3, "PASS"), (0, "PASS")):
            assert tap(session, kit, seat, token).ok
        result = tap(session, kit, 1, "TRUMP:S")
        assert result.ok and result.action == {"type": "trump", "seat": 1, "trump": "S"}


def test_pick_up_is_the_dealer_taking_up_the_turned_card(euchre) -> None:
    """“Euchre” (Euchre): the dealer 'takes it up'; the same bid as ordering it up."""
    session, kit = euchre
    for seat in (1, 2, 3):
        assert tap(session, kit, seat, "PASS").ok
    result = tap(session, kit, 0, "PICK_UP")
    assert result.ok and result.action == {"type": "bid", "seat": 0, "bid": "ORDER_UP"}


def test_table_controls_and_unknown_words_mean_no_action() -> None:
    assert token_actions("UNDO", 0) == token_actions("NEW_GAME", 0) == []
    assert token_actions("BID:99", 0) == []
    assert action_token(Bid(0, "BID:3")) is None


def test_a_call_allowed_out_of_turn_is_taken_from_any_seat() -> None:
    """“Bid Euchre”, section “Eau Claire Clubs”, “Bottoms”: 'a player must call Bottoms before anybody else
    bids/passes': the caller need not be next to bid."""
    for seed in range(200):
        setup = setup_for("eau-claire-clubs", 4, seed=seed)
        engine = Engine.replay(setup, [])
        engine.apply(Deal(0))
        st = engine.state
        callers = [s for s in range(4) if s != st.to_act
                   and "BOTTOMS" in st.variant.legal_calls(st, s, st.phase)]
        if callers:
            break
    else:
        pytest.fail("no deal in 200 gives a player other than the first bidder three of a kind")
    with table(setup) as (session, kit):
        assert tap(session, kit, 0, "DEAL").ok
        result = tap(session, kit, callers[0], "BOTTOMS")
        assert result.ok, result.reason
        assert result.action == {"type": "call", "seat": callers[0], "call": "BOTTOMS"}

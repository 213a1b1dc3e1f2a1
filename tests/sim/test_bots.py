"""Bots: every choice is legal (unless told to revoke), they bid from hand strength, and
they play sensibly. Games are played on the real engine."""

from __future__ import annotations

import random

import pytest
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, Deal, Pass, Play
from tricktable.rules import list_variants
from tricktable.sim.bots import Bot

MAX_STEPS = 5000


def play_game(variant: str, seed: int, revoke_rate: float = 0.0,
              options: dict | None = None) -> tuple[Engine, list]:
    """Bots play a whole game; returns the engine and every refused outcome."""
    eng = Engine.new(variant, options=options or {}, seed=seed, dealer=seed % 4)
    rng = random.Random(seed)
    bots = [Bot(s, variant, rng, revoke_rate) for s in range(len(eng.public_state()["seats"]))]
    refused = []
    for _ in range(MAX_STEPS):
        if eng.phase == "game_over":
            return eng, refused
        state = eng.public_state()
        if eng.phase == "deal":
            assert eng.apply(Deal(state["dealer"])).ok
            continue
        seat = eng.to_act
        action = bots[seat].choose(state, eng.known_hand(seat), eng.legal_actions())
        out = eng.apply(action)
        if not out.ok:  # the player takes the card back and follows suit after all
            refused.append((action, out))
            assert eng.public_state() == state, "a refused action changed the table"
            again = bots[seat].choose(state, eng.known_hand(seat), eng.legal_actions(), honest=True)
            assert eng.apply(again).ok
    raise AssertionError(f"{variant} seed {seed}: no game over in {MAX_STEPS} actions")


@pytest.mark.parametrize("variant", list_variants())
@pytest.mark.parametrize("seed", range(4))
def test_bots_play_whole_games_legally(variant: str, seed: int) -> None:
    eng, refused = play_game(variant, seed)
    assert refused == []
    assert eng.public_state()["game_over"] is True


def test_bots_bid_sometimes_high_and_sometimes_pass() -> None:
    bids = []
    for seed in range(6):
        eng, _ = play_game("bid-euchre", seed)
        bids += [a for a in eng.actions if isinstance(a, Bid | Pass)]
    assert any(isinstance(a, Pass) for a in bids)
    assert {a.bid for a in bids if isinstance(a, Bid)} & {"4", "5", "6"}


def bid_euchre_state(**over) -> dict:
    state = {"seats": ["A", "B", "C", "D"], "partnerships": [[0, 2], [1, 3]], "trump": "H",
             "contract": {"seat": 0, "bid": "4", "trump": "H"}, "trick": {"cards": []}}
    return {**state, **over}


def test_a_strong_hand_bids_more_than_a_weak_one() -> None:
    """“Bid Euchre”, section “Single Deck Bid Euchre”: each player bids the tricks they expect to take."""
    ladder = [Bid(0, b) for b in ("3", "4", "5", "6")] + [Pass(0)]
    strong = ["JH", "JD", "AH", "KH", "AS", "AC"]
    weak = ["9S", "10S", "9C", "10D", "9H", "QC"]
    rng = random.Random(1)
    bot = Bot(0, "bid-euchre", rng)
    state = bid_euchre_state(contract=None, trump=None)
    assert bot.estimate(strong, "H") > 5 > bot.estimate(weak, "H")
    assert bot.choose(state, strong, ladder) in (Bid(0, "6"), Bid(0, "5"))
    assert bot.choose(state, weak, ladder) == Pass(0)


def test_follows_with_the_cheapest_card_that_wins_else_the_cheapest() -> None:
    bot = Bot(1, "bid-euchre", random.Random(0))
    hand = ["AS", "10S", "KS", "9C"]
    legal = [Play(1, *_card(c)) for c in ("AS", "10S", "KS")]
    state = bid_euchre_state(trick={"leader": 0, "cards": [{"seat": 0, "card": "QS"}]})
    assert bot.choose(state, hand, legal) == Play(1, *_card("KS"))
    trumped = bid_euchre_state(trick={"leader": 0, "cards": [{"seat": 0, "card": "QS"},
                                                             {"seat": 1, "card": "9H"}]})
    bot3 = Bot(3, "bid-euchre", random.Random(0))
    legal3 = [Play(3, *_card(c)) for c in ("AS", "10S")]
    assert bot3.choose(trumped, ["AS", "10S"], legal3) == Play(3, *_card("10S"))


def test_does_not_overtake_a_partner_who_is_winning_last() -> None:
    bot = Bot(2, "bid-euchre", random.Random(0))
    state = bid_euchre_state(trick={"leader": 3, "cards": [
        {"seat": 3, "card": "9S"}, {"seat": 0, "card": "AS"}, {"seat": 1, "card": "10S"}]})
    legal = [Play(2, *_card(c)) for c in ("KS", "QS")]
    # seat 2 plays last and its partner (seat 0) holds the trick with the ace
    assert bot.choose(state, ["KS", "QS"], legal) == Play(2, *_card("QS"))


def test_a_revoking_bot_fails_to_follow_when_it_could() -> None:
    """DESIGN.md, Revokes: the bots revoke now and then so that detection shows."""
    bot = Bot(1, "bid-euchre", random.Random(0), revoke_rate=1.0)
    state = bid_euchre_state(trick={"leader": 0, "cards": [{"seat": 0, "card": "QS"}]})
    legal = [Play(1, *_card("AS"))]
    choice = bot.choose(state, ["AS", "9C"], legal)
    assert choice == Play(1, *_card("9C"))


@pytest.mark.parametrize("mode", ["strict", "record"])
def test_revokes_are_refused_or_recorded_by_the_engine(mode: str) -> None:
    """DESIGN.md, Revokes: strict refuses the play; record accepts it and flags it."""
    refused, recorded = [], []
    for seed in range(3):
        eng, refusals = play_game("bid-euchre", seed, revoke_rate=0.01,
                                  options={"revoke_mode": mode})
        assert eng.public_state()["game_over"]
        refused += refusals
        recorded += ["revoke by" in (h or {}).get("detail", "") for h in _hands(eng)]
    if mode == "strict":
        assert refused and {out.code for _, out in refused} == {"must_follow_suit"}
    else:
        assert refused == [] and any(recorded)


def test_a_bad_revoke_rate_is_refused() -> None:
    with pytest.raises(ValueError, match="revoke_rate must be between 0 and 1"):
        Bot(0, "bid-euchre", random.Random(0), revoke_rate=1.5)


def _hands(eng: Engine) -> list[dict]:
    """The scored summary of every hand of the game, replayed from the engine's actions."""
    replay = Engine.new(eng.config["variant"], eng.config["options"], eng.config["seed"],
                        eng.config["dealer"])
    out = []
    for action in eng.actions:
        before = replay.public_state()["hand_number"]
        replay.apply(action)
        if replay.public_state()["hand_number"] != before or replay.phase == "game_over":
            out.append(replay.public_state()["last_hand"])
    return out


def _card(text: str):
    from tricktable.cards import parse_card_copy

    return parse_card_copy(text)


def test_euchre_bots_order_up_a_strong_hand_and_pass_a_weak_one() -> None:
    """“Euchre”: in round one a player may order up the turned card's suit."""
    state = {"seats": ["A", "B", "C", "D"], "partnerships": [[0, 2], [1, 3]], "up_card": "9H",
             "trick": {"cards": []}}
    legal = [Bid(1, "ORDER_UP"), Bid(1, "ORDER_UP:ALONE"), Pass(1)]
    bot = Bot(1, "euchre", random.Random(0))
    assert bot.choose(state, ["JH", "JD", "AH", "KH", "AS"], legal) == Bid(1, "ORDER_UP:ALONE")
    assert bot.choose(state, ["JH", "AH", "10S", "KC", "9D"], legal) == Bid(1, "ORDER_UP")
    assert bot.choose(state, ["9S", "10S", "9C", "10D", "QC"], legal) == Pass(1)

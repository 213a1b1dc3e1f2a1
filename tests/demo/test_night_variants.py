"""Every game a club plays makes a night: a short live night of each variant a night accepts,
on the real stack (broker, host service keeping the night, virtual boards on the firmware,
bots finding their seats on the displays), and its tally checked against the journal.

"The lead table plays eight hands [...] then rings the bell [...] players at each table finish
their current hand and record their team score on an individual tally" (“Bid Euchre”, section
“Bid euchre variations”, "Progressive"): a night is counted in hands, so a table plays until
the bell whatever its variant's target; a variant that counts down to zero starts a fresh game
in the same game of the night (docs/club.md, "How a game of the night ends").
The full sweep (three tables, three games of five hands, seeds 1 to 5) is
``bench/night_sweep.py``.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from demo_runs import played_to_end
from tricktable.cli import main
from tricktable.club.audit import round_hands, unrecorded
from tricktable.club.journal_hands import hands_and_rest
from tricktable.club.live import FRESH, NEW_GAME_ID
from tricktable.club.night_games import carries_on, night_options, night_variants
from tricktable.club.store import load_night
from tricktable.demo.runner import DemoConfig, DemoError
from tricktable.engine import Engine
from tricktable.engine.actions import Deal, Pass
from tricktable.history import load
from tricktable.league.club_feed import night_round
from tricktable.serve.journal import Journal
from tricktable.sim import room as room_module
from tricktable.sim.boards import Screen
from tricktable.sim.bots import Bot
from tricktable.sim.room import Room
from tricktable.sim.table_sim import SimError

VARIANTS = night_variants()


def play_night(tmp_path: Path, broker, prefix: str, variant: str, *, tables: int,
               rounds: int, hands: int, seed: int, options: dict | None = None
               ) -> tuple[Path, Path]:
    """A demo night of ``variant`` (with the club file's house rules ``options``) to its end;
    its night file and journal."""
    demo = played_to_end(DemoConfig(
        variant=variant, options=options or {}, tables=tables, night=True, rounds=rounds,
        hands=hands, speed=0, web_port=None, seed=seed, revoke_rate=0.05,
        broker=f"mqtt://{broker.host}:{broker.port}", prefix=prefix, workdir=tmp_path),
        300, f"the {variant} night")
    return demo.night_path, demo.journal_path


def test_a_night_accepts_every_four_seat_game_of_two_partnerships() -> None:
    assert {"bid-euchre", "euchre", "spades", "pepper", "eau-claire-clubs"} <= set(VARIANTS)
    assert not {"buck-euchre", "spades-cutthroat"} & set(VARIANTS)  # each for themselves
    with pytest.raises(DemoError, match="two partnerships"):
        DemoConfig(variant="spades-cutthroat", night=True).check()


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_short_night_of_every_variant_adds_every_hand_played(
        variant: str, tmp_path: Path, mqtt_broker, topic_prefix: str) -> None:
    seed = 1 + VARIANTS.index(variant) % 5  # the seeds 1 to 5 across the variants
    night_path, journal_path = play_night(tmp_path, mqtt_broker, topic_prefix, variant,
                                          tables=2, rounds=2, hands=1, seed=seed)
    night = load_night(night_path)
    assert night.finished and len(night.games) == 2
    with Journal(journal_path, readonly=True) as journal:
        assert unrecorded(night, journal, ["t1", "t2"]) == []
    assert all(len(game.hands[0]) == 1 for game in night.games)  # the head table's hands


def test_a_game_that_counts_up_carries_on_past_its_target_until_the_bell(
        tmp_path: Path, mqtt_broker, topic_prefix: str) -> None:
    """Euchre of 1844 is 'Game is 5 points' (“Euchre”, section “Making trump”); a club that
    plays it to 1 point still plays the night's game of four hands on past it, one game."""
    night_path, journal_path = play_night(tmp_path, mqtt_broker, topic_prefix, "euchre-1844",
                                          tables=1, rounds=1, hands=4, seed=3,
                                          options={"target": 1})
    night = load_night(night_path)
    with Journal(journal_path, readonly=True) as journal:
        assert unrecorded(night, journal, ["t1"]) == []
        [first, *fresh] = [g for g in journal.games("t1") if g.game > 1]
        assert fresh == []
        assert first.setup["options"]["target"] is None
    [hands] = night.games[0].hands
    assert len(hands) == 4
    assert max(sum(h[0] for h in hands), sum(h[1] for h in hands)) > 1


def test_a_countdown_over_before_the_bell_starts_a_fresh_game_on_the_same_tally(
        tmp_path: Path, mqtt_broker, topic_prefix: str) -> None:
    """Jucker's lines count down to zero ("the first team with none left wins", “Jucker”,
    sections “Variations”, “Bauer”): the game ends there (here a club's game of one line),
    and the table plays a fresh one until the bell, its hands on the same tally."""
    night_path, journal_path = play_night(tmp_path, mqtt_broker, topic_prefix, "jucker",
                                          tables=1, rounds=1, hands=4, seed=2,
                                          options={"lines": 1})
    night = load_night(night_path)
    with Journal(journal_path, readonly=True) as journal:
        assert unrecorded(night, journal, ["t1"]) == []
        games = [g for g in journal.games("t1") if g.game > 1]
        assert len(games) >= 2, "no game of the night ended before the bell"
        assert round_hands(journal, ["t1"])[1][0] == list(night.games[0].hands[0])
        played = [g for g in games if g.actions]
    assert len(night.games[0].hands[0]) == 4
    # exported, each is game 1 of the night: t1-game1, then the fresh ones t1-game1-2, ...
    out = tmp_path / "histories"
    result = CliRunner().invoke(main, ["export", str(journal_path), "--night", str(night_path),
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["t1-game1.txt", *(f"t1-game1-{n}.txt" for n in range(2, len(played) + 1))])
    assert all(load(str(p)).tags["Round"] == "1" for p in out.iterdir())


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_night_switches_off_the_targets_of_a_game_that_carries_on(variant: str) -> None:
    """A game of the night plays 30 hands without ending when it carries on; a countdown keeps
    its rules (and ends: the night starts a fresh game)."""
    options = night_options(variant, {"revoke_mode": "record"})
    engine = Engine.new(variant, options, 7, 0, ["a", "b", "c", "d"])
    bots = [Bot(seat, variant, random.Random(seat)) for seat in range(4)]
    deal = random.Random(1)
    while engine.phase != "game_over" and engine.public_state()["hand_number"] <= 30:
        legal = engine.legal_actions()
        seat = engine.to_act if engine.to_act is not None else legal[0].seat
        mine = [a for a in legal if a.seat == seat]
        action = deal.choice(legal) if engine.phase == "deal" or not mine else \
            bots[seat].choose(engine.public_state(), engine.known_hand(seat), legal, honest=True)
        assert engine.apply(action).ok
    assert (engine.phase != "game_over") == carries_on(variant), engine.public_state()["scores"]


def test_a_bot_that_gives_up_on_its_seat_names_the_table_and_why(monkeypatch) -> None:
    """The error says which display was read, what it showed, and how far the head table is."""
    monkeypatch.setattr(room_module, "SIGN_TIMEOUT_S", 0.05)

    class Display:
        id = "t2-display"
        screen = Screen()

    class Table:
        table = "t1"

    Display.screen.show({"lines": ["t2 g3 h4", "N/S 7  E/W 3"]})
    room = Room({"Ann": Bot(0, "euchre", random.Random(1))}, [Table(), Table()],  # type: ignore[list-item]
                [Display(), Display()], 3, 5, lambda t: (1, {}), lambda t: None)  # type: ignore[list-item,arg-type,return-value]
    room.at["Ann"], room.round, room.played["t1"] = 2, 2, 3
    with pytest.raises(SimError) as failed:
        asyncio.run(room._find_seat("Ann"))
    message = str(failed.value)
    assert "t2-display shows t2 g3 h4 / N/S 7  E/W 3" in message
    assert "game 2 of the night" in message and "played 3 of its 5 hands" in message


def test_a_fresh_game_belongs_to_its_game_of_the_night_for_the_league_too() -> None:
    """The league counts a table's hands by the game of the night its new_game names."""
    assert night_round(f"{NEW_GAME_ID}2{FRESH}7") == 2 == night_round(f"{NEW_GAME_ID}2")


def test_a_deal_thrown_in_is_no_hand_in_play_when_the_bell_rings() -> None:
    """Euchre: "If no trump is selected, the hand is discarded and the deal passes to the
    left" (“Euchre”, section “Making trump”). A table whose last deal was thrown in is between
    hands: it closes at the bell with what it scored, as its players start no new deal."""
    setup = {"variant": "euchre", "options": night_options("euchre", {}), "seed": 4,
             "dealer": 0, "players": ["a", "b", "c", "d"]}
    engine = Engine.new("euchre", setup["options"], 4, 0, setup["players"])
    assert engine.apply(Deal(0)).ok
    while engine.state.hand_number == 1:
        [passing] = [a for a in engine.legal_actions() if isinstance(a, Pass)]
        assert engine.apply(passing).ok
    assert hands_and_rest(setup, engine.actions) == ([], 0)
    assert engine.apply(Deal(1)).ok
    assert hands_and_rest(setup, engine.actions) == ([], 1)  # the next deal is in play

"""Single dummy's report of every decision (``analysis.decisions``): the JSON the replay page
reads, deterministic for a seed, cancellable, the sampled estimates against the exact
answer, and its place in the cache and ``tricktable analyse --single-dummy``."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import threading

import pytest
from click.testing import CliRunner
from played_games import PLAYERS, random_game, write_journal
from tricktable.analysis.cache import cached_analysis, file_cache, journal_cache, kept_analysis
from tricktable.analysis.decisions import (
    Cancelled,
    Settings,
    analyse_decisions,
    decisions_of,
    draw,
    weigh,
)
from tricktable.analysis.hand import analyse_game
from tricktable.analysis.knowledge import Knowledge, Layout
from tricktable.cli import main
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, DeclareTrump, Pass
from tricktable.history import record_from_engine, write_json

KINDS = {"card", "bid", "order-up", "alone", "discard", "trump", "pass"}


def euchre(seed: int = 2, hands: int = 2):
    return record_from_engine(random_game(seed, hands=hands, variant="euchre"))


def test_every_decision_lists_its_choices_best_first_with_the_played_one_marked():
    record = euchre()
    hands = analyse_decisions(record, samples=20)
    assert [h["hand_number"] for h in hands] == [1, 2]
    for hand in hands:
        assert hand["decisions"]
        for d in hand["decisions"]:
            assert d["kind"] in KINDS and d["player"] == record.players[d["seat"]]
            assert (d["trick"] is None) == (d["kind"] != "card")
            points = [c["points"] for c in d["choices"]]
            assert points == sorted(points, reverse=True) and len(points) >= 2
            (played,) = [c for c in d["choices"] if c["played"]]
            assert played["choice"] == d["played"]
            assert d["cost"] == pytest.approx(points[0] - played["points"], abs=1e-3)
            assert 0 <= d["cost_ci95"][0] <= d["cost_ci95"][1]
            for c in d["choices"]:
                lo, hi = c["points_ci95"]
                assert lo <= c["points"] <= hi and c["samples"] == d["samples"]
            assert d["why"].endswith(".") and (d["cost"] == 0) == ("as good as" in d["why"])
            if d["exact"]:  # every consistent layout, no more than the samples asked
                assert d["samples"] <= 20
                assert all(c["points_ci95"] == [c["points"]] * 2 for c in d["choices"])
            else:
                assert d["samples"] == 20


def test_the_auction_and_the_discard_are_weighed_as_well_as_the_cards():
    """“Euchre”, section “Making trump”: each player in turn passes or orders up (alone or
    not), the dealer discards after taking up the up-card: each is a decision."""
    kinds = set()
    for seed in range(6):
        for hand in analyse_decisions(euchre(seed), samples=8):
            kinds |= {d["kind"] for d in hand["decisions"]}
    assert {"card", "pass", "order-up", "discard"} <= kinds


def test_the_same_seed_gives_the_same_report_and_another_seed_another():
    record = euchre()
    first = analyse_decisions(record, seed=5, samples=12)
    assert analyse_decisions(record, seed=5, samples=12) == first
    assert analyse_decisions(record, seed=6, samples=12) != first


def test_an_event_set_cancels_between_layouts_and_progress_counts_decisions():
    record = euchre()
    seen: list[tuple[int, int]] = []
    analyse_decisions(record, samples=4, progress=lambda done, total: seen.append((done, total)))
    total = seen[-1][1]
    assert [d for d, _ in seen] == list(range(1, total + 1))
    stop = threading.Event()

    def progress(done: int, total: int) -> None:
        if done == 3:
            stop.set()

    with pytest.raises(Cancelled):
        analyse_decisions(record, samples=4, cancel=stop, progress=progress)
    asked = []
    with pytest.raises(Cancelled):
        analyse_decisions(record, samples=4, cancel=lambda: asked.append(1) or len(asked) > 5)


def test_sampled_estimates_hold_the_exact_expectation_within_their_interval():
    """On late decisions, whose consistent layouts can all be counted: the sampled 95%
    intervals hold the exact expected points (a fixed seed; bench/analysis.py
    --single-dummy counts it over hundreds)."""
    checked = held = 0
    for seed in range(25):
        record = euchre(seed, hands=1)
        for hand_found in decisions_of(record):
            for decision in hand_found.decisions:
                knowledge, every, exact = draw(decision, 0, 60, 1000)
                if not exact:
                    continue
                truth = {c["choice"]: c["points"] for c in
                         weigh(decision, record.players, knowledge, every, True)["choices"]}
                _, drawn, _ = draw(decision, 0, 60, 0)
                for c in weigh(decision, record.players, knowledge, drawn, False)["choices"]:
                    checked += 1
                    held += c["points_ci95"][0] <= truth[c["choice"]] <= c["points_ci95"][1]
    assert checked >= 30 and held >= 0.95 * checked, (held, checked)


def test_single_dummy_is_cached_beside_double_dummy_and_other_settings_work_it_out_again(
        tmp_path):
    record = euchre(hands=1)
    cache = tmp_path / "g.analysis.json"
    plain = cached_analysis(record, cache)
    assert "single_dummy" not in plain and kept_analysis(record, cache, Settings(1, 6)) is None
    got = cached_analysis(record, cache, single_dummy=Settings(1, 6))
    assert got["single_dummy"] == {"seed": 1, "samples": 6, "method": "sampled", "format": 1}
    assert got["hands"][0]["plays"] == plain["hands"][0]["plays"]
    assert got["hands"][0]["decisions"]
    assert kept_analysis(record, cache, Settings(1, 6)) == got
    assert kept_analysis(record, cache) == got  # double dummy alone reads it too
    again = cached_analysis(record, cache, single_dummy=Settings(2, 6))
    assert again["single_dummy"]["seed"] == 2 and again["hands"][0]["decisions"] != \
        got["hands"][0]["decisions"]


def first_hands(record, n: int):
    """The record as it stood when its ``n`` first hands were over (a game still in play)."""
    return dataclasses.replace(record, hands=record.hands[:n])


def test_a_hand_weighed_is_not_weighed_again_as_its_game_goes_on():
    """A hand's decisions are kept by the hand's key (the game's set-up and every action to
    the hand's end): the game's next hand leaves the key of the hands before it alone, so
    they are taken as weighed; a hand that changed (a correction) has another key."""
    record = euchre(hands=2)
    memo = {}
    before = analyse_decisions(first_hands(record, 1), samples=6, memo=memo)
    assert memo and {key for key, _ in memo} == {before[0]["key"]}
    marked = {key: {"taken": key} for key in memo}
    after = analyse_decisions(record, samples=6, memo=marked)
    assert after[0]["key"] == before[0]["key"] and after[1]["key"] != before[0]["key"]
    assert after[0]["decisions"] == [{"taken": (before[0]["key"], i)} for i in range(len(memo))]
    assert all("choices" in d for d in after[1]["decisions"]) and after[1]["decisions"]
    first = record.hands[0]
    corrected = dataclasses.replace(record, hands=[  # its last card taken back
        dataclasses.replace(first, actions=first.actions[:-1])])
    assert analyse_decisions(corrected, samples=6)[0]["key"] != before[0]["key"]


def test_the_cache_of_a_game_in_play_keeps_the_hands_weighed_before(tmp_path):
    """A game's analysis cached after its first hand, its record grown by a hand: only the new
    hand is weighed; the first hand's decisions come from the cache as they were."""
    record = euchre(hands=2)
    cache = tmp_path / "g.analysis.json"
    early = cached_analysis(first_hands(record, 1), cache, single_dummy=Settings(1, 6))
    kept = json.loads(cache.read_text())
    kept["hands"][0]["decisions"][0]["why"] = "as the cache had it"
    cache.write_text(json.dumps(kept))
    later = cached_analysis(record, cache, single_dummy=Settings(1, 6))
    assert later["hands"][0]["decisions_key"] == early["hands"][0]["decisions_key"]
    assert later["hands"][0]["decisions"][0]["why"] == "as the cache had it"
    fresh = cached_analysis(record, tmp_path / "fresh.json", single_dummy=Settings(1, 6))
    assert later["hands"][1]["decisions"] == fresh["hands"][1]["decisions"]
    reseeded = cached_analysis(record, cache, single_dummy=Settings(2, 6))  # weighed again
    assert reseeded["hands"][0]["decisions"][0]["why"] != "as the cache had it"


def test_tricktable_analyse_single_dummy_prints_the_costly_decisions(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(write_json(euchre(hands=1)))
    result = CliRunner().invoke(main, ["analyse", str(path), "--single-dummy", "--samples",
                                       "6", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "single dummy, " in result.output
    kept = json.loads(file_cache(path).read_text())
    assert kept["single_dummy"]["samples"] == 6 and kept["single_dummy"]["seed"] == 3


def test_over_the_real_layout_alone_a_card_is_worth_what_double_dummy_says():
    """Weighed over the one layout that was real, single dummy is double dummy: each card
    played is worth the tricks the double-dummy analysis gives its side after it."""
    record = euchre(4, hands=2)
    cards = [p for h in analyse_game(record)["hands"] for p in h["plays"]]
    checked = 0
    for hand_found in decisions_of(record):
        for decision in hand_found.decisions:
            if decision.played.TYPE != "play":
                continue
            st = decision.st
            held = 0
            for h in st.known:
                held |= h
            real = Layout(tuple(st.known), st.deck_mask & ~st.played & ~held)
            knowledge = Knowledge.of(st, decision.seat, decision.passed)
            report = weigh(decision, record.players, knowledge, [real], True)
            (played,) = [c for c in report["choices"] if c["played"]]
            at = next(i for i, p in enumerate(cards) if p["card"] == report["played"]
                      and p["trick"] == report["trick"] and p["seat"] == report["seat"])
            assert played["tricks"] == cards[at]["after"]
            checked += 1
    assert checked >= 10


def test_a_player_whose_hand_is_not_known_has_no_decision_weighed():
    """A table that did not scan the cards: the players' hands are not known, so nothing
    is weighed (single dummy deals the others' hands around the player's own)."""
    unknown = Engine.new("bid-euchre", seed=1, players=PLAYERS)
    for a in (Bid(1, "3"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "H")):
        assert unknown.apply(a).ok, a
    [hand] = analyse_decisions(record_from_engine(unknown), samples=4)
    assert hand["hand_number"] == 1 and hand["decisions"] == []


def test_a_whole_night_with_single_dummy_is_the_same_on_every_core(tmp_path):
    """Each decision's layouts come from its own seed: the night's processes share the
    games out and each game's single dummy is what one process works out."""
    path = tmp_path / "night.sqlite"
    for table, seed in (("t1", 4), ("t2", 5), ("t3", 6)):
        write_journal(path, table, random_game(seed, hands=1, variant="euchre"))
    args = ["analyse", str(path), "--quiet", "--single-dummy", "--samples", "5"]
    result = CliRunner().invoke(main, [*args, "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert re.search(r"analysed 3 game\(s\), 3 hand\(s\), \d+ decision\(s\) weighed single "
                     r"dummy, in ", result.output), result.output
    caches = [journal_cache(path, t, 1) for t in ("t1", "t2", "t3")]
    parallel = [json.loads(c.read_text()) for c in caches]
    assert all(p["single_dummy"]["samples"] == 5 and p["hands"][0]["decisions"]
               for p in parallel)
    for c in caches:
        c.unlink()
    assert CliRunner().invoke(main, [*args, "--jobs", "1"]).exit_code == 0
    assert [json.loads(c.read_text()) for c in caches] == parallel


def test_a_hand_passed_out_has_its_auction_weighed_beside_the_hands_played(tmp_path):
    """“Euchre”, section “Making trump”: if nobody names trump in the second round 'the hand
    is discarded and the deal passes to the left': no play, but every pass was a decision
    (an order-up missed costs points)."""
    eng = Engine.new("euchre", {"target": None}, seed=3, players=PLAYERS)
    rng = random.Random(3)
    eng.apply_id(eng.legal_ids()[0])  # the engine deals
    while eng.state.hand_number == 1:  # everybody passes, twice round
        assert eng.apply(Pass(eng.state.to_act)).ok
    while not eng.state.hands_played:  # the next hand is played
        eng.apply_id(rng.choice(eng.legal_ids()))
    record = record_from_engine(eng)
    found = analyse_decisions(record, samples=6)
    (unplayed,) = [h for h in found if h.get("played") is False]
    assert len(unplayed["decisions"]) == 8
    assert {d["kind"] for d in unplayed["decisions"]} == {"pass"}
    assert {c["choice"] for c in unplayed["decisions"][0]["choices"]} == {
        "pass", "order up", "order up, alone"}
    got = cached_analysis(record, tmp_path / "g.json", single_dummy=Settings(0, 6))
    numbers = {h["hand_number"] for h in got["hands"]}
    assert [h["hand_number"] for h in got["hands_not_played"]] == [1]
    assert not numbers & {h["hand_number"] for h in got["hands_not_played"]}

"""Single dummy's report of every decision (``analysis.decisions``): the JSON the replay page
reads, deterministic for a seed, cancellable, the sampled estimates against the exact
answer, and its place in the cache and ``tricktable analyse --single-dummy``."""

from __future__ import annotations

import json
import threading

import pytest
from click.testing import CliRunner
from played_games import random_game
from tricktable.analysis.cache import cached_analysis, file_cache, kept_analysis
from tricktable.analysis.decisions import (
    Cancelled,
    Settings,
    analyse_decisions,
    decisions_of,
    draw,
    weigh,
)
from tricktable.cli import main
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
        for _, found, _ in decisions_of(record):
            for decision in found:
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


def test_tricktable_analyse_single_dummy_prints_the_costly_decisions(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(write_json(euchre(hands=1)))
    result = CliRunner().invoke(main, ["analyse", str(path), "--single-dummy", "--samples",
                                       "6", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "single dummy, " in result.output
    kept = json.loads(file_cache(path).read_text())
    assert kept["single_dummy"]["samples"] == 6 and kept["single_dummy"]["seed"] == 3

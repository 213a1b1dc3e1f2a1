"""The replay's single-dummy estimates worked out in the background (``web.single_dummy``):
a game's estimate kept in its cache comes with each hand; a game not yet estimated is
queued and its hands say "pending" (no page waits); one estimate at a time, taking the same
turn as the page's double-dummy analyses and giving it up to a page that waits for it; an opened file and a game over the replay's bound each say why there is none.
The source of the estimates is a stand-in for the queue, the turn and the merging (the
estimate itself is ``tricktable.analysis.decisions``'s); the real one, kept in the analysis
cache, gives up between two decisions and writes nothing when cancelled. A player's
costliest decisions of a night (``web.costly_decisions``) come from the estimated games."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from played_games import random_game, write_journal
from tricktable.history import GameRecord, record_from_engine
from tricktable.web.costly_decisions import night_decisions
from tricktable.web.replay_analysis import TURN, game_analysis
from tricktable.web.single_dummy import (
        NOT_FOR_FILES,
    Cancelled,
    Estimates,
    EstimateSource,
    analysis_source,
)
from waiting import eventually

DECISION = {"seat": 1, "player": "Bob", "kind": "order-up", "trick": None, "played": "order up",
            "choices": [{"choice": "pass", "tricks": 2.0, "points": 0.4, "points_ci95": [0.2, 0.6],
                         "samples": 100, "played": False},
                        {"choice": "order up", "tricks": 3.0, "points": -0.2,
                         "points_ci95": [-0.5, 0.1], "samples": 100, "played": True}],
            "cost": 0.6, "cost_ci95": [0.3, 0.9], "why": "ordering up cost 0.6 points",
            "samples": 100, "exact": False}


PASSED_OUT = {**DECISION, "played": "pass", "cost": 0.8, "cost_ci95": [0.5, 1.1],
              "why": "passing cost 0.8 points",
              "choices": [{**DECISION["choices"][1], "played": False},
                          {**DECISION["choices"][0], "played": True}]}
"""Bob's pass in a hand everybody passed (ordering up was better)."""


class StandIn:
    """Keeps estimates in a dict; ``work_out`` waits for ``go`` (or gives up when cancelled)."""

    def __init__(self) -> None:
        self.kept: dict[Path, dict[str, Any]] = {}
        self.go = threading.Event()
        self.started = threading.Event()
        self.runs = 0
        self.cancelled = 0

    def source(self) -> EstimateSource:
        return EstimateSource(lambda record, cache: self.kept.get(cache), self.work_out)

    def work_out(self, record: GameRecord, cache: Path, cancel: Callable[[], bool],
                 progress: Callable[[str], None]) -> dict[str, Any]:
        if cache in self.kept:  # as the real source reads its cache first
            return self.kept[cache]
        self.runs += 1
        progress("hand 1 of 1")
        self.started.set()
        while not self.go.wait(0.01):
            if cancel():
                self.cancelled += 1
                self.started.clear()
                raise Cancelled
        self.kept[cache] = {"single_dummy": {"seed": 0, "samples": 100, "method": "sampled",
                                             "format": 1},
                            "hands": [{"hand_number": 1, "decisions": [DECISION]}],
                            "hands_not_played": [{"hand_number": 2,
                                                  "decisions": [PASSED_OUT]}]}
        return self.kept[cache]


def euchre() -> tuple[GameRecord, dict[str, Any]]:
    record = record_from_engine(random_game(3, hands=1, variant="euchre"))
    return record, game_analysis(record, None)


def test_a_kept_estimate_comes_with_its_hand(tmp_path: Path) -> None:
    stand_in = StandIn()
    record, analysis = euchre()
    cache = tmp_path / "g.analysis.json"
    stand_in.go.set()
    stand_in.work_out(record, cache, lambda: False, lambda _: None)
    hand = Estimates(stand_in.source()).merged(analysis, record, cache)["hands"][0]
    assert hand["single_dummy"]["samples"] == 100
    assert hand["decisions"] == [DECISION]
    assert "plays" in hand  # the double-dummy analysis is still there


def test_a_game_not_estimated_is_pending_then_worked_out_in_the_background(
        tmp_path: Path) -> None:
    stand_in = StandIn()
    estimates = Estimates(stand_in.source())
    record, analysis = euchre()
    cache = tmp_path / "g.analysis.json"
    first = estimates.merged(analysis, record, cache)["hands"][0]
    assert "pending" in first["single_dummy"] and "decisions" not in first
    assert stand_in.started.wait(30)
    assert estimates.status(record, cache) == {"pending": "hand 1 of 1"}
    stand_in.go.set()
    ready = eventually(lambda: "decisions" in estimates.merged(analysis, record, cache)["hands"][0],
                       "the estimate was worked out")
    # once, or again after each time a page of another test in this process took the turn
    assert ready and stand_in.runs == 1 + stand_in.cancelled


def test_a_game_asked_again_once_its_estimate_is_kept_is_read_from_the_cache(
        tmp_path: Path) -> None:
    """A page that read the cache just before a game's estimate was kept queues the game
    again; at its turn the real source reads the estimate from the cache: no decision is
    weighed again, and it never asks to give way."""
    record, _ = euchre()
    cache = tmp_path / "g.analysis.json"
    source = analysis_source()
    kept = source.work_out(record, cache, lambda: False, lambda _: None)
    asked: list[bool] = []
    said: list[str] = []
    again = source.work_out(record, cache, lambda: asked.append(True) or False, said.append)
    assert again == kept and said == [] and asked == []


def test_a_page_analysis_goes_before_the_background(tmp_path: Path) -> None:
    """A page asks for its double-dummy analysis while an estimate is being worked out: the
    estimate gives up the turn, the page's analysis runs, then the estimate starts again."""
    stand_in = StandIn()
    estimates = Estimates(stand_in.source())
    record, analysis = euchre()
    cache = tmp_path / "g.analysis.json"
    estimates.status(record, cache)
    assert stand_in.started.wait(30)
    with TURN.page():
        assert stand_in.cancelled == 1
    eventually(lambda: stand_in.runs == 2, "the estimate started again")
    stand_in.go.set()
    eventually(lambda: "hands" in estimates.status(record, cache), "the estimate was worked out")


def test_no_estimate_says_why(tmp_path: Path) -> None:
    record, analysis = euchre()
    estimates = Estimates(StandIn().source())
    assert estimates.merged(analysis, record, None)["hands"][0]["single_dummy"] == {
        "unavailable": NOT_FOR_FILES}
    spades = record_from_engine(random_game(2, hands=1, variant="spades"))
    assert estimates.status(spades, tmp_path / "s.json")["unavailable"].startswith(
        "analysis not available for this hand size (52 cards in play")


def test_the_analysis_gives_up_between_layouts_and_writes_nothing(tmp_path: Path) -> None:
    record, _ = euchre()
    cache = tmp_path / "g.analysis.json"
    source = analysis_source()
    with pytest.raises(Cancelled):
        source.work_out(record, cache, lambda: True, lambda _: None)
    assert not cache.exists() and source.kept(record, cache) is None
    said: list[str] = []
    source.work_out(record, cache, lambda: False, said.append)
    kept = source.kept(record, cache)
    assert kept is not None and kept["single_dummy"]["samples"] == 100
    assert "plays" in kept["hands"][0]  # the double dummy beside it
    done = re.fullmatch(r"(\d+) of (\d+) decisions", said[-1])
    assert done and done[1] == done[2] == str(sum(len(h["decisions"]) for h in kept["hands"]))


def test_an_estimate_cancelled_goes_on_from_the_decision_it_stopped_at(tmp_path: Path) -> None:
    """The real source, its turn taken away after two decisions: the next turn weighs only
    the decisions left (it asks whether to give way fewer times than a whole estimate does),
    and the estimate is the same as one worked out in one go."""
    record, _ = euchre()
    asked = {"whole": 0, "rest": 0}

    def counting(name: str, stop: Callable[[], bool] = lambda: False) -> Callable[[], bool]:
        def cancel() -> bool:
            asked[name] += 1
            return stop()
        return cancel

    whole = analysis_source().work_out(record, tmp_path / "whole.json", counting("whole"),
                                       lambda _: None)
    source, cache, said = analysis_source(), tmp_path / "g.analysis.json", []
    with pytest.raises(Cancelled):
        source.work_out(record, cache, lambda: len(said) >= 2, said.append)
    rest = source.work_out(record, cache, counting("rest"), lambda _: None)
    assert 0 < asked["rest"] < asked["whole"]
    assert [h["decisions"] for h in rest["hands"]] == [h["decisions"] for h in whole["hands"]]


def test_a_replay_reads_a_game_estimated_from_its_cache_once(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay's double-dummy analysis, read from a cache that holds the estimate too, is
    merged as it is: the cache is not read a second time for the estimate."""
    record, _ = euchre()
    cache = tmp_path / "g.analysis.json"
    source = analysis_source()
    source.work_out(record, cache, lambda: False, lambda _: None)
    reads: list[Path] = []
    read_text = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: reads.append(self) or
                        read_text(self, *a, **k))
    hands = Estimates(source).merged(game_analysis(record, cache), record, cache)["hands"]
    assert reads == [cache]
    assert hands[0]["decisions"] == source.kept(record, cache)["hands"][0]["decisions"]


def test_a_game_whose_estimate_fails_says_why_and_the_worker_goes_on(tmp_path: Path) -> None:
    """A record the analysis refuses: its hands say why; the next game is estimated."""
    stand_in = StandIn()
    stand_in.go.set()
    bad, good = euchre()[0], record_from_engine(random_game(4, hands=1, variant="euchre"))

    def refuse(record: GameRecord, cache: Path, cancel: Callable[[], bool],
               progress: Callable[[str], None]) -> dict[str, Any]:
        if record is bad:
            raise ValueError("hand 1: a card refused")
        return stand_in.work_out(record, cache, cancel, progress)

    estimates = Estimates(EstimateSource(stand_in.source().kept, refuse))
    estimates.status(bad, tmp_path / "bad.json")
    estimates.status(good, tmp_path / "good.json")
    eventually(lambda: "hands" in estimates.status(good, tmp_path / "good.json"),
               "the next game was estimated")
    assert estimates.status(bad, tmp_path / "bad.json") == {
        "unavailable": "the estimate failed: hand 1: a card refused"}


def test_a_players_costliest_decisions_of_a_night(tmp_path: Path) -> None:
    """The player page's list: the decisions of the seat the player held, costliest first,
    each with where to replay it (a hand passed out, which the statistics do not count,
    with the seat the player held in the game, and no replay); the night's games not yet
    estimated are queued and counted as pending, and a hand that cannot be estimated is
    counted with why."""
    journal = tmp_path / "night.sqlite"
    write_journal(journal, "t1", random_game(3, hands=1, variant="euchre"))
    stand_in = StandIn()
    stand_in.go.set()
    estimates = Estimates(stand_in.source())
    bob = [("t1", 1, 1, 1), ("t1", 2, 1, 1)]  # game 2 is not in the journal
    first = night_decisions(estimates, journal, bob)
    assert first["pending"] == 1 and first["decisions"] == []
    found = eventually(lambda: (f := night_decisions(estimates, journal, bob))["pending"] == 0
                       and f, "the night's game was estimated")
    assert found["hands"] == 2 and found["estimated"] == 1
    assert found["unavailable"] == {"the journal has no game 2 on table 't1'": 1}
    assert found["decisions"] == [{
        "table": "t1", "game": 1, "hand": 2, "trick": None, "decision": 0,
        "kind": "order-up", "played": "pass", "best": "order up", "cost": 0.8,
        "cost_ci95": [0.5, 1.1], "exact": False, "why": "passing cost 0.8 points",
        "played_out": False}, {
        "table": "t1", "game": 1, "hand": 1, "trick": None, "decision": 0,
        "kind": "order-up", "played": "order up", "best": "pass", "cost": 0.6,
        "cost_ci95": [0.3, 0.9], "exact": False, "why": "ordering up cost 0.6 points",
        "played_out": True}]
    ann = night_decisions(estimates, journal, [("t1", 1, 1, 0)])
    assert ann["estimated"] == 1 and ann["decisions"] == []

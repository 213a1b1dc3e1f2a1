"""The analysis of recorded hands: every card's double-dummy cost, the contracts table, and
``tricktable analyse`` on hand-history files and journals with its cache."""

from __future__ import annotations

import json

from click.testing import CliRunner
from played_games import PLAYERS, random_game, write_journal
from tricktable.analysis.cache import file_cache, journal_cache
from tricktable.analysis.hand import analyse_game
from tricktable.cli import main
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, DeclareTrump, Pass
from tricktable.history import record_from_engine, write_json
from tricktable.protocol import Control, encode
from tricktable.serve.journal import Journal


def test_the_costs_chain_from_position_to_position_and_end_at_the_tricks_taken():
    """Each card's 'after' is the next card's 'before' (the other side's is the rest of the
    hand's six tricks); no card gains a trick; every card of the hand is there (six tricks
    of four cards, or of three when a pepper bidder plays alone)."""
    eng = random_game(3, hands=4)
    analysis = analyse_game(record_from_engine(eng))
    assert len(analysis["hands"]) == 4
    for hand in analysis["hands"]:
        plays = hand["plays"]
        assert len(plays) in (18, 24) and all(p["cost"] >= 0 for p in plays)
        for a, b in zip(plays, plays[1:], strict=False):
            assert b["before"] == (a["after"] if a["side"] == b["side"] else 6 - a["after"])
        assert {r["trump"] for r in hand["contracts"]} == {"S", "H", "D", "C", "NT"}


def test_a_card_that_cost_a_trick_is_marked():
    eng = random_game(5, hands=3, blunder=True)
    hands = analyse_game(record_from_engine(eng))["hands"]
    assert any(h["plays"][0]["cost"] >= 1 for h in hands)
    for h in hands:
        first = h["plays"][0]
        assert first["after"] == first["before"] - first["cost"]


def test_the_contracts_table_agrees_with_the_play_analysis():
    """The actual contract's row gives the declarer's side what the first card's 'before'
    gives it (the same position, the same leader)."""
    eng = random_game(11, hands=3)
    for hand in analyse_game(record_from_engine(eng))["hands"]:
        c = hand["contract"]
        row = next(r for r in hand["contracts"]
                   if r["trump"] == c["trump"] and r["declarer"] == c["seat"])
        first = hand["plays"][0]
        assert row["leader"] == first["seat"]
        assert row["tricks"][first["side"]] == first["before"]


def test_analyse_a_file_then_from_its_cache(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(write_json(record_from_engine(random_game(7, hands=2))))
    runner = CliRunner()
    first = runner.invoke(main, ["analyse", str(path)])
    assert first.exit_code == 0, first.output
    assert "Hand 1" in first.output and "by trump and declarer" in first.output
    cache = tmp_path / "game.json.analysis.json"
    kept = json.loads(cache.read_text())
    kept["hands"][0]["plays"][0]["cost"] = 9  # the cache is what a second run reads
    cache.write_text(json.dumps(kept))
    again = runner.invoke(main, ["analyse", str(path), "--json"])
    assert json.loads(again.output)["hands"][0]["plays"][0]["cost"] == 9
    path.write_text(write_json(record_from_engine(random_game(8, hands=1))))
    fresh = json.loads(runner.invoke(main, ["analyse", str(path), "--json"]).output)
    assert len(fresh["hands"]) == 1  # a changed record is analysed again


def test_analyse_a_journal(tmp_path):
    eng = random_game(9, hands=2)
    path = tmp_path / "night.sqlite"
    write_journal(path, "t3", eng)
    result = CliRunner().invoke(main, ["analyse", str(path), "--table", "t3"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("t3 game 1: bid-euchre, Ann, Bob, Cy, Di")
    assert (tmp_path / "night.sqlite.analysis" / "t3-game1.json").exists()


def test_analyse_a_whole_night_on_every_core(tmp_path):
    """Every game of every table of a journal, in worker processes: each game's analysis is
    written where the replay page reads it, the same as one process works out."""
    path = tmp_path / "night.sqlite"
    for table, seed in (("t1", 4), ("t2", 5), ("t3", 6)):
        write_journal(path, table, random_game(seed, hands=1))
    result = CliRunner().invoke(main, ["analyse", str(path), "--jobs", "2", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "analysed 3 game(s), 3 hand(s), in " in result.output
    assert "process(es) (CPU s: " in result.output  # one, or two when both started in time
    caches = [journal_cache(path, t, 1) for t in ("t1", "t2", "t3")]
    parallel = [json.loads(c.read_text()) for c in caches]
    for c in caches:
        c.unlink()
    serial = CliRunner().invoke(main, ["analyse", str(path), "--jobs", "1", "--json"])
    assert serial.exit_code == 0, serial.output
    assert [json.loads(c.read_text()) for c in caches] == parallel


def test_a_game_the_rules_refuse_stops_a_night_with_its_reason(tmp_path):
    path = tmp_path / "night.sqlite"
    write_journal(path, "t1", random_game(4, hands=1))
    bad = random_game(5, hands=1)
    write_journal(path, "t2", bad)
    with Journal(path) as journal:  # a play in place of the deal: the rules refuse it
        control = Control(cmd="correct")
        entry = journal.append_control("t2", control, "c", encode(control))
        journal.record_actions("t2", 1, entry.id,
                               [(1, {"type": "play", "seat": 0, "card": "AS", "copy": 0})])
    result = CliRunner().invoke(main, ["analyse", str(path), "--jobs", "2"])
    assert result.exit_code == 1, result.output
    assert result.output == ("Error: t2 game 1: action 1: cannot play a card now: the table is in "
                             "the deal phase (wrong_phase)\n")


def test_hands_nobody_scanned_are_named_not_analysed():
    eng = Engine.new("bid-euchre", seed=1, players=PLAYERS)
    eng.apply_id(eng.legal_ids()[0])  # dealt by the engine: known
    analysis = analyse_game(record_from_engine(eng))
    assert analysis["hands"] == []  # the hand has not reached its play
    unknown = Engine.new("bid-euchre", seed=1, players=PLAYERS)
    for a in (Bid(1, "3"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "H")):
        assert unknown.apply(a).ok, a
    hand = analyse_game(record_from_engine(unknown))["hands"][0]
    assert hand["unknown"] == "every hand must be known to analyse the play"


def test_analyse_prints_par_and_each_sides_best_contract_by_bid(tmp_path):
    """Par in words, then a line per bid on the ladder with each side's best contract (the
    declarer, trump, tricks of each side, score of each side), as the analysis holds them;
    a cache of the format before par is analysed again."""
    path = tmp_path / "game.json"
    path.write_text(write_json(record_from_engine(random_game(3, hands=1))))
    file_cache(path).write_text(json.dumps({"format": 1, "hands": []}))
    result = CliRunner().invoke(main, ["analyse", str(path)])
    assert result.exit_code == 0, result.output
    hand = json.loads(file_cache(path).read_text())["hands"][0]
    par = hand["par"]
    assert f"  par: {par['text']}\n" in result.output
    assert "by bid, each side's best (tricks and score of Ann & Cy / Bob & Di):" in result.output
    for row in par["by_bid"]:
        cells = [f"{PLAYERS[r['seat']]} {r['trump']} {'-'.join(map(str, r['tricks']))} "
                 f"({'/'.join(f'{d:+d}' for d in r['score'])})" for r in row["sides"]]
        assert f"{row['text']:>18}: {'   '.join(cells)}\n" in result.output
    assert "small pepper:" in result.output and "PEPPER" not in result.output

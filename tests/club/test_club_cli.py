"""``tricktable club``: an organiser's night from the command line, state in a JSON file; hand
scores typed in or read from a table's real host journal (SQLite)."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest
from click.testing import CliRunner
from tricktable.cli import main
from tricktable.engine import Engine
from tricktable.engine.actions import Deal
from tricktable.engine.events import HandScored
from tricktable.protocol import Control, encode
from tricktable.serve.journal import Journal


@pytest.fixture
def run(tmp_path):
    """Run ``tricktable club --night night.json ARGS`` in tmp_path."""
    runner = CliRunner()
    night = tmp_path / "night.json"

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(main, ["club", "--night", str(night), *args])
        assert (result.exit_code == 0) == ok, result.output
        return result.output

    invoke.night = night
    return invoke


@pytest.fixture
def players(tmp_path):
    path = tmp_path / "players.txt"
    path.write_text("# Thursday\nAnn\nBob\nCy\nDi\n\nEd\nFay\nGus\nHal\n")
    return str(path)


def test_a_short_night_start_to_standings(run, players):
    out = run("new", "--players", players, "--tables", "2", "--hands", "2", "--rounds", "2")
    assert "8 players at 2 tables" in out and "Ann" in out
    run("record", "1", "--scores", "9", "9")
    assert "took back A 9, B 9; 0 hands" in run("undo", "1")
    assert "no hand recorded" in run("undo", "1", ok=False)
    run("record", "1", "--scores", "3", "1")
    run("record", "1", "--scores", "2", "2")
    run("record", "2", "--scores", "0", "4")
    assert "game 1 over (table 1: A, table 2: B)" in run("bell")
    seating = list(csv.reader(io.StringIO(run("seating", "--format", "csv"))))
    assert seating[0][:5] == ["table", "N", "E", "S", "W"]
    assert seating[1][1:5] == ["Ann", "Cy", "Fay", "Hal"]   # head winners split, table 2's arrive
    assert seating[2][1:5] == ["Ed", "Gus", "Bob", "Di"]    # head losers at the tail
    run("record", "1", "--scores", "1", "0")
    run("record", "1", "--scores", "1", "0")
    run("record", "2", "--scores", "2", "2")
    assert "tied 2-2" in run("bell", ok=False)
    assert "last game" in run("bell", "--winner", "2=b")
    rows = list(csv.reader(io.StringIO(run("standings", "--format", "csv"))))
    assert rows[0] == ["rank", "player", "total", "won", "played", "note"]
    assert rows[1] == ["1", "Ann", "7", "2", "2", "high"]
    assert rows[-2:] == [["7", "Gus", "2", "1", "2", "low"], ["7", "Ed", "2", "0", "2", "low"]]
    text = run("standings", "--format", "text")
    assert text.startswith("Standings (final)") and "Ann" in text
    assert "Ann" in run("standings")
    sheet = list(csv.reader(io.StringIO(run("tally", "Ann", "--format", "csv"))))
    assert sheet == [["player", "game", "table", "seat", "partner", "score", "against", "result"],
                     ["Ann", "1", "1", "N", "Cy", "5", "3", "won"],
                     ["Ann", "2", "1", "N", "Fay", "2", "0", "won"]]
    assert "Zed" in run("tally", "Zed", ok=False)
    assert len(run("tally", "--format", "csv").splitlines()) == 1 + 8 * 2
    assert "night is over" in run("seating", ok=False)


def test_bad_input_is_refused_and_the_file_is_unchanged(run, players, tmp_path):
    assert "fill 2 tables, not 3" in run("new", "--players", players, "--tables", "3", ok=False)
    assert not run.night.exists()
    assert "no club night at" in run("seating", ok=False)
    run("new", "--players", players, "--tables", "2")
    before = run.night.read_bytes()
    assert "already holds a night" in run("new", "--players", players, "--tables", "2", ok=False)
    assert "no table 3" in run("record", "3", "--scores", "1", "0", ok=False)
    assert "either --scores" in run("record", "1", ok=False)
    assert "0 of its 8 hands" in run("bell", ok=False)
    assert "TABLE=A or TABLE=B" in run("bell", "--winner", "1:A", ok=False)
    assert run.night.read_bytes() == before


def play_hands(count: int, seed: int) -> tuple[Engine, list[tuple[int, int]]]:
    """A bid-euchre game of random legal play until ``count`` hands are scored; the hands'
    (N/S, E/W) scores as the engine announced them."""
    engine = Engine.new("bid-euchre", seed=seed, players=["Ann", "Bob", "Cy", "Di"])
    rng = random.Random(seed)
    scored: list[tuple[int, int]] = []
    while len(scored) < count and engine.phase != "game_over":
        legal = engine.legal_actions()
        deal = [a for a in legal if isinstance(a, Deal)]
        outcome = engine.apply(deal[0] if deal else rng.choice(legal))
        scored += [tuple(e.deltas) for e in outcome.events if isinstance(e, HandScored)]
    return engine, scored


def journal_game(path, table: str, engine: Engine) -> None:
    """Journal ``engine``'s game as the host service does: an entry, the game, its actions."""
    with Journal(path) as journal:
        control = Control(cmd="new_game")
        entry = journal.append_control(table, control, "c", encode(control))
        journal.record_game(table, 1, entry.id, dict(engine.config))
        journal.record_actions(table, 1, entry.id,
                               [(n, a.to_json()) for n, a in enumerate(engine.actions, 1)])


def test_record_a_tables_hands_from_its_journal(run, players, tmp_path):
    engine, scored = play_hands(3, seed=8)
    journal_game(tmp_path / "t2.sqlite", "t2", engine)
    run("new", "--players", players, "--tables", "2")
    out = run("record", "2", "--journal", str(tmp_path / "t2.sqlite"))
    a, b = sum(h[0] for h in scored), sum(h[1] for h in scored)
    assert f"table 2: {len(scored)} hands, A {a}, B {b}" in out
    saved = json.loads(run.night.read_text())
    assert [tuple(h) for h in saved["hands"][1]] == scored
    assert "no game 4" in run("record", "2", "--journal", str(tmp_path / "t2.sqlite"),
                              "--game", "4", ok=False)


def test_the_head_table_takes_only_its_hands_from_a_journal(run, players, tmp_path):
    engine, scored = play_hands(10, seed=2)
    journal_game(tmp_path / "t1.sqlite", "t1", engine)
    run("new", "--players", players, "--tables", "2")
    run("record", "1", "--journal", str(tmp_path / "t1.sqlite"), "--journal-table", "t1")
    saved = json.loads(run.night.read_text())
    assert [tuple(h) for h in saved["hands"][0]] == scored[:8]


def test_a_night_the_live_tables_keep_is_changed_only_from_the_console(run, players):
    run("new", "--players", players, "--tables", "2")
    data = json.loads(run.night.read_text())
    data["live"] = {"games": {"t1": 2, "t2": 2}, "bell": False, "closed": {}}
    run.night.write_text(json.dumps(data))
    before = run.night.read_bytes()
    refused = run("record", "1", "--scores", "3", "1", ok=False)
    assert "kept by the live tables" in refused and "director console" in refused
    assert run.night.read_bytes() == before
    run("seating")  # reading it is fine


def test_each_club_command_answers_help_without_a_night_file() -> None:
    """``club new --help`` explains itself; a command run without ``--night`` says it needs it."""
    for command in ("new", "standings", "record"):
        out = CliRunner().invoke(main, ["club", command, "--help"], env={"TRICKTABLE_NIGHT": ""})
        assert out.exit_code == 0 and f"Usage: main club {command}" in out.output, out.output
    out = CliRunner().invoke(main, ["club", "standings"], env={"TRICKTABLE_NIGHT": ""})
    assert out.exit_code == 2 and "Missing option '--night'" in out.output

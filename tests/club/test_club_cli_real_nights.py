"""``tricktable club arrive / substitute / end / unbell`` and a night with byes, from the command
line (the rules are the club's judgement calls of docs/club.md; “Bid Euchre”, section
“Progressive” is silent on them)."""

from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner
from tricktable.cli import main


def club(tmp_path, *args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(main, ["club", "--night", str(tmp_path / "night.json"), *args])
    assert (result.exit_code == 0) == ok, result.output
    return result.output


def test_a_night_of_nine_with_a_late_arrival_a_substitute_an_unbell_and_an_early_end(tmp_path):
    roster = tmp_path / "players.txt"
    roster.write_text("Ann\nBob\nCy\nDi\nEd\nFay\nGus\nHal\nIda\n")
    out = club(tmp_path, "new", "--players", str(roster), "--hands", "1", "--bye-score", "zero")
    assert "9 players at 2 tables" in out and "sitting out: Ida" in out
    assert "Jo joins at the bell of game 1" in club(tmp_path, "arrive", "Jo")
    assert "'jo' is already at the night (as 'Jo')" in club(tmp_path, "arrive", "jo", ok=False)
    assert "Sue plays for Bob from now" in club(tmp_path, "substitute", "Bob", "Sue")
    assert "Cy and Di have changed places" in club(tmp_path, "swap", "Cy", "Di")
    assert "'Jo' is not seated or sitting out" in club(tmp_path, "swap", "Cy", "Jo", ok=False)
    club(tmp_path, "record", "1", "--scores", "3", "1")
    club(tmp_path, "record", "2", "--scores", "0", "2")
    club(tmp_path, "bell")
    assert "the bell of game 1 is taken back" in club(tmp_path, "unbell")
    club(tmp_path, "undo", "2")
    club(tmp_path, "record", "2", "--scores", "2", "0")
    club(tmp_path, "bell")
    assert "the night ended after game 1" in club(tmp_path, "end")
    assert "the night is over: all 1 games are played" in club(
        tmp_path, "record", "1", "--scores", "1", "0", ok=False)
    tally = list(csv.reader(io.StringIO(club(tmp_path, "tally", "Ida", "Sue", "--format",
                                             "csv"))))
    assert tally[1] == ["Ida", "1", "-", "bye", "", "0", "0", "bye"]
    assert tally[2][:4] == ["Sue", "1", "1", "E"] and tally[2][-1] == "lost"
    assert "Standings (final)" in club(tmp_path, "standings", "--format", "text")
    saved = json.loads((tmp_path / "night.json").read_text())
    assert saved["ended"] == 1 and saved["games"][0]["changes"] == [["arrive", "Jo"],
                                                                    ["substitute", "Bob", "Sue"],
                                                                    ["swap", "Cy", "Di"]]


def test_unbell_and_end_with_nothing_to_take_back_say_so(tmp_path):
    roster = tmp_path / "players.txt"
    roster.write_text("Ann\nBob\nCy\nDi\n")
    club(tmp_path, "new", "--players", str(roster))
    assert "no bell has rung tonight" in club(tmp_path, "unbell", ok=False)
    assert "no hand has been played tonight" in club(tmp_path, "end", ok=False)

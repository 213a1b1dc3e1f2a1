"""Every command given a file of the wrong kind says so in one line, exits non-zero, and leaves
the file exactly as it was: a binary file, an empty one, Latin-1 text, a file of another
kind (a deck registry given as a journal, a journal as a registry). A UTF-8 byte-order mark
is not part of the first name. Read-only commands never create or change what they read.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostkit import make_registry
from tricktable.cli import main
from tricktable.serve.journal import Journal

BINARY = Path("/bin/ls").read_bytes()[:8192]
LATIN1 = "Zoë\nRenée\nAnn\nBob\n".encode("latin-1")
NO_BROKER = ["--broker", "mqtt://127.0.0.1:1", "--connect-timeout", "0.5"]


def registry_file(tmp: Path) -> bytes:
    make_registry(tmp / "a-registry.sqlite").close()
    return (tmp / "a-registry.sqlite").read_bytes()


def journal_file(tmp: Path) -> bytes:
    Journal(tmp / "a-journal.sqlite").close()
    return (tmp / "a-journal.sqlite").read_bytes()


KINDS = {"binary": lambda tmp: BINARY, "empty": lambda tmp: b"", "latin-1": lambda tmp: LATIN1,
         "registry": registry_file, "journal": journal_file}

# command -> (arguments with FILE, the kinds of file it must refuse)
COMMANDS = {
    "replay": (["replay", "FILE"], ["binary", "empty", "latin-1", "registry"]),
    "verify": (["verify", "FILE"], ["binary", "empty", "latin-1", "journal"]),
    "export": (["export", "FILE"], ["binary", "empty", "latin-1", "registry"]),
    "analyse": (["analyse", "FILE"], ["binary", "empty", "latin-1", "registry"]),
    "club new --players": (["club", "--night", "NIGHT", "new", "--players", "FILE",
                            "--tables", "1"], ["binary", "empty", "latin-1"]),
    "club --night": (["club", "--night", "FILE", "standings"],
                     ["binary", "empty", "latin-1", "journal"]),
    "club record --journal": (["club", "--night", "NIGHT", "record", "1", "--journal", "FILE"],
                              ["binary", "empty", "latin-1", "registry"]),
    "serve --club": (["serve", "--club", "FILE", *NO_BROKER], ["binary", "latin-1", "journal"]),
    "up --club": (["up", "--club", "FILE", "--data", "JOURNAL"], ["binary", "latin-1", "journal"]),
    "doctor --club": (["doctor", "--club", "FILE", "--data", "JOURNAL"],
                      ["binary", "latin-1", "journal"]),
    "serve --registry": (["serve", "--registry", "FILE", "--journal", "JOURNAL", *NO_BROKER],
                         ["binary", "empty", "latin-1", "journal"]),
    "serve --journal": (["serve", "--journal", "FILE", *NO_BROKER],
                        ["binary", "latin-1", "registry"]),
    "deck list --registry": (["deck", "list", "--registry", "FILE"],
                             ["binary", "empty", "latin-1", "journal"]),
    "web --journal": (["web", "--journal", "FILE", "--port", "0", *NO_BROKER[:2]],
                      ["binary", "empty", "latin-1", "registry"]),
}
CASES = [(name, kind) for name, (_, kinds) in COMMANDS.items() for kind in kinds]


@pytest.mark.parametrize(("name", "kind"), CASES, ids=[f"{n}-{k}" for n, k in CASES])
def test_a_file_of_the_wrong_kind_is_refused_in_one_line_and_left_as_it_was(tmp_path, name,
                                                                           kind):
    target = tmp_path / "given.file"
    target.write_bytes(KINDS[kind](tmp_path))
    before = (target.read_bytes(), os.stat(target).st_mtime_ns)
    night = tmp_path / "night.json"
    args = [str(target) if a == "FILE" else str(night) if a == "NIGHT"
            else str(tmp_path / "j.sqlite") if a == "JOURNAL" else a
            for a in COMMANDS[name][0]]
    if name == "club record --journal":
        players = tmp_path / "players.txt"
        players.write_text("Ann\nBob\nCy\nDi\n")
        assert CliRunner().invoke(main, ["club", "--night", str(night), "new", "--players",
                                         str(players), "--tables", "1"]).exit_code == 0
    result = CliRunner().invoke(main, args)
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert result.exit_code != 0 and result.exception is None or \
        isinstance(result.exception, SystemExit), result.output
    assert len(errors) == 1 and "given.file" in errors[0], result.output
    assert "Traceback" not in result.output
    assert (target.read_bytes(), os.stat(target).st_mtime_ns) == before


def test_read_only_commands_do_not_create_what_they_read(tmp_path):
    for args in (["deck", "list", "--registry", str(tmp_path / "none.sqlite")],
                 ["export", str(tmp_path / "none.sqlite")]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code != 0, result.output
    assert list(tmp_path.iterdir()) == []


def test_a_players_file_with_a_byte_order_mark_seats_ann_not_bom_ann(tmp_path):
    players = tmp_path / "players.txt"
    players.write_bytes("\ufeffAnn\nBob\nCy\nDi\n".encode())
    night = tmp_path / "night.json"
    result = CliRunner().invoke(main, ["club", "--night", str(night), "new", "--players",
                                       str(players), "--tables", "1"])
    assert result.exit_code == 0, result.output
    seating = CliRunner().invoke(main, ["club", "--night", str(night), "seating", "--format",
                                        "text"])
    assert "Ann" in seating.output and "\ufeff" not in seating.output


def test_replay_of_a_hand_the_game_does_not_have_says_which_it_has():
    example = Path(__file__).parents[2] / "examples" / "bid-euchre-game.txt"
    result = CliRunner().invoke(main, ["replay", str(example), "--hand", "99"])
    assert result.exit_code != 0
    assert "has no hand 99: its hands are 1 to" in result.output


def test_a_hand_history_saved_with_a_byte_order_mark_reads_as_without(tmp_path):
    example = Path(__file__).parents[2] / "examples" / "bid-euchre-game.txt"
    marked = tmp_path / "game.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + example.read_bytes())
    for command in ("verify", "replay"):
        result = CliRunner().invoke(main, [command, str(marked)])
        assert result.exit_code == 0, result.output

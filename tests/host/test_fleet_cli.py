"""``tricktable fleet``: the update key, a bundle built and signed with the club key, its
manifest one file a line, a damaged bundle refused before anything is offered, and when a
table counts as between hands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from tricktable.cli import main
from tricktable.deckkit.decks import Registry
from tricktable.fleet import bundle
from tricktable.fleet.updater import between_hands

ROOT = Path(__file__).resolve().parents[2]


def registry(tmp_path: Path) -> tuple[Path, bytes]:
    path = tmp_path / "decks.sqlite"
    with Registry(path) as reg:
        key_id = reg.club_key()
        key = reg.keys()[key_id]
    return path, key


def test_the_boards_key_is_derived_from_the_club_key_and_signs_the_bundle(tmp_path):
    path, club_key = registry(tmp_path)
    run = CliRunner().invoke(main, ["fleet", "key", "--registry", str(path)])
    assert run.exit_code == 0, run.output
    assert run.output.strip() == bundle.update_key(club_key) != club_key.hex()
    run = CliRunner().invoke(main, ["fleet", "bundle", "--version", "0.2.0", "--out",
                                    str(tmp_path / "b"), "--registry", str(path)])
    assert run.exit_code == 0, run.output
    made = bundle.load(tmp_path / "b", club_key)
    assert made.version == "0.2.0" and "app.mpy" in made.files
    assert not {"main.mpy", "fwslot.mpy", "virtual.mpy"} & set(made.files)  # the boot loader


def test_the_manifest_is_one_file_a_line_and_one_written_otherwise_is_refused(tmp_path):
    """docs/fleet.md, "Memory": a board parses the manifest a line at a time, so the host
    writes the head first, then one file a line; a bundle signed in another layout (made
    before boards read it so) is refused on the host, naming the fix."""
    _, club_key = registry(tmp_path)
    made = bundle.build(tmp_path / "b", "0.2.0", club_key)
    lines = made.manifest.splitlines()
    assert lines[0].endswith('"files": [') and lines[-1] == "]}"
    assert [json.loads(line.rstrip(","))["name"] for line in lines[1:-1]] == sorted(made.files)
    assert json.loads(made.manifest)["counter"] == made.counter  # still plain JSON
    doc = json.loads(made.manifest)
    old = bundle.sign(bundle.update_key(club_key), json.dumps(doc, indent=1).encode())
    (tmp_path / "b" / "manifest.json").write_text(json.dumps(doc, indent=1))
    (tmp_path / "b" / "manifest.sig").write_text(old + "\n")
    with pytest.raises(bundle.BundleError, match="not written one file a line.*fleet bundle"):
        bundle.load(tmp_path / "b", club_key)


def test_a_damaged_bundle_is_refused_before_any_board_is_offered_it(tmp_path):
    path, club_key = registry(tmp_path)
    bundle.build(tmp_path / "b", "0.2.0", club_key)
    app = tmp_path / "b" / "app.mpy"
    app.write_bytes(app.read_bytes()[:-1] + b"\x00")
    run = CliRunner().invoke(main, ["fleet", "update", str(tmp_path / "b"), "--club",
                                    str(ROOT / "examples" / "club.toml"), "--registry",
                                    str(path), "--broker", "mqtt://127.0.0.1:1"])
    assert run.exit_code == 1 and "app.mpy: SHA-256 differs from the manifest" in run.output


def test_a_table_is_between_hands_before_the_first_bid_and_after_the_game():
    assert between_hands(None) and between_hands({"phase": None})
    assert between_hands({"phase": "deal", "bids": [], "trick": {"cards": []}, "tricks": []})
    assert between_hands({"phase": "play", "game_over": True})
    assert not between_hands({"phase": "bidding", "bids": [{"seat": 1, "bid": "PASS"}]})
    assert not between_hands({"phase": "play", "trick": {"cards": [{"seat": 0, "card": "AS"}]}})

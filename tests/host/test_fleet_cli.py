"""``tricktable fleet``: the firmware signing key (made once, its public key printed), a bundle
built and signed with it, a migration bundle signed the old way too, its manifest one file a
line, a damaged bundle refused before anything is offered, and when a table counts as between
hands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from tricktable.cli import main
from tricktable.deckkit.decks import Registry
from tricktable.fleet import bundle, signing
from tricktable.fleet.updater import between_hands

ROOT = Path(__file__).resolve().parents[2]


def registry(tmp_path: Path) -> tuple[Path, bytes]:
    """The deck registry (its club key) and, beside it, the firmware signing key."""
    path = tmp_path / "decks.sqlite"
    with Registry(path) as reg:
        key_id = reg.club_key()
        key = reg.keys()[key_id]
    signing.generate(tmp_path / "fleet-signing.key")
    return path, key


def test_the_signing_key_is_made_once_and_its_public_key_checks_the_bundle(tmp_path):
    path = tmp_path / "decks.sqlite"
    Registry(path).close()
    run = CliRunner().invoke(main, ["fleet", "keygen", "--registry", str(path)])
    assert run.exit_code == 0, run.output
    public = run.output.strip()
    key = tmp_path / "fleet-signing.key"
    assert key.stat().st_mode & 0o777 == 0o600, "the private key is the host's alone"
    again = CliRunner().invoke(main, ["fleet", "keygen", "--registry", str(path)])
    assert again.exit_code == 1 and "a signing key is made once" in again.output
    assert key.read_bytes() and signing.public_key(key) == public
    run = CliRunner().invoke(main, ["fleet", "key", "--registry", str(path)])
    assert run.exit_code == 0 and run.output.strip() == public, run.output
    run = CliRunner().invoke(main, ["fleet", "bundle", "--version", "0.2.0", "--out",
                                    str(tmp_path / "b"), "--registry", str(path)])
    assert run.exit_code == 0, run.output
    made = bundle.load(tmp_path / "b", public)
    assert made.version == "0.2.0" and "app.mpy" in made.files and made.hmac is None
    assert json.loads(made.manifest)["pub"] == public
    assert not {"main.mpy", "fwslot.mpy", "virtual.mpy"} & set(made.files)  # the boot loader


def test_each_signature_spends_its_one_time_key_on_disk_before_it_is_released(tmp_path):
    """HSS/LMS is stateful (RFC 8554 section 5.2, NIST SP 800-208): a one-time key signs once.
    The key file is written back with the key spent before ``sign`` returns, so a second
    signature, from the file as it now stands, uses the next one."""
    key = tmp_path / "fleet-signing.key"
    public = signing.generate(key)
    before = signing.remaining(key)
    first = signing.sign(key, b"manifest one")
    assert signing.remaining(key) == before - 1
    second = signing.sign(key, b"manifest two")
    leaf = slice(2408, 2412)  # the lower tree's leaf number (two levels of H5/W4)
    assert first[leaf] != second[leaf]
    assert signing.verify(public, b"manifest one", first)
    assert signing.verify(public, b"manifest two", second)
    assert not signing.verify(public, b"manifest two", first)
    assert not list(tmp_path.glob("*.new")), "no temporary file left"


def test_a_migration_bundle_is_signed_both_ways(tmp_path):
    """docs/fleet.md, "Moving boards to public-key signatures": ``--migrate`` adds the old
    HMAC under the club's update key (what old boards check), beside the public-key one."""
    path, club_key = registry(tmp_path)
    run = CliRunner().invoke(main, ["fleet", "bundle", "--version", "0.2.0", "--migrate",
                                    "--out", str(tmp_path / "b"), "--registry", str(path)])
    assert run.exit_code == 0, run.output
    made = bundle.load(tmp_path / "b", signing.public_key(tmp_path / "fleet-signing.key"))
    assert made.hmac == bundle.hmac_sign(bundle.update_key(club_key), made.manifest.encode())
    assert made.offer_sig == made.hmac  # what an old board's offer carries


def test_the_manifest_is_one_file_a_line_and_one_written_otherwise_is_refused(tmp_path):
    """docs/fleet.md, "Memory": a board parses the manifest a line at a time, so the host
    writes the head first, then one file a line; a bundle signed in another layout (made
    before boards read it so) is refused on the host, naming the fix."""
    registry(tmp_path)
    key = tmp_path / "fleet-signing.key"
    made = bundle.build(tmp_path / "b", "0.2.0", key)
    lines = made.manifest.splitlines()
    assert lines[0].endswith('"files": [') and lines[-1] == "]}"
    assert [json.loads(line.rstrip(","))["name"] for line in lines[1:-1]] == sorted(made.files)
    assert json.loads(made.manifest)["counter"] == made.counter  # still plain JSON
    doc = json.loads(made.manifest)
    old = signing.sign(key, json.dumps(doc, indent=1).encode())
    (tmp_path / "b" / "manifest.json").write_text(json.dumps(doc, indent=1))
    (tmp_path / "b" / "manifest.sig").write_bytes(old)
    with pytest.raises(bundle.BundleError, match="not written one file a line.*fleet bundle"):
        bundle.load(tmp_path / "b", signing.public_key(key))


def test_a_damaged_bundle_is_refused_before_any_board_is_offered_it(tmp_path):
    path, _ = registry(tmp_path)
    bundle.build(tmp_path / "b", "0.2.0", tmp_path / "fleet-signing.key")
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


def test_a_signature_whose_spent_key_cannot_be_written_is_never_released(tmp_path):
    """The key file cannot be written back (here its temporary file's name is taken by a
    directory, as a full or broken disk would fail it): ``sign`` raises, hands out nothing,
    and the key file still holds the unspent key, so no signature was made with it."""
    key = tmp_path / "fleet-signing.key"
    signing.generate(key)
    before = key.read_bytes()
    (tmp_path / "fleet-signing.key.new").mkdir()
    with pytest.raises(OSError):
        signing.sign(key, b"manifest")
    assert key.read_bytes() == before


def test_a_bundle_without_a_signing_key_is_refused_and_nothing_is_written(tmp_path):
    path = tmp_path / "decks.sqlite"
    Registry(path).close()
    run = CliRunner().invoke(main, ["fleet", "bundle", "--version", "0.2.0", "--out",
                                    str(tmp_path / "b"), "--registry", str(path)])
    assert run.exit_code == 1 and "`tricktable fleet keygen` makes one" in run.output
    assert not (tmp_path / "b").exists()

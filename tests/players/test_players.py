"""The club database of players (docs/stats.md, "Players"): one person in every night,
through renames and merges; hidden players are Guests on public pages; migrations numbered."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from tricktable.cli import main
from tricktable.players import GUEST, ClubDB, Players, PlayersError
from tricktable.players.db import SCHEMA_VERSION


@pytest.fixture()
def players(tmp_path: Path) -> Players:
    return Players(ClubDB(tmp_path / "club.sqlite"))


def test_a_new_database_is_migrated_to_the_latest_version(tmp_path: Path) -> None:
    db = ClubDB(tmp_path / "club.sqlite")
    assert db.version == SCHEMA_VERSION
    db.close()
    assert ClubDB(tmp_path / "club.sqlite", readonly=True).version == SCHEMA_VERSION


def test_a_database_from_version_1_is_brought_up_to_date_keeping_its_players(
        tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    old = sqlite3.connect(path)
    from tricktable.players.db import MIGRATIONS
    old.executescript(MIGRATIONS[0] + "INSERT INTO players (name) VALUES ('Ann');"
                      "INSERT INTO names VALUES ('ann', 'Ann', 1); PRAGMA user_version = 1;")
    old.close()
    with ClubDB(path) as db:
        assert db.version == SCHEMA_VERSION
        assert Players(db).find("ANN").name == "Ann"


def test_a_database_newer_than_the_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    sqlite3.connect(path).execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(PlayersError, match="newer tricktable"):
        ClubDB(path)


def test_a_file_that_is_not_a_club_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    path.write_text("a shopping list\n" * 100)
    with pytest.raises(PlayersError, match="is not a club database"):
        ClubDB(path)


def test_a_renamed_player_keeps_the_old_name(players: Players) -> None:
    ann = players.add("Ann")
    players.rename("ann", "Ann Baker")
    assert players.find("Ann").id == players.find("ann baker").id == ann.id
    assert players.find("Ann").name == "Ann Baker"


def test_a_merge_gives_the_kept_player_every_name_and_tag(players: Players) -> None:
    bob = players.add("Bob Smith", tags=("04:A1:B2:C3",))
    typo = players.add("Bobb", tags=("04A1B2C4",))
    merged = players.merge("Bob Smith", "bobb")
    assert merged.id == bob.id and set(merged.names) == {"bob smith", "bobb"}
    assert merged.tags == ("04A1B2C3", "04A1B2C4")
    assert players.find("Bobb").id == bob.id
    assert typo.id not in [p.id for p in players.all()]


def test_a_hidden_player_is_a_guest_on_public_pages(players: Players) -> None:
    players.add("Cy")
    assert players.set_flags("cy", hidden=True).public_name == GUEST


@pytest.mark.parametrize("change, reason", [
    (lambda p: p.add("ann"), "already a player's name"),
    (lambda p: p.add("  "), "empty"),
    (lambda p: p.rename("Ann", "Bob"), "another player's name"),
    (lambda p: p.merge("Ann", "ann"), "already the same player"),
    (lambda p: p.tag("Bob", "04A1B2C3"), "player 1's"),
    (lambda p: p.tag("Ann", "not hex"), "hex bytes"),
    (lambda p: p.find("Zed"), "no player called 'Zed'"),
])
def test_bad_input_is_refused_and_changes_nothing(players: Players, change, reason) -> None:
    players.add("Ann", tags=("04A1B2C3",))
    players.add("Bob")
    before = players.all(merged=True)
    with pytest.raises(PlayersError, match=reason):
        change(players)
    assert players.all(merged=True) == before


def test_the_players_command(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite")
    run = CliRunner().invoke
    assert run(main, ["players", "--db", db, "add", "Di", "--tag", "04A1B2C3"]).exit_code == 0
    assert run(main, ["players", "--db", db, "add", "Dee"]).exit_code == 0
    out = run(main, ["players", "--db", db, "merge", "Di", "Dee"])
    assert out.exit_code == 0 and "also dee" in out.output, out.output
    refused = run(main, ["players", "--db", db, "rename", "Zed", "Z"])
    assert refused.exit_code == 1 and "no player called 'Zed'" in refused.output
    listed = run(main, ["players", "--db", db, "list"]).output
    assert listed.splitlines() == ["#1 Di · also dee · tags 04A1B2C3"]


def test_member_tags_enrolled_at_the_reader_are_taken_by_their_players(
        players: Players, tmp_path: Path) -> None:
    """``enroll --kind members`` keeps member number -> name and UID -> member in the deck
    registry (docs/club.md, "Member tags"); ``players import-tags`` gives each its player."""
    from tricktable.deckkit import tags
    from tricktable.deckkit.decks import Registry, Slot

    registry = Registry(tmp_path / "decks.sqlite")
    registry.create_deck(90, "members")
    numbers = registry.add_members(90, ["Ann", "Bob"])
    for number, uid in zip(sorted(numbers), (b"\x04\xa1\xb2\xc3", b"\x04\xa1\xb2\xc4"),
                           strict=True):
        registry.enroll(uid, 90, Slot(tags.MEMBER_CODE, number))
    players.add("Ann")
    assert players.import_member_tags(registry) == [("Ann", "04A1B2C3"), ("Bob", "04A1B2C4")]
    assert players.find("Ann").tags == ("04A1B2C3",)
    assert players.by_tag("04a1b2c4").name == "Bob"  # a member the club had not entered
    assert players.import_member_tags(registry) == []  # again: nothing new

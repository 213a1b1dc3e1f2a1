"""Data written by the previous release opens in this one (docs/appliance.md, "Upgrades";
docs/storage.md): a journal, a night file, a players database and a deck registry made by
commit 7c73ea1's own code (tests/data/upgrade-7c73ea1/README.md says how) are opened by
today's: the journal is brought to this journal version and gives back the same hand
histories, the night the same standings, the players database this schema, the registry this
schema with the same decks, members and tags; and a file from a newer release is refused with
a clear error, nothing changed.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from tricktable.club import load_night, standings
from tricktable.deckkit.decks import REGISTRY_SCHEMA, Registry, RegistryError
from tricktable.history import write_text
from tricktable.players.db import SCHEMA_VERSION, ClubDB, PlayersError
from tricktable.serve.journal import JOURNAL_VERSION, Journal, JournalError

OLD = Path(__file__).parent.parent / "data" / "upgrade-7c73ea1"


@pytest.fixture
def old(tmp_path) -> Path:
    """A copy of the old files (opening for writing migrates them)."""
    copy = tmp_path / "old"
    shutil.copytree(OLD, copy)
    return copy


def user_version(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


def test_an_old_journal_is_migrated_and_gives_the_same_hand_histories(old):
    assert user_version(old / "journal.sqlite") == 0
    with Journal(old / "journal.sqlite", readonly=True) as journal:  # read as it is
        assert journal.games("t1")
    with Journal(old / "journal.sqlite") as journal:
        for name in ("t1-game2", "t1-game3", "t2-game3"):
            table, game = name.split("-game")
            assert write_text(journal.history(table, int(game))) == \
                (old / f"{name}.txt").read_text()
    assert user_version(old / "journal.sqlite") == JOURNAL_VERSION


def test_a_journal_from_a_newer_release_is_refused_unchanged(old):
    db = sqlite3.connect(old / "journal.sqlite")
    db.execute(f"PRAGMA user_version = {JOURNAL_VERSION + 1}")
    db.close()
    before = (old / "journal.sqlite").read_bytes()
    for readonly in (False, True):
        with pytest.raises(JournalError, match=f"journal version {JOURNAL_VERSION + 1}; "
                                               "this tricktable knows up to"):
            Journal(old / "journal.sqlite", readonly=readonly)
    assert (old / "journal.sqlite").read_bytes() == before


def test_an_old_night_file_gives_the_same_standings(old):
    night = load_night(old / "night.json")
    rows = [[s.name, s.total, s.won, s.played] for s in standings(night.tallies())]
    assert rows == json.loads((old / "standings.json").read_text())


def test_an_old_players_database_opens_at_this_schema(old):
    db = ClubDB(old / "club.sqlite")
    try:
        assert db.version == SCHEMA_VERSION
        assert db.query("SELECT count(*) FROM players")[0][0] == 8
    finally:
        db.close()


def test_a_players_database_from_a_newer_release_is_refused_unchanged(old):
    db = sqlite3.connect(old / "club.sqlite")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    before = (old / "club.sqlite").read_bytes()
    for readonly in (False, True):
        with pytest.raises(PlayersError, match=f"club database version {SCHEMA_VERSION + 1}; "
                                               "this tricktable knows up to"):
            ClubDB(old / "club.sqlite", readonly=readonly)
    assert (old / "club.sqlite").read_bytes() == before


def registry_answers(registry: Registry) -> dict:
    return {"decks": [[d.deck_id, d.kind, d.name] for d in registry.decks()],
            "members": {str(k): v for k, v in registry.members(2000).items()},
            "tags": {uid.hex(): slot.name for deck in (1, 1001)
                     for uid, slot in sorted(registry.enrolled(deck).items())}}


def test_an_old_deck_registry_is_migrated_and_answers_the_same(old):
    then = json.loads((old / "decks.json").read_text())
    assert user_version(old / "decks.sqlite") == 0
    with Registry(old / "decks.sqlite", readonly=True) as registry:  # read as it is
        assert registry_answers(registry) == then
        assert registry.last_check(1) is None  # that release had no deck checks
    with Registry(old / "decks.sqlite") as registry:
        assert registry_answers(registry) == then
        registry.record_check(1, ok=True, at=1.0)
        assert registry.last_check(1).ok
    assert user_version(old / "decks.sqlite") == REGISTRY_SCHEMA.version


def test_a_deck_registry_from_a_newer_release_is_refused_unchanged(old):
    db = sqlite3.connect(old / "decks.sqlite")
    db.execute(f"PRAGMA user_version = {REGISTRY_SCHEMA.version + 1}")
    db.close()
    before = (old / "decks.sqlite").read_bytes()
    for readonly in (False, True):
        with pytest.raises(RegistryError, match=f"deck registry version "
                                                f"{REGISTRY_SCHEMA.version + 1}; this "
                                                "tricktable knows up to"):
            Registry(old / "decks.sqlite", readonly=readonly)
    assert (old / "decks.sqlite").read_bytes() == before

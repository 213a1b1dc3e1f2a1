"""Data written by the previous release opens in this one (docs/appliance.md, "Upgrades"):
a journal, a night file and a players database made by commit 7c73ea1's own code
(tests/data/upgrade-7c73ea1/README.md says how) are opened by today's: the journal is
brought to this journal version and gives back the same hand histories, the night the same
standings, the players database this schema; and a file from a newer release is refused
with a clear error, nothing changed.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from tricktable.club import load_night, standings
from tricktable.history import write_text
from tricktable.players.db import SCHEMA_VERSION, ClubDB
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

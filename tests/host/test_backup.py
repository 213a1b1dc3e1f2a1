"""Backups of a night (docs/appliance.md): ``tricktable up`` copies the night file and the
journal (SQLite's online backup API) after every game and at the night's end, keeping the
last N; ``tricktable restore`` brings one back, and the night carries on from it to the same
results as a night that was never restored ("Bid Euchre", section "Bid euchre variations",
"Progressive": the tallies of each game).
"""

from __future__ import annotations

import sqlite3

import pytest
from test_live_night import hands_scored
from tricktable.appliance import backup
from tricktable.appliance.settings import load_settings
from tricktable.club.store import load_night
from tricktable.club.tournament import ProgressiveTournament
from upkit import OPTIONS, TABLES, Up
from waiting import eventually


def test_a_backup_keeps_the_last_n_and_copies_a_database_in_use(tmp_path):
    (tmp_path / "club.toml").write_text(
        '[club]\nname = "c"\njournal = "journal.sqlite"\n'
        '[host]\nnight = "night.json"\nclub_db = "club.sqlite"\nbackups = "b"\nkeep = 2\n')
    (tmp_path / "night.json").write_text('{"format": "x"}\n')
    writer = sqlite3.connect(tmp_path / "journal.sqlite")
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE t (n INTEGER)")
    writer.execute("INSERT INTO t VALUES (1)")
    writer.commit()
    writer.execute("BEGIN")
    writer.execute("INSERT INTO t VALUES (2)")  # not committed while the backup is taken
    settings = load_settings(tmp_path / "club.toml", tmp_path / "data")
    taken = [backup.take(settings, f"game-{n}") for n in (1, 2, 3)]
    writer.rollback()
    writer.close()
    assert backup.listing(settings) == taken[1:]
    assert sorted(p.name for p in taken[-1].iterdir()) == ["journal.sqlite", "night.json"]
    copy = sqlite3.connect(taken[-1] / "journal.sqlite")
    assert copy.execute("SELECT n FROM t").fetchall() == [(1,)]
    copy.close()


@pytest.mark.slow
def test_a_backup_restored_mid_night_carries_on_to_the_same_results(tmp_path, topic_prefix):
    up = Up(tmp_path, topic_prefix)
    try:
        first = [list(t) for t in load_night(tmp_path / "night.json").seating]
        for table, players in zip(TABLES, first, strict=True):
            up.seated(table, 2, players)
        for table in ("t2", "t1"):
            up.play_until(table, lambda s: s.public_state()["hand_number"] == 2)
        eventually(lambda: "backup after game 1" in up.log(), "a backup after game 1", 60)
        game1 = {t: hands_scored(up.shadows[t]) for t in TABLES}
        second = [list(t) for t in load_night(tmp_path / "night.json").seating]
        for table, players in zip(TABLES, second, strict=True):
            up.seated(table, 3, players)
        up.play_until("t1", lambda s: s.phase == "play")  # game 2 under way: then lost
        assert up.stop() == 0
        restored = up.command("restore", "--club", str(tmp_path / "club.toml"),
                              "--data", str(up.data))
        assert restored.returncode == 0, restored.stdout + restored.stderr
        assert "restored night.json, journal.sqlite" in restored.stdout
        mark = up.observer.mark()
        up.start()
        for table, players in zip(TABLES, second, strict=True):
            up.seated(table, 3, players, mark)  # game 2 starts again from its deal
        for table in ("t2", "t1"):
            up.play_until(table, lambda s: s.public_state()["hand_number"] == 2)
        eventually(lambda: load_night(tmp_path / "night.json").finished, "the night's end", 60)
        eventually(lambda: "backup after night over" in up.log(), "a backup at the end", 60)
        expected = ProgressiveTournament(first, OPTIONS)
        for number, table in enumerate(TABLES, 1):
            expected.set_hands(number, game1[table])
        expected.bell()
        for number, table in enumerate(TABLES, 1):
            expected.set_hands(number, hands_scored(up.shadows[table]))
        expected.bell()
        assert load_night(tmp_path / "night.json").tallies() == expected.tallies()
        settings = load_settings(tmp_path / "club.toml", up.data)
        assert [p.name.split("-", 2)[2] for p in backup.listing(settings)] == \
            ["game-1", "night-over"]
    finally:
        up.close()

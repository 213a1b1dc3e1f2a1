"""The journal: WAL, stored before applied, duplicates refused by key, games derived."""

from __future__ import annotations

import sqlite3

import pytest
from tricktable.journal import Journal, JournalError
from tricktable.protocol import Control, PadEvent, encode


def _event(seq: int, boot: int = 1, board: str = "n1") -> PadEvent:
    return PadEvent(board=board, boot=boot, seq=seq, t=0, pad=0, uid="04a1b2c3")


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def test_file_is_in_wal_mode(tmp_path, journal):
    mode = sqlite3.connect(tmp_path / "j.sqlite").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_duplicate_pad_event_is_refused_by_its_key(journal):
    ev = _event(5)
    first = journal.append_pad("t1", ev, "topic", encode(ev))
    assert first is not None and first.seq == 5
    assert journal.append_pad("t1", ev, "topic", encode(ev)) is None
    # same seq after a reboot (new boot id) or from another board is a new event
    assert journal.append_pad("t1", _event(5, boot=2), "topic", b"{}") is not None
    assert journal.append_pad("t1", _event(5, board="n2"), "topic", b"{}") is not None
    assert journal.count("pad") == 3


def test_control_with_id_is_stored_once(journal):
    ctl = Control(cmd="undo", id="r1")
    assert journal.append_control("t1", ctl, "c", encode(ctl)) is not None
    assert journal.append_control("t1", ctl, "c", encode(ctl)) is None
    anonymous = Control(cmd="undo")
    assert journal.append_control("t1", anonymous, "c", b"1") is not None
    assert journal.append_control("t1", anonymous, "c", b"1") is not None


def test_invalid_messages_are_kept_but_not_replayed(journal):
    journal.append_invalid(None, "x/y", b"garbage", "malformed: not JSON")
    journal.append_pad("t1", _event(1), "topic", b"{}")
    assert [e.kind for e in journal.entries()] == ["pad"]
    assert [e.note for e in journal.entries(kinds=("invalid",))] == ["malformed: not JSON"]
    assert journal.tables() == ["t1"]


def test_entries_survive_reopening(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        j.append_pad("t1", _event(1), "topic", b"one")
    with Journal(tmp_path / "j.sqlite") as j:
        assert [e.payload for e in j.entries("t1")] == [b"one"]


def test_live_action_list_folds_undo(journal):
    e = [journal.append_pad("t1", _event(i), "t", b"{}") for i in range(5)]
    journal.record_game("t1", 1, e[0].id, {"variant": "bid-euchre"})
    journal.record_actions("t1", 1, e[0].id, [(1, {"a": 1})])
    journal.record_actions("t1", 1, e[1].id, [(2, {"a": 2})])
    journal.record_actions("t1", 1, e[2].id, [(1, None)])  # undo
    journal.record_actions("t1", 1, e[3].id, [(2, {"a": 3}), (3, {"a": 4})])
    journal.record_actions("t1", 1, e[3].id, [(2, {"a": 3}), (3, {"a": 4})])  # replay: ignored
    [game] = journal.games("t1")
    assert game.setup == {"variant": "bid-euchre"}
    assert game.actions == [{"a": 1}, {"a": 3}, {"a": 4}]


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(JournalError, match="cannot use .*bad.sqlite as a journal"):
        Journal(bad)

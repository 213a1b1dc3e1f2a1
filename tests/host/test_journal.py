"""The journal: WAL, stored before applied, duplicates refused by key, games derived."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest
from storagekit import needs_namespaces, run_in_tmpfs
from tricktable.protocol import Control, PadEvent, encode
from tricktable.serve.journal import REFUSED_KEEP, Journal, JournalError


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
    [refused] = journal.entries(kinds=("invalid",))
    assert refused.note.startswith("malformed: not JSON [7 bytes, sha256 ")
    assert journal.tables() == ["t1"]


def test_a_refused_message_is_kept_bounded_with_the_hash_of_the_whole(journal):
    flood = b"x" * 1_000_000
    journal.append_invalid("t1", "x/y", flood, "too_large")
    [refused] = journal.entries(kinds=("invalid",))
    assert refused.payload == flood[:REFUSED_KEEP]
    assert f"[1000000 bytes, sha256 {hashlib.sha256(flood).hexdigest()}]" in refused.note


def test_a_transaction_stores_everything_or_nothing(journal):
    with pytest.raises(RuntimeError), journal.transaction():
        journal.append_pad("t1", _event(1), "topic", b"{}")
        journal.record_actions("t1", 1, 1, [(1, {"type": "deal"})])
        raise RuntimeError("the table failed while applying")
    assert journal.count() == 0 and journal.games("t1") == []
    with journal.transaction():
        entry = journal.append_pad("t1", _event(1), "topic", b"{}")
    assert entry is not None and journal.count("pad") == 1


def test_fault_counts_survive_reopening(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        assert j.record_fault("t/1", b"poison", "KeyError: 'x'") == 1
        assert j.record_fault("t/1", b"other", "KeyError: 'x'") == 1
    with Journal(tmp_path / "j.sqlite") as j:
        assert j.record_fault("t/1", b"poison", "KeyError: 'x'") == 2


READ_ONLY_THEN_BACK = """
from tricktable.serve.journal import Journal, JournalError, StorageError
from tricktable.protocol import PadEvent

def event(seq):
    return PadEvent(board="n1", boot=1, seq=seq, t=0, pad=0, uid="04a1b2c3")

def remount(how):
    subprocess.run(["mount", "-o", "remount," + how, MOUNT], check=True)

path = MOUNT + "/j.sqlite"
with Journal(path) as j:
    j.append_pad("t1", event(1), "topic", b"{}")
remount("ro")
try:
    Journal(path)
    raise SystemExit("a journal on a read-only mount opened for writing")
except JournalError as exc:
    print("refused:", exc)
j = Journal(path, degraded_ok=True)
assert j.unwritable and [e.seq for e in j.entries()] == [1], j.unwritable
try:
    j.append_pad("t1", event(2), "topic", b"{}")
    raise SystemExit("stored on a read-only mount")
except StorageError as exc:
    print("not stored:", exc)
assert not j.probe()
remount("rw")
assert j.probe() and j.unwritable is None
assert j.append_pad("t1", event(2), "topic", b"{}") is not None
assert [e.seq for e in j.entries()] == [1, 2]
print("done")
"""


@needs_namespaces
def test_a_journal_on_read_only_storage_is_read_then_written_when_storage_returns(tmp_path):
    ran = run_in_tmpfs(READ_ONLY_THEN_BACK, tmp_path / "mnt")
    assert ran.returncode == 0 and ran.stdout.endswith("done\n"), ran.stdout + ran.stderr


FULL_THEN_FREED = """
import os
from tricktable.serve.journal import Journal, StorageError
from tricktable.protocol import PadEvent

def event(seq):
    return PadEvent(board="n1", boot=1, seq=seq, t=0, pad=0, uid="04a1b2c3")

j = Journal(MOUNT + "/j.sqlite")
j.append_pad("t1", event(1), "topic", b"{}")
fd = os.open(MOUNT + "/filler", os.O_WRONLY | os.O_CREAT)
try:
    while True:
        os.write(fd, bytes(4096))
except OSError:
    os.close(fd)
try:
    with j.transaction():
        j.append_pad("t1", event(2), "topic", b"x" * 20000)
    raise SystemExit("stored on a full disk")
except StorageError as exc:
    print("not stored:", exc)
os.remove(MOUNT + "/filler")
assert j.probe()
with j.transaction():
    j.append_pad("t1", event(2), "topic", b"x" * 20000)
assert [e.seq for e in j.entries()] == [1, 2]
print("done")
"""


@needs_namespaces
def test_a_full_disk_stores_nothing_of_a_write_and_then_recovers(tmp_path):
    ran = run_in_tmpfs(FULL_THEN_FREED, tmp_path / "mnt", size="512k")
    assert ran.returncode == 0 and ran.stdout.endswith("done\n"), ran.stdout + ran.stderr


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

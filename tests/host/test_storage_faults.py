"""Storage that fails under a running service: a full disk mid-game, a read-only journal after
a restart. The service stops acknowledging, says so on its status topic and every table's
display, keeps trying, and resumes by itself when storage is back; the boards resend what was
not acknowledged, and nothing is lost.

``tricktable serve`` runs as its own process with its journal on a small tmpfs in a private
user and mount namespace (tests/storagekit.py), so the disk really fills and really turns
read-only; the boards resend as the firmware's outbox does (``ResendingBoard``).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from hostkit import (
    SEATS,
    Observer,
    ResendingBoard,
    bot_choice,
    club_toml,
    make_registry,
    new_shadow,
    tap_for,
)
from storagekit import Sandbox, needs_namespaces
from tricktable.history import verify
from tricktable.mqtt.broker import mosquitto_available
from tricktable.protocol import HostStatus, decode
from tricktable.serve.journal import Journal

pytestmark = [needs_namespaces,
              pytest.mark.skipif(not mosquitto_available(), reason="needs mosquitto"),
              pytest.mark.timeout(240)]


class StorageTable:
    """``serve`` in a sandbox with its journal on the tmpfs, four resending boards, an observer."""

    def __init__(self, port: int, prefix: str, tmp_path: Path) -> None:
        self.port, self.prefix, self.tmp = port, prefix, tmp_path
        (tmp_path / "club.toml").write_text(club_toml(prefix))
        make_registry(tmp_path / "decks.sqlite").close()
        self.mount = tmp_path / "mnt"
        self.sandbox = Sandbox(self.mount, "16m", tmp_path / "serve.log")
        self.observer = Observer(port, prefix, persistent=True)
        self.topics = self.observer.topics
        self.start()
        self.boards = [ResendingBoard(port, prefix, f"t1-{s}", resend_s=0.3) for s in SEATS]
        self.shadow, self.rng = new_shadow(), random.Random(12)

    def start(self) -> None:
        mark = self.observer.mark()
        self.sandbox.start([
            sys.executable, "-c", "from tricktable.cli import main; main()", "serve",
            "--club", str(self.tmp / "club.toml"), "--broker", f"mqtt://127.0.0.1:{self.port}",
            "--journal", str(self.mount / "journal.sqlite"),
            "--registry", str(self.tmp / "decks.sqlite"), "--client-id", f"host-{self.prefix}"])
        self.status(mark, online=True)

    def status(self, start: int, **wanted) -> HostStatus:
        """The first host status from ``start`` with the ``wanted`` field values."""
        def match(topic: str, payload: bytes) -> bool:
            if topic != self.topics.host_status() or not payload:
                return False
            return all(json.loads(payload).get(k) == v for k, v in wanted.items())

        try:
            return decode(HostStatus, self.observer.wait_for(match, start, 20)[2], 4096)
        except TimeoutError:
            raise AssertionError(f"no host status with {wanted}\n{self.sandbox.output()}") from None

    def shows(self, text8: str, start: int) -> None:
        """Wait until the table's display shows ``text8``."""
        self.observer.wait_for(lambda t, p: t == self.topics.display("t1")
                               and json.loads(p)["text8"] == text8, start, 20)

    def tap(self) -> dict:
        """The next action, tapped at its seat's board; returns its JSON."""
        action = bot_choice(self.shadow, self.rng)
        assert self.shadow.apply(action).ok
        self.boards[action.seat].tap(tap_for(action))
        return action.to_json()

    def accepted(self, action: dict, start: int) -> int:
        try:
            index, verdict = self.observer.verdict("t1", start)
        except TimeoutError:
            raise AssertionError(f"no verdict for {action}\n{self.sandbox.output()}") from None
        assert (verdict.kind, verdict.action) == ("accepted", action), \
            f"{verdict}\n{self.sandbox.output()}"
        return index

    def play_until(self, stop) -> None:
        while not stop(self.shadow):
            mark = self.observer.mark()
            self.accepted(self.tap(), mark)

    def journal_copy(self) -> Journal:
        """The journal as the stopped service left it, copied out of the namespace."""
        self.sandbox.command("signal", "15")
        (self.tmp / "copy").mkdir()
        self.sandbox.command("copy", str(self.tmp / "copy"))
        return Journal(self.tmp / "copy" / "journal.sqlite")

    def close(self) -> None:
        for board in self.boards:
            board.close()
        self.observer.close()
        self.sandbox.close()


@pytest.fixture
def table(fresh_broker, topic_prefix, tmp_path):
    t = StorageTable(fresh_broker.port, topic_prefix, tmp_path)
    yield t
    t.close()


def in_play(shadow) -> bool:
    return shadow.phase == "play" and len(shadow.public_state()["tricks"]) >= 1


def test_a_full_disk_mid_game_holds_the_plays_and_loses_none(table):
    table.play_until(in_play)
    mark = table.observer.mark()
    table.sandbox.command("fill")
    held = table.tap()  # the board keeps it: not acknowledged while the disk is full
    failing = table.status(mark, storage="failing")
    assert "full" in failing.detail, failing
    table.shows("DISK ERR", mark)
    assert table.boards[held["seat"]].unacked, "a play was acknowledged that was not stored"
    table.sandbox.command("free")
    table.accepted(held, mark)  # resent by the board, stored and applied once storage is back
    table.status(mark, storage="ok")
    table.play_until(lambda s: s.public_state()["game_over"])
    with table.journal_copy() as journal:
        assert journal.count("pad") == len(table.shadow.actions)  # none lost, none doubled
        [game] = journal.games("t1")
        assert game.actions == [a.to_json() for a in table.shadow.actions]
        assert verify(journal.history("t1", 1)) == []


def test_a_read_only_journal_after_a_restart_resumes_when_writable(table):
    table.play_until(in_play)
    table.sandbox.command("signal", "15")
    table.sandbox.command("ro")
    mark = table.observer.mark()
    table.start()
    failing = table.status(mark, storage="failing")
    assert "cannot write" in failing.detail, failing
    table.shows("DISK ERR", mark)
    held = table.tap()
    table.sandbox.command("rw")
    table.accepted(held, mark)
    table.status(mark, storage="ok")
    table.play_until(lambda s: len(s.public_state()["tricks"]) >= 3)
    with table.journal_copy() as journal:
        assert journal.count("pad") == len(table.shadow.actions)
        assert journal.games("t1")[0].actions == [a.to_json() for a in table.shadow.actions]

"""Faults: the host SIGKILLed mid-hand, the broker restarted mid-hand. Nothing is lost.

Each test plays a hand by raw pad events alongside a shadow engine, breaks something in the
middle, keeps the boards tapping, and checks that the hand finishes with every action applied
once and the retained state equal to the shadow engine's.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hostkit import (
    SEATS,
    Board,
    Observer,
    bot_choice,
    club_toml,
    make_club,
    make_registry,
    new_shadow,
    retained_state,
    tap_for,
)
from tricktable.deckkit.decks import Registry
from tricktable.mqtt.broker import mosquitto_available
from tricktable.protocol import encode
from tricktable.serve.journal import Journal
from tricktable.serve.service import BrokerURL, Service

pytestmark = pytest.mark.skipif(not mosquitto_available(), reason="needs mosquitto (persistence)")


def start_host_process(tmp_path: Path, port: int, prefix: str) -> subprocess.Popen[bytes]:
    """``tricktable serve`` as its own process, as a club runs it."""
    club = tmp_path / "club.toml"
    if not club.exists():
        club.write_text(club_toml(prefix))
        make_registry(tmp_path / "decks.sqlite").close()
    command = [sys.executable, "-c", "from tricktable.cli import main; main()", "serve",
               "--club", str(club), "--broker", f"mqtt://127.0.0.1:{port}",
               "--journal", str(tmp_path / "journal.sqlite"),
               "--registry", str(tmp_path / "decks.sqlite"), "--client-id", f"host-{prefix}"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def tap_and_check(boards, observer, shadow, rng) -> None:
    action = bot_choice(shadow, rng)
    assert shadow.apply(action).ok
    mark = observer.mark()
    boards[action.seat].tap(tap_for(action))
    verdict = observer.verdict("t1", mark)[1]
    assert (verdict.kind, verdict.action) == ("accepted", action.to_json()), verdict


def tap_blind(boards, shadow, rng, n: int) -> list[dict]:
    """Tap ``n`` actions without waiting for verdicts (the host may be down): each is at the
    broker before the next is tapped, so the broker keeps their order."""
    done = []
    for _ in range(n):
        action = bot_choice(shadow, rng)
        assert shadow.apply(action).ok
        board = boards[action.seat]
        board.wait_delivered(board.send(board.event(0, tap_for(action))))
        done.append(action.to_json())
    return done


def expected_state(shadow) -> dict:
    return {**shadow.public_state(), "table": "t1", "game": 1, "round": None,
            "actions": len(shadow.actions)}


def without_boards(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "boards_online"}


def test_host_killed_mid_hand_finishes_the_hand(fresh_broker, topic_prefix, tmp_path):
    port, prefix = fresh_broker.port, topic_prefix
    observer = Observer(port, prefix, persistent=True)
    boards = [Board(port, prefix, f"t1-{s}") for s in SEATS]
    host = start_host_process(tmp_path, port, prefix)
    try:
        observer.wait_for(lambda t, p: t == observer.topics.state("t1"))
        shadow, rng = new_shadow(), random.Random(5)
        while shadow.phase != "play" or len(shadow.public_state()["tricks"]) < 2:
            tap_and_check(boards, observer, shadow, rng)
        host.send_signal(signal.SIGKILL)
        host.wait(10)
        mark = observer.mark()
        blind = tap_blind(boards, shadow, rng, 5)  # played while the host is dead
        host = start_host_process(tmp_path, port, prefix)
        for action in blind:  # the five are applied, once and in order, after the restart
            mark, verdict = observer.verdict("t1", mark)
            assert (verdict.kind, verdict.action) == ("accepted", action), verdict
        hand = shadow.public_state()["hand_number"]
        while shadow.public_state()["hand_number"] == hand:
            tap_and_check(boards, observer, shadow, rng)
        state = retained_state(port, prefix, len(shadow.actions))
        assert without_boards(state) == expected_state(shadow)
        with Journal(tmp_path / "journal.sqlite") as journal:
            assert journal.count("pad") == len(shadow.actions)
            assert journal.games("t1")[0].actions == [a.to_json() for a in shadow.actions]
    finally:
        host.send_signal(signal.SIGTERM)
        host.wait(10)
        for board in boards:
            board.close()
        observer.close()


def test_broker_restarted_mid_hand_loses_nothing(fresh_broker, topic_prefix, tmp_path):
    port, prefix = fresh_broker.port, topic_prefix
    make_registry(tmp_path / "decks.sqlite").close()
    journal, registry = Journal(tmp_path / "journal.sqlite"), Registry(tmp_path / "decks.sqlite")
    service = Service(make_club(prefix), journal, registry, BrokerURL("127.0.0.1", port),
                      client_id=f"host-{prefix}")
    service.start()
    assert service.connected.wait(10)
    observer = Observer(port, prefix, persistent=True)
    boards = [Board(port, prefix, f"t1-{s}") for s in SEATS]
    try:
        shadow, rng = new_shadow(), random.Random(9)
        while shadow.phase != "play" or len(shadow.public_state()["tricks"]) < 1:
            tap_and_check(boards, observer, shadow, rng)
        restart = threading.Thread(target=fresh_broker.restart, kwargs={"down_for": 1.0})
        mark = observer.mark()
        restart.start()
        while fresh_broker.running:
            time.sleep(0.01)
        blind = tap_blind(boards, shadow, rng, 6)  # tapped while the broker is down
        restart.join(15)
        # each applied once, in order; the observer's persistent session may be handed a
        # verdict it had before the restart again (QoS 1 is at least once): not a new one
        before = {payload for _, payload, _ in observer.messages[:mark]}
        for action in blind:
            mark, verdict = observer.verdict("t1", mark)
            while encode(verdict) in before:
                mark, verdict = observer.verdict("t1", mark)
            assert (verdict.kind, verdict.action) == ("accepted", action), verdict
        hand = shadow.public_state()["hand_number"]
        while shadow.public_state()["hand_number"] == hand:
            tap_and_check(boards, observer, shadow, rng)
        state = retained_state(port, prefix, len(shadow.actions))
        assert without_boards(state) == expected_state(shadow)
        assert journal.count("pad") == len(shadow.actions)
    finally:
        for board in boards:
            board.close()
        observer.close()
        service.stop()
        journal.close()
        registry.close()


def test_no_host_process_is_left_behind():
    """The kill test starts ``tricktable serve`` processes; none may outlive the suite's test."""
    mine = [line for line in subprocess.run(["ps", "-o", "pid=,ppid=,args=", "--ppid", str(os.getpid())],
                                            capture_output=True, text=True).stdout.splitlines()
            if "tricktable.cli" in line]
    assert mine == []

"""The demo end to end: embedded broker, host service, web scoreboard, virtual boards on the
real firmware and bots play complete games; the journal holds every play; Ctrl-C stops it
with nothing left running."""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from signals import ctrl_c_default
from tricktable.cli import main
from tricktable.demo.runner import Demo, DemoConfig, DemoError
from tricktable.rules.base import OptionError
from tricktable.serve.journal import Journal
from waiting import eventually

TRICKTABLE = Path(sys.executable).parent / "tricktable"


def test_two_tables_play_a_complete_game_each_headless(tmp_path: Path) -> None:
    """“Bid Euchre”, section “Single Deck Bid Euchre”, “Winning”: a game ends at its hand limit (here 1)."""
    demo = Demo(DemoConfig(tables=2, games=1, speed=0, web_port=0, seed=7, revoke_rate=0.05,
                           options={"hand_limit": 1}, workdir=tmp_path))
    demo.start()
    try:
        assert demo.wait(timeout=240), "the demo games did not finish"
        def both_games_over() -> bool:
            club = httpx.get(f"{demo.web_url}/api/club").json()["tables"]
            return len(club) == 2 and all(t["game_over"] for t in club)

        eventually(both_games_over, "the scoreboard showing both games over")
        recorded = httpx.get(f"{demo.web_url}/api/table/t1/hands").json()["hands"]
        assert [(h["game"], h["hand"]) for h in recorded] == [(1, 1)]
        hand = httpx.get(f"{demo.web_url}/api/table/t1/hands/1/1").json()
        assert len(hand["tricks"]) == 6 and hand["complete"] and hand["contract"]
    finally:
        demo.stop()
    assert sorted(s.table for s in demo.summaries) == ["t1", "t2"]
    for summary in demo.summaries:
        assert summary.hands == 1 and summary.winner in summary.sides
        assert summary.actions > 24 + 24, "the hand is scanned, bid and played"
    with Journal(demo.journal_path) as journal:
        assert journal.count("pad") >= sum(s.actions for s in demo.summaries)
        assert all(journal.games(t) for t in ("t1", "t2"))
    histories = demo.export_histories()
    assert [p.name for p in histories] == [f"{s.table}-game1.txt" for s in demo.summaries]
    for path in histories:
        result = CliRunner().invoke(main, ["verify", str(path)])
        assert result.exit_code == 0, result.output


def test_every_table_of_a_club_sized_demo_plays_its_own_deck(tmp_path: Path) -> None:
    """Eleven tables: t10 and t11 sort before t2 as text, and must still get decks 10 and 11."""
    demo = Demo(DemoConfig(tables=11, speed=0, web_port=None, seed=3, workdir=tmp_path))
    demo.start()
    try:
        def every_table_scanning() -> bool:
            if demo.error is not None:
                raise AssertionError(f"a simulated table stopped: {demo.error}")
            with Journal(demo.journal_path) as journal:
                return all(len(journal.games(f"t{n}")[0].actions) >= 2 for n in range(1, 12))

        eventually(every_table_scanning, "eleven tables each scanning their own cards", 180, 0.5)
    finally:
        demo.stop()
    assert demo.error is None


def test_boards_losing_power_mid_game_lose_and_double_nothing(tmp_path: Path) -> None:
    """A board that loses power boots again from its flash: what the host had not acknowledged
    is sent again, and the host applies each play once. A board loses power whenever the
    journal has grown since the last cut (on a slow machine too, the game goes on between
    cuts)."""
    demo = Demo(DemoConfig(tables=1, games=1, speed=0, web_port=None, seed=5,
                           options={"hand_limit": 1}, workdir=tmp_path))
    demo.start()
    cuts = 0
    try:
        rng = random.Random(5)
        with Journal(demo.journal_path, readonly=True) as watched:
            seen = watched.count()
            while not demo.wait(timeout=0.25):
                if (now := watched.count()) > seen:
                    seen = now
                    demo.power_cycle(rng.choice(demo.boards()))
                    cuts += 1
    finally:
        demo.stop()
    [summary] = demo.summaries
    assert cuts >= 5 and summary.hands == 1
    with Journal(demo.journal_path) as journal:
        assert len(journal.games("t1")[0].actions) == summary.actions
    [history] = demo.export_histories()
    result = CliRunner().invoke(main, ["verify", str(history)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("variant", ["spades", "double-deck", "five-handed"])
def test_other_variants_play_a_hand_through_the_whole_stack(tmp_path: Path, variant: str) -> None:
    """Bots scan, bid and play a spades hand (52 cards), a double-deck hand (copies of each
    card) and a five-handed one on the virtual boards; the host scores it."""
    demo = Demo(DemoConfig(variant=variant, tables=1, games=1, speed=0, web_port=None, seed=3,
                           options={"hand_limit": 1}, workdir=tmp_path))
    demo.start()
    try:
        assert demo.wait(timeout=120)
    finally:
        demo.stop()
    (summary,) = demo.summaries
    assert summary.variant == variant and summary.winner in summary.sides


def test_demo_refuses_bad_settings_naming_them() -> None:
    with pytest.raises(LookupError, match="unknown variant 'whist'"):
        Demo(DemoConfig(variant="whist"))
    with pytest.raises(OptionError, match="no_such_rule"):
        Demo(DemoConfig(options={"no_such_rule": 1}))
    with pytest.raises(DemoError, match="--tables must be 1..64"):
        Demo(DemoConfig(tables=0))
    with pytest.raises(DemoError, match="--speed must be 0"):
        Demo(DemoConfig(speed=-1))
    result = CliRunner().invoke(main, ["demo", "--option", "target"])
    assert result.exit_code == 2 and "use KEY=VALUE" in result.output


def _port_open(url: str) -> bool:
    host, port = re.match(r"http://([\d.]+):(\d+)", url).groups()
    with socket.socket() as s:
        return s.connect_ex((host, int(port))) == 0


@pytest.mark.skipif(not TRICKTABLE.exists(), reason="the tricktable script is not installed")
@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_ctrl_c_stops_the_demo_cleanly(tmp_path: Path, stop_signal: int) -> None:
    proc = subprocess.Popen(
        [str(TRICKTABLE), "demo", "--tables", "1", "--port", "0", "--no-view", "--speed", "4",
         "--workdir", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        preexec_fn=ctrl_c_default)
    try:
        first = proc.stdout.readline()
        url = re.search(r"web (http://\S+)", first.replace("\n", " "))
        while url is None:
            first += proc.stdout.readline()
            url = re.search(r"web (http://\S+)", first.replace("\n", " "))
            assert proc.poll() is None, first
        url = url.group(1)
        eventually(lambda: httpx.get(f"{url}/api/club").json()["tables"],
                   "a table reporting to the scoreboard", timeout=60, every=0.1)
        time.sleep(1.0)  # let some plays happen; nothing below depends on how many
        proc.send_signal(stop_signal)
        out, _ = proc.communicate(timeout=60)
        assert proc.returncode == 0, first + out
        assert "journal: " in out
        for path in re.findall(r"hand history: (\S+)", out):
            assert CliRunner().invoke(main, ["verify", path]).exit_code == 0
        assert not _port_open(url)
        with pytest.raises(ProcessLookupError):  # no broker or other child left behind
            os.killpg(proc.pid, 0)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def retained_under(port: int, prefix: str) -> list[str]:
    """Topics with a retained message under ``prefix``: subscribe, then wait for a marker
    published after the subscription (the broker hands retained messages over first)."""
    import paho.mqtt.client as mqtt

    got, done = [], threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)

    def on_message(c, u, msg) -> None:
        if msg.topic == f"{prefix}/zz-marker":
            done.set()
        elif msg.retain and msg.payload:
            got.append(msg.topic)

    client.on_message = on_message
    client.connect("127.0.0.1", port)
    client.loop_start()
    client.subscribe(f"{prefix}/#", qos=1)
    client.publish(f"{prefix}/zz-marker", b"x", qos=1)
    assert done.wait(10), "the marker never came back"
    client.disconnect()
    client.loop_stop()
    return got


def test_on_a_club_broker_the_demo_keeps_off_the_clubs_topics_and_clears_up(fresh_broker,
                                                                          tmp_path):
    result = CliRunner().invoke(main, [
        "demo", "--broker", f"mqtt://127.0.0.1:{fresh_broker.port}", "--tables", "1",
        "--games", "1", "--speed", "0", "--option", "hand_limit=1", "--no-view", "--port", "0",
        "--seed", "4", "--workdir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert retained_under(fresh_broker.port, "tricktable") == []
    assert retained_under(fresh_broker.port, "tricktable-demo") == []

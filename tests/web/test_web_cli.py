"""``tricktable web`` and ``tricktable watch``: bad input is a clear error, nothing starts; a
table that never appears is named; Ctrl-C stops the web quietly, and SIGTERM too, without
waiting on a browser's open event stream; a finished night, or a hand history to replay,
is served without a broker."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from signals import ctrl_c_default
from tricktable.cli import main
from tricktable.club.store import save_night
from tricktable.club.tournament import ProgressiveOptions, ProgressiveTournament
from tricktable.mqtt.broker import free_port
from waiting import eventually

REPO = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_a_bad_broker_url_is_refused() -> None:
    for command in ("web", "watch"):
        code, out = run(command, "--broker", "http://example.org")
        assert code == 1 and "bad broker URL 'http://example.org'" in out


def test_a_broker_that_does_not_answer_is_named() -> None:
    port = free_port()
    for command in ("web", "watch"):
        code, out = run(command, "--broker", f"mqtt://127.0.0.1:{port}", *(
            ["--port", "0"] if command == "web" else []))
        assert code == 1 and f"no MQTT broker answered at 127.0.0.1:{port}" in out


def test_watch_refuses_a_table_id_that_cannot_be_a_topic() -> None:
    code, out = run("watch", "a/b")
    assert code == 2 and "'a/b' is not a table id" in out


def test_watch_names_a_table_that_never_appears(mqtt_broker, topic_prefix) -> None:
    code, out = run("watch", "nosuchtable", "--broker", f"mqtt://127.0.0.1:{mqtt_broker.port}",
                    "--prefix", topic_prefix, "--wait", "0.5")
    assert code == 1 and "no table nosuchtable on the broker" in out and "after 0.5 s" in out


def test_web_stops_quietly_on_ctrl_c(mqtt_broker, tmp_path) -> None:
    web = subprocess.Popen([sys.executable, "-c", "from tricktable.cli import main; main()", "web",
                            "--broker", f"mqtt://127.0.0.1:{mqtt_broker.port}", "--port", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=ctrl_c_default)
    try:
        first = web.stdout.readline()
        assert "scoreboard on" in first, first + web.stderr.read()
        web.send_signal(signal.SIGINT)
        out, err = web.communicate(timeout=20)
    finally:
        if web.poll() is None:
            web.kill()
    assert web.returncode == 0 and "Aborted" not in out + err, out + err


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM])
def test_web_stops_at_once_with_an_event_stream_open(mqtt_broker, stop_signal) -> None:
    """The scoreboard ends its event streams before uvicorn waits on connections: a TV left
    open does not hold a stop up until uvicorn's graceful-shutdown timeout cancels it."""
    web = subprocess.Popen([sys.executable, "-c", "from tricktable.cli import main; main()", "web",
                            "--broker", f"mqtt://127.0.0.1:{mqtt_broker.port}", "--port", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=ctrl_c_default)
    streaming = threading.Event()
    ended: list[str] = []

    def watch(url: str) -> None:
        with httpx.stream("GET", f"{url}/api/stream", timeout=30) as response:
            streaming.set()
            for _ in response.iter_bytes():
                pass
        ended.append("the stream ended")

    try:
        first = web.stdout.readline()
        assert "scoreboard on" in first, first + web.stderr.read()
        url = re.search(r"http://\S+", first).group(0).rstrip(",")
        eventually(lambda: _get(url), "the scoreboard answering")
        tv = threading.Thread(target=watch, args=(url,), daemon=True)
        tv.start()
        assert streaming.wait(10), "the event stream did not open"
        web.send_signal(stop_signal)
        out, err = web.communicate(timeout=20)
        tv.join(5)
    finally:
        if web.poll() is None:
            web.kill()
    assert ended == ["the stream ended"], out + err
    assert "graceful shutdown exceeded" not in err, err
    # after stopping cleanly the signal takes its course: Ctrl-C is no error, SIGTERM ends it
    assert web.returncode == (0 if stop_signal == signal.SIGINT else -signal.SIGTERM), out + err


def test_web_serves_a_finished_night_without_a_broker(tmp_path) -> None:
    """After the night the broker may be gone: ``web --night`` still serves the night's
    standings and results from its file, and says it runs without a broker."""
    night = ProgressiveTournament.new(["Ann", "Bob", "Cy", "Di"], 1,
                                      ProgressiveOptions(hands_per_round=1, rounds=1))
    night.set_hands(1, [(4, 2)])
    night.bell()
    save_night(night, tmp_path / "night.json")
    with web_without_broker("--night", str(tmp_path / "night.json")) as (first, url):
        standings = eventually(lambda: _get(f"{url}/api/standings"), "the scoreboard answering")
        assert standings.json()["finished"] and standings.json()["standings"][0]["total"] == 4
        assert httpx.get(f"{url}/results").status_code == 200


@contextmanager
def web_without_broker(*args: str) -> Iterator[tuple[str, str]]:
    """``tricktable web ARGS`` with no broker at its address: its first line and its address;
    stopped by Ctrl-C after the block, which it must take cleanly, having said once that it
    serves without a broker."""
    port = free_port()
    web = subprocess.Popen([sys.executable, "-c", "from tricktable.cli import main; main()", "web",
                            "--broker", f"mqtt://127.0.0.1:{port}", "--port", "0", *args],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=ctrl_c_default)
    try:
        first = web.stdout.readline()
        assert "without a broker" in first, first + web.stderr.read()
        yield first, re.search(r"http://\S+", first).group(0).rstrip(",")
        web.send_signal(signal.SIGINT)
        out, err = web.communicate(timeout=20)
    finally:
        if web.poll() is None:
            web.kill()
    assert web.returncode == 0, out + err
    assert err.count("serving without a broker") == 1, err  # said once, not per start


def _get(url: str) -> httpx.Response | None:
    try:
        return httpx.get(url)
    except httpx.TransportError:
        return None


def test_web_replays_a_hand_history_without_a_broker() -> None:
    """The demo's summary names each game's hand history; after the demo its broker is gone,
    and ``web --history FILE`` still serves the file's replay, saying it runs without one."""
    history = REPO / "examples" / "bid-euchre-unknown-revoke.txt"
    with web_without_broker("--history", str(history)) as (first, url):
        assert "replays" in first, first
        hands = eventually(lambda: _get(f"{url}/api/table/{history.stem}/hands"),
                           "the scoreboard answering")
        assert len(hands.json()["hands"]) == 1
        assert httpx.get(f"{url}/replay/{history.stem}").status_code == 200

"""A first night from the docs' steps (docs/club.md, "Setting up"): ``tricktable club init``
makes the club file with its ``[host]`` section, the deck registry, the players and their night;
``tricktable up`` on it starts a night whose host runs (the tables' host says it serves, and
the scoreboard sees both tables, and the club's name for the TV's title). Without the deck
registry, ``up`` stops at once with one line saying what to do, instead of restarting the host
for ever.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx
from tricktable.appliance import credentials
from upkit import listen_port
from waiting import eventually

CLI = [sys.executable, "-c", "from tricktable.cli import main; main()"]


def init(folder, ports: dict[str, int]) -> None:
    made = subprocess.run([*CLI, "club", "init", str(folder),
                           "--broker", f"mqtt://127.0.0.1:{ports['broker']}",
                           "--web", f"127.0.0.1:{ports['web']}",
                           "--console", f"127.0.0.1:{ports['console']}",
                           "--tls-port", str(ports["tls"])],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr + made.stdout
    assert "tricktable up --club" in made.stdout


def free_ports() -> dict[str, int]:
    ports: set[int] = set()
    while len(ports) < 4:
        ports.add(listen_port())
    return dict(zip(("broker", "tls", "web", "console"), sorted(ports), strict=True))


def test_up_from_club_init_starts_a_night_whose_host_runs(tmp_path):
    ports = free_ports()
    init(tmp_path / "club", ports)
    up = subprocess.Popen([*CLI, "up", "--club", str(tmp_path / "club" / "club.toml"),
                           "--data", str(tmp_path / "data")], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, start_new_session=True)
    log = tmp_path / "data" / "up.log"
    try:
        eventually(lambda: log.exists() and "tricktable serving 2 table(s)" in log.read_text(),
                   "the tables' host serving", timeout=60)

        def both_tables() -> bool:
            try:
                club = httpx.get(f"http://127.0.0.1:{ports['web']}/api/club").json()
            except httpx.HTTPError:
                return False
            return [t["table"] for t in club["tables"]] == ["t1", "t2"] and club["host"]["running"]

        eventually(both_tables, "the scoreboard sees the host and both tables", timeout=60)
        # the TV's title: the club's name from the club file `club init` made
        club = httpx.get(f"http://127.0.0.1:{ports['web']}/api/club").json()
        assert club["host"]["club"] == "Riverside Euchre Club", club["host"]
    finally:
        os.killpg(up.pid, signal.SIGTERM)
        out, _ = up.communicate(timeout=30)
    assert up.returncode == 0, out + (log.read_text() if log.exists() else "")
    assert "restart" not in log.read_text(), log.read_text()


def test_up_without_the_deck_registry_stops_at_once_saying_what_to_do(tmp_path):
    init(tmp_path / "club", free_ports())
    (tmp_path / "club" / "decks.sqlite").unlink()
    started = time.monotonic()
    up = subprocess.run([*CLI, "up", "--club", str(tmp_path / "club" / "club.toml"),
                         "--data", str(tmp_path / "data")], capture_output=True, text=True,
                        timeout=30)
    took = time.monotonic() - started
    assert up.returncode != 0, up.stdout
    lines = up.stderr.strip().splitlines()
    assert len(lines) == 1 and "no deck registry" in lines[0] and "club init" in lines[0], \
        up.stderr
    assert took < 5, f"up took {took:.1f} s to give up"


def test_up_says_when_it_uses_a_broker_it_did_not_start(tmp_path, mqtt_broker):
    """Debian's mosquitto left running (docs/club.md, "Setting up"): up uses the broker it
    finds as it is, so it says so where it would print the boards' `board setup` line, which
    is for the club's own broker (its TLS port would not be listening)."""
    ports = free_ports()
    ports["broker"] = mqtt_broker.port
    init(tmp_path / "club", ports)
    up = subprocess.Popen([*CLI, "up", "--club", str(tmp_path / "club" / "club.toml"),
                           "--data", str(tmp_path / "data")], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        boards = next(line for line in up.stdout if line.startswith("boards:"))
    finally:
        os.killpg(up.pid, signal.SIGTERM)
        up.communicate(timeout=30)
    assert f"a broker was running at 127.0.0.1:{mqtt_broker.port} before up" in boards, boards
    assert "board setup" not in boards and "systemctl disable --now mosquitto" in boards


def test_the_doctor_stops_a_night_on_a_broker_that_checks_no_password(tmp_path, mqtt_broker):
    """Such a broker (here the tests' own, anonymous) lets the watch user in and a made-up
    password too: anyone who reaches it could speak for the boards, so the doctor's broker
    line fails. Its control: up's own broker refuses the made-up password
    (tests/host/test_up_ports.py, the squatter's test)."""
    ports = free_ports()
    ports["broker"] = mqtt_broker.port
    init(tmp_path / "club", ports)
    credentials.ensure(tmp_path / "data")  # as up makes them
    done = subprocess.run([*CLI, "doctor", "--club", str(tmp_path / "club" / "club.toml"),
                           "--data", str(tmp_path / "data")],
                          capture_output=True, text=True, timeout=120)
    broker = next((line for line in done.stdout.splitlines() if " broker " in line), "")
    assert done.returncode == 1 and broker.startswith(
        f"✗ broker mqtt://127.0.0.1:{mqtt_broker.port} lets in a password nobody was given: "
        "it checks no password"), done.stdout + done.stderr

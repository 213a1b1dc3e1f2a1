"""``tricktable up`` for tests: a demo-sized club (two Bid Euchre tables of raw boards, each
board with its own broker password as ``tricktable board setup`` gives it, each connected over
TLS with the club's CA that up made), a night, and ``up`` run as a child in its own process
group, so a test can kill one part or the whole tree. The test's observer logs in as
``tricktable-admin`` (a line the test adds to the club's password file): a user none of up's
parts runs as, so it takes no part's session (the broker binds client ids to users).

The boards (``hostkit.ResendingBoard``, with their passwords) keep every play until the host
acknowledges it and send it again meanwhile, as the firmware's outbox does (firmware/README.md,
"The outbox"), so a broker that lost its sessions in a SIGKILL loses no play. The tables are played by shadow engines, as in
test_live_night_kill.py.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

from hostkit import (
    SEATS,
    Observer,
    ResendingBoard,
    bot_choice,
    club_toml,
    last_action,
    make_registry,
    tap_for,
)
from tricktable.club.store import save_night
from tricktable.club.tournament import ProgressiveOptions, ProgressiveTournament
from tricktable.engine import Engine
from tricktable.mqtt.broker import free_port
from tricktable.protocol import TableEvent, decode
from tricktable.provision.passwords import add_board_user, add_user
from waiting import eventually

ROSTER = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
TABLES = ("t1", "t2")
OPTIONS = ProgressiveOptions(hands_per_round=1, rounds=2)
PARTS = ("broker", "serve", "web", "console")
SEEDS = {"t1": 3, "t2": 2}
OBSERVER = "tricktable-admin"


def listen_port() -> int:
    """A free port below Linux's ephemeral range (ip_local_port_range, 32768 up by default),
    for a part of ``up`` to listen on: a port ``free_port`` hands out can be taken, before
    the part binds it, as the source port of another part's own connection to the broker
    (seen: the console's port taken by the scoreboard's MQTT client)."""
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    chosen = random.SystemRandom()
    for _ in range(100):
        port = chosen.randrange(max(1024, low - 12000), low)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    return free_port()


class Up:
    """A club with ``tricktable up`` (its own mosquitto, web and console on free ports)."""

    def __init__(self, tmp: Path, prefix: str, host_extra: str = "", start: bool = True) -> None:
        """The club's files; with ``start``, up started and the boards and observer with it."""
        self.tmp, self.prefix = tmp, prefix
        self.data = tmp / "data"
        ports: set[int] = set()
        while len(ports) < 4:
            ports.add(listen_port())
        self.port, self.tls_port, self.web_port, self.console_port = sorted(ports)
        self.passwords = passwords = {f"{t}-{s}": f"pw-{t}-{s}" for t in TABLES for s in SEATS}
        for board, password in passwords.items():
            add_board_user(tmp / "boards.passwd", board, password)
        add_user(tmp / "boards.passwd", OBSERVER, "observer-pw")
        club = club_toml(prefix, TABLES).replace(
            f'prefix = "{prefix}"', f'prefix = "{prefix}"\nregistry = "decks.sqlite"\n'
                                    f'journal = "journal.sqlite"', 1)
        (tmp / "club.toml").write_text(club + "\n".join([
            "[host]", 'night = "night.json"', f'broker = "mqtt://127.0.0.1:{self.port}"',
            f"tls_port = {self.tls_port}",
            'passwd = "boards.passwd"', f'web = "127.0.0.1:{self.web_port}"',
            f'console = "127.0.0.1:{self.console_port}"', 'backups = "backups"', "keep = 5",
            host_extra]) + "\n")
        make_registry(tmp / "decks.sqlite").close()
        save_night(ProgressiveTournament.new(ROSTER, 2, OPTIONS), tmp / "night.json")
        self.proc: subprocess.Popen | None = None
        self.runs = 0
        if start:
            self.begin()

    def begin(self) -> None:
        """Start up, then the observer and the boards."""
        self.start()
        prefix, passwords = self.prefix, self.passwords
        self.observer = Observer(self.port, prefix, auth=(OBSERVER, "observer-pw"))
        ca = self.data / "broker" / "certs" / "ca.crt"
        self.boards = {t: [ResendingBoard(self.tls_port, prefix, f"{t}-{s}", resend_s=1.0,
                                          password=passwords[f"{t}-{s}"], tls_ca=ca)
                           for s in SEATS] for t in TABLES}
        self.shadows: dict[str, Engine] = {}
        self.rngs: dict[str, random.Random] = {}

    # -- the tree --------------------------------------------------------------------------
    @property
    def out(self) -> Path:
        return self.tmp / f"up-{self.runs}.out"

    def output(self) -> str:
        return self.out.read_text(errors="replace")

    def log(self) -> str:
        path = self.data / "up.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def secret(self, name: str) -> str:
        return (self.data / "secrets" / name).read_text().strip()

    def command(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", "from tricktable.cli import main; main()",
                               *args], capture_output=True, text=True, timeout=120)

    def start(self) -> None:
        """Start ``up`` and wait until every part is ready (the console serves last)."""
        self.runs += 1
        with self.out.open("w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from tricktable.cli import main; main()", "up",
                 "--club", str(self.tmp / "club.toml"), "--data", str(self.data)],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        eventually(lambda: self.proc.poll() is not None or self.output().count(
            "director console on") >= 1 and set(self.pids()) == set(PARTS),
            f"up's parts all started ({self.out})", timeout=120)
        assert self.proc.poll() is None, self.output()

    def pids(self) -> dict[str, int]:
        try:
            return json.loads((self.data / "up.json").read_text())["parts"]
        except (OSError, ValueError):
            return {}

    def addresses(self) -> dict[str, str]:
        """What up printed: ``TV: URL`` and the like."""
        return dict(re.findall(r"^(TV|phones|console): (\S+)$", self.output(), re.M))

    def kill_part(self, part: str) -> None:
        """SIGKILL one part; wait until up has started it again."""
        old = self.pids()[part]
        os.kill(old, signal.SIGKILL)
        try:
            eventually(lambda: self.pids().get(part, old) != old, f"{part} started again", 60)
        except AssertionError as failed:
            raise AssertionError(f"{failed}\n{self.log()[-3000:]}\n{self.output()[-2000:]}") \
                from None
        assert f"{part} exited (signal 9)" in self.log(), self.log()

    def kill_all(self) -> None:
        """SIGKILL the whole tree at once, as a power cut does."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(15)

    def stop(self) -> int:
        """Stop up as systemd does (SIGTERM to the whole group); its exit status."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        os.killpg(self.proc.pid, signal.SIGTERM)
        return self.proc.wait(60)

    def close(self) -> None:
        self.stop()
        if not hasattr(self, "observer"):
            return  # never begun
        for boards in self.boards.values():
            for board in boards:
                board.close()
        self.observer.close()

    # -- play ------------------------------------------------------------------------------
    def seated(self, table: str, game: int, players: list[str], mark: int = 0) -> None:
        """Wait (from the observer's message ``mark``) until ``table`` plays ``game`` with
        ``players``; follow it with a new shadow and the bots' choices from their seed (these
        seeds tie no table's first hand: a tied table waits for the director)."""
        state = self.observer.topics.state(table)
        self.observer.wait_for(lambda t, p: t == state and json.loads(p)["game"] == game
                               and json.loads(p)["seats"] == players, mark, timeout=60)
        self.shadows[table] = Engine.new("bid-euchre", seed=1, dealer=0, players=players)
        self.rngs[table] = random.Random(SEEDS[table])

    def tap(self, table: str, meanwhile=None) -> None:  # type: ignore[no-untyped-def]
        """The next play at ``table``, its verdict awaited. ``meanwhile`` runs in between (up
        started again after a power cut): the verdict is not retained, and the host may give it
        before the observer is back on the new broker (the boards come back on their own, and
        may be first), so then the host's journal says what became of the play instead."""
        shadow = self.shadows[table]
        action = bot_choice(shadow, self.rngs[table])
        assert shadow.apply(action).ok
        mark = self.observer.mark()
        board = self.boards[table][action.seat]
        board.tap(tap_for(action))
        if meanwhile is not None:
            meanwhile()
            try:
                eventually(lambda: last_action(self.tmp / "journal.sqlite", table)
                           == action.to_json(), f"{action.to_json()} played at {table}", timeout=60)
            except AssertionError as failed:
                raise AssertionError(f"{failed}\n{self.log()[-3000:]}") from None
            return
        events = self.observer.topics.events(table)

        def mine(topic: str, payload: bytes) -> bool:
            if topic != events or b'"board"' not in payload:
                return False
            verdict = decode(TableEvent, payload, 1 << 16)
            return verdict.board == board.board and verdict.kind in ("accepted", "refused")

        try:
            _, _, payload = self.observer.wait_for(mine, mark, timeout=60)
        except TimeoutError:
            raise AssertionError(f"no verdict at {table} within 60 s\n{self.log()[-3000:]}") \
                from None
        verdict = decode(TableEvent, payload, 1 << 16)
        assert (verdict.kind, verdict.action) == ("accepted", action.to_json()), \
            (verdict, self.log()[-3000:])

    def play_until(self, table: str, done) -> None:  # type: ignore[no-untyped-def]
        while not done(self.shadows[table]):
            self.tap(table)

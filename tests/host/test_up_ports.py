"""``tricktable up`` proves whom it talks to (docs/operations.md, "Security"): another user
of the club's machine (nobody) who listens first on the broker's port receives no password,
and one on the console's port is never shown to the director; up stops with one line naming
the port and who holds it. The same club with the ports free (the positive control) starts,
and its parts log in to the broker up started; what it keeps is the owner's alone, and its
broker runs as Debian's mosquitto user, not root.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from localuser import NOBODY, Squatter, needs_nobody
from tricktable.appliance import credentials
from upkit import Up

pytestmark = [pytest.mark.slow, needs_nobody]


def up_once(tmp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from tricktable.cli import main; main()", "up",
                           "--club", str(tmp / "club.toml"), "--data", str(tmp / "data")],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def club(topic_prefix):
    """A club's files as upkit.Up makes them, up not started (its ports free), in a folder
    that the broker's own user may pass through (as /var/lib/tricktable is), not under /root."""
    folder = Path(tempfile.mkdtemp(prefix="club-"))
    folder.chmod(0o711)
    made = Up(folder, topic_prefix, start=False)
    yield made
    made.close()
    shutil.rmtree(folder, ignore_errors=True)


def last_line(done: subprocess.CompletedProcess[str]) -> str:
    return (done.stdout + done.stderr).strip().splitlines()[-1]


def test_a_squatter_on_the_broker_port_gets_no_password_and_up_stops(club):
    credentials.ensure(club.data)  # the parts' passwords, as an earlier night left them
    with Squatter("127.0.0.1", club.port) as squatter:
        done = up_once(club.tmp)
        got = squatter.got()
    assert done.returncode != 0, done.stdout[-2000:]
    line = last_line(done)
    assert f"port {club.port} on 127.0.0.1" in line and NOBODY.pw_name in line, line
    for user in ("tricktable-host", "tricktable-web", "tricktable-director"):
        assert club.secret(user).encode() not in got
    assert b"tricktable-" not in got  # not even a CONNECT


def test_a_squatter_on_the_console_port_is_never_shown_and_up_stops(club):
    with Squatter("127.0.0.1", club.console_port) as squatter:
        done = up_once(club.tmp)
        assert squatter.got() == b""
    assert done.returncode != 0
    line = last_line(done)
    assert f"port {club.console_port} on 127.0.0.1 (the director's console)" in line, line
    assert "director console on" not in done.stdout
    assert f":{club.console_port}/" not in done.stdout  # no address printed for it


def test_a_squatter_taking_the_broker_port_when_the_broker_dies_gets_no_password(club):
    """The broker SIGKILLed, nobody takes its port the moment it is free: the parts were
    stopped at once and are not started again, the broker is not started beside the
    squatter, up stops with one line."""
    club.start()
    with Squatter("127.0.0.1", club.port, wait=True) as squatter:
        os.kill(club.pids()["broker"], signal.SIGKILL)
        squatter.listening()
        assert club.proc.wait(60) != 0, club.log()[-3000:]
        got = squatter.got()
    log = club.log()
    assert "stopping serve, web, console until broker is back" in log, log[-3000:]
    assert f"port {club.port} on 127.0.0.1 (the club's broker) is held by another program, of " \
           f"user {NOBODY.pw_name}" in log.splitlines()[-3] + log, log[-3000:]
    for user in ("tricktable-host", "tricktable-web", "tricktable-director"):
        assert club.secret(user).encode() not in got
    assert b"tricktable-" not in got


def test_with_the_ports_free_up_starts_its_own_broker_and_every_part_and_keeps_data_private(
        club):
    """The control of the two above; and the club's data is the owner's alone (0600 files,
    0700 folders), an older night file readable by others included."""
    (club.tmp / "night.json").chmod(0o644)
    club.begin()  # waits until every part, the console last, is ready
    log = club.log()
    for user in ("tricktable-host", "tricktable-web", "tricktable-director"):
        assert f"u'{user}')" in log, log[-3000:]
    assert "director console on" in club.output()
    data = club.data
    for path in (club.tmp / "night.json", club.tmp / "journal.sqlite", data / "up.log",
                 data / "addresses.json", data / "up.json"):
        assert path.stat().st_mode & 0o077 == 0, f"{path}: {oct(path.stat().st_mode)}"
    for folder in (data / "secrets",):
        assert folder.stat().st_mode & 0o077 == 0, f"{folder}: {oct(folder.stat().st_mode)}"
    for folder in (data, data / "broker"):  # the broker's group passes through, reads: no more
        assert folder.stat().st_mode & 0o027 == 0, f"{folder}: {oct(folder.stat().st_mode)}"
    broker = Path(f"/proc/{club.pids()['broker']}/status").read_text()
    uid = next(line.split()[1] for line in broker.splitlines() if line.startswith("Uid:"))
    assert int(uid) == pwd.getpwnam("mosquitto").pw_uid  # the broker dropped root


def test_the_doctor_sends_no_password_to_a_squatter_on_the_broker_port(club):
    club.start()  # the control: with up's own broker, the doctor's broker line passes
    done = club.command("doctor", "--club", str(club.tmp / "club.toml"), "--data", str(club.data))
    assert f"✓ broker mqtt://127.0.0.1:{club.port} answers to tricktable-watch and refuses a " \
           "wrong password" in done.stdout, done.stdout
    club.stop()
    with Squatter("127.0.0.1", club.port) as squatter:
        done = club.command("doctor", "--club", str(club.tmp / "club.toml"), "--data",
                            str(club.data))
        got = squatter.got()
    assert done.returncode != 0
    assert f"broker mqtt://127.0.0.1:{club.port}: not vouched for, no password sent" in \
        done.stdout, done.stdout
    assert club.secret("tricktable-watch").encode() not in got and b"tricktable-" not in got

"""The shipped mosquitto configuration starts a real mosquitto, both ways it is meant to be used:
the conf.d snippet beside a Debian-style main file (which sets persistence itself), and the
whole file on its own. Copying the whole file into conf.d once stopped the broker
("Duplicate persistence_location")."""

from __future__ import annotations

import getpass
import socket
import subprocess
from pathlib import Path

import pytest
from tricktable.mqtt.broker import MOSQUITTO, free_port, mosquitto_available
from tricktable.packaged import mosquitto_dir
from tricktable.provision.certs import make_club_certs
from waiting import eventually

pytestmark = pytest.mark.skipif(not mosquitto_available(), reason="needs mosquitto")

SHIPPED = mosquitto_dir()
USER = getpass.getuser()  # as root, mosquitto would otherwise drop to a user who cannot write here
DEBIAN_MAIN = """user {user}
pid_file {work}/mosquitto.pid
persistence true
persistence_location {work}/
log_dest stderr
include_dir {work}/conf.d
"""


def local(text: str, work: Path, port: int) -> str:
    """The shipped text with this test's ports (plain ``port``, TLS another), files (the
    club's certificates made as `tricktable broker certs` makes them) and user."""
    (work / "passwd").write_text("")
    (work / "acl").write_text((SHIPPED / "acl.template").read_text())
    make_club_certs(work / "certs", ["127.0.0.1"])
    tls = free_port()
    while tls == port:
        tls = free_port()
    return (text.replace("user mosquitto", f"user {USER}")  # the test's files are root's
            .replace("listener 1883 127.0.0.1", f"listener {port} 127.0.0.1")
            .replace("listener 8883", f"listener {tls} 127.0.0.1")
            .replace("/etc/mosquitto/certs/", f"{work}/certs/")
            .replace("/etc/mosquitto/tricktable.passwd", str(work / "passwd"))
            .replace("/etc/mosquitto/tricktable.acl", str(work / "acl"))
            .replace("/var/lib/mosquitto/", f"{work}/"))


def starts(config: Path, port: int) -> None:
    """mosquitto -c config listens on port; fail with its output otherwise."""
    proc = subprocess.Popen([MOSQUITTO, "-c", str(config)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)

    def listening() -> bool:
        if proc.poll() is not None:
            raise AssertionError(f"mosquitto stopped: {proc.stdout.read()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        except OSError:
            return False
        return True

    try:
        eventually(listening, f"mosquitto -c {config} listening on {port}", timeout=15,
                   every=0.05)
    finally:  # stopped as tricktable.mqtt.broker stops its own mosquitto: what is tested is the start
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:  # seen once under load (it saves its persistence file)
            proc.kill()
            proc.wait()


def test_the_conf_d_snippet_starts_beside_a_debian_main_file(tmp_path):
    port = free_port()
    (tmp_path / "conf.d").mkdir()
    snippet = (SHIPPED / "conf.d" / "tricktable.conf").read_text()
    (tmp_path / "conf.d" / "tricktable.conf").write_text(local(snippet, tmp_path, port))
    (tmp_path / "mosquitto.conf").write_text(DEBIAN_MAIN.format(work=tmp_path, user=USER))
    starts(tmp_path / "mosquitto.conf", port)


def test_the_whole_file_starts_on_its_own(tmp_path):
    port = free_port()
    whole = local((SHIPPED / "mosquitto.conf").read_text(), tmp_path, port)
    assert "\nuser mosquitto\n" in (SHIPPED / "mosquitto.conf").read_text()  # drops root
    (tmp_path / "mosquitto.conf").write_text(whole)
    starts(tmp_path / "mosquitto.conf", port)

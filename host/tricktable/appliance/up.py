"""``tricktable up``: what runs for a night, where it is, and running it.

``plan(settings, credentials)`` gives the parts, in the order they start: the club's broker
(mosquitto from the config ``broker.write_mosquitto_config`` writes, with the host's and the
web's users added to the boards' password file and the project's ACL; only when nothing
answers at the club's broker address), ``serve`` (with the night), the scoreboard ``web``
and the director ``console`` (with a night), each given the broker, its user and password
file, the journal and the night. ``addresses(settings)`` says where the TV, the players'
phone page and the console are, each with a QR code. ``run(settings, stop, echo)`` writes
the addresses for the TV page, runs the parts under a ``Supervisor`` with the backups'
``Watcher`` beside them until ``stop`` is set. Only one ``up`` runs on a data directory
(a lock on ``DATA/up.lock``). Imports ``broker``, ``provision.passwords`` and the
appliance's own modules.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import socket
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TextIO

import segno

from tricktable.appliance import backup
from tricktable.appliance.credentials import HOST_USER, WEB_USER, Credentials
from tricktable.appliance.settings import Settings
from tricktable.appliance.supervisor import Log, Part, Supervisor
from tricktable.broker import MOSQUITTO, BrokerAuth, mosquitto_available, write_mosquitto_config
from tricktable.provision.passwords import acl_text

CLI = [sys.executable, "-c", "from tricktable.cli import main; main()"]
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class UpError(RuntimeError):
    """``up`` cannot start as configured; the message says why and what to do."""


def answers(host: str, port: int, timeout: float = 1.0) -> bool:
    """True when something accepts a TCP connection at ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def outward_ip() -> str:
    """This machine's address on its network (the one its default route uses), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("10.255.255.255", 1))  # no packet is sent: picks the route's address
            return str(sock.getsockname()[0])
        except OSError:
            return "127.0.0.1"


@dataclass(frozen=True)
class Place:
    """One address a person opens, and its QR code."""

    what: str
    url: str

    @property
    def qr(self) -> segno.QRCode:
        return segno.make(self.url, error="m")

    def terminal(self) -> str:
        out = io.StringIO()
        self.qr.terminal(out=out, compact=True)
        return out.getvalue()


def addresses(settings: Settings) -> list[Place]:
    """The TV page, the players' phone page and (with a night) the console."""
    def base(host: str, port: int) -> str:
        shown = outward_ip() if host in ("0.0.0.0", "::", "") else host
        return f"http://{shown}:{port}"

    web = base(settings.web.host, settings.web.port)
    places = [Place("TV", f"{web}/tv"), Place("phones", f"{web}/standings")]
    if settings.night is not None:
        places.append(Place("console", base(settings.console.host, settings.console.port) + "/"))
    return places


def write_addresses(places: list[Place], path: Path) -> None:
    """The addresses and their QR codes (SVG data URIs) for the TV page's panel."""
    data = [{"what": p.what, "url": p.url, "qr": p.qr.svg_data_uri(scale=4, border=2)}
            for p in places]
    temp = path.with_name(path.name + ".new")
    temp.write_text(json.dumps(data))
    os.replace(temp, path)


def _broker_part(settings: Settings, creds: Credentials) -> Part | None:
    """Mosquitto for the club when none answers at its address; None when one does."""
    url = settings.broker
    if answers(url.host, url.port):
        return None
    if url.tls or url.host not in (*LOOPBACK, settings.listen):
        raise UpError(f"no broker answers at {url.host}:{url.port}, and up starts one only on "
                      f"this machine without TLS: start the club's broker, or set host.broker "
                      f"to mqtt://127.0.0.1:PORT")
    if not mosquitto_available():
        raise UpError(f"no broker answers at {url.host}:{url.port} and mosquitto is not "
                      f"installed ({MOSQUITTO}): apt install mosquitto")
    workdir = settings.data / "broker"
    workdir.mkdir(parents=True, exist_ok=True)
    os.chmod(workdir, 0o700)  # the password hashes and the queued messages
    auth = BrokerAuth(users={HOST_USER: creds.read(HOST_USER), WEB_USER: creds.read(WEB_USER)},
                      acl=acl_text(settings.club.prefix), password_file=settings.passwd)
    config = write_mosquitto_config(workdir, settings.listen, url.port, auth,
                                    extra="log_dest stderr\n")
    return Part("broker", [MOSQUITTO, "-c", str(config)],
                ready_check=lambda: answers(url.host, url.port, 0.2))


def check(settings: Settings) -> None:
    """Refuse, before anything starts, what would only make a part fail again and again."""
    if settings.night is not None and not settings.night.is_file():
        raise UpError(f"no night file at {settings.night}: make it with `tricktable club "
                      f"--night {settings.night} new --players FILE`")


def plan(settings: Settings, creds: Credentials) -> list[Part]:
    """The parts of the night, in the order they start."""
    url = settings.broker
    broker_url = f"{'mqtts' if url.tls else 'mqtt'}://{url.host}:{url.port}"
    night = ["--night", str(settings.night)] if settings.night is not None else []
    club_db = ["--club-db", str(settings.club_db)] if settings.club_db is not None else []
    as_web = ["--broker", broker_url, "--prefix", settings.club.prefix, "--username", WEB_USER,
              "--password-file", str(creds.web_password)]
    parts = [p for p in [_broker_part(settings, creds)] if p is not None]
    parts.append(Part("serve", [
        *CLI, "serve", "--club", str(settings.club_file), *night, *club_db,
        "--journal", str(settings.journal), "--broker", broker_url,
        "--username", HOST_USER, "--password-file", str(creds.host_password),
        "--sync", "full", "-v"], ready_line="tricktable serving"))
    parts.append(Part("web", [
        *CLI, "web", *as_web, *night, *club_db, "--journal", str(settings.journal),
        "--host", settings.web.host, "--port", str(settings.web.port),
        "--addresses", str(settings.data / "addresses.json")], ready_line="scoreboard on"))
    if settings.night is not None:
        parts.append(Part("console", [
            *CLI, "console", *as_web, *night, "--journal", str(settings.journal),
            "--host", settings.console.host, "--port", str(settings.console.port)],
            env={"TRICKTABLE_ADMIN_TOKEN": creds.console_token},
            ready_line="director console on"))
    return parts


def lock(data: Path) -> IO[str]:
    """Hold ``DATA/up.lock`` while up runs (released by the kernel however up ends)."""
    data.mkdir(parents=True, exist_ok=True)
    handle = (data / "up.lock").open("a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise UpError(f"tricktable up is already running on {data}") from None
    return handle


def running(data: Path) -> bool:
    """True while an ``up`` holds the data directory's lock."""
    try:
        lock(data).close()
    except UpError:
        return True
    return False


def run(settings: Settings, creds: Credentials, stop: threading.Event,
        echo: TextIO | None = None) -> None:
    """Run the night's parts until ``stop`` is set (see the module's docstring)."""
    check(settings)
    held = lock(settings.data)
    try:
        parts = plan(settings, creds)
        write_addresses(addresses(settings), settings.data / "addresses.json")
        log = Log(settings.log, echo)
        log.line("up", f"starting {', '.join(p.name for p in parts)} for {settings.club.name}; "
                       f"log {settings.log}")
        watcher = backup.Watcher(settings, lambda text: log.line("up", text))
        watcher.start()
        try:
            Supervisor(parts, log, settings.data / "up.json").run(stop)
        finally:
            watcher.stop()
            log.close()
    finally:
        held.close()

"""``tricktable up``: what runs for a night, where it is, and running it.

``plan(settings, credentials)`` gives the parts, in the order they start: the club's broker
(only when nothing answers at ``host.broker``: mosquitto from the shipped configuration
through ``provision.brokerconf.club_config``, client ids bound to users, plain MQTT on
loopback for the parts, TLS on ``host.listen``:``host.tls_port`` for the boards with the
club's CA made under ``DATA/broker/certs``, or plain there with ``host.tls = false``; its
files are written again before each start, ``write_broker_files``), ``serve`` (with the
night), the read-only scoreboard ``web`` and the director ``console`` (with a night), each
given the broker, its own user and password file (credentials.py), the journal and the
night; no secret is on any command line (the console's token is a file too). ``addresses(settings)`` says where the TV, the players'
phone page and the console are, each with a QR code. ``run(settings, stop, echo)`` writes
the addresses for the TV page, runs the parts under a ``Supervisor`` with the backups'
``Watcher`` beside them until ``stop`` is set. Only one ``up`` runs on a data directory
(a lock on ``DATA/up.lock``).
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
from tricktable.appliance.credentials import (
    DIRECTOR_USER,
    HOST_USER,
    USERS,
    WEB_USER,
    Credentials,
)
from tricktable.appliance.settings import Settings
from tricktable.appliance.supervisor import Log, Part, Supervisor
from tricktable.mqtt.broker import MOSQUITTO, mosquitto_available
from tricktable.provision.acl import BrokerFileError, acl_text
from tricktable.provision.brokerconf import ClubBrokerFiles, club_config
from tricktable.provision.certs import make_club_certs
from tricktable.provision.passwords import add_user
from tricktable.secretfiles import write_private
from tricktable.textfiles import TextFileError, read_text

CLI = [sys.executable, "-c", "from tricktable.cli import main; main()"]
LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")


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
    public: bool = True  # shown to the room (the TV's panel); the console's is the director's

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
        shown = outward_ip() if host in WILDCARD else host
        return f"http://{shown}:{port}"

    web = base(settings.web.host, settings.web.port)
    places = [Place("TV", f"{web}/tv"), Place("phones", f"{web}/seat")]
    if settings.night is not None:
        places.append(Place("console", base(settings.console.host, settings.console.port) + "/",
                            public=False))
    return places


def write_addresses(places: list[Place], path: Path) -> None:
    """The public addresses and their QR codes (SVG data URIs) for the TV page's panel: the
    console's is printed for the director, never shown to the room."""
    data = [{"what": p.what, "url": p.url, "qr": p.qr.svg_data_uri(scale=4, border=2)}
            for p in places if p.public]
    temp = path.with_name(path.name + ".new")
    temp.write_text(json.dumps(data))
    os.replace(temp, path)


@dataclass(frozen=True)
class BoardsEntry:
    """Where the boards reach the broker ``up`` starts, and the CA they check it with."""

    url: str
    ca: Path | None


def cert_names(settings: Settings) -> list[str]:
    """The names and addresses the broker's certificate is made for: the boards' address
    (or, listening everywhere, this machine's name and network address) and loopback."""
    listen = [] if settings.listen in WILDCARD else [settings.listen]
    names = [*listen, socket.gethostname(), outward_ip(), "localhost", "127.0.0.1"]
    return list(dict.fromkeys(names))


def boards_entry(settings: Settings) -> BoardsEntry:
    """The URL (and CA) for ``tricktable board setup --broker`` on this club's own broker."""
    host = outward_ip() if settings.listen in WILDCARD else settings.listen
    if not settings.tls:
        return BoardsEntry(f"mqtt://{host}:{settings.broker.port}", None)
    return BoardsEntry(f"mqtts://{host}:{settings.tls_port}",
                       settings.data / "broker" / "certs" / "ca.crt")


def write_broker_files(settings: Settings, creds: Credentials) -> Path:
    """The club broker's files under ``DATA/broker`` (0700), made again at each start: the
    password file (the boards' lines from ``host.passwd`` and a line for each part's user),
    the ACL (the programs' users and each board of the club file reading its own table's
    display), the club's CA and the broker's certificate (TLS; the CA is made once and kept)
    and the configuration, the shipped one through ``provision.brokerconf``; its path."""
    url = settings.broker
    folder = settings.data / "broker"
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)  # password hashes, keys and the queued messages
    files = ClubBrokerFiles(folder / "passwd", folder / "acl", folder / "certs", folder / "data")
    files.data.mkdir(exist_ok=True)
    try:
        boards = read_text(settings.passwd, "password file") if settings.passwd else ""
        write_private(files.passwd, boards)
        for user in USERS:
            add_user(files.passwd, user, creds.read(user))
        write_private(files.acl, acl_text(settings.club.prefix, settings.club.board_tables()))
    except (TextFileError, BrokerFileError) as exc:
        raise UpError(str(exc)) from None
    if settings.tls:
        make_club_certs(files.certs, cert_names(settings), settings.club.name)
        config = club_config(files, plain_port=url.port, plain_host=url.host,
                             tls_port=settings.tls_port, tls_host=settings.listen)
    else:
        config = club_config(files, plain_port=url.port, plain_host=settings.listen,
                             tls_port=None)
    path = folder / "mosquitto.conf"
    write_private(path, config + "log_dest stderr\n")
    return path


def broker_part(settings: Settings, creds: Credentials) -> Part | None:
    """Mosquitto for the club when none answers at its address; None when one does."""
    url = settings.broker
    if answers(url.host, url.port):
        return None
    if settings.tls:
        local = url.host in LOOPBACK
    else:  # one plain listener on host.listen: the programs must reach it there
        local = (settings.listen in WILDCARD or url.host == settings.listen
                 or (url.host in LOOPBACK and settings.listen in LOOPBACK))
    if url.tls or not local:
        raise UpError(f"no broker answers at {url.host}:{url.port}, and up starts one only for "
                      f"programs on this machine (plain MQTT on loopback; the boards get TLS on "
                      f"host.listen, host.tls_port): start the club's broker, or set "
                      f"host.broker to mqtt://127.0.0.1:PORT")
    if not mosquitto_available():
        raise UpError(f"no broker answers at {url.host}:{url.port} and mosquitto is not "
                      f"installed ({MOSQUITTO}): apt install mosquitto")
    config = write_broker_files(settings, creds)
    return Part("broker", [MOSQUITTO, "-c", str(config)],
                prepare=lambda: write_broker_files(settings, creds),
                ready_check=lambda: answers(url.host, url.port, 0.2))


def check(settings: Settings) -> None:
    """Refuse, before anything starts, what would only make a part fail again and again."""
    if settings.night is not None and not settings.night.is_file():
        raise UpError(f"no night file at {settings.night}: make it with `tricktable club "
                      f"--night {settings.night} new --players FILE`")
    registry = settings.club.registry
    if registry is not None and not registry.is_file():
        raise UpError(f"the tables' host cannot run: no deck registry at {registry}; make one "
                      f"with `tricktable club init` (the demo's decks) or enroll a deck at the "
                      f"USB reader (`tricktable enroll`)")


def plan(settings: Settings, creds: Credentials) -> list[Part]:
    """The parts of the night, in the order they start."""
    url = settings.broker
    broker_url = f"{'mqtts' if url.tls else 'mqtt'}://{url.host}:{url.port}"
    night = ["--night", str(settings.night)] if settings.night is not None else []
    club_db = ["--club-db", str(settings.club_db)] if settings.club_db is not None else []

    def as_user(user: str) -> list[str]:
        return ["--broker", broker_url, "--username", user, "--password-file",
                str(creds.file(user))]

    prefix = ["--prefix", settings.club.prefix]  # serve reads it from the club file

    parts = [p for p in [broker_part(settings, creds)] if p is not None]
    parts.append(Part("serve", [
        *CLI, "serve", "--club", str(settings.club_file), *night, *club_db,
        "--journal", str(settings.journal), *as_user(HOST_USER),
        "--sync", "full", "-v"], ready_line="tricktable serving"))
    parts.append(Part("web", [
        *CLI, "web", *as_user(WEB_USER), *prefix, *night, *club_db,
        "--journal", str(settings.journal), "--host", settings.web.host, "--port", str(settings.web.port),
        "--addresses", str(settings.data / "addresses.json")], ready_line="scoreboard on"))
    if settings.night is not None:
        parts.append(Part("console", [
            *CLI, "console", *as_user(DIRECTOR_USER), *prefix, *night,
            "--journal", str(settings.journal), "--host", settings.console.host, "--port", str(settings.console.port),
            "--admin-token-file", str(creds.console_token_file)],
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

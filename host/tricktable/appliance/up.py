"""``tricktable up``: what runs for a night, where it is, and running it.

``plan(settings, credentials)`` gives the parts, in the order they start: the club's broker
(only when none runs at ``host.broker``; one that runs is used only when up can vouch for it,
``existing_broker``: on this machine its listening socket belongs to this user or root, on
another it speaks TLS; else up stops with one line and sends no password: mosquitto from the shipped configuration
through ``provision.brokerconf.club_config``, client ids bound to users, plain MQTT on
loopback for the parts, TLS on ``host.listen``:``host.tls_port`` for the boards with the
club's CA made under ``DATA/broker/certs``, or plain there with ``host.tls = false``; its
files are written again before each start, ``write_broker_files``), ``serve`` (with the
night), the read-only scoreboard ``web`` and the director ``console`` (with a night), each
given the broker, its own user and password file (credentials.py), the journal and the
night; no secret is on any command line (the console's token is a file too). Each part
that listens (the broker, the scoreboard, the console) checks before each start that no one
holds its port (``refuse_taken``: the whole tree stops with one line otherwise) and is ready
only once its listening socket is its own (``holds_port``); the parts that log in to the
broker start only after that. ``addresses(settings)`` says where the TV, the players'
phone page and the console are, each with a QR code. ``run(settings, stop, echo)`` writes
the addresses for the TV page, makes the club's data the owner's alone (``owneronly``), runs the parts under a
``Supervisor`` with the backups'
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
from tricktable.appliance.brokeruser import broker_user, let_broker_read, why_root
from tricktable.appliance.credentials import (
    DIRECTOR_USER,
    HOST_USER,
    USERS,
    WEB_USER,
    Credentials,
)
from tricktable.appliance.listeners import held_by, listening, owner_name, vouched
from tricktable.appliance.owneronly import make_owner_only
from tricktable.appliance.settings import Settings
from tricktable.appliance.supervisor import Log, Part, PartRefused, Supervisor
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

    web = web_base(settings)
    places = [Place("TV", f"{web}/tv"), Place("phones", f"{web}/seat")]
    https = settings.web_https
    if https is not None and https[2] is not None:
        places.append(Place("phone certificate", f"{web}/ca"))
    if settings.night is not None:
        places.append(Place("console", base(settings.console.host, settings.console.port) + "/",
                            public=False))
    return places


def web_base(settings: Settings) -> str:
    """The public scoreboard's address as a phone opens it."""
    shown = outward_ip() if settings.web.host in WILDCARD else settings.web.host
    scheme = "https" if settings.web_https is not None else "http"
    return f"{scheme}://{shown}:{settings.web.port}"


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
    and the configuration, the shipped one through ``provision.brokerconf``, run as
    ``brokeruser.broker_user()`` (never root), who is let read them; its path."""
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
    user = broker_user(settings.data)
    readable = [files.passwd, files.acl]
    if settings.tls:
        certs = make_club_certs(files.certs, cert_names(settings), settings.club.name)
        readable += [certs.ca, certs.server, certs.server_key]
        config = club_config(files, plain_port=url.port, plain_host=url.host,
                             tls_port=settings.tls_port, tls_host=settings.listen, user=user)
    else:
        config = club_config(files, plain_port=url.port, plain_host=settings.listen,
                             tls_port=None, user=user)
    path = folder / "mosquitto.conf"
    write_private(path, config + "log_dest stderr\n")
    let_broker_read(settings.data, [folder, files.certs], readable, files.data)
    return path


def on_this_machine(settings: Settings, host: str) -> bool:
    """True when ``host`` is an address of this machine (loopback, or where the boards are)."""
    return host in LOOPBACK or host in (settings.listen, outward_ip(), socket.gethostname())


def held(port: int, host: str, what: str, key: str) -> str | None:
    """Why ``port`` on ``host`` cannot be ``what``'s: who listens there already; else None."""
    found = listening(port, host)
    if not found:
        return None
    owners = ", ".join(sorted({owner_name(s.uid) for s in found}))
    return (f"port {port} on {host} ({what}) is held by another program, of user {owners}: "
            f"up stops rather than send a password or show an address to a program it did not "
            f"start; stop that program or give {key} another port in the club file")


def refuse_taken(port: int, host: str, what: str, key: str) -> None:
    """Before a part starts: its port must be free (PartRefused stops the tree)."""
    if (why := held(port, host, what, key)) is not None:
        raise PartRefused(why)


def holds_port(pid: int, port: int, host: str) -> bool:
    """True when every listener on ``port`` reaching ``host`` is held by process ``pid``
    (the part up started, and no one beside it)."""
    found = listening(port, host)
    return bool(found) and all(pid in held_by(s.inode) for s in found)


def existing_broker(settings: Settings) -> bool:
    """True when ``host.broker`` already runs and up may hand it the parts' passwords: on this
    machine, its listener belongs to this user or root; elsewhere, it speaks TLS (each part
    checks its certificate). UpError for one that answers and cannot be vouched for."""
    url = settings.broker
    if on_this_machine(settings, url.host):
        found = listening(url.port, url.host)
        strangers = [s for s in found if not vouched(s)]
        if strangers:
            raise UpError(held(url.port, url.host, "host.broker", "host.broker") or "")
        return bool(found)
    if not answers(url.host, url.port):
        return False
    if not url.tls:
        raise UpError(f"host.broker {url.host}:{url.port} is plain MQTT on another machine: up "
                      f"cannot tell who answers there and gives it no password; use mqtts:// "
                      f"(its certificate is checked) or the club's own broker on this machine")
    return True


def broker_part(settings: Settings, creds: Credentials) -> Part | None:
    """Mosquitto for the club when none runs at its address; None when one runs that up may
    use (``existing_broker``)."""
    url = settings.broker
    if existing_broker(settings):
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

    def prepare() -> None:
        refuse_taken(url.port, url.host, "the club's broker", "host.broker")
        if settings.tls:
            refuse_taken(settings.tls_port, settings.listen, "the boards' TLS listener",
                         "host.tls_port")
        write_broker_files(settings, creds)

    config = write_broker_files(settings, creds)
    return Part("broker", [MOSQUITTO, "-c", str(config)], prepare=prepare,
                ready_check=lambda pid: holds_port(pid, url.port, url.host), required=True)


def check(settings: Settings) -> None:
    """Refuse, before anything starts, what would only make a part fail again and again, or
    point a person at a program up did not start (a port of the scoreboard or the console
    held already)."""
    if settings.night is not None and not settings.night.is_file():
        raise UpError(f"no night file at {settings.night}: make it with `tricktable club "
                      f"--night {settings.night} new --players FILE`")
    pages = [(settings.web, "the scoreboard", "host.web")]
    if settings.night is not None:
        pages.append((settings.console, "the director's console", "host.console"))
    for where, what, key in pages:
        if (why := held(where.port, where.host, what, key)) is not None:
            raise UpError(why)
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
    phones = ["--phones", str(settings.phones)] if settings.phones is not None else []
    https = settings.web_https
    web_tls = [] if https is None else [
        "--tls-cert", str(https[0]), "--tls-key", str(https[1]),
        *(["--club-ca", str(https[2])] if https[2] is not None else [])]

    parts = [p for p in [broker_part(settings, creds)] if p is not None]
    parts.append(Part("serve", [
        *CLI, "serve", "--club", str(settings.club_file), *night, *club_db,
        "--journal", str(settings.journal), *as_user(HOST_USER),
        "--sync", "full", "-v"], ready_line="tricktable serving"))
    web, console = settings.web, settings.console
    parts.append(Part("web", [
        *CLI, "web", *as_user(WEB_USER), *prefix, *night, *club_db,
        "--journal", str(settings.journal), "--host", settings.web.host, "--port", str(settings.web.port),
        "--addresses", str(settings.data / "addresses.json"), *phones, *web_tls],
        ready_line="scoreboard on",
        prepare=lambda: refuse_taken(web.port, web.host, "the scoreboard", "host.web"),
        ready_check=lambda pid: holds_port(pid, web.port, web.host)))
    if settings.night is not None:
        parts.append(Part("console", [
            *CLI, "console", *as_user(DIRECTOR_USER), *prefix, *night,
            "--journal", str(settings.journal), "--host", settings.console.host, "--port", str(settings.console.port),
            "--admin-token-file", str(creds.console_token_file),
            *([*phones, "--pad-url", f"{web_base(settings)}/pad"] if phones else [])],
            ready_line="director console on",
            prepare=lambda: refuse_taken(console.port, console.host, "the director's console",
                                         "host.console"),
            ready_check=lambda pid: holds_port(pid, console.port, console.host)))
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
    settings.data.mkdir(parents=True, exist_ok=True)
    make_owner_only([p for p in (settings.journal, settings.club_db, settings.night) if p],
                    [settings.data, settings.backups])
    held = lock(settings.data)
    try:
        parts = plan(settings, creds)
        write_addresses(addresses(settings), settings.data / "addresses.json")
        log = Log(settings.log, echo)
        log.line("up", f"starting {', '.join(p.name for p in parts)} for {settings.club.name}; "
                       f"log {settings.log}")
        if any(p.name == "broker" for p in parts) and (why := why_root(settings.data)):
            log.line("up", why)
        watcher = backup.Watcher(settings, lambda text: log.line("up", text))
        watcher.start()
        try:
            Supervisor(parts, log, settings.data / "up.json").run(stop)
        except PartRefused as refusal:
            raise UpError(str(refusal)) from None
        finally:
            watcher.stop()
            log.close()
    finally:
        held.close()

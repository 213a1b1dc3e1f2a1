"""Try to get in where one does not belong, as someone on the club's Wi-Fi, a board's owner, or
an ordinary user of the club's machine (``nobody``) would (issues 26 and 34): every attempt
against the real parts, on 127.0.0.1, each beside its positive control (the same attempt
with the right credentials, or on the right input, gets in: a check that would keep everyone
out proves nothing). Prints one line per attempt, then last:
``attacks: T tried, G got in, C controls ok`` (G must be 0 and C = T).

- The club's broker, run from the shipped configuration (host/tricktable/mqtt/mosquitto/mosquitto.conf,
  acl.template, the CA `tricktable broker certs` makes), with users made as `tricktable board
  setup` and `tricktable broker user` make them: logins, stolen client ids (the thief's own
  CONNACK checked), topics a user may not read or write, plain MQTT on the TLS port, a broker
  the club's CA did not sign, a giant retained status, a program speaking as a phantom board.
- A board (the real firmware under the MicroPython unix port): an older, correctly signed
  bundle; a bundle a thief signed with what a board holds (the old update key, and a key
  pair of their own).
- Files: the deck registry (the club key), a password file, the CA's key; secret files written
  into a folder another user may write (as nobody: a link, a file of theirs); the club key in
  `ps` while `deck key --import-file -` runs (as nobody).
- `tricktable up` (a club in its own folder, TLS on): nobody squatting the broker's, the
  scoreboard's and the console's ports first; then, with up running, nobody reading the
  journal, the night, the log, a part's password, the broker's password file, the broker's
  key; nobody taking the broker's port the moment it dies; the console's token on up's stdout; the broker running as root; the console's API without
  its token; the log past its size.
- The scoreboard (`tricktable web` with an admin token, a night and a hidden player): admin
  routes without a bearer token, path traversal, a 300 MB upload, JSON nested too deep or a
  number too long (a 500 and a traceback, each), a hidden player's scorecard, the hidden
  players counted by the gaps in the public ids, framing, a
  board's bad messages flooding the log, half-sent requests, and the token and the broker
  password in nobody's `ps`.
- The systemd unit: `systemd-analyze security` on the unit `tricktable service install`
  writes.

Run as root (the `nobody` attempts use setpriv): .venv/bin/python bench/attack.py
     .venv/bin/python bench/attack.py --quick    # the broker's attempts only, seconds
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shutil
import signal
import socket
import ssl
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "firmware"), str(ROOT / "tests"), str(ROOT / "tests" / "web"),
                str(ROOT / "tests" / "host")]

import httpx  # noqa: E402
import paho.mqtt.client as mqtt  # noqa: E402
from clubkit import WAIT, ClubBroker, start_club_broker  # noqa: E402
from localuser import Squatter, as_nobody, nobody_argv, nobody_python  # noqa: E402
from tricktable.mqtt.broker import BrokerTLS, free_port, start_broker  # noqa: E402
from upkit import Up  # noqa: E402

PREFIX = "tricktable"
BOARDS = {"t1-north": "t1", "t1-east": "t1", "t2-north": "t2", "north": "t1"}
RESULTS: list[tuple[str, bool, bool]] = []
Tried = tuple[str | None, bool]  # what got in (None: kept out), and whether the control got in


def attempt(name: str) -> Callable[[Callable[..., Tried]], Callable[..., None]]:
    """An attempt returns (None when it was kept out, else what it got; its control's verdict)."""
    def wrap(function: Callable[..., Tried]) -> Callable[..., None]:
        def run(*args: object) -> None:
            try:
                got, control = function(*args)
            except Exception as exc:  # an attempt that breaks is reported, not hidden
                got, control = f"the attempt failed to run: {exc!r}", False
            RESULTS.append((name, got is not None, control))
            print(f"{'GOT IN' if got else 'kept out':8}  "
                  f"{'control ok' if control else 'CONTROL FAILED':14}  {name}"
                  + (f": {got}" if got else ""), flush=True)
        return run
    return wrap


def within(check: Callable[[], bool], seconds: float) -> bool:
    """True once ``check`` holds, polled for up to ``seconds``."""
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        if check():
            return True
        time.sleep(0.05)
    return check()


# -- the broker ------------------------------------------------------------------------------

def connects(club: ClubBroker, user: str, password: str, port: int | None = None,
             tls: bool = False, ca: Path | None = None) -> bool:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"probe-{time.time_ns()}")
    client.username_pw_set(user, password)
    if tls:
        client.tls_set(ca_certs=str(ca or club.certs.ca))
    answer: queue.Queue[bool] = queue.Queue()
    client.on_connect = lambda c, u, f, reason, p: answer.put(not reason.is_failure)
    try:
        client.connect("127.0.0.1", port or club.port)
    except (OSError, ssl.SSLError):
        return False
    client.loop_start()
    try:
        return answer.get(timeout=5)
    except queue.Empty:
        return False
    finally:
        client.disconnect()
        client.loop_stop()


@attempt("broker: log in with no password, or a wrong one")
def no_login(club: ClubBroker) -> Tried:
    control = connects(club, "t1-north", club.passwords["t1-north"])
    for user, password in (("", ""), ("t1-north", "guess"), ("tricktable-host", "tricktable")):
        if connects(club, user, password):
            return f"logged in as {user!r}", control
    return None, control


@attempt("broker: a board's password takes the host's client id (the club stops)")
def steal_host(club: ClubBroker) -> Tried:
    return steal(club, "tricktable-host")


@attempt("broker: a board's password takes another board's client id")
def steal_board(club: ClubBroker) -> Tried:
    return steal(club, "t1-east")


def kicks(club: ClubBroker, victim: str, thief_user: str) -> tuple[bool, bool]:
    """``thief_user`` logs in asking for ``victim``'s client id while ``victim`` is on:
    (the thief's CONNACK succeeded, the victim was thrown off)."""
    target = club.client(victim, client_id=victim)
    thief = club.client(thief_user, client_id=victim)
    thief_in = not thief.reason.is_failure
    kicked = within(lambda: target.disconnects > 0, 3)
    club.close_clients()
    return thief_in, kicked


def steal(club: ClubBroker, victim: str) -> Tried:
    thief_in, kicked = kicks(club, victim, "t1-north")
    _, control = kicks(club, victim, victim)  # the victim's own password takes its session
    if not thief_in:  # a failed login proves nothing: it must have been in, and harmless
        return None, False
    return (f"{victim} was thrown off" if kicked else None), control


def first_reaching(club: ClubBroker, user: str, topic: str, reader: str) -> bool:
    """``user`` publishes on ``topic``, which ``reader`` subscribes to; True when ``reader``
    gets it before a marker the host publishes afterwards (on a topic ``reader`` may read)."""
    listener = club.client(reader)
    listener.subscribe(topic)
    club.client(user).publish(topic, b"forged")
    marker = (f"{PREFIX}/v1/host/marker" if reader.startswith("tricktable-")
              else f"{PREFIX}/v1/board/{reader}/feedback")
    listener.subscribe(marker)
    host = listener if reader == "tricktable-host" else club.client("tricktable-host")
    host.publish(marker, b"marker")
    first = listener.next_message()
    club.close_clients()
    return first[0] == topic


def dropped(club: ClubBroker, user: str, topic: str, allowed: str,
            reader: str = "tricktable-host") -> Tried:
    """``user`` may not reach ``reader`` on ``topic``; the control: ``allowed`` does."""
    got = first_reaching(club, user, topic, reader)
    control = first_reaching(club, allowed, topic, reader)
    return (f"{topic} reached {reader}" if got else None), control


@attempt("broker: a board publishes a play on another board's topic")
def forge_play(club: ClubBroker) -> Tried:
    return dropped(club, "t1-north", f"{PREFIX}/v1/board/t1-east/event", "t1-east")


@attempt("broker: a board sends a table control command")
def board_control(club: ClubBroker) -> Tried:
    return dropped(club, "t1-north", f"{PREFIX}/v1/table/t1/control", "tricktable-director")


@attempt("broker: the public scoreboard's user sends a table control command")
def web_control(club: ClubBroker) -> Tried:
    return dropped(club, "tricktable-web", f"{PREFIX}/v1/table/t1/control", "tricktable-admin")


@attempt("broker: the public scoreboard's user sends a night correction")
def web_night(club: ClubBroker) -> Tried:
    return dropped(club, "tricktable-web", f"{PREFIX}/v1/night/control", "tricktable-director")


@attempt("broker: the admin scoreboard's user sends a night correction")
def admin_night(club: ClubBroker) -> Tried:
    return dropped(club, "tricktable-admin", f"{PREFIX}/v1/night/control", "tricktable-director")


@attempt("broker: a board offers firmware to another board")
def board_offer(club: ClubBroker) -> Tried:
    return dropped(club, "t1-north", f"{PREFIX}/v1/board/t1-east/update", "tricktable-fleet",
                   reader="t1-east")


@attempt("broker: the host's user offers firmware to a board (only the fleet user may)")
def host_offer(club: ClubBroker) -> Tried:
    return dropped(club, "tricktable-host", f"{PREFIX}/v1/board/t1-east/update",
                   "tricktable-fleet", reader="t1-east")


@attempt("broker: the director offers firmware to a board")
def director_offer(club: ClubBroker) -> Tried:
    return dropped(club, "tricktable-director", f"{PREFIX}/v1/board/t1-east/update",
                   "tricktable-fleet", reader="t1-east")


@attempt("broker: a board reads another table's display")
def other_display(club: ClubBroker) -> Tried:
    got = first_reaching(club, "tricktable-host", f"{PREFIX}/v1/table/t2/display", "t1-north")
    control = first_reaching(club, "tricktable-host", f"{PREFIX}/v1/table/t1/display",
                             "t1-north")  # its own table's
    return ("t2's display reached t1-north" if got else None), control


@attempt("broker: a board reads another board's acks")
def other_acks(club: ClubBroker) -> Tried:
    got = first_reaching(club, "tricktable-host", f"{PREFIX}/v1/board/t1-east/ack", "t1-north")
    control = first_reaching(club, "tricktable-host", f"{PREFIX}/v1/board/t1-north/ack",
                             "t1-north")  # its own
    return ("t1-east's acks reached t1-north" if got else None), control


@attempt("broker: plain MQTT (a sniffable login) on the TLS listener")
def plain_on_tls(club: ClubBroker) -> Tried:
    ok = connects(club, "t1-north", club.passwords["t1-north"], port=club.tls_port)
    control = connects(club, "t1-north", club.passwords["t1-north"], port=club.tls_port,
                       tls=True)
    return ("the TLS listener took a plain CONNECT" if ok else None), control


@attempt("broker: a board's TLS login to a broker the club's CA did not sign")
def rogue_broker(club: ClubBroker, work: Path) -> Tried:
    from tricktable.provision.certs import make_club_certs

    rogue = make_club_certs(work / "rogue", ["127.0.0.1"], "rogue")
    with start_broker("mosquitto", tls=BrokerTLS(rogue.server, rogue.server_key)) as broker:
        ok = connects(club, "t1-north", club.passwords["t1-north"], port=broker.port, tls=True)
    control = connects(club, "t1-north", club.passwords["t1-north"], port=club.tls_port,
                       tls=True)  # the club's own broker
    return ("the board sent its password to a rogue broker" if ok else None), control


def retained_reaches_host(club: ClubBroker, user: str, topic: str, size: int) -> bool:
    """``user`` publishes a retained message of ``size`` bytes; True when the host,
    subscribing afterwards, is given it first."""
    club.client(user).publish(topic, b"s" * size, retain=True)
    club.close_clients()
    host = club.client("tricktable-host")
    host.subscribe(topic)
    host.subscribe(f"{PREFIX}/v1/host/marker")
    host.publish(f"{PREFIX}/v1/host/marker", b"m")
    first = host.next_message()
    host.publish(topic, b"", retain=True)  # cleared: the next attempt starts clean
    club.close_clients()
    return first[0] == topic and len(first[1]) == size


@attempt("broker: a board keeps a 40 MB retained status that every reader gets")
def giant_status(club: ClubBroker) -> Tried:
    topic = f"{PREFIX}/v1/board/t2-north/status"
    control = retained_reaches_host(club, "t2-north", topic, 1500)
    got = retained_reaches_host(club, "t2-north", topic, 40 << 20)
    return ("the broker kept and sent 40 MB" if got else None), control


@attempt("broker: a program's user publishes a retained status for a phantom board")
def phantom_board(club: ClubBroker) -> Tried:
    for user in ("tricktable-web", "tricktable-director", "tricktable-watch"):
        if retained_reaches_host(club, user, f"{PREFIX}/v1/board/{user}/status", 100):
            return f"{user} spoke as a board", True
    control = retained_reaches_host(club, "t1-east", f"{PREFIX}/v1/board/t1-east/status", 100)
    return None, control


# -- a board ---------------------------------------------------------------------------------

GENUINE: dict[str, bool] = {}


def genuine_installs(club: ClubBroker, work: Path) -> bool:
    """The control of both: a newer bundle signed with the club's key is installed."""
    if "ok" not in GENUINE:
        GENUINE["ok"] = offer_to_board(club, work, "genuine") is not None
    return GENUINE["ok"]


@attempt("board: an older bundle, correctly signed (a downgrade)")
def downgrade(club: ClubBroker, work: Path) -> Tried:
    return offer_to_board(club, work, "older"), genuine_installs(club, work)


@attempt("board: a bundle signed with what one board holds (old update key), 6.6.6, counter 2^40")
def forged_bundle(club: ClubBroker, work: Path) -> Tried:
    return offer_to_board(club, work, "forged"), genuine_installs(club, work)


def offer_to_board(club: ClubBroker, work: Path, kind: str) -> str | None:
    from fwkit import MicroPython, PoweredBoard, build_mpy
    from readerhost import ReaderHost
    from tricktable.fleet import bundle, signing
    from tricktable.fleet.updater import Updater
    from tricktable.mqtt.url import BrokerURL
    from waiting import eventually

    club_key = bytes(range(32))
    where = work / kind
    where.mkdir()
    build = work / "mpy"
    if not build.exists():
        build.mkdir()
        build_mpy(build)
    key = where / "fleet-signing.key"  # the host's; the thief's is their own
    signing.generate(key)
    signing.generate(where / "thief.key")
    files = bundle.build(where / "genuine", "0.2.0", key).files
    (where / "offer").mkdir()
    offer = (bundle.write(where / "offer", "0.0.1", key, files, counter=5) if kind == "older"
             else bundle.write(where / "offer", "0.3.0", key, files, counter=20)
             if kind == "genuine"
             else bundle.write(where / "offer", "6.6.6", where / "thief.key", files,
                               counter=2 ** 40, migrate_from=club_key))
    flash = where / "flash"
    (flash / "fw").mkdir(parents=True)
    (flash / "fw" / "boot.json").write_text(json.dumps(
        {"active": "", "version": "0.1.0", "counter": 10}))
    with ReaderHost(1) as readers:
        spec = where / "spec.json"
        spec.write_text(json.dumps({
            "storage": str(flash), "trial_s": 60, "readers_port": readers.port,
            "config": {"board": "north", "prefix": PREFIX, "pads": 1, "scan_ms": 20,
                       "backoff_ms": [100, 500], "update_pub": signing.public_key(key),
                       "update_key": bundle.update_key(club_key),
                       "broker": {"host": "127.0.0.1", "port": club.tls_port, "keepalive": 5,
                                  "user": "north", "password": club.passwords["north"],
                                  "tls": True, "ca": str(club.certs.ca_der)}}}))
        board = PoweredBoard(MicroPython(build, heap="160k"), spec)
        updater = Updater(offer, BrokerURL("127.0.0.1", club.port, username="tricktable-fleet",
                                           password=club.passwords["tricktable-fleet"]), PREFIX)
        try:
            updater.start()
            eventually(lambda: (s := updater.statuses.get("north")) is not None and s.online,
                       "the board online", timeout=60)
            updater.offer("north")  # past the host's own check, as an attacker would
            eventually(lambda: (u := updater.statuses["north"].update) is not None
                       and u.state in ("refused", "installed"), "the board's verdict",
                       timeout=60)
            status = updater.statuses["north"]
            return None if status.update.state == "refused" and board.boots == 1 else (
                f"the board took {offer.version}: {status.update}")
        finally:
            updater.stop()
            board.stop()
            # its retained status (an update "installed") must not speak for the next board
            club.client("tricktable-host").publish(f"{PREFIX}/v1/board/north/status", b"",
                                                   retain=True)
            club.close_clients()


# -- files -----------------------------------------------------------------------------------

def readable_by_others(paths: list[Path]) -> str | None:
    loose = [f"{p.name} {stat.filemode(p.stat().st_mode)}" for p in paths
             if p.exists() and p.stat().st_mode & 0o077]
    return ", ".join(loose) if loose else None


def loose_file_seen(folder: Path) -> bool:
    """The control of a mode check: a file made 0644 in ``folder`` is seen as loose."""
    loose = folder / "loose-control"
    loose.write_text("x")
    loose.chmod(0o644)
    try:
        return readable_by_others([loose]) is not None
    finally:
        loose.unlink()


@attempt("files: read the club key (deck registry and its -wal/-shm) as another user")
def registry_mode(work: Path) -> Tried:
    from tricktable.deckkit.decks import Registry

    old = os.umask(0o022)
    try:
        with Registry(work / "decks.sqlite") as reg:
            reg.add_key(1, os.urandom(32))
            return readable_by_others([work / "decks.sqlite", work / "decks.sqlite-wal",
                                       work / "decks.sqlite-shm"]), loose_file_seen(work)
    finally:
        os.umask(old)


@attempt("files: read the broker's password file, a program's password, the CA's key")
def secret_modes(club: ClubBroker, work: Path) -> Tried:
    from click.testing import CliRunner
    from tricktable.cli import main

    old = os.umask(0o022)
    try:
        run = CliRunner().invoke(main, ["broker", "user", "tricktable-web", "--passwd-file",
                                        str(work / "passwd"), "--password-out",
                                        str(work / "web-password")])
        if run.exit_code:
            return f"broker user failed: {run.output}", False
    finally:
        os.umask(old)
    return readable_by_others([work / "passwd", work / "web-password", club.certs.ca_key,
                               club.certs.server_key]), loose_file_seen(work)


def shared_folder() -> Path:
    """A folder every user may write (as /tmp, or a careless club folder)."""
    folder = Path(tempfile.mkdtemp(prefix="shared-"))
    folder.chmod(0o1777)
    return folder


def private_write_works(work: Path) -> bool:
    """The control of the two below: a secret written into the owner's own folder is there."""
    from tricktable.secretfiles import write_private

    write_private(work / "private" / "secret", "s3cret\n")
    return (work / "private" / "secret").read_text() == "s3cret\n"


@attempt("files (nobody): a link in a shared folder makes root's secret overwrite a file")
def secret_link(work: Path) -> Tried:
    from tricktable.secretfiles import SecretFileError, write_private

    folder, victim = shared_folder(), work / "victim"
    victim.write_text("root's own file\n")
    try:
        as_nobody(["ln", "-s", str(victim), str(folder / "password.new")])
        try:
            write_private(folder / "password", "s3cret\n")
        except SecretFileError:
            pass  # refused: the folder is others' to write
        got = victim.read_text() != "root's own file\n"
    finally:
        shutil.rmtree(folder)
    return ("root wrote through nobody's link" if got else None), private_write_works(work)


@attempt("files (nobody): a file of theirs in a shared folder receives root's secret")
def secret_their_file(work: Path) -> Tried:
    from tricktable.secretfiles import SecretFileError, write_private

    folder = shared_folder()
    try:
        as_nobody(["sh", "-c", f"umask 0; : > {folder}/password.new"])
        try:
            write_private(folder / "password", "s3cret\n")
        except SecretFileError:
            pass
        read = as_nobody(["sh", "-c", f"cat {folder}/password {folder}/password.new"])
        got = "s3cret" in read.stdout
        (folder / "public").write_text("public\n")  # the control: nobody reads what it may
        (folder / "public").chmod(0o644)
        control = as_nobody(["cat", str(folder / "public")]).stdout == "public\n"
    finally:
        shutil.rmtree(folder)
    return ("nobody read the secret" if got else None), control and private_write_works(work)


@attempt("ps (nobody): the club key while `deck key --import-file -` imports it")
def deck_key_ps(work: Path) -> Tried:
    cli = [sys.executable, "-c", "from tricktable.cli import main; main()", "deck", "key"]
    shown = subprocess.run([*cli, "--registry", str(work / "a.sqlite")], capture_output=True,
                           text=True, timeout=60).stdout
    importing = subprocess.Popen([*cli, "--import-file", "-", "--registry",
                                  str(work / "b.sqlite")], stdin=subprocess.PIPE, text=True,
                                 stdout=subprocess.DEVNULL)
    try:
        seen = nobody_python(f"print(open('/proc/{importing.pid}/cmdline').read())").stdout
    finally:
        importing.communicate(shown, timeout=60)
    got = shown.split()[1] in seen
    return ("nobody read the club key" if got else None), "--import-file" in seen


# -- the scoreboard --------------------------------------------------------------------------

class Scoreboard:
    """`tricktable web` as a club runs it: its own process, the token and the broker password
    given by the environment and a file, its output in a file."""

    def __init__(self, club: ClubBroker, work: Path) -> None:
        from club_night import club_night, write_night
        from tricktable.players import ClubDB, Players

        night = club_night(tables=2, games=1, rounds=1)
        write_night(night, work / "night.json", bell=False)
        self.hidden, self.shown = night.players[3], night.players[0]
        with ClubDB(work / "club.sqlite") as db:
            players = Players(db)
            for name in night.players:
                players.add(name)
            players.set_flags(self.hidden, hidden=True)
        (work / "admin-password").write_text(club.passwords["tricktable-admin"] + "\n")
        self.token = "s3cret-admin-token"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.out = work / "web.out"
        env = dict(os.environ, TRICKTABLE_ADMIN_TOKEN=self.token)
        with self.out.open("w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from tricktable.cli import main; main()", "web",
                 "--broker", f"mqtt://127.0.0.1:{club.port}", "--username", "tricktable-admin",
                 "--password-file", str(work / "admin-password"), "--prefix", PREFIX,
                 "--port", str(self.port), "--night", str(work / "night.json"),
                 "--club-db", str(work / "club.sqlite")], env=env, stdout=out,
                stderr=subprocess.STDOUT, text=True)
        self.password = club.passwords["tricktable-admin"]
        if not within(self.answers, WAIT):
            raise RuntimeError(f"tricktable web did not answer: {self.out.read_text()}")

    def answers(self) -> bool:
        if self.proc.poll() is not None:
            raise RuntimeError(f"tricktable web stopped: {self.out.read_text()}")
        try:
            httpx.get(f"{self.url}/api/club", timeout=1)
            return True
        except httpx.HTTPError:
            return False

    def rss(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


@attempt("web: admin routes without the token, with a wrong one, or without 'Bearer'")
def admin_routes(web: Scoreboard) -> Tried:
    control = httpx.get(f"{web.url}/api/fleet",
                        headers={"Authorization": f"Bearer {web.token}"}).status_code == 200
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": web.token},
                    {"Authorization": f"Basic {web.token}"}):
        for method, path in (("GET", "/api/fleet"), ("POST", "/api/table/t1/control"),
                             ("POST", "/api/fleet/t1-north/blink")):
            got = httpx.request(method, f"{web.url}{path}", headers=headers,
                                json={"cmd": "undo"})
            if got.status_code not in (403, 404):
                return f"{method} {path} with {headers or 'no header'}: {got.status_code}", control
    return None, control


def raw_get(port: int, path: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@attempt("web: path traversal on the file routes")
def traversal(web: Scoreboard) -> Tried:
    control = raw_get(web.port, "/static/app.js").startswith(b"HTTP/1.1 200")
    for path in ("/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/pyproject.toml",
                 "/static/..%2f..%2f..%2fpyproject.toml", "/replay/..%2f..%2fetc%2fpasswd",
                 "/api/table/..%2f..%2fetc/hands/1/1"):
        answer = raw_get(web.port, path)
        if b"root:" in answer or b"[project]" in answer:
            return f"{path} served a file outside the app", control
    return None, control


def upload(web: Scoreboard, body: bytes, name: str = "x.json") -> httpx.Response:
    return httpx.post(f"{web.url}/api/replay/file?name={name}", content=body, timeout=60)


def genuine_upload(web: Scoreboard) -> bool:
    """The control of the uploads: a real hand history is read and answered 200."""
    return upload(web, (ROOT / "examples" / "bid-euchre-game.json").read_bytes()
                  ).status_code == 200


@attempt("web: a 300 MB upload to /api/replay/file (memory, without logging in)")
def big_upload(web: Scoreboard) -> Tried:
    before = web.rss()
    with socket.create_connection(("127.0.0.1", web.port), timeout=30) as sock:
        sock.sendall(b"POST /api/replay/file?name=big HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
        block = b"%x\r\n" % (1 << 20) + b"x" * (1 << 20) + b"\r\n"
        sent = 0
        try:
            while sent < 300:
                sock.sendall(block)
                sent += 1
        except OSError:
            pass  # the server stopped reading: refused
        sock.settimeout(10)
        try:
            answer = sock.recv(4096)
        except OSError:
            answer = b""
    grew = web.rss() - before
    control = genuine_upload(web)
    if not answer.startswith(b"HTTP/1.1 413") or grew > 32 << 20:
        return (f"answered {answer[:20]!r} after {sent} MB sent; the process grew "
                f"{grew >> 20} MB"), control
    return None, control


def bad_upload(web: Scoreboard, body: bytes) -> Tried:
    """A 500, a traceback in the log or a long answer is in; a one-line 400 is kept out."""
    before = web.out.read_text()
    got = [upload(web, body) for _ in range(20)]  # the 200 in 0.4 s, shortened
    grew = len(web.out.read_text()) - len(before)
    worst = max(got, key=lambda r: (r.status_code, len(r.content)))
    bad = worst.status_code != 400 or len(worst.content) > 300 or grew > 2000
    return (f"{worst.status_code}, {len(worst.content)} B answered, the log grew {grew} B"
            if bad else None), genuine_upload(web)


@attempt("web: JSON nested 100,000 deep to /api/replay/file (a 500 and a traceback)")
def nested_json(web: Scoreboard) -> Tried:
    return bad_upload(web, b'{"format": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")


@attempt("web: a JSON number 5,000 digits long to /api/replay/file")
def long_number(web: Scoreboard) -> Tried:
    return bad_upload(web, b'{"format": 1' + b"0" * 5000 + b"}")


@attempt("web: confirm a hidden player played, by their scorecard")
def hidden_player(web: Scoreboard) -> Tried:
    hidden = httpx.get(f"{web.url}/api/scorecard/{web.hidden}")
    unknown = httpx.get(f"{web.url}/api/scorecard/Nobody")
    control = httpx.get(f"{web.url}/api/scorecard/{web.shown}").status_code == 200
    if (hidden.status_code, hidden.content) != (unknown.status_code, unknown.content):
        return f"{hidden.status_code} {hidden.text[:60]!r} vs {unknown.status_code}", control
    return None, control


@attempt("web: count the hidden players by the gaps in /api/players/names ids")
def names_ids(web: Scoreboard) -> Tried:
    links = httpx.get(f"{web.url}/api/players/names").json()["players"]
    control = web.shown.casefold() in links  # a visible player is linked
    numbers = sorted(int(i) for i in links.values() if str(i).isdigit())
    return (f"ids are numbers: {numbers}" if numbers else None), control


@attempt("web: frame the scoreboard or run a foreign script in it (headers)")
def headers(web: Scoreboard) -> Tried:
    control = httpx.get(f"{web.url}/").status_code == 200
    for path in ("/", "/tv", "/results", "/fleet", "/api/club", "/static/app.js"):
        got = httpx.get(f"{web.url}{path}").headers
        csp = got.get("content-security-policy", "")
        if got.get("x-frame-options") != "DENY" or "frame-ancestors 'none'" not in csp \
                or "script-src 'self'" not in csp or got.get("x-content-type-options") != "nosniff":
            return f"{path} lacks the headers", control
    return None, control


@attempt("web: a board's bad messages without pause fill the log")
def log_flood(web: Scoreboard, club: ClubBroker) -> Tried:
    board = club.client("t1-north")
    for _ in range(500):
        board.paho.publish(f"{PREFIX}/v1/board/t1-north/status", b"not json", qos=1)
    board.publish(f"{PREFIX}/v1/board/t1-north/status", b"still not json")
    club.close_clients()
    lines = lambda: [ln for ln in web.out.read_text().splitlines() if "t1-north" in ln  # noqa: E731
                     or "ignored:" in ln]
    control = within(lambda: any("ignored:" in ln for ln in lines()), 10)  # it is logged
    time.sleep(1)  # let the rest arrive: what is measured is how many lines they made
    got = len(lines())
    return (f"{got} lines for 501 bad messages" if got > 20 else None), control


def open_after(port: int, sent: bytes, seconds: float) -> bool:
    """True when a connection that sent ``sent`` is still open after ``seconds``."""
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as sock:
        sock.sendall(sent)
        try:
            return sock.recv(1) != b""
        except TimeoutError:
            return True


@attempt("web: half-sent request heads hold connections open for ever")
def half_head(web: Scoreboard) -> Tried:
    got = open_after(web.port, b"GET /api/club HTTP/1.1\r\nHost: x\r\n", 25)
    control = raw_get(web.port, "/api/club").startswith(b"HTTP/1.1 200")
    return ("still open after 25 s" if got else None), control


@attempt("web: a half-sent body holds a connection open for ever")
def half_body(web: Scoreboard) -> Tried:
    got = open_after(web.port, b"POST /api/replay/file?name=x HTTP/1.1\r\nHost: x\r\n"
                               b"Content-Length: 100\r\n\r\n0123", 25)
    return ("still open after 25 s" if got else None), genuine_upload(web)


@attempt("ps (nobody): the admin token or a broker password in another user's `ps`")
def ps(web: Scoreboard) -> Tried:
    seen = as_nobody(["ps", "-eo", "pid,args", "--width", "10000"]).stdout
    mine = [line for line in seen.splitlines() if line.split(None, 1)[0] == str(web.proc.pid)]
    control = bool(mine) and "--password-file" in mine[0]  # nobody does see its command line
    found = [what for what, secret in (("admin token", web.token), ("password", web.password))
             if secret in seen]
    return (", ".join(found) + " in the command line" if found else None), control


# -- tricktable up ----------------------------------------------------------------------------

def club_folder() -> Path:
    """A club's folder the broker's own user may pass through (as /var/lib/tricktable)."""
    folder = Path(tempfile.mkdtemp(prefix="club-"))
    folder.chmod(0o711)
    return folder


def read_as(path: Path, nobody: bool) -> bytes:
    """What ``cat path`` gives, run as nobody or as the owner."""
    argv = nobody_argv(["cat", str(path)]) if nobody else ["cat", str(path)]
    return subprocess.run(argv, capture_output=True, timeout=60).stdout


def nobody_reads(path: Path) -> Tried:
    """nobody reads ``path``; the control: its owner does (the same read, the right user)."""
    got = read_as(path, nobody=True)
    return (f"nobody read {len(got)} characters" if got else None), bool(read_as(path, False))


@attempt("up (nobody): read the journal (every play of the night)")
def up_journal(up: Up) -> Tried:
    return nobody_reads(up.tmp / "journal.sqlite")


@attempt("up (nobody): read the night file (players, seating, tallies)")
def up_night(up: Up) -> Tried:
    return nobody_reads(up.tmp / "night.json")


@attempt("up (nobody): read up.log")
def up_log(up: Up) -> Tried:
    return nobody_reads(up.data / "up.log")


@attempt("up (nobody): read serve's broker password (it may read and write everything)")
def up_host_password(up: Up) -> Tried:
    return nobody_reads(up.data / "secrets" / "tricktable-host")


@attempt("up (nobody): read the console's token file")
def up_token_file(up: Up) -> Tried:
    return nobody_reads(up.data / "secrets" / "console-token")


@attempt("up (nobody): read the broker's password file")
def up_passwd(up: Up) -> Tried:
    return nobody_reads(up.data / "broker" / "passwd")


@attempt("up (nobody): read the broker's TLS key")
def up_server_key(up: Up) -> Tried:
    return nobody_reads(up.data / "broker" / "certs" / "server.key")


@attempt("up: the console's token on up's stdout (kept by the system journal)")
def up_token(up: Up) -> Tried:
    token_file = up.data / "secrets" / "console-token"
    token = token_file.read_text().strip()
    output = up.output()
    control = bool(token) and str(token_file) in output  # up says where it is
    return ("the token is on stdout" if token in output else None), control


def uid_of(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("Uid:")))


@attempt("up: the broker keeps root")
def up_broker_root(up: Up) -> Tried:
    broker = uid_of(up.pids()["broker"])
    control = uid_of(up.proc.pid) == os.getuid()  # the check reads uids
    return ("mosquitto runs as root" if broker == 0 else None), control


@attempt("up: the console's API without the director's token")
def console_api(up: Up) -> Tried:
    url = f"http://127.0.0.1:{up.console_port}/api/console"
    token = (up.data / "secrets" / "console-token").read_text().strip()
    control = httpx.get(url, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": token}):
        got = httpx.get(url, headers=headers)
        if got.status_code != 403:
            return f"{headers or 'no header'}: {got.status_code}", control
    return None, control


@attempt("up (nobody): take the broker's port the moment the broker dies")
def squat_restart(up: Up) -> Tried:
    secrets = [p.read_text().strip().encode() for p in (up.data / "secrets").iterdir()]
    with Squatter("127.0.0.1", up.port, wait=True) as squatter:
        os.kill(up.pids()["broker"], signal.SIGKILL)
        squatter.listening()
        stopped = within(lambda: up.proc.poll() is not None, 60)
        got = squatter.got()
    control = "stopping serve, web, console until broker is back" in up.log()
    taken = [s for s in secrets if s in got]
    if taken or b"tricktable-" in got:
        return f"nobody received {len(taken)} secret(s) ({len(got)} bytes)", control
    return (None if stopped else "up kept running beside the squatter"), control


def up_once(up: Up, seconds: float = 60) -> str | None:
    """Run up once; its output if it stopped by itself, else None (it kept running)."""
    argv = [sys.executable, "-c", "from tricktable.cli import main; main()", "up", "--club",
            str(up.tmp / "club.toml"), "--data", str(up.data)]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        return None
    return done.stdout + done.stderr


def squat(up: Up, port: int, started: bool) -> Tried:
    secrets = [p.read_text().strip().encode()
               for p in (up.data / "secrets").iterdir()]
    with Squatter("127.0.0.1", port) as squatter:
        said = up_once(up)
        got = squatter.got()
    if said is None:
        return "up kept running with nobody on its port", started
    taken = [s for s in secrets if s in got]
    if taken or b"tricktable-" in got:
        return f"nobody received {len(taken)} secret(s) ({len(got)} bytes)", started
    if f"port {port} on 127.0.0.1" not in said.strip().splitlines()[-1]:
        return f"up stopped without saying why: {said[-200:]!r}", started
    return None, started


@attempt("up (nobody): listen first on the broker's port for the parts' passwords")
def squat_broker(up: Up, started: bool) -> Tried:
    return squat(up, up.port, started)


@attempt("up (nobody): listen first on the console's port for the director's token")
def squat_console(up: Up, started: bool) -> Tried:
    return squat(up, up.console_port, started)


@attempt("up (nobody): listen first on the scoreboard's port")
def squat_web(up: Up, started: bool) -> Tried:
    return squat(up, up.web_port, started)


@attempt("up: a part printing without pause fills the disk with up.log")
def log_rotation(work: Path) -> Tried:
    from tricktable.appliance.supervisor import Log

    limit = 64 * 1024
    log = Log(work / "up.log", rotate_bytes=limit)
    for n in range(10_000):  # about 1 MB
        log.line("chatty", f"line {n} " + "x" * 90)
    log.close()
    sizes = [p.stat().st_size for p in (work / "up.log", work / "up.log.1")
             if p.exists()]
    control = len(sizes) == 2 and "line 9999 " in (work / "up.log").read_text()
    return (f"{sum(sizes)} B kept" if sum(sizes) > 2 * limit + 400 else None), control


# -- the unit ----------------------------------------------------------------------------------

def exposure(unit: Path) -> float:
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)],
                          capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", done.stdout)
    if not found:
        raise RuntimeError(done.stdout[-500:] + done.stderr)
    return float(found.group(1))


@attempt("unit: what the systemd unit lets a compromised part do (systemd-analyze security)")
def unit_exposure(work: Path) -> Tried:
    (work / "unit-club.toml").write_text('[club]\nname = "c"\n')
    subprocess.run([sys.executable, "-c", "from tricktable.cli import main; main()", "service",
                    "install", "--club", str(work / "unit-club.toml"), "--data",
                    str(work / "unit-data"), "--unit-dir", str(work / "units"), "--no-enable"],
                   capture_output=True, text=True, timeout=60, check=True)
    score = exposure(work / "units" / "tricktable.service")
    bare = work / "bare.service"  # the control: an unsandboxed unit rates as such
    bare.write_text("[Service]\nExecStart=/usr/bin/true\nUser=root\n")
    control = exposure(bare) >= 9.0
    print(f"          systemd-analyze security: {score} (an unsandboxed unit: "
          f"{exposure(bare)})", flush=True)
    return (f"exposure {score}, not under 4.0" if score >= 4.0 else None), control


def up_attempts(work: Path) -> None:
    folder = club_folder()
    up = Up(folder, PREFIX, start=False)
    started = False
    try:
        up.start()
        started = True
        for probe in (up_journal, up_night, up_log, up_host_password, up_token_file, up_passwd,
                      up_server_key, up_token, up_broker_root, console_api, squat_restart):
            probe(up)
    finally:
        up.stop()
    try:
        for probe in (squat_broker, squat_console, squat_web):
            probe(up, started)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    log_rotation(work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="the attempts on the broker only (no board, files or scoreboard)")
    quick = parser.parse_args().quick
    if not quick and os.getuid() != 0:
        raise SystemExit("run as root: the attempts of another user of the machine run as "
                         "nobody (setpriv)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        club = start_club_broker(work / "club", PREFIX, boards=BOARDS)
        try:
            for probe in (no_login, steal_host, steal_board, forge_play, board_control,
                          web_control, web_night, admin_night, board_offer, director_offer,
                          host_offer, other_display, other_acks, plain_on_tls, giant_status,
                          phantom_board):
                probe(club)
                if not os.path.exists(f"/proc/{club.handle.pid}"):  # "kept out" must mean it
                    raise SystemExit(f"the club's broker stopped during {probe.__name__}")
            if quick:
                report()
                return
            rogue_broker(club, work)
            downgrade(club, work)
            forged_bundle(club, work)
            registry_mode(work)
            secret_modes(club, work)
            secret_link(work)
            secret_their_file(work)
            deck_key_ps(work)
            web = Scoreboard(club, work)
            try:
                for probe in (admin_routes, traversal, big_upload, nested_json, long_number,
                              hidden_player, names_ids, headers, half_head, half_body, ps):
                    probe(web)
                log_flood(web, club)
            finally:
                web.stop()
        finally:
            club.stop()
        up_attempts(work)
        unit_exposure(work)
    report()


def report() -> None:
    got_in = sum(1 for _, got, _ in RESULTS if got)
    controls = sum(1 for _, _, control in RESULTS if control)
    print(f"attacks: {len(RESULTS)} tried, {got_in} got in, {controls} controls ok")


if __name__ == "__main__":
    main()

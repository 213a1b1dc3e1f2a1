"""Try to get in where one does not belong, as someone on the club's Wi-Fi would (issue 26):
every attempt against the real parts, on 127.0.0.1. Prints one line per attempt, then last:
``attacks: T tried, G got in`` (G must be 0).

- The club's broker, run from the shipped configuration (host/tricktable/mqtt/mosquitto/mosquitto.conf,
  acl.template, the CA `tricktable broker certs` makes), with users made as `tricktable board
  setup` and `tricktable broker user` make them: logins, stolen client ids, topics a user
  may not read or write, plain MQTT on the TLS port, a broker the club's CA did not sign.
- A board (the real firmware under the MicroPython unix port): an older, correctly signed
  bundle; a bundle a thief signed with what a board holds (the old update key, and a key
  pair of their own).
- Files: the deck registry (the club key), a password file, the CA's key.
- The scoreboard (`tricktable web` with an admin token, a night and a hidden player): admin
  routes without a bearer token, path traversal, a 300 MB upload, a hidden player's
  scorecard, framing, and the token and the broker password in `ps`.

Run: .venv/bin/python bench/attack.py
     .venv/bin/python bench/attack.py --quick    # the broker's attempts only, seconds
"""

from __future__ import annotations

import argparse
import json
import os
import queue
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
sys.path[:0] = [str(ROOT / "tests" / "firmware"), str(ROOT / "tests"), str(ROOT / "tests" / "web")]

import httpx  # noqa: E402
import paho.mqtt.client as mqtt  # noqa: E402
from clubkit import WAIT, ClubBroker, start_club_broker  # noqa: E402
from tricktable.mqtt.broker import BrokerTLS, free_port, start_broker  # noqa: E402

PREFIX = "tricktable"
BOARDS = {"t1-north": "t1", "t1-east": "t1", "t2-north": "t2", "north": "t1"}
RESULTS: list[tuple[str, bool, str]] = []


def attempt(name: str) -> Callable[[Callable[..., str | None]], Callable[..., None]]:
    """An attempt returns None when it was kept out, else what it got."""
    def wrap(function: Callable[..., str | None]) -> Callable[..., None]:
        def run(*args: object) -> None:
            try:
                got = function(*args)
            except Exception as exc:  # an attempt that breaks is reported, not hidden
                got = f"the attempt failed to run: {exc!r}"
            RESULTS.append((name, got is not None, got or "kept out"))
            print(f"{'GOT IN' if got else 'kept out':8}  {name}" + (f": {got}" if got else ""),
                  flush=True)
        return run
    return wrap


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
def no_login(club: ClubBroker) -> str | None:
    for user, password in (("", ""), ("t1-north", "guess"), ("tricktable-host", "tricktable")):
        if connects(club, user, password):
            return f"logged in as {user!r}"
    return None


@attempt("broker: a board's password takes the host's client id (the club stops)")
def steal_host(club: ClubBroker) -> str | None:
    return steal(club, "tricktable-host")


@attempt("broker: a board's password takes another board's client id")
def steal_board(club: ClubBroker) -> str | None:
    return steal(club, "t1-east")


def steal(club: ClubBroker, victim: str) -> str | None:
    target = club.client(victim, client_id=victim)
    thief = club.client("t1-north", client_id=victim)
    try:
        target.subscribe(f"{PREFIX}/v1/board/{victim}/status")
        target.publish(f"{PREFIX}/v1/board/{victim}/status", b"x")
        target.next_message()
    except Exception:
        pass
    kicked = target.disconnects
    del thief
    club.close_clients()
    return f"{victim} was thrown off {kicked} time(s)" if kicked else None


def dropped(club: ClubBroker, user: str, topic: str, reader: str = "tricktable-host"
            ) -> str | None:
    """``user`` publishes on ``topic``, which ``reader`` subscribes to; None when ``reader``
    never gets it: a marker the host publishes afterwards (on a topic ``reader`` may read)
    comes first."""
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
    return None if first[0] == marker else f"{first[0]} reached {reader}"


@attempt("broker: a board publishes a play on another board's topic")
def forge_play(club: ClubBroker) -> str | None:
    return dropped(club, "t1-north", f"{PREFIX}/v1/board/t1-east/event")


@attempt("broker: a board sends a table control command")
def board_control(club: ClubBroker) -> str | None:
    return dropped(club, "t1-north", f"{PREFIX}/v1/table/t1/control")


@attempt("broker: the public scoreboard's user sends a table control command")
def web_control(club: ClubBroker) -> str | None:
    return dropped(club, "tricktable-web", f"{PREFIX}/v1/table/t1/control")


@attempt("broker: the public scoreboard's user sends a night correction")
def web_night(club: ClubBroker) -> str | None:
    return dropped(club, "tricktable-web", f"{PREFIX}/v1/night/control")


@attempt("broker: the admin scoreboard's user sends a night correction")
def admin_night(club: ClubBroker) -> str | None:
    return dropped(club, "tricktable-admin", f"{PREFIX}/v1/night/control")


@attempt("broker: a board offers firmware to another board")
def board_offer(club: ClubBroker) -> str | None:
    return dropped(club, "t1-north", f"{PREFIX}/v1/board/t1-east/update", reader="t1-east")


@attempt("broker: the director offers firmware to a board")
def director_offer(club: ClubBroker) -> str | None:
    return dropped(club, "tricktable-director", f"{PREFIX}/v1/board/t1-east/update",
                   reader="t1-east")


@attempt("broker: the host's user offers firmware to a board (only the fleet user may)")
def host_offer(club: ClubBroker) -> str | None:
    return dropped(club, "tricktable-host", f"{PREFIX}/v1/board/t1-east/update",
                   reader="t1-east")


@attempt("broker: a board reads another table's display")
def other_display(club: ClubBroker) -> str | None:
    return dropped(club, "tricktable-host", f"{PREFIX}/v1/table/t2/display", reader="t1-north")


@attempt("broker: a board reads another board's acks")
def other_acks(club: ClubBroker) -> str | None:
    return dropped(club, "tricktable-host", f"{PREFIX}/v1/board/t1-east/ack", reader="t1-north")


@attempt("broker: plain MQTT (a sniffable login) on the TLS listener")
def plain_on_tls(club: ClubBroker) -> str | None:
    ok = connects(club, "t1-north", club.passwords["t1-north"], port=club.tls_port)
    return "the TLS listener took a plain CONNECT" if ok else None


@attempt("broker: a board's TLS login to a broker the club's CA did not sign")
def rogue_broker(club: ClubBroker, work: Path) -> str | None:
    from tricktable.provision.certs import make_club_certs

    rogue = make_club_certs(work / "rogue", ["127.0.0.1"], "rogue")
    with start_broker("mosquitto", tls=BrokerTLS(rogue.server, rogue.server_key)) as broker:
        ok = connects(club, "t1-north", club.passwords["t1-north"], port=broker.port, tls=True)
    return "the board sent its password to a rogue broker" if ok else None


# -- a board ---------------------------------------------------------------------------------

@attempt("board: an older bundle, correctly signed (a downgrade)")
def downgrade(club: ClubBroker, work: Path) -> str | None:
    return offer_to_board(club, work, "older")


@attempt("board: a bundle signed with what one board holds (old update key), 6.6.6, counter 2^40")
def forged_bundle(club: ClubBroker, work: Path) -> str | None:
    return offer_to_board(club, work, "forged")


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


# -- files -----------------------------------------------------------------------------------

def readable_by_others(paths: list[Path]) -> str | None:
    loose = [f"{p.name} {stat.filemode(p.stat().st_mode)}" for p in paths
             if p.exists() and p.stat().st_mode & 0o077]
    return ", ".join(loose) if loose else None


@attempt("files: read the club key (deck registry and its -wal/-shm) as another user")
def registry_mode(work: Path) -> str | None:
    from tricktable.deckkit.decks import Registry

    old = os.umask(0o022)
    try:
        with Registry(work / "decks.sqlite") as reg:
            reg.add_key(1, os.urandom(32))
            return readable_by_others([work / "decks.sqlite", work / "decks.sqlite-wal",
                                       work / "decks.sqlite-shm"])
    finally:
        os.umask(old)


@attempt("files: read the broker's password file, a program's password, the CA's key")
def secret_modes(club: ClubBroker, work: Path) -> str | None:
    from click.testing import CliRunner
    from tricktable.cli import main

    old = os.umask(0o022)
    try:
        run = CliRunner().invoke(main, ["broker", "user", "tricktable-web", "--passwd-file",
                                        str(work / "passwd"), "--password-out",
                                        str(work / "web-password")])
        if run.exit_code:
            return f"broker user failed: {run.output}"
    finally:
        os.umask(old)
    return readable_by_others([work / "passwd", work / "web-password", club.certs.ca_key,
                               club.certs.server_key])


# -- the scoreboard --------------------------------------------------------------------------

class Scoreboard:
    """`tricktable web` as a club runs it: its own process, the token and the broker password
    given by the environment and a file."""

    def __init__(self, club: ClubBroker, work: Path) -> None:
        from club_night import club_night, write_night
        from tricktable.players import ClubDB, Players

        night = club_night(tables=2, games=1, rounds=1)
        write_night(night, work / "night.json", bell=False)
        self.hidden = night.players[3]
        with ClubDB(work / "club.sqlite") as db:
            players = Players(db)
            for name in night.players:
                players.add(name)
            players.set_flags(self.hidden, hidden=True)
        (work / "admin-password").write_text(club.passwords["tricktable-admin"] + "\n")
        self.token = "s3cret-admin-token"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, TRICKTABLE_ADMIN_TOKEN=self.token)
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).with_name("tricktable")), "web", "--broker",
             f"mqtt://127.0.0.1:{club.port}", "--username", "tricktable-admin",
             "--password-file", str(work / "admin-password"), "--prefix", PREFIX,
             "--port", str(self.port), "--night", str(work / "night.json"),
             "--club-db", str(work / "club.sqlite")], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        self.password = club.passwords["tricktable-admin"]
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{self.url}/api/club", timeout=1)
                return
            except httpx.HTTPError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"tricktable web stopped: {self.proc.stdout.read()}") from None
                time.sleep(0.1)
        raise RuntimeError("tricktable web did not answer")

    def rss(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


@attempt("web: admin routes without the token, with a wrong one, or without 'Bearer'")
def admin_routes(web: Scoreboard) -> str | None:
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": web.token},
                    {"Authorization": f"Basic {web.token}"}):
        for method, path in (("GET", "/api/fleet"), ("POST", "/api/table/t1/control"),
                             ("POST", "/api/fleet/t1-north/blink")):
            got = httpx.request(method, f"{web.url}{path}", headers=headers,
                                json={"cmd": "undo"})
            if got.status_code not in (403, 404):
                return f"{method} {path} with {headers or 'no header'}: {got.status_code}"
    return None


@attempt("web: path traversal on the file routes")
def traversal(web: Scoreboard) -> str | None:
    for path in ("/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/pyproject.toml",
                 "/static/..%2f..%2f..%2fpyproject.toml", "/replay/..%2f..%2fetc%2fpasswd",
                 "/api/table/..%2f..%2fetc/hands/1/1"):
        with socket.create_connection(("127.0.0.1", web.port), timeout=10) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        if b"root:" in answer or b"[project]" in answer:
            return f"{path} served a file outside the app"
    return None


@attempt("web: a 300 MB upload to /api/replay/file (memory, without logging in)")
def big_upload(web: Scoreboard) -> str | None:
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
    if not answer.startswith(b"HTTP/1.1 413") or grew > 32 << 20:
        return f"answered {answer[:20]!r} after {sent} MB sent; the process grew {grew >> 20} MB"
    return None


@attempt("web: confirm a hidden player played, by their scorecard")
def hidden_player(web: Scoreboard) -> str | None:
    hidden = httpx.get(f"{web.url}/api/scorecard/{web.hidden}")
    unknown = httpx.get(f"{web.url}/api/scorecard/Nobody")
    if (hidden.status_code, hidden.content) != (unknown.status_code, unknown.content):
        return f"{hidden.status_code} {hidden.text[:60]!r} vs {unknown.status_code}"
    return None


@attempt("web: frame the scoreboard or run a foreign script in it (headers)")
def headers(web: Scoreboard) -> str | None:
    for path in ("/", "/tv", "/results", "/fleet", "/api/club", "/static/app.js"):
        got = httpx.get(f"{web.url}{path}").headers
        csp = got.get("content-security-policy", "")
        if got.get("x-frame-options") != "DENY" or "frame-ancestors 'none'" not in csp \
                or "script-src 'self'" not in csp or got.get("x-content-type-options") != "nosniff":
            return f"{path} lacks the headers"
    return None


@attempt("ps: read the admin token or a broker password from another user's `ps`")
def ps(web: Scoreboard) -> str | None:
    cmdline = Path(f"/proc/{web.proc.pid}/cmdline").read_bytes().replace(b"\0", b" ")
    found = [what for what, secret in (("admin token", web.token), ("password", web.password))
             if secret.encode() in cmdline]
    return ", ".join(found) + " in the command line" if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="the attempts on the broker only (no board, files or scoreboard)")
    quick = parser.parse_args().quick
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        club = start_club_broker(work / "club", PREFIX, boards=BOARDS)
        try:
            for probe in (no_login, steal_host, steal_board, forge_play, board_control,
                          web_control, web_night, admin_night, board_offer, director_offer,
                          host_offer, other_display, other_acks, plain_on_tls):
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
            web = Scoreboard(club, work)
            try:
                for probe in (admin_routes, traversal, big_upload, hidden_player, headers, ps):
                    probe(web)
            finally:
                web.stop()
        finally:
            club.stop()
    report()


def report() -> None:
    got_in = sum(1 for _, got, _ in RESULTS if got)
    print(f"attacks: {len(RESULTS)} tried, {got_in} got in")


if __name__ == "__main__":
    main()

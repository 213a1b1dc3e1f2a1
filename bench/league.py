"""The league under load: simulated clubs' hands over real mosquitto bridges into 1, 2 and 4
league service instances (``tricktable league serve``, each its own process) and PostgreSQL.

Everything is real and on this machine: a PostgreSQL (tests/pgkit.py, with its default durable
settings: fsync and synchronous commit on), the league's mosquitto
(TLS, a user per club, the league's ACL), and ``--hubs`` club-side mosquitto brokers that carry
the clubs' bridges: each club has its own bridge section (``tricktable league bridge``: its own
connection, credentials and TLS session), and a hub broker holds the bridges of
``clubs / hubs`` clubs. That is the honest way to run a thousand bridges on one machine:
one mosquitto process can hold many bridge connections, each exactly what a club's own broker
would open; what is shared is the process, not the connection or the credentials.

Each club has ``--tables`` tables, each scoring a hand every ``--hand-every`` seconds (1,000
clubs x 10 tables at 33 s is the issue's peak, about 300 hands/s). For each instance count it
prints, from the database's own rows:

- **steady**: ``--seconds`` of that load: messages stored per second, and the end-to-end lag
  (the club's publish to the row's insert, ``stored - sent``, same clock) p50/p99;
- **burst**: ``--burst`` hands published as fast as the hubs take them: how fast the league
  drains them (rows/s into PostgreSQL) and the lag p50/p99 while it does. On a small machine
  this measures the whole pipeline (publishers, hubs, bridges, brokers) sharing the cores;
- **backlog**: the league's side alone: the instances are paused (SIGSTOP) while ``--backlog``
  hands reach the league's broker and wait in their sessions (a watcher on the broker counts
  them in), then resumed: rows/s from the resume to the last row committed.

    .venv/bin/python bench/league.py --clubs 100 --seconds 20 --burst 5000
    .venv/bin/python bench/league.py --clubs 1000 --hubs 4 --instances 1,2,4
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "league")]

import paho.mqtt.client as mqtt  # noqa: E402
from leaguekit import (  # noqa: E402
    hand_count,
    rows,
    start_instance,
    start_league_broker,
    synthetic_hand,
)
from pgkit import PostgresServer  # noqa: E402
from tlskit import make_certificates  # noqa: E402
from tricktable.league.bridge import bridge_config  # noqa: E402
from tricktable.league.messages import encode, topic_for  # noqa: E402
from tricktable.league.store import LeagueStore  # noqa: E402
from tricktable.mqtt.broker import BrokerHandle, start_broker  # noqa: E402
from tricktable.mqtt.client import configure_client  # noqa: E402
from tricktable.mqtt.url import BrokerURL  # noqa: E402
from waiting import eventually  # noqa: E402


def start_hub(clubs: list[str], league: object, ca: Path) -> BrokerHandle:
    """A club-side broker holding the bridges of ``clubs``, one section each."""
    sections = "".join(bridge_config(c, league.club_url(c), ca_file=ca, retry_max=5)
                       for c in clubs)
    return start_broker("mosquitto", extra=sections + "max_queued_messages 0\n")


def bridges_up(hub: BrokerHandle, count: int) -> bool:
    """Wait for the hub's bridges' notifications: every one connected."""
    states: dict[str, bytes] = {}
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.on_message = lambda c, u, m: states.__setitem__(m.topic, m.payload)
    client.connect(hub.host, hub.port)
    client.subscribe("$SYS/broker/connection/+/state")
    client.loop_start()
    try:
        eventually(lambda: sum(v == b"1" for v in states.values()) >= count,
                   f"{count} bridges connected", timeout=120)
    finally:
        client.disconnect()
        client.loop_stop()
    return True


class Publisher(threading.Thread):
    """One hub's clubs' tables scoring hands: ``rate`` hands/s (0: as fast as it goes)."""

    def __init__(self, hub: BrokerHandle, clubs: list[str], tables: int, rate: float,
                 count: int, game: int) -> None:
        super().__init__(daemon=True)
        self.hub, self.rate, self.count, self.game = hub, rate, count, game
        self.seats = [(c, t) for t in range(1, tables + 1) for c in clubs]
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.client.max_inflight_messages_set(1000)
        self.client.max_queued_messages_set(0)
        self.client.connect(hub.host, hub.port)
        self.client.loop_start()
        self.infos: list[mqtt.MQTTMessageInfo] = []

    def run(self) -> None:
        start = time.monotonic()
        for i in range(self.count):
            if self.rate:
                wait = start + i / self.rate - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            club, table = self.seats[i % len(self.seats)]
            hand = synthetic_hand(club, table, self.game, i // len(self.seats) + 1)
            hand.sent = time.time()
            self.infos.append(self.client.publish(topic_for(hand), encode(hand), qos=1))
        for info in self.infos:
            info.wait_for_publish(timeout=300)
        self.client.disconnect()
        self.client.loop_stop()


def publish_all(hubs: list[tuple[BrokerHandle, list[str]]], tables: int, rate: float,
                total: int, game: int) -> None:
    each = total // len(hubs)
    publishers = [Publisher(hub, clubs, tables, rate / len(hubs), each, game)
                  for hub, clubs in hubs]
    for p in publishers:
        p.start()
    for p in publishers:
        p.join()


def figures(dsn: str, game: int) -> tuple[int, float, float, float]:
    """(rows, rows/s over the phase's stored span, lag p50, lag p99) of one phase."""
    count, span, p50, p99 = rows(
        dsn, "SELECT count(*), extract(epoch FROM max(stored) - min(stored)),"
             " percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM stored) - sent),"
             " percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM stored) - sent)"
             " FROM hands WHERE game = %s", game)[0]
    return int(count), count / max(float(span or 0), 1e-3), float(p50 or 0), float(p99 or 0)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_pids(pg: PostgresServer) -> list[int]:
    """The postmaster and its children (the backends doing the inserts)."""
    master = int((pg.data / "postmaster.pid").read_text().split()[0])
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == master:
                children.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return [master, *children]


def backlog(dsn: str, league: object, hubs: list, procs: list[subprocess.Popen], count: int,
            before: int, pg: PostgresServer) -> tuple[float, str]:
    """Pause the instances, let ``count`` hands queue for them on the league broker, resume
    them: rows/s from the resume to the last row committed, and the CPU seconds the league
    broker, the instances and PostgreSQL spent on the drain (where the time goes)."""
    seen = [0]
    watcher = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    configure_client(watcher, BrokerURL.parse(league.service_url()), str(league.ca))
    watcher.on_message = lambda c, u, m: seen.__setitem__(0, seen[0] + 1)
    watcher.on_connect = lambda c, u, f, r, p: c.subscribe("league/v1/+/hand", qos=0)
    watcher.connect(league.handle.host, league.handle.port)
    watcher.loop_start()
    eventually(watcher.is_connected, "the watcher connected")
    for p in procs:
        os.kill(p.pid, signal.SIGSTOP)
    try:
        publish_all(hubs, 10, 0, count, game=3)
        count = (count // len(hubs)) * len(hubs)
        eventually(lambda: seen[0] >= count, "the backlog on the league broker", timeout=300)
    finally:
        watcher.disconnect()
        watcher.loop_stop()
        parts = {"broker": [league.handle.pid], "instances": [p.pid for p in procs],
                 "postgres": postgres_pids(pg)}
        spent = {k: sum(cpu_seconds(pid) for pid in pids) for k, pids in parts.items()}
        resumed = time.time()
        for p in procs:
            os.kill(p.pid, signal.SIGCONT)
    eventually(lambda: hand_count(dsn) >= before + count, "the backlog stored", timeout=600)
    last = rows(dsn, "SELECT extract(epoch FROM max(stored)) FROM hands WHERE game = 3")[0][0]
    cpu = ", ".join(f"{k} {sum(cpu_seconds(pid) for pid in parts[k]) - spent[k]:.1f}"
                    for k in parts)
    return count / max(float(last) - resumed, 1e-3), f"cpu s: {cpu}"


def run(instances: int, pg: PostgresServer, league: object, hubs: list,
        args: argparse.Namespace, log: Path) -> None:
    dsn = pg.new_database()
    LeagueStore(dsn).close()
    names = [f"bench{instances}-{i}" for i in range(instances)]
    before = log.read_text(errors="replace").count("Ctrl-C stops it") if log.exists() else 0
    procs = [start_instance(dsn, league, name, log) for name in names]
    try:
        eventually(lambda: log.read_text(errors="replace").count("Ctrl-C stops it")
                   >= before + instances, "the instances subscribed", timeout=60)
        tables = args.clubs * args.tables
        rate = tables / args.hand_every
        steady = int(rate * args.seconds)
        publish_all(hubs, args.tables, rate, steady, game=1)
        steady = (steady // len(hubs)) * len(hubs)
        eventually(lambda: hand_count(dsn) >= steady, "the steady phase stored", timeout=300)
        n1, r1, a1, b1 = figures(dsn, 1)
        burst = (args.burst // len(hubs)) * len(hubs)
        if burst:
            publish_all(hubs, args.tables, 0, burst, game=2)
            eventually(lambda: hand_count(dsn) >= steady + burst, "the burst stored",
                       timeout=600)
            n2, r2, a2, b2 = figures(dsn, 2)
        else:
            n2, r2, a2, b2 = 0, 0.0, 0.0, 0.0
        drained, cpu = backlog(dsn, league, hubs, procs, args.backlog, steady + burst, pg) \
            if args.backlog else (0.0, "")
        print(f"{instances:>9} | {tables:>6} tables {rate:6.0f}/s offered: {r1:7.0f} stored/s,"
              f" lag p50 {a1 * 1000:4.0f} ms p99 {b1 * 1000:5.0f} ms ({n1} rows)"
              f" | burst {n2}: {r2:5.0f} rows/s, lag p50 {a2:5.2f} s p99 {b2:5.2f} s"
              f" | backlog {args.backlog}: {drained:5.0f} rows/s ({cpu})", flush=True)
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=100)
    parser.add_argument("--tables", type=int, default=10, help="tables per club")
    parser.add_argument("--hand-every", type=float, default=33.0,
                        help="seconds between a table's scored hands")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the steady load")
    parser.add_argument("--burst", type=int, default=5000, help="hands in the burst (0: none)")
    parser.add_argument("--backlog", type=int, default=10000,
                        help="hands queued for paused instances, then drained (0: none)")
    parser.add_argument("--hubs", type=int, default=2, help="club-side brokers holding bridges")
    parser.add_argument("--instances", default="1,2,4", help="league instance counts to run")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="league-bench-"))
    clubs = [f"club{i:04d}" for i in range(args.clubs)]
    pg = PostgresServer(durable=True)
    league = start_league_broker(make_certificates(work), tuple(clubs))
    hubs: list[tuple[BrokerHandle, list[str]]] = []
    try:
        t0 = time.monotonic()
        for h in range(args.hubs):
            share = clubs[h::args.hubs]
            hubs.append((start_hub(share, league, league.ca), share))
        for hub, share in hubs:
            bridges_up(hub, len(share))
        print(f"{args.clubs} clubs x {args.tables} tables, {len(clubs)} bridges on {args.hubs} "
              f"hub brokers, up in {time.monotonic() - t0:.1f} s; PostgreSQL, league mosquitto "
              f"(TLS); instances are `tricktable league serve` processes", flush=True)
        print("instances | steady load | burst | backlog", flush=True)
        for count in (int(n) for n in args.instances.split(",")):
            run(count, pg, league, hubs, args, work / "serve.log")
    finally:
        for hub, _ in hubs:
            hub.stop()
        league.handle.stop()
        pg.stop()


if __name__ == "__main__":
    main()

"""Publish-to-verdict latency of the host service through mosquitto, with 1, 50, 200 tables.

For each scenario: a fresh mosquitto (broker.py), ``tricktable serve`` as its own process
(journal and deck registry in a temp dir), and N tables played at once by bots (sim.bots)
tapping the tags of an enrolled kit (sim.kit) as raw protocol v1 pad events. A table taps,
waits for its seat's verdict (the LED feedback on the tapping board), thinks ``--think``
seconds (+-50 %), taps again; a finished game is followed by a NEW_GAME tap. The taps are
worked out before the clock starts, so the load generator only publishes and timestamps. Latency is from
just before ``publish()`` to the verdict's arrival. Prints p50 / p99 / max, the events
per second, refusals and tables still waiting for a verdict after 2 s (both should be 0),
the service's CPU use (user+system time / wall time; 100 % = one core) and how
long a restarted host takes to rebuild its tables from the journal the run left.

    .venv/bin/python bench/latency.py                  # 1, 50, 200 tables, 20 s each
    .venv/bin/python bench/latency.py --tables 200 --seconds 30 --think 0.25

The load generator runs on the same machine (the 2 cores are shared by it, mosquitto and
the service), so the numbers are an upper bound on what the host adds.
"""

from __future__ import annotations

import argparse
import heapq
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from tricktable.clubfile import load_club
from tricktable.deckkit.decks import Registry, deck_slots
from tricktable.engine import Engine
from tricktable.engine.actions import Action, Deal
from tricktable.mqtt.broker import start_broker
from tricktable.mqtt.client import no_delay
from tricktable.protocol import Feedback, PadEvent, Topics, decode, encode
from tricktable.serve.journal import Journal
from tricktable.serve.service import BrokerURL, Service
from tricktable.sim.bots import Bot
from tricktable.sim.kit import Kit, KitError

PREFIX = "bench"
SEATS = ("n", "e", "s", "w")
WORKERS = 8  # MQTT connections the load generator spreads the tables over
TICK = os.sysconf("SC_CLK_TCK")


class BenchTable:
    """One table's taps, worked out beforehand (bots on a shadow engine) so that the load
    generator does nothing but publish and timestamp while it measures."""

    def __init__(self, index: int, kit: Kit, rng: random.Random) -> None:
        self.index, self.id = index, f"b{index}"
        self.boards = [f"b{index}-{s}" for s in SEATS]
        self.script = self._game(kit, rng) + [(self.boards[0], kit.tokens["NEW_GAME"].uid)]
        self.position = self.seq = 0
        self.pending: tuple[float, str] | None = None  # (sent at, board)

    def _game(self, kit: Kit, rng: random.Random) -> list[tuple[str, bytes]]:
        eng = Engine.new("bid-euchre", seed=1, dealer=0, players=["N", "E", "S", "W"])
        bots = [Bot(seat, "bid-euchre", rng) for seat in range(4)]
        taps = []
        while not eng.public_state()["game_over"]:
            seat = eng.to_act
            assert seat is not None
            if eng.phase == "deal":
                action = Deal(seat)
            else:
                legal = [a for a in eng.legal_actions() if a.seat == seat and tappable(kit, a)]
                action = bots[seat].choose(eng.public_state(), eng.known_hand(seat), legal)
            if not eng.apply(action).ok:
                raise RuntimeError(f"{self.id}: a bot chose an illegal {action}")
            taps.append((self.boards[seat], kit.tag_for(action).uid))
        return taps

    def next_tap(self) -> tuple[str, bytes] | None:
        if self.position == len(self.script):
            return None
        self.position += 1
        return self.script[self.position - 1]


def tappable(kit: Kit, action: Action) -> bool:
    """Whether a tag of the kit does ``action`` (there is no BID:1 token, for one)."""
    try:
        kit.tag_for(action)
    except KitError:
        return False
    return True


def write_club(path: Path, n: int) -> None:
    lines = ["[club]", 'name = "bench"', f'prefix = "{PREFIX}"']
    for i in range(n):
        lines += [f"[tables.b{i}]", 'variant = "bid-euchre"', 'players = ["N", "E", "S", "W"]',
                  "seed = 1", f"deck = {1 + i}", f"token_decks = [{1000 + i}]",
                  f"[tables.b{i}.pads]"]
        lines += [f'"b{i}-{s}:0" = {k}' for k, s in enumerate(SEATS)]
    path.write_text("\n".join(lines) + "\n")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Load:
    """The players of every table, over a few MQTT connections, paced by one scheduler."""

    def __init__(self, port: int, tables: list[BenchTable], think: float) -> None:
        self.topics = Topics(PREFIX)
        self.tables, self.think = tables, think
        self.by_board = {b: t for t in tables for b in t.boards}
        self.latencies: list[float] = []
        self.refused = 0
        self.recording = False
        self.lock = threading.Condition()
        self.due: list[tuple[float, int]] = []
        self.clients = [self._client(port, w) for w in range(WORKERS)]
        self.client_of = {t.id: self.clients[i % WORKERS] for i, t in enumerate(tables)}
        self.stopped = False
        self.ready: set[str] = set()  # table state topics seen: the host is up

    def _client(self, port: int, worker: int) -> mqtt.Client:
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-load-{worker}")
        client.on_socket_open = no_delay
        client.max_inflight_messages_set(1000)
        client.on_message = self._on_message
        client.connect("127.0.0.1", port)
        client.loop_start()
        return client

    def subscribe(self) -> None:
        """Subscribe to every seat's feedback; return once the host has published every
        table's state (so it is subscribed too, and no first tap falls on deaf ears)."""
        for i, table in enumerate(self.tables):
            client = self.clients[i % WORKERS]
            for board in table.boards:
                client.subscribe(self.topics.feedback(board), qos=1)
        states = self.clients[0]
        states.message_callback_add(self.topics.state("+"), self._on_state)
        states.subscribe(self.topics.state("+"), qos=1)
        deadline = time.monotonic() + 60
        with self.lock:
            while len(self.ready) < len(self.tables):
                if time.monotonic() > deadline:
                    raise SystemExit(f"the host published {len(self.ready)} of "
                                     f"{len(self.tables)} table states in 60 s")
                self.lock.wait(0.1)
        time.sleep(0.5)  # the feedback subscriptions were sent before the state one

    def _on_state(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.ready.add(msg.topic)
            self.lock.notify_all()

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        now = time.perf_counter()
        board = msg.topic.split("/")[-2]
        table = self.by_board.get(board)
        feedback = decode(Feedback, msg.payload)
        if table is None or table.pending is None or feedback.led == "blue":
            return
        sent, pending_board = table.pending
        if board != pending_board:
            return
        table.pending = None
        if self.recording:
            self.latencies.append(now - sent)
        if feedback.led == "red":  # should not happen: the table stops, and it is reported
            self.refused += 1
            return
        wait = self.think * random.uniform(0.5, 1.5)
        with self.lock:
            heapq.heappush(self.due, (time.monotonic() + wait, table.index))
            self.lock.notify()

    def _tap(self, table: BenchTable) -> None:
        tap = table.next_tap()
        if tap is None:
            return  # this table has played its game; it rests
        board, uid = tap
        table.seq += 1
        event = encode(PadEvent(board=board, boot=1, seq=table.seq, t=0, pad=0, uid=uid.hex()))
        table.pending = (time.perf_counter(), board)
        self.client_of[table.id].publish(self.topics.board_event(board), event, qos=1)

    def run(self) -> None:
        """The scheduler: tap each table when its player is done thinking."""
        with self.lock:
            self.due = [(time.monotonic() + random.uniform(0, self.think), i)
                        for i in range(len(self.tables))]
            heapq.heapify(self.due)
        while not self.stopped:
            with self.lock:
                while not self.stopped and (not self.due or self.due[0][0] > time.monotonic()):
                    self.lock.wait(0.01 if not self.due else max(0.0, self.due[0][0] - time.monotonic()))
                if self.stopped:
                    return
                _, index = heapq.heappop(self.due)
            self._tap(self.tables[index])

    def close(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        with self.lock:
            self.lock.notify_all()
        for client in self.clients:
            client.disconnect()
            client.loop_stop()


def scenario(n: int, seconds: float, think: float, warmup: float) -> dict[str, float]:
    work = Path(tempfile.mkdtemp(prefix="tt-bench-",
                                 dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    registry = Registry(work / "decks.sqlite")
    names = [slot.name for slot in deck_slots("24")]  # Bid Euchre's deck, 9 to ace
    kits = [Kit.enroll(registry, i, names, 1 + i, 1000 + i) for i in range(n)]
    registry.close()
    rng = random.Random(n)
    tables = [BenchTable(i, kits[i], rng) for i in range(n)]
    write_club(work / "club.toml", n)
    broker = start_broker("mosquitto")
    host = load = None
    try:
        host = subprocess.Popen(
            [sys.executable, "-c", "from tricktable.cli import main; main()", "serve",
             "--club", str(work / "club.toml"), "--broker", broker.url,
             "--journal", str(work / "journal.sqlite"), "--registry", str(work / "decks.sqlite"),
             "--client-id", "bench-host"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        load = Load(broker.port, tables, think)
        load.subscribe()
        threading.Thread(target=load.run, daemon=True).start()
        time.sleep(warmup)
        load.recording = True
        cpu0, wall0 = cpu_seconds(host.pid), time.monotonic()
        time.sleep(seconds)
        cpu1, wall1 = cpu_seconds(host.pid), time.monotonic()
        load.recording = False
        now = time.perf_counter()
        stalled = sum(1 for t in tables if t.pending is not None and now - t.pending[0] > 2.0)
        load.close()
        host.terminate()
        host.wait(10)
        rebuild, entries = time_rebuild(work)
    finally:
        if load is not None:
            load.close()
        if host is not None and host.poll() is None:
            host.terminate()
            host.wait(10)
        broker.stop()
        shutil.rmtree(work, ignore_errors=True)
    lat = sorted(load.latencies)
    if not lat:
        raise SystemExit(f"{n} tables: no verdict arrived")
    return {
        "tables": n, "events": len(lat), "rate": len(lat) / (wall1 - wall0),
        "p50": statistics.median(lat) * 1000,
        "p99": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000,
        "max": lat[-1] * 1000, "cpu": 100 * (cpu1 - cpu0) / (wall1 - wall0),
        "refused": load.refused, "stalled": stalled, "rebuild": rebuild, "entries": entries,
    }


def time_rebuild(work: Path) -> tuple[float, int]:
    """Seconds a restarted host takes to replay the journal the run left (before connecting)."""
    with Journal(work / "journal.sqlite") as journal, Registry(work / "decks.sqlite") as registry:
        start = time.perf_counter()
        Service(load_club(work / "club.toml"), journal, registry, BrokerURL("127.0.0.1", 1))
        return time.perf_counter() - start, journal.count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="*", default=[1, 50, 200])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per scenario")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds between a verdict and the table's next tap")
    args = parser.parse_args()
    print(f"think {args.think}s +-50% per tap, {args.seconds}s measured after {args.warmup}s warm-up")
    print(f"{'tables':>6} {'events':>7} {'ev/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}"
          f" {'host CPU':>9} {'refused':>8} {'stalled':>8} {'rebuild':>16}")
    for n in args.tables:
        r = scenario(n, args.seconds, args.think, args.warmup)
        print(f"{r['tables']:>6} {r['events']:>7} {r['rate']:>7.0f} {r['p50']:>7.2f} {r['p99']:>7.2f}"
              f" {r['max']:>7.2f} {r['cpu']:>8.0f}% {r['refused']:>8} {r['stalled']:>8}"
              f" {r['rebuild']:>6.2f}s/{r['entries']:>7}", flush=True)


if __name__ == "__main__":
    main()

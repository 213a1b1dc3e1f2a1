"""Faults and fuzz against a live game, with figures: what a club can trust the host to survive.

One Bid Euchre table is played to the end by four boards that resend until acknowledged,
as the firmware's outbox does, against ``tricktable serve`` as its own process on a fresh
mosquitto (loopback only). Between the plays, in rounds, it:

- **fuzzes** the topics the service reads: random bytes, a valid event with one field
  mutated, old sequence numbers replayed with another card, oversized payloads, other
  boards' ids, an unseated board, the poison message (invalid UTF-8 in a string), spoofed
  board statuses ("offline" from a stranger) and garbage control commands;
- **SIGKILLs** the service at a random moment while a board is tapping, and restarts it;
- **restarts the broker**;
- **fills the journal's disk** and frees it again, and **restarts the service on a
  read-only journal** and makes it writable again (a tmpfs in a private user and mount
  namespace, tests/storagekit.py; skipped where namespaces are not allowed).

It prints: messages tried, crashes (the service exiting on its own, or counting a handling
fault), state changes caused by invalid messages (a table state the host publishes during a
fuzz round that differs, whole, from the one it published before the round: a field added
to the state is in both, so it cannot count as a change, and any field that changes does),
plays lost and plays doubled (the journal's game against the honest
game), and the service's RSS growth over the fuzz rounds of one process. All must be zero
but the tries.

    .venv/bin/python bench/chaos.py                  # under a minute
    .venv/bin/python bench/chaos.py --rounds 80 --fuzz 500 --seed 7
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "host")]

from hostkit import (  # noqa: E402
    SEATS,
    UNKNOWN_UID,
    Observer,
    ResendingBoard,
    bot_choice,
    card_uid,
    club_toml,
    make_registry,
    mqtt_client,
    new_shadow,
    tap_for,
)
from storagekit import Sandbox, namespaces_work  # noqa: E402
from tricktable.history import verify  # noqa: E402
from tricktable.mqtt.broker import mosquitto_available, start_broker  # noqa: E402
from tricktable.protocol import PadEvent, encode  # noqa: E402
from tricktable.serve.journal import Journal  # noqa: E402
from waiting import eventually  # noqa: E402

POISON = b'{"v":1,"board":"t1-n","boot":1,"seq":1,"t":5,"pad":0,"uid":"\xed\xa0\x80"}'
FIELD_MUTATIONS = {
    "v": [2, 0, "1", None], "board": ["t1-e", "ghost", "", "a" * 40, 5, "../x"],
    "boot": [-1, 2**40, "7", None], "seq": [-5, 2**60, 1.5, "x"], "t": [-1, "soon", None],
    "pad": [16, -1, 99, "0"], "kind": ["lift", "", 3], "uid": ["zz", "", "04", 4, "0" * 30],
    "rec": ["00", "g" * 32, 7],
}


class Figures:
    def __init__(self) -> None:
        self.tried = self.crashes = self.changed = 0
        self.kills = self.broker_restarts = self.storage_faults = 0
        self.rss: list[int] = []


class Chaos:
    """The table, its boards, the service process and the fault makers."""

    def __init__(self, work: Path, rng: random.Random, storage: bool) -> None:
        self.work, self.rng, self.figures = work, rng, Figures()
        self.broker = start_broker("mosquitto")
        self.prefix = "chaos"
        seed = rng.randrange(1000)  # the deal: the club file's and the honest game's
        (work / "club.toml").write_text(club_toml(self.prefix, seed=seed))
        make_registry(work / "decks.sqlite").close()
        self.sandbox = Sandbox(work / "mnt", "32m", work / "serve.log") if storage else None
        self.journal_path = (work / "mnt" if storage else work) / "journal.sqlite"
        self.observer = Observer(self.broker.port, self.prefix, persistent=True)
        self.topics = self.observer.topics
        self.proc = None
        self.start_service()
        self.boards = [ResendingBoard(self.broker.port, self.prefix, f"t1-{s}", resend_s=0.3)
                       for s in SEATS]
        self.fuzzer = mqtt_client(self.broker.port, "chaos-fuzzer")
        self.fuzzer.reconnect_delay_set(0.1, 1)
        self.fuzzer.connect("127.0.0.1", self.broker.port)
        self.fuzzer.loop_start()
        self.shadow = new_shadow(seed=seed)
        self.sent: list[PadEvent] = []
        self.markers = 0

    # --- the service --------------------------------------------------------------------

    def argv(self) -> list[str]:
        return [sys.executable, "-c", "from tricktable.cli import main; main()", "serve",
                "--club", str(self.work / "club.toml"),
                "--broker", f"mqtt://127.0.0.1:{self.broker.port}",
                "--journal", str(self.journal_path), "--registry", str(self.work / "decks.sqlite"),
                "--client-id", "chaos-host"]

    def start_service(self) -> None:
        mark = self.observer.mark()
        if self.sandbox is not None:
            self.pid = int(self.sandbox.command("start", json.dumps(self.argv())))
        else:
            import subprocess

            log = open(self.work / "serve.log", "ab")  # noqa: SIM115 (kept for the process)
            self.proc = subprocess.Popen(self.argv(), stdout=log, stderr=log)
            self.pid = self.proc.pid
        self.wait_status(mark, online=True)

    def stop_service(self, signum: int) -> None:
        if self.sandbox is not None:
            code = int(self.sandbox.command("signal", str(signum)))
        else:
            self.proc.send_signal(signum)
            code = self.proc.wait(30)
        if code not in (0, -signum, 128 + signum):
            self.figures.crashes += 1

    def alive(self) -> bool:
        try:
            return Path(f"/proc/{self.pid}/status").read_text().count("State:\tZ") == 0
        except OSError:
            return False

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def wait_status(self, start: int, timeout: float = 30, **wanted) -> dict:
        def match(topic: str, payload: bytes) -> bool:
            if topic != self.topics.host_status() or not payload:
                return False
            status = json.loads(payload)
            return all(status.get(k) == v for k, v in wanted.items())

        return json.loads(self.observer.wait_for(match, start, timeout)[2])

    # --- the honest game ----------------------------------------------------------------

    def tap(self, wait: bool = True) -> None:
        action = bot_choice(self.shadow, self.rng)
        assert self.shadow.apply(action).ok
        mark = self.observer.mark()
        board = self.boards[action.seat]
        event = board.event(0, tap_for(action))
        self.sent.append(event)
        board.send(event)
        if wait:
            self.accepted(action.to_json(), mark)

    def accepted(self, action: dict, mark: int, timeout: float = 60) -> None:
        _, verdict = self._verdict(mark, timeout)
        if (verdict["kind"], verdict.get("action")) != ("accepted", action):
            raise SystemExit(f"the host answered {verdict} to {action}; see {self.work}/serve.log")

    def _verdict(self, mark: int, timeout: float) -> tuple[int, dict]:
        events = self.topics.events("t1")

        def match(topic: str, payload: bytes) -> bool:
            return topic == events and json.loads(payload)["kind"] in ("accepted", "refused")

        index, _, payload = self.observer.wait_for(match, mark, timeout)
        return index, json.loads(payload)

    def over(self) -> bool:
        return bool(self.shadow.public_state()["game_over"])

    def published_state(self) -> dict:
        """The table's state as the host last published it, once it counts every honest play
        (the state a fuzz round must leave as it is), without ``boards_online``: the one
        field a well-formed board status may change, and the fuzz sends some (a stranger
        saying a seated board is offline: in a club, the broker's ACL lets only the board
        publish its own status: docs/operations.md, the ACL table)."""
        topic, honest = self.topics.state("t1"), len(self.shadow.actions)

        def last() -> dict | None:
            with self.observer.lock:
                payload = next((p for t, p, _ in reversed(self.observer.messages)
                                if t == topic and p), None)
            state = json.loads(payload) if payload else None
            return state if state and state["actions"] == honest else None

        state = eventually(last, "the host's state after the honest plays", 60)
        state.pop("boards_online", None)
        return state

    # --- fuzz ---------------------------------------------------------------------------

    def fuzz_messages(self, n: int) -> list[tuple[str, bytes]]:
        rng, out = self.rng, []
        seated = [f"t1-{s}" for s in SEATS]
        for _ in range(n):
            board = rng.choice(seated)
            kind = rng.randrange(9)
            valid = {"v": 1, "board": board, "boot": 1, "seq": 10**6 + rng.randrange(10**6),
                     "t": 5, "pad": 0, "kind": "place", "uid": UNKNOWN_UID.hex(), "rec": None}
            if kind == 0:
                payload = rng.randbytes(rng.randrange(600))
            elif kind == 1:
                name = rng.choice(list(FIELD_MUTATIONS))
                valid[name] = rng.choice(FIELD_MUTATIONS[name])
                payload = json.dumps(valid).encode()
            elif kind == 2 and self.sent:  # an old (boot, seq) again, with another card
                old = rng.choice(self.sent)
                payload = encode(PadEvent(board=old.board, boot=old.boot, seq=old.seq, t=old.t,
                                          pad=0, uid=card_uid(rng.choice(["AS", "9H", "KD"])).hex()))
                board = old.board
            elif kind == 3:
                payload = b'{"v":1,"x":"' + b"y" * rng.choice([600, 70_000, 1_000_000]) + b'"}'
            elif kind == 4:  # a board seated at no table
                board = valid["board"] = f"ghost-{rng.randrange(5)}"
                payload = json.dumps(valid).encode()
            elif kind == 5:
                payload = POISON.replace(b"t1-n", board.encode())
            elif kind == 6:
                out.append((self.topics.board_status(board),
                            rng.choice([b'{"v":1,"online":false}', b'{"v":1,"online":7}',
                                        rng.randbytes(20)])))
                continue
            elif kind == 7:
                out.append((self.topics.control(rng.choice(["t1", "t2", "nope"])),
                            rng.choice([b'{"v":1,"cmd":"explode"}', b"\xed\xa0\x80", b"[]",
                                        b'{"v":1,"cmd":"undo","args":[]}', rng.randbytes(30)])))
                continue
            else:  # a valid event in every field, but an unknown tag: refused, nothing changes
                payload = json.dumps(valid).encode()
            out.append((self.topics.board_event(board), payload))
        return out

    def fuzz_round(self, n: int) -> None:
        messages = self.fuzz_messages(n)
        before = self.published_state()
        # after a broker restart the fuzzer reconnects on its own; paho refuses a publish
        # made before it has (the service may be back first)
        eventually(self.fuzzer.is_connected, "the fuzzer reconnecting to the broker", 60)
        mark = self.observer.mark()
        infos = [self.fuzzer.publish(topic, payload, qos=1) for topic, payload in messages]
        for info in infos:
            info.wait_for_publish(30)
        self.figures.tried += len(messages)
        # a marker the service answers once it has handled everything before it
        self.markers += 1
        uid = bytes.fromhex(f"04c0ffee{self.markers:06x}")
        self.boards[0].send(self.boards[0].event(0, uid))
        events = self.topics.events("t1")
        self.observer.wait_for(lambda t, p: t == events and uid.hex().encode() in p, mark, 60)
        state_topic = self.topics.state("t1")
        with self.observer.lock:
            seen = [json.loads(p) for t, p, _ in self.observer.messages[mark:] if t == state_topic]
        for state in seen:
            state.pop("boards_online", None)
            if state != before:
                self.figures.changed += 1
        if not self.alive():
            self.figures.crashes += 1

    # --- other faults -------------------------------------------------------------------

    def kill_round(self) -> None:
        """SIGKILL the service as a board taps; the boards resend until the new one answers."""
        self.figures.kills += 1
        mark = self.observer.mark()
        self.tap(wait=False)
        time.sleep(self.rng.uniform(0, 0.05))  # a random moment around the tap's handling
        self.stop_service(signal.SIGKILL)
        self.start_service()
        self._verdict(mark, 60)

    def broker_round(self) -> None:
        self.figures.broker_restarts += 1
        mark = self.observer.mark()
        self.broker.restart(down_for=0.5)
        self.wait_status(mark, online=True)
        self.tap()

    def disk_full_round(self) -> None:
        """Fill the disk, tap until a write fails (SQLite may still have room in its WAL),
        then free it: the held play arrives."""
        self.figures.storage_faults += 1
        self.sandbox.command("fill")
        status_topic, events = self.topics.host_status(), self.topics.events("t1")
        failed = False
        while not failed and not self.over():
            mark = self.observer.mark()
            self.tap(wait=False)
            _, topic, _ = self.observer.wait_for(
                lambda t, p: (t == status_topic and b'"storage":"failing"' in p)
                or (t == events and b'"kind":"accepted"' in p), mark, 60)
            failed = topic == status_topic
        self.sandbox.command("free")
        if failed:
            self._verdict(mark, 60)
            self.wait_status(mark, storage="ok")

    def read_only_round(self) -> None:
        self.figures.storage_faults += 1
        self.stop_service(signal.SIGTERM)
        self.sandbox.command("ro")
        mark = self.observer.mark()
        self.start_service()
        self.wait_status(mark, storage="failing")
        self.tap(wait=False)
        self.sandbox.command("rw")
        self._verdict(mark, 60)
        self.wait_status(mark, storage="ok")

    # --- the end ------------------------------------------------------------------------

    def journal(self) -> Journal:
        self.stop_service(signal.SIGTERM)
        if self.sandbox is None:
            return Journal(self.journal_path)
        copy = self.work / "copy"
        copy.mkdir(exist_ok=True)
        self.sandbox.command("copy", str(copy))
        return Journal(copy / "journal.sqlite")

    def close(self) -> None:
        for board in self.boards:
            board.close()
        self.fuzzer.disconnect()
        self.fuzzer.loop_stop()
        self.observer.close()
        if self.sandbox is not None:
            self.sandbox.close()
        elif self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        self.broker.stop()


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    storage = namespaces_work() and not args.no_storage
    work = Path(tempfile.mkdtemp(prefix="tt-chaos-"))
    try:
        chaos = Chaos(work, rng, storage)
        figures = chaos.figures
        started = time.monotonic()
        faults = ["kill", "broker"] + (["disk_full", "read_only"] if storage else [])
        rounds = 0
        try:
            while not chaos.over() and rounds < args.rounds \
                    and time.monotonic() - started < args.seconds:
                rounds += 1
                for _ in range(rng.randrange(1, 4)):
                    if not chaos.over():
                        chaos.tap()
                if chaos.over():
                    break
                chaos.fuzz_round(args.fuzz)
                if rounds <= args.fuzz_only:  # one process, fuzz alone: its RSS, warm to end
                    figures.rss.append(chaos.rss_kb())
                elif rounds % 2 == 0:
                    fault = faults[(rounds // 2) % len(faults)]
                    getattr(chaos, f"{fault}_round")()
            with chaos.observer.lock:
                statuses = [json.loads(p) for t, p, _ in chaos.observer.messages
                            if t == chaos.topics.host_status() and p]
            faults_counted = max(s.get("faults", 0) for s in statuses)
            with chaos.journal() as journal:
                [game] = journal.games("t1")
                honest = [a.to_json() for a in chaos.shadow.actions]
                kept = game.actions
                prefix = 0
                while prefix < min(len(kept), len(honest)) and kept[prefix] == honest[prefix]:
                    prefix += 1
                lost = len(honest) - prefix
                doubled = len(kept) - prefix
                differences = verify(journal.history("t1", 1))
                refused_bytes = sum(len(e.payload) for e in journal.entries(kinds=("invalid",)))
                invalid = journal.count("invalid")
        finally:
            chaos.close()
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    # the first third of the fuzz-only rounds warms the process up (imports, SQLite's page
    # cache filling to its bound, journal.CACHE_KB); then the median RSS of the last third
    # against the middle third's (a leak grows on; an allocator's step does not repeat)
    third = len(figures.rss) // 3
    growth = round(statistics.median(figures.rss[2 * third:]) - statistics.median(
        figures.rss[third:2 * third])) if third else 0
    elapsed = time.monotonic() - started
    print(f"chaos: {rounds} rounds in {elapsed:.0f} s, seed {args.seed}; "
          f"{len(chaos.shadow.actions)} honest plays, game over: {chaos.over()}")
    print(f"  faults made: {figures.kills} SIGKILLs, {figures.broker_restarts} broker restarts, "
          f"{figures.storage_faults} storage faults (full disk, read-only journal)"
          + ("" if storage else " [namespaces not allowed here: storage faults skipped]"))
    rows = [("messages tried", figures.tried),
            ("crashes", figures.crashes + faults_counted),
            ("state changes by invalid messages", figures.changed),
            ("plays lost", lost), ("plays doubled", doubled),
            (f"RSS growth, fuzz rounds {third + 1}..{len(figures.rss)} (KB, medians)", growth),
            ("journal verification differences", len(differences))]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    print(f"  (refused messages journaled: {invalid}, {refused_bytes} bytes of payload)")
    bad = [name for name, value in rows[1:] if value]
    return 1 if bad else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=60, help="rounds at most")
    parser.add_argument("--seconds", type=float, default=120, help="time bound")
    parser.add_argument("--fuzz", type=int, default=300, help="fuzzed messages per round")
    parser.add_argument("--fuzz-only", type=int, default=30,
                        help="first rounds with fuzz alone (RSS measured over them)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-storage", action="store_true", help="skip the storage faults")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    args = parser.parse_args()
    if not mosquitto_available():
        raise SystemExit("chaos needs mosquitto (Debian's package)")
    raise SystemExit(run(args))


if __name__ == "__main__":
    main()

"""Firmware update benchmark: prints numbers, asserts nothing about time.

1. The bundle: files, .mpy bytes, manifest bytes (``tricktable fleet bundle``).
2. One board's update over mosquitto under the MicroPython unix port (-X heapsize=96k, the
   update tests' heap, the reader outside it as on a board: tests/firmware/readerhost.py):
   from the offer to the new version reported online (the manifest and the files fetched in
   512-byte chunks, hashes, swap, restart, reconnect), and the chunks served; median of 5 runs.
3. The smallest heap at which that update completes within 60 s (bisection by 2 KB between
   64k and 96k), three times.

Run: .venv/bin/python bench/fleet.py
     .venv/bin/python bench/fleet.py --quick   # one update, no bisection
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "firmware"), str(ROOT / "tests")]  # fwkit, waiting

from fwkit import HEAP, MicroPython, PoweredBoard, build_mpy  # noqa: E402
from readerhost import ReaderHost  # noqa: E402
from tricktable.fleet import bundle, signing  # noqa: E402
from tricktable.fleet.updater import Updater  # noqa: E402
from tricktable.mqtt.broker import start_broker  # noqa: E402
from tricktable.mqtt.url import BrokerURL  # noqa: E402
from waiting import eventually  # noqa: E402


def one_update(mp: MicroPython, made: bundle.Bundle, port: int, work: Path,
               timeout: float = 60) -> tuple[float, int] | None:
    """Offer ``made`` to one board and time it to the new version online; None if it failed."""
    (work / "flash").mkdir(parents=True)
    spec = work / "spec.json"
    with ReaderHost(1) as readers:
        spec.write_text(json.dumps({
            "storage": str(work / "flash"), "trial_s": 30, "readers_port": readers.port,
            "config": {"board": "bench", "prefix": work.name, "pads": 1,
                       "backoff_ms": [100, 500], "update_pub": json.loads(made.manifest)["pub"],
                       "broker": {"host": "127.0.0.1", "port": port, "keepalive": 5}}}))
        board = PoweredBoard(mp, spec)
        updater = Updater(made, BrokerURL("127.0.0.1", port), work.name)
        updater.start()
        try:
            try:
                eventually(lambda: (s := updater.statuses.get("bench")) is not None
                           and s.online, "the board online", 30)
            except AssertionError:
                return None  # it did not even start in this heap
            start = time.perf_counter()
            (result,) = updater.update_boards(["bench"], timeout=timeout)
            elapsed = time.perf_counter() - start
            return (elapsed, updater.chunks_served) if result.ok else None
        finally:
            updater.stop()
            board.stop()


def smallest_heap(build: Path, made: bundle.Bundle, port: int, work: Path) -> int:
    """The smallest heap (KB, to 2 KB) at which one update completes."""
    low, high = 64, 96  # fails, passes (checked by the caller's runs at 96k)
    while high - low > 2:
        mid = (low + high) // 2 // 2 * 2
        if one_update(MicroPython(build, heap=f"{mid}k"), made, port, work / f"heap{mid}"):
            high = mid
        else:
            low = mid
    return high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one update; no bisection")
    quick = parser.parse_args().quick
    runs = 1 if quick else 5
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        signing.generate(work / "fleet-signing.key")
        made = bundle.build(work / "bundle", "9.9.9", work / "fleet-signing.key")
        size = sum(len(d) for d in made.files.values())
        print(f"1. bundle: {len(made.files)} files, {size} bytes of .mpy, manifest "
              f"{len(made.manifest)} bytes")
        build = build_mpy(Path(tempfile.mkdtemp(dir=tmp)))
        mp = MicroPython(build, heap=HEAP)
        times, chunks = [], 0
        with start_broker() as broker:
            for run in range(runs):
                done = one_update(mp, made, broker.port, work / f"run{run}")
                if done is None:
                    raise SystemExit(f"the update failed at {HEAP}")
                times.append(done[0])
                chunks = done[1]
            print(f"2. offer -> new version online, one board, localhost mosquitto, unix port "
                  f"{HEAP}: median {statistics.median(times):.2f} s over {runs} runs "
                  f"(min {min(times):.2f}, max {max(times):.2f}); {chunks} chunks")
            if quick:
                return
            least = [smallest_heap(build, made, broker.port, work / f"least{n}") for n in range(3)]
            print(f"3. smallest heap that completes the update: {', '.join(f'{k}k' for k in least)}"
                  " (3 bisections)")


if __name__ == "__main__":
    main()

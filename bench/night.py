"""A club-sized night in the demo: `python bench/night.py [--tables 30] [--rounds 3] [--hands 2]
[--director]`.

Runs ``tricktable demo --night`` in-process at ``--speed 0`` (embedded broker, host service
keeping the night, virtual seat and display boards on the firmware, bots finding their seats
on the displays) and prints: the wall time of the whole night; the host service's CPU (its
MQTT thread and the night's thread, from /proc) and the process's peak RSS (the service
shares the process with the boards and bots, so that is an upper bound); and tap-to-verdict
p50/p99 (a tag placed on a virtual pad until the host's verdict is back at the table) for
the taps made while the bell was ringing (from the bell until the players moved) and for
all the others. ``--director``: the demo's director does each console correction once
during the night (``demo_director``), as ``tricktable demo --director`` does.
"""

from __future__ import annotations

import argparse
import logging
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tricktable.demo.runner import Demo, DemoConfig
from tricktable.sim.table_sim import SimTable

TICK = os.sysconf("SC_CLK_TCK")


def thread_cpu(tid: int | None) -> float:
    """CPU seconds (user + system) of one thread of this process."""
    if tid is None:
        return 0.0
    try:
        fields = Path(f"/proc/self/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--director", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    taps: dict[bool, list[float]] = {True: [], False: []}
    demo: Demo | None = None
    plain_do = SimTable._do

    async def timed_do(self: SimTable, seat: int, action: Any) -> dict[str, Any]:
        night = demo._started.night if demo is not None else None
        bell = bool(night and night.bell_rung)
        start = time.perf_counter()
        verdict = await plain_do(self, seat, action)
        taps[bell or bool(night and night.bell_rung)].append(time.perf_counter() - start)
        return verdict

    SimTable._do = timed_do  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as tmp:
        demo = Demo(DemoConfig(tables=args.tables, night=True, rounds=args.rounds,
                               hands=args.hands, speed=0, web_port=None, seed=args.seed,
                               workdir=Path(tmp), director=args.director))
        start = time.perf_counter()
        demo.start()
        try:
            demo.wait()
            wall = time.perf_counter() - start
            service, night = demo._started.service, demo._started.night
            assert service is not None and night is not None
            paho = getattr(service.client, "_thread", None)
            cpu = thread_cpu(paho.native_id if paho else None) + thread_cpu(
                night._thread.native_id if night._thread else None)
        finally:
            demo.stop()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    hands = sum(s.hands for s in demo.summaries)
    print(f"night of {args.tables} tables, {args.rounds} games, {args.hands} hands at the "
          f"head table, speed 0{', with the director' if args.director else ''}: wall {wall:.1f} s; service CPU {cpu:.1f} s "
          f"({100 * cpu / wall:.0f}% of one core); process peak RSS {rss_mb:.0f} MB; "
          f"{hands} table-hands")
    for bell, label in ((True, "during the bell"), (False, "otherwise")):
        ms = [1000 * t for t in taps[bell]]
        print(f"tap-to-verdict {label}: p50 {percentile(ms, 0.5):.1f} ms, "
              f"p99 {percentile(ms, 0.99):.1f} ms over {len(ms)} taps"
              + (f" (mean {statistics.fmean(ms):.1f} ms)" if ms else ""))


if __name__ == "__main__":
    main()

"""A whole night analysed: ``tricktable analyse JOURNAL`` in one process against every core.

    .venv/bin/python bench/analyse_night.py --journal RUN/journal.sqlite [--runs 3]
    .venv/bin/python bench/analyse_night.py --tables 30 --games 10 --hands 8 [--variant bid-euchre]
    .venv/bin/python bench/analyse_night.py ... --single-dummy [--samples 100]

With ``--journal`` it times a night's journal (a copy: the demo's ``journal.sqlite`` from
``tricktable demo --night --tables 30 --speed 0 --rounds 3 --hands 2 --workdir DIR``);
without, it first writes a night of its own: ``--tables`` tables of ``--games`` games of
``--hands`` hands each, played by random legal actions on the engine (the analysis does not
care who chose the cards). Then it runs the command as a user does, ``tricktable analyse
COPY --quiet --jobs J``, for J = 1 and J = every core, interleaved ``--runs`` times, the cache
removed before each run, and prints the median wall time of each, the CPU time they used
(the workers' included) and the ratio. ``--single-dummy`` times ``tricktable analyse
--single-dummy --samples S`` instead: double and single dummy together, the night's
whole analysis. The machine is shared: the load average is printed
beside.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tricktable.engine import Engine
from tricktable.protocol import Control, encode
from tricktable.serve.journal import Journal

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def write_night(path: Path, variant: str, tables: int, games: int, hands: int) -> None:
    """A journal of ``tables`` x ``games`` games of ``hands`` hands, random legal play."""
    rng = random.Random(1)
    with Journal(path) as journal:
        for t in range(1, tables + 1):
            for g in range(1, games + 1):
                eng = Engine.new(variant, {"target": None, "hand_limit": hands},
                                 seed=rng.randrange(1 << 30), players=PLAYERS)
                while not eng.state.game_over:
                    eng.apply_id(rng.choice(eng.legal_ids()))
                control = Control(cmd="new_game")
                entry = journal.append_control(f"t{t}", control, "c", encode(control))
                journal.record_game(f"t{t}", g, entry.id, dict(eng.config))
                journal.record_actions(f"t{t}", g, entry.id,
                                       [(n, a.to_json()) for n, a in enumerate(eng.actions, 1)])


def run(journal: Path, jobs: int, extra: list[str]) -> tuple[float, float, str]:
    """One ``tricktable analyse`` (with ``extra`` arguments) from an empty cache: wall s, CPU
    s (children), its summary."""
    shutil.rmtree(journal.with_name(journal.name + ".analysis"), ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([str(Path(sys.executable).with_name("tricktable")), "analyse",
                           str(journal), "--quiet", "--jobs", str(jobs), *extra],
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stderr.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--journal", type=Path, help="a night's journal (copied)")
    ap.add_argument("--variant", default="bid-euchre")
    ap.add_argument("--tables", type=int, default=30)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--hands", type=int, default=8)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--single-dummy", action="store_true",
                    help="time the analysis with single dummy (tricktable analyse --single-dummy)")
    ap.add_argument("--samples", type=int, default=100, help="single dummy's layouts a decision")
    args = ap.parse_args()
    extra = ["--single-dummy", "--samples", str(args.samples)] if args.single_dummy else []
    what = f" (with single dummy, {args.samples} samples)" if args.single_dummy else ""
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "night.sqlite"
        if args.journal:
            with sqlite3.connect(args.journal) as src, sqlite3.connect(copy) as dst:
                src.backup(dst)
            print(f"journal: {args.journal}")
        else:
            start = time.perf_counter()
            write_night(copy, args.variant, args.tables, args.games, args.hands)
            print(f"night written: {args.tables} tables x {args.games} games x {args.hands} "
                  f"hands of {args.variant} in {time.perf_counter() - start:.1f} s")
        times: dict[int, list[tuple[float, float]]] = {1: [], cores: []}
        for i in range(args.runs):
            for jobs in times:
                wall, cpu, said = run(copy, jobs, extra)
                times[jobs].append((wall, cpu))
                print(f"  run {i + 1}, --jobs {jobs}: {wall:.1f} s wall, {cpu:.1f} s CPU "
                      f"(load {os.getloadavg()[0]:.1f}): {said}")
        medians = {j: statistics.median(w for w, _ in t) for j, t in times.items()}
        for jobs, t in times.items():
            print(f"--jobs {jobs}: median {medians[jobs]:.1f} s wall, "
                  f"{statistics.median(c for _, c in t):.1f} s CPU")
        print(f"analyse night: serial {medians[1]:.1f} s, {cores} processes "
              f"{medians[cores]:.1f} s, speed-up {medians[1] / medians[cores]:.2f}x{what}")


if __name__ == "__main__":
    main()

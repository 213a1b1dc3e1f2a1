"""Every variant a night accepts, a short demo night each: `python bench/night_sweep.py`.

Runs ``tricktable demo --variant V --night --tables 3 --rounds 3 --hands 5 --speed 0 --seed S
--revoke-rate 0.05 --no-view --port 0`` for every variant of ``club.night_games.night_variants``
and seeds 1 to 5 (``--variants``, ``--seeds``, ``--jobs``, and ``--tables``, ``--rounds``,
``--hands`` for the size of a night, to change), each in its own process
and run directory, and prints a line per night: its exit status, its wall time, the hands the
tables played and whether the standings add every one of them (``club.audit.unrecorded``
against the journal). Exits 1 when any night failed either way (the failing nights' last
lines of output are printed).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tricktable.club.audit import round_hands, unrecorded
from tricktable.club.night_games import night_variants
from tricktable.club.store import load_night
from tricktable.serve.journal import Journal


def one_night(variant: str, seed: int, workdir: Path, size: argparse.Namespace
              ) -> tuple[str, int, bool, str]:
    """Run one demo night of ``size`` (tables, rounds, hands); (its line, hands played, ok,
    output when it failed)."""
    started = time.perf_counter()
    run = subprocess.run(
        [str(Path(sys.executable).parent / "tricktable"), "demo", "--variant", variant, "--night",
         "--tables", str(size.tables), "--rounds", str(size.rounds), "--hands", str(size.hands),
         "--speed",
         "0", "--seed", str(seed), "--revoke-rate", "0.05", "--no-view", "--port", "0",
         "--workdir", str(workdir)], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    output = run.stdout + run.stderr
    found = re.search(r"^night: (\S+)$", run.stdout, re.MULTILINE)
    hands, problems = 0, ["no night file printed"]
    if found:
        night_path = Path(found.group(1))
        tables = [f"t{n}" for n in range(1, size.tables + 1)]
        with Journal(night_path.parent / "journal.sqlite", readonly=True) as journal:
            night = load_night(night_path)
            problems = unrecorded(night, journal, tables)
            hands = sum(len(h) for r in round_hands(journal, tables).values() for h in r)
            if not night.finished:
                problems.append("the night is not finished")
    ok = run.returncode == 0 and not problems
    line = (f"{variant:20} seed {seed}  exit {run.returncode}  {wall:6.1f} s  {hands:3} hands  "
            + ("every hand on the standings" if not problems else "; ".join(problems)[:200]))
    return line, hands, ok, "" if ok else "\n".join(output.splitlines()[-15:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="*", default=night_variants())
    parser.add_argument("--seeds", nargs="*", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=5)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="night-sweep-"))
    runs = [(v, s) for v in args.variants for s in args.seeds]
    failed = 0
    with ThreadPoolExecutor(args.jobs) as pool:
        for line, _hands, ok, output in pool.map(lambda r: one_night(*r, base, args), runs):
            print(line, flush=True)
            if not ok:
                failed += 1
                print("    " + output.replace("\n", "\n    "), flush=True)
    print(f"{len(runs) - failed} of {len(runs)} nights finished with every hand on the "
          f"standings (run directories under {base})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

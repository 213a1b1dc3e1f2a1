"""How long ``tricktable up`` takes to bring a club night up, and to bring back a part killed.

A two-table club with a night (no boards: the figures are the host's own), run by ``up`` as
its own process tree with its own mosquitto, on free loopback ports. Per run it measures:
from ``up`` started to every part ready (the console serving, the last of them), and for each
part, from its SIGKILL to the part serving again (its ready line in the log, or the broker's
port answering), the 1 s pause before a restart included. Prints the median of ``--runs``.

    .venv/bin/python bench/up.py              # about a minute
    .venv/bin/python bench/up.py --runs 5
    .venv/bin/python bench/up.py --runs 1 --quick   # to every part ready only: nothing killed
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tricktable.appliance.up import answers
from tricktable.club.store import save_night
from tricktable.club.tournament import ProgressiveTournament
from tricktable.mqtt.broker import free_port

READY = {"serve": "tricktable serving", "web": "scoreboard on", "console": "director console on"}
CLI = [sys.executable, "-c", "from tricktable.cli import main; main()"]


def club(folder: Path) -> int:
    port = free_port()
    tables = []
    for t in (1, 2):
        tables += [f"[tables.t{t}]", 'variant = "bid-euchre"', f"[tables.t{t}.pads]"]
        tables += [f'"t{t}-{s}:0" = {i}' for i, s in enumerate("nesw")]
    (folder / "club.toml").write_text("\n".join([
        "[club]", 'name = "bench"', 'journal = "journal.sqlite"', "[host]",
        'night = "night.json"', f'broker = "mqtt://127.0.0.1:{port}"',
        f"tls_port = {free_port()}",  # the boards' TLS listener (none connect here)
        f'web = "127.0.0.1:{free_port()}"', f'console = "127.0.0.1:{free_port()}"',
        *tables]) + "\n")
    save_night(ProgressiveTournament.new([f"P{i}" for i in range(8)], 2), folder / "night.json")
    return port


def wait(check, limit: float = 120.0) -> float:  # type: ignore[no-untyped-def]
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > limit:
            raise SystemExit("gave up waiting")
        time.sleep(0.01)
    return time.monotonic() - start


def one_run(folder: Path, kill: tuple[str, ...]) -> dict[str, float]:
    port = club(folder)
    log = folder / "data" / "up.log"
    text = lambda: log.read_text() if log.exists() else ""  # noqa: E731
    started = time.monotonic()
    proc = subprocess.Popen([*CLI, "up", "--club", str(folder / "club.toml"), "--data",
                             str(folder / "data")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait(lambda: READY["console"] in text())
        figures = {"all ready": time.monotonic() - started}
        for part in kill:
            pid = json.loads((folder / "data" / "up.json").read_text())["parts"][part]
            seen = text().count(READY.get(part, "\0"))
            os.kill(pid, signal.SIGKILL)
            if part == "broker":
                wait(lambda: not answers("127.0.0.1", port, 0.05))
                figures[part] = wait(lambda: answers("127.0.0.1", port, 0.05))
            else:
                figures[part] = wait(lambda: text().count(READY[part]) > seen)  # noqa: B023
        return figures
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="up to every part ready; no kills")
    args = parser.parse_args()
    kill = () if args.quick else ("broker", "serve", "web", "console")
    runs = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            runs.append(one_run(Path(tmp), kill))
    print(f"tricktable up, two tables, median of {args.runs} runs (seconds):")
    for name in runs[0]:
        values = [r[name] for r in runs]
        label = name if name == "all ready" else f"{name} killed -> serving again"
        print(f"  {label:<34} {statistics.median(values):6.2f}  "
              f"(min {min(values):.2f}, max {max(values):.2f})")


if __name__ == "__main__":
    main()

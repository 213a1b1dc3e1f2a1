"""A soak: many demo tables playing for a long time, with board power cuts and a broker restart.

``tricktable demo``'s machinery (embedded mosquitto, the host service, virtual boards running
the real firmware, bots) plays ``--tables`` tables at ``--speed 0`` for ``--minutes``. Every
``--reboot-every`` seconds a random board loses power and boots again from its flash (its
unacknowledged plays are resent); halfway through, the broker is restarted. At the end every
finished game is exported from the journal as a hand history and verified, and the journal is
checked for plays doubled.

Prints: games finished, plays journaled and per second, board reboots, broker restarts,
hand histories that do not verify, games whose journal disagrees with what the bots played,
the process's CPU and peak RSS. The last two counts must be zero, and no table may stop.

    .venv/bin/python bench/soak.py                          # 30 tables, 30 minutes
    .venv/bin/python bench/soak.py --tables 4 --minutes 2   # a quick look
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import tempfile
import time
from pathlib import Path

from tricktable.demo.runner import Demo, DemoConfig
from tricktable.history import verify
from tricktable.serve.journal import Journal


def run(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="tt-soak-"))
    rng = random.Random(args.seed)
    demo = Demo(DemoConfig(tables=args.tables, speed=0, web_port=None, seed=args.seed,
                           workdir=work))
    started = time.monotonic()
    cpu0 = time.process_time()
    reboots = restarts = 0
    demo.start()
    try:
        end = started + args.minutes * 60
        next_reboot = time.monotonic() + args.reboot_every
        restart_at = started + args.minutes * 30
        while time.monotonic() < end and demo.error is None:
            time.sleep(0.5)
            if time.monotonic() >= next_reboot:
                demo.power_cycle(rng.choice(demo.boards()))
                reboots += 1
                next_reboot += args.reboot_every
            if not restarts and time.monotonic() >= restart_at:
                demo.restart_broker(down_for=1.0)
                restarts += 1
    finally:
        demo.stop()
    elapsed = time.monotonic() - started
    cpu = time.process_time() - cpu0
    failed = disagree = 0
    with Journal(demo.journal_path) as journal:
        plays = journal.count("pad")
        for summary in demo.summaries:
            record = journal.history(summary.table, summary.game)
            failed += bool(verify(record))
            [game] = [g for g in journal.games(summary.table) if g.game == summary.game]
            disagree += len(game.actions) != summary.actions
    stopped = f"a table stopped: {demo.error}" if demo.error else "no table stopped"
    print(f"soak: {args.tables} tables, speed 0, {elapsed / 60:.1f} min, seed {args.seed}; "
          f"{stopped}")
    print(f"  games finished                  {len(demo.summaries)}")
    print(f"  plays journaled                 {plays} ({plays / elapsed:.0f}/s)")
    print(f"  board power cuts                {reboots}")
    print(f"  broker restarts                 {restarts}")
    print(f"  histories that do not verify    {failed}")
    print(f"  games the journal disagrees on  {disagree}")
    print(f"  CPU {cpu / elapsed * 100:.0f}% (100% = one core; boards, bots, broker client and "
          f"host in one process), peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    if args.keep:
        print(f"  kept {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed or disagree or demo.error else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--reboot-every", type=float, default=20, help="seconds between power cuts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the run directory")
    raise SystemExit(run(parser.parse_args()))


if __name__ == "__main__":
    main()

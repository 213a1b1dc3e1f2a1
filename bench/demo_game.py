"""How long a complete demo game takes: `python bench/demo_game.py [--speed X ...] [--seeds N]
[--hand-limit H]`.

Runs the real demo stack (embedded broker, host service, virtual boards on the firmware,
bots) for one table and one full game per seed at each speed, without the web scoreboard,
and prints wall time, hands and pad events per second. Median over the seeds. ``--hand-limit``
ends each game after that many hands (the ``hand_limit`` house rule; a quick look).
"""

from __future__ import annotations

import argparse
import logging
import statistics
import tempfile
import time
from pathlib import Path

from tricktable.demo.runner import Demo, DemoConfig


def one_game(speed: float, seed: int, workdir: Path,
             hand_limit: int | None) -> tuple[float, int, int]:
    options = {} if hand_limit is None else {"hand_limit": hand_limit}
    demo = Demo(DemoConfig(tables=1, games=1, speed=speed, web_port=None, seed=seed,
                           workdir=workdir, options=options))
    start = time.perf_counter()
    demo.start()
    try:
        demo.wait()
    finally:
        demo.stop()
    (summary,) = demo.summaries
    return time.perf_counter() - start, summary.hands, summary.actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", type=float, action="append", help="default: 0 and 1")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--hand-limit", type=int, help="hands per game (default: a whole game)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        for speed in args.speed or [0.0, 1.0]:
            runs = [one_game(speed, seed, Path(tmp), args.hand_limit)
                    for seed in range(args.seeds)]
            secs = statistics.median(r[0] for r in runs)
            hands = statistics.median(r[1] for r in runs)
            rate = statistics.median(r[2] / r[0] for r in runs)
            print(f"speed {speed:g}: complete game median {secs:.1f} s "
                  f"({hands:g} hands, {rate:.0f} pad events/s) over {args.seeds} seeds; "
                  f"per game: " + ", ".join(f"{r[0]:.1f} s/{r[1]} hands" for r in runs))


if __name__ == "__main__":
    main()

"""Engine throughput: complete random hands per second through the public API.

Each hand is dealt from the seed (``Deal``), bid, trumped, exchanged and played by picking
uniformly among ``legal_actions()`` and calling ``apply()``, then scored, in one CPython
process. Also prints validated plays per second (``Play`` actions applied, including the
``legal_actions()`` call that offered them) and the cost of a refused play. Prints the
median of several runs; the machine is shared, so expect noise.

    .venv/bin/python bench/engine.py [--hands 20000] [--runs 5] [--variant bid-euchre]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tricktable.engine import Engine
from tricktable.engine.actions import Deal, Play
from tricktable.rules import get_variant, list_variants


def random_hands(variant: str, hands: int, seed: int) -> tuple[float, int, float]:
    """(seconds, plays, seconds spent in play-phase legal_actions+apply) for ``hands``."""
    rng = random.Random(seed)
    choice = rng.choice
    n = get_variant(variant).seat_counts[0]
    eng = Engine.new(variant, options=_endless(variant), seed=seed, n_players=n)
    plays = 0
    play_time = 0.0
    done = 0
    start = time.perf_counter()
    while done < hands:
        if eng.state.game_over:  # a target or hand limit was reached: a new game
            eng = Engine.new(variant, options=_endless(variant), seed=seed + done, n_players=n)
        if eng.phase == "deal":
            eng.apply(Deal(eng.state.dealer))
            continue
        if eng.phase == "play":
            t = time.perf_counter()
            out = eng.apply(choice(eng.legal_actions()))
            play_time += time.perf_counter() - t
            plays += 1
        else:
            out = eng.apply(choice(eng.legal_actions()))
        for e in out.events:
            if e.TYPE in ("hand_scored", "passed_out"):
                done += 1
    return time.perf_counter() - start, plays, play_time


def _endless(variant: str) -> dict[str, object]:
    """Options that keep one game going for the whole run (no target)."""
    names = {f for f in get_variant(variant).Options.__dataclass_fields__}
    return {"target": None} if "target" in names else {}


def refused_per_second(variant: str, tries: int = 50_000) -> float:
    eng = Engine.new(variant, seed=1)
    eng.apply(Deal(eng.state.dealer))
    while eng.phase != "play":  # the first listed action: a call, bid, trump or card
        eng.apply(eng.legal_actions()[0])
    seat = (eng.to_act + 1) % eng.state.n  # type: ignore[operator]
    wrong = Play(seat, eng.legal_actions()[0].card)  # type: ignore[attr-defined]
    t = time.perf_counter()
    for _ in range(tries):
        eng.apply(wrong)
    return tries / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--variant", action="append", help="default: every variant")
    args = ap.parse_args()
    for variant in args.variant or list_variants():
        rates, play_rates = [], []
        for run in range(args.runs):
            secs, plays, play_secs = random_hands(variant, args.hands, seed=run)
            rates.append(args.hands / secs)
            play_rates.append(plays / play_secs)
        print(f"{variant:24s} hands/s median {statistics.median(rates):9,.0f} "
              f"(min {min(rates):,.0f}, max {max(rates):,.0f}, {args.runs} runs of "
              f"{args.hands:,})   validated plays/s median {statistics.median(play_rates):9,.0f}"
              f"   refused plays/s {refused_per_second(variant):9,.0f}")


if __name__ == "__main__":
    main()

"""The replay page's analysis bound: cards in play and whole-hand analysis time per variant.

For every variant in the catalogue: the cards in all the hands when the play begins (what
``web.replay_analysis`` bounds), whether the replay page analyses it, and the time to analyse
a whole hand (``analysis.hand.analyse_game``: the contracts table and every card) over
``--hands`` random hands (dealt, bid and played at random through the int API, as
``bench/analysis.py`` does). A hand that passes ``--budget`` seconds stops that variant (the
stop is said). Prints median and max seconds; the machine is shared, so expect noise.

    .venv/bin/python bench/replay_bound.py [--hands 6] [--budget 40] [--variant NAME ...]
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import time

from analysis import _over_budget, _OverBudget, _to_play
from tricktable.analysis.hand import analyse_game
from tricktable.history import record_from_engine
from tricktable.rules import list_variants
from tricktable.web.replay_analysis import MAX_CARDS_IN_PLAY, cards_in_play


def bench(variant: str, hands: int, budget: float) -> str:
    secs: list[float] = []
    cards, note = 0, ""
    signal.signal(signal.SIGALRM, _over_budget)
    for seed in range(hands):
        eng = _to_play(variant, seed)
        rand = random.Random(seed).random
        while eng.state.hands_played == 0:
            legal = eng.legal_ids()
            eng.apply_id(legal[int(rand() * len(legal))])
        record = record_from_engine(eng)
        cards = cards_in_play(record)
        t = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, budget)
        try:
            analyse_game(record)
        except _OverBudget:
            note = f"  (stopped: hand {seed} not analysed in {budget:g} s)"
            break
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        secs.append(time.perf_counter() - t)
    page = "analysed" if cards <= MAX_CARDS_IN_PLAY else "over the bound"
    times = (f"median {statistics.median(secs):6.2f} s  max {max(secs):6.2f} s"
             if secs else "no hand analysed")
    return f"{variant:22s} {cards:3d} cards  {page:15s} {len(secs)} hands  {times}{note}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--budget", type=float, default=40.0,
                    help="stop a variant at a hand that takes longer (seconds)")
    ap.add_argument("--variant", action="append", choices=list_variants())
    args = ap.parse_args()
    print(f"the replay page analyses up to {MAX_CARDS_IN_PLAY} cards in play", flush=True)
    for variant in args.variant or list_variants():
        print(bench(variant, args.hands, args.budget), flush=True)


if __name__ == "__main__":
    main()

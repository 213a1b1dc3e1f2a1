"""Engine throughput: complete random hands per second through the public API.

Each hand is dealt from the seed (``Deal``), bid, trumped, exchanged and played by picking
uniformly among ``legal_actions()`` and calling ``apply()``, then scored, in one CPython
process; only scored hands count (a hand everybody passes is not a complete hand). Also
prints validated plays per second (a play-phase ``legal_actions()`` plus the ``apply()`` of
one of them, timed separately) and refused plays per second (a play out of turn). Prints
the median of several runs; the machine is shared, so expect noise.

    .venv/bin/python bench/engine.py [--hands 20000] [--runs 5] [--variant bid-euchre]

``--compare-openspiel``: random complete Euchre hands per second through each public integer
API, ours (``legal_ids``/``apply_id``) and OpenSpiel's euchre (``legal_actions``/
``apply_action``, its chance nodes drawn the same way), in one process, interleaved, median
of ``--runs`` (3); prints both and the ratio. OpenSpiel is the ``bench`` extra
(``pip install -e .[bench]``). OpenSpiel ends a deal everybody passes; we count only scored
hands, so the ratio is, if anything, against us. Says whether the engine ran compiled (the
build ``pip install`` makes, docs/analysis.md "The compiled engine") or interpreted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tricktable.engine import Engine, core
from tricktable.engine.actions import Deal, Play
from tricktable.rules import get_variant, list_variants


def _play(variant: str, hands: int, seed: int, timed_plays: bool) -> tuple[float, int, float]:
    """Play ``hands`` scored hands by random legal actions (a new game whenever one ends).

    Returns (seconds, plays, seconds inside play-phase ``legal_actions``+``apply``); plays
    are counted and the per-play clock read only when ``timed_plays``, so the hands/s run
    is not slowed by them. Actions are drawn with a pre-drawn uniform stream (``rng.random``), like the
    issue's reference loop."""
    rand = random.Random(seed).random
    n = get_variant(variant).seat_counts[0]
    clock = time.perf_counter
    games = 0
    eng = Engine.new(variant, options=_endless(variant), seed=seed, n_players=n)
    legal_actions, apply = eng.legal_actions, eng.apply
    done_before = plays = 0
    play_time = 0.0
    start = clock()
    while done_before + eng.state.hands_played < hands:
        st = eng.state
        if st.game_over:  # a target or hand limit was reached: a new game
            done_before += st.hands_played
            games += 1
            eng = Engine.new(variant, options=_endless(variant), seed=seed + games, n_players=n)
            legal_actions, apply = eng.legal_actions, eng.apply
        elif st.phase == "deal":
            apply(Deal(st.dealer))
        elif timed_plays and st.phase == "play":
            plays += 1
            t = clock()
            legal = legal_actions()
            apply(legal[int(rand() * len(legal))])
            play_time += clock() - t
        else:
            legal = legal_actions()
            apply(legal[int(rand() * len(legal))])
    return clock() - start, plays, play_time


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


def _ours_by_ids(hands: int, seed: int) -> float:
    """Scored Euchre hands per second by random legal int actions."""
    rand = random.Random(seed).random
    eng = Engine.new("euchre", options={"target": None}, seed=seed)
    legal_ids, apply_id, st = eng.legal_ids, eng.apply_id, eng.state
    start = time.perf_counter()
    while st.hands_played < hands:
        legal = legal_ids()
        apply_id(legal[int(rand() * len(legal))])
    return hands / (time.perf_counter() - start)


def _openspiel(hands: int, seed: int) -> float:
    """Terminal OpenSpiel euchre deals per second by random legal actions."""
    import pyspiel  # the bench extra

    game = pyspiel.load_game("euchre")
    rand = random.Random(seed).random
    start = time.perf_counter()
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])
    return hands / (time.perf_counter() - start)


def compare_openspiel(hands: int, runs: int) -> None:
    ours, theirs = [], []
    for run in range(runs):
        ours.append(_ours_by_ids(hands, run))
        theirs.append(_openspiel(hands, run))
    a, b = statistics.median(ours), statistics.median(theirs)
    build = "compiled" if not core.__file__.endswith(".py") else "interpreted"
    print(f"euchre hands/s, median of {runs} interleaved runs of {hands:,}: "
          f"tricktable (int API, {build}) {a:,.0f}   OpenSpiel {b:,.0f}   ratio {a / b:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--variant", action="append", help="default: every variant")
    ap.add_argument("--compare-openspiel", action="store_true",
                    help="Euchre through our int API against OpenSpiel's euchre")
    args = ap.parse_args()
    if args.compare_openspiel:
        compare_openspiel(args.hands, min(args.runs, 3))
        return
    for variant in args.variant or list_variants():
        rates, play_rates = [], []
        for run in range(args.runs):
            secs, _plays, _ = _play(variant, args.hands, run, timed_plays=False)
            rates.append(args.hands / secs)
            _secs, plays, play_secs = _play(variant, args.hands // 4, run, timed_plays=True)
            play_rates.append(plays / play_secs)
        print(f"{variant:24s} hands/s median {statistics.median(rates):9,.0f} "
              f"(min {min(rates):,.0f}, max {max(rates):,.0f}, {args.runs} runs of "
              f"{args.hands:,})   validated plays/s median {statistics.median(play_rates):9,.0f}"
              f"   refused plays/s {refused_per_second(variant):9,.0f}")


if __name__ == "__main__":
    main()

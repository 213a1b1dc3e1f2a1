"""Double-dummy solver and hand analysis: time per deal, nodes per second, table hit rate.

For each variant, random hands are dealt and bid by the engine (random legal int actions,
``Engine.legal_ids``/``apply_id``) until the play begins; then, for that opening position:

- *solve*: ``analysis.hand.contracts_table``, every trump the variant names (and no trump
  where the contract allowed it) for every seat that could declare it, led as the rules lead
  that contract (Euchre: 4 searches, the eldest leads; Bid Euchre: 4 trumps x 4 declarers;
  Spades: 1; Double Deck: 4 x 4);
  ``--single``: only the contract the hand was bid to (one search);
- *hand* (on for the small games unless ``--no-hand``): the hand is played out at random
  and ``analysis.hand.analyse_game`` analyses it whole: the contracts table plus, for every
  card, the double-dummy tricks before and after.

Prints median and p99 seconds per deal (wall clock, and the process's CPU time: the machine
is shared, and under load the CPU time is the figure an idle machine would show; and the
deals a second of CPU, one core), nodes
searched per second of CPU and the transposition table's hit rate (probes answered by a
stored bound). One CPython process; the machine is
shared, so expect noise. A deal whose solve passes ``--budget`` seconds (wall clock) is
stopped and ends that variant's run: the figures of the deals before it are printed, and the
stop is said; with ``--go-on`` it counts as the budget (so the median and p99 are lower
bounds when it shows) and the next deal follows, the deals over budget listed.

``--single-dummy``: only single dummy checked against the exact answer
(``analysis.decisions``): ``--hands`` Euchre hands, each dealt and played at random by
the engine, and every decision in them whose consistent layouts number at most ``--limit``
(the late ones: enumeration is exact there); for each, every choice's expected points
over every layout, and the estimate from ``--samples`` drawn layouts with its 95%
interval. The last line counts the intervals that hold the exact value (E of N, the
choices whose points vary over the layouts: a constant is estimated exactly by any
sample) and the sampled decisions weighed a second of CPU. Before it, ``--whole-hands``
hands of Euchre and of Bid Euchre have every decision weighed as ``tricktable analyse
--single-dummy`` does (``--samples`` a decision), timed: CPU a hand, decisions a second.

``--compare-dds``: only our solver beside DDS (``compare_dds``), ``--deals`` bridge deals;
``--passes N`` times each deal N times over and keeps the least (both solvers alike).

``--soak N``: only a leak check, N Spades deals (``--soak-cards`` each) solved one after the
other with a new solver each, the resident memory printed as it goes (flat: freed).

    .venv/bin/python bench/analysis.py [--deals 1000] [--big-deals 3] [--variant euchre]
        [--budget 120] [--single] [--no-hand] [--go-on]
    .venv/bin/python bench/analysis.py --compare-dds [--deals 60] [--passes 3]
    .venv/bin/python bench/analysis.py --soak 1000 [--soak-cards 13]
    .venv/bin/python bench/analysis.py --single-dummy [--hands 120] [--samples 100]
        [--limit 5000] [--seed 0] [--whole-hands 10]
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import itertools
import os
import random
import signal
import statistics
import time

from tricktable.analysis.decisions import analyse_decisions, decisions_of, draw, weigh
from tricktable.analysis.hand import analyse_game, contracts_table
from tricktable.analysis.positions import STRAINS, bench_leader, bridge, deal, pbn, table
from tricktable.analysis.solver import Solver, Stats
from tricktable.engine import Engine
from tricktable.engine.intplay import CardPlay
from tricktable.history import GameRecord, record_from_engine

GAMES = {  # variant: (cards each, big)
    "euchre": (5, False),
    "bid-euchre": (6, False),
    "spades": (13, True),
    "double-deck": (12, True),
}


def _to_play(variant: str, seed: int) -> Engine:
    """A one-hand game of ``variant`` dealt and bid at random, at the start of its play."""
    eng = Engine.new(variant, seed=seed)
    rand = random.Random(seed).random
    while eng.phase != "play":
        if eng.state.hands_played or eng.state.game_over:  # passed out: deal again
            eng = Engine.new(variant, seed=seed + 10_000 * (eng.state.hand_number + 1))
        legal = eng.legal_ids()
        eng.apply_id(legal[int(rand() * len(legal))])
    return eng


class _OverBudget(Exception):
    pass


def _over_budget(signum: int, frame: object) -> None:
    raise _OverBudget


def _p99(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(len(xs) * 0.99))]


def _line(label: str, secs: list[float], cpu: list[float], stats: Stats, note: str) -> str:
    if not secs:
        return f"{label:28s}     0 deals{note}"
    total = sum(cpu)
    rate = stats.nodes / total if total else 0.0
    hits = stats.hits / stats.probes if stats.probes else 0.0
    return (f"{label:28s} {len(secs):5d} deals  median {statistics.median(secs) * 1e3:9.1f} ms"
            f"  p99 {_p99(secs) * 1e3:9.1f} ms  max {max(secs) * 1e3:9.1f} ms"
            f"  (CPU median {statistics.median(cpu) * 1e3:.2f} ms  p99 {_p99(cpu) * 1e3:.1f} ms,"
            f" {len(cpu) / total if total else 0.0:,.0f} a second)"
            f"  {rate:9,.0f} nodes/s of CPU  TT hits {hits:5.1%}{note}")


def bench(variant: str, deals: int, hand: bool, budget: float, single: bool,
          go_on: bool) -> None:
    solve_secs: list[float] = []
    solve_cpu: list[float] = []
    over: list[int] = []
    hand_secs: list[float] = []
    hand_cpu: list[float] = []
    solve_stats, hand_stats = Stats(), Stats()
    note = ""
    clock, cpu = time.perf_counter, time.process_time
    signal.signal(signal.SIGALRM, _over_budget)
    for seed in range(deals):
        eng = _to_play(variant, seed)
        kept = dataclasses.replace(solve_stats)
        signal.setitimer(signal.ITIMER_REAL, budget)
        t, c = clock(), cpu()  # the bench's own bookkeeping (above, below) is not timed
        try:
            if single:
                Solver(CardPlay.from_state(eng.state), solve_stats).tricks(0)
            else:
                contracts_table(eng.state, solve_stats)
            took = clock() - t, cpu() - c
        except _OverBudget:
            solve_stats = kept  # the stopped deal's work is not counted
            if not go_on:
                note = f"  (stopped: deal {seed} not solved in {budget:g} s)"
                break
            over.append(seed)
            solve_secs.append(budget)
            solve_cpu.append(cpu() - c)
            note = (f"  ({len(over)} not solved in {budget:g} s, counted as {budget:g} s:"
                    f" deals {' '.join(map(str, over))})")
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        solve_secs.append(took[0])
        solve_cpu.append(took[1])
        if hand:
            rand = random.Random(seed).random
            while eng.state.hands_played == 0:
                legal = eng.legal_ids()
                eng.apply_id(legal[int(rand() * len(legal))])
            record = record_from_engine(eng)
            t, c = clock(), cpu()
            analyse_game(record, hand_stats)
            hand_secs.append(clock() - t)
            hand_cpu.append(cpu() - c)
    cards = GAMES.get(variant, (0, False))[0]
    what = "one contract" if single else "solve"
    print(_line(f"{variant} ({cards}) {what}", solve_secs, solve_cpu, solve_stats, note),
          flush=True)
    if hand_secs:
        print(_line(f"{variant} ({cards}) whole hand", hand_secs, hand_cpu, hand_stats, ""),
              flush=True)


def _rss_mb() -> float:
    """The process's resident memory now (Linux's /proc), in MB."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def soak(solves: int, cards: int) -> None:
    """``solves`` Spades deals of ``cards`` cards each solved one after the other, each with
    a new solver (as a long-running process does hand after hand), printing the resident
    memory every tenth of the way: flat when every solver is freed."""
    gc.collect()
    start = _rss_mb()
    print(f"soak: {solves:,} Spades solves of {cards} cards each, RSS {start:.1f} MB at the"
          " start", flush=True)
    step = max(1, solves // 10)
    for i in range(1, solves + 1):
        cp = deal("spades", i, cards=cards, leader=i % 4)
        Solver(cp).tricks(0)
        if i % step == 0 or i == solves:
            print(f"soak: after {i:6,} solves  RSS {_rss_mb():8.1f} MB", flush=True)
    gc.collect()
    print(f"soak: RSS after {solves:,} Spades solves {_rss_mb():.1f} MB"
          f" ({_rss_mb() - start:+.1f} MB since the start)", flush=True)


def compare_dds(deals: int, passes: int = 1) -> None:
    """Our solver beside DDS (PyPI's ``endplay``, a bench extra) on the same bridge deals
    (``positions.bridge``), one thread each, interleaved deal by deal (which goes first
    alternates, deal by deal and pass by pass): per deal, each strain solved once with the declarer's left-hand opponent
    leading (a declarer going round the table from deal to deal), then the full 5x4 table
    (ours: 20 searches, the leaders of one strain sharing tables). CPU time of the process
    (DDS told to use one thread), both timed from the deal made beforehand (DDS's ``Deal``,
    our ``CardPlay``): the solve or the table, not the dealing. The ``dds:`` line gives the
    worst strain's ratio of medians; the ``dds paired`` line after it the median of each
    deal's ratio (``_paired``). With ``passes`` over 1, every deal is timed that many times,
    pass after pass over all the deals (so neither solver meets the same deal twice in a row,
    and DDS never reuses a table), and each solve's and table's least time is kept, ours and
    DDS's alike: what a busy machine added to one run drops out."""
    from endplay import _dds  # the bench extra: pip install -e .[bench]
    from endplay.dds import calc_dd_table
    from endplay.types import Deal, Denom, Player

    _dds.SetMaxThreads(1)
    cpu = time.process_time
    inf = float("inf")
    times = {s: ([inf] * deals, [inf] * deals) for s in STRAINS}  # the least of the passes
    tables = ([inf] * deals, [inf] * deals)
    agree = total = 0
    wrong: list[str] = []
    for run, seed in itertools.product(range(passes), range(deals)):
        counting = run == 0  # the answers are compared on the first pass
        leader = bench_leader(seed)
        dds_first = (seed + run) % 2 == 0
        for strain in STRAINS:
            cp = bridge(seed, strain, leader)
            dl = Deal(pbn(cp))
            dl.first, dl.trump = Player(leader), Denom(STRAINS.index(strain))
            got = [0, 0]
            for turn in ((0, 1) if dds_first else (1, 0)):
                t = cpu()
                if turn == 0:
                    fut = _dds.futureTricks()
                    _dds.SolveBoard(dl._data, -1, 1, 1, fut, 0)
                    got[0] = fut.score[0]
                else:
                    got[1] = Solver(cp).tricks(cp.side_of[leader])
                kept = times[strain][turn]
                kept[seed] = min(kept[seed], cpu() - t)
            if not counting:
                continue
            total += 1
            if got[0] == got[1]:
                agree += 1
            else:
                wrong.append(f"deal {seed} {strain} led by {leader}: DDS {got[0]}, ours {got[1]}")
        cp = bridge(seed, "NT", 0)  # both timed from the deal made beforehand
        dl = Deal(pbn(cp))
        for turn in ((0, 1) if dds_first else (1, 0)):
            t = cpu()
            if turn == 0:
                dds_table = calc_dd_table(dl).to_list()  # [strain][declarer]
            else:
                ours_table = table(cp)
            tables[turn][seed] = min(tables[turn][seed], cpu() - t)
        if not counting:
            continue
        for i, strain in enumerate(STRAINS):
            for d in range(4):
                total += 1
                if dds_table[i][d] == ours_table[i][d]:
                    agree += 1
                else:
                    wrong.append(f"deal {seed} table {strain} by {d}: DDS {dds_table[i][d]},"
                                 f" ours {ours_table[i][d]}")
    worst_median = worst_p99 = 0.0
    for strain in STRAINS:
        dds, ours = times[strain]
        median = statistics.median(ours) / statistics.median(dds)
        p99 = _p99(ours) / _p99(dds)
        worst_median, worst_p99 = max(worst_median, median), max(worst_p99, p99)
        print(f"{strain:2s} single solve {len(ours):4d} deals  DDS median {statistics.median(dds) * 1e3:8.2f} ms"
              f"  p99 {_p99(dds) * 1e3:8.1f} ms   ours median {statistics.median(ours) * 1e3:8.2f} ms"
              f"  p99 {_p99(ours) * 1e3:8.1f} ms   ratio of medians {median:5.2f}  p99 {p99:5.2f}",
              flush=True)
    table_ratio = statistics.median(tables[1]) / statistics.median(tables[0])
    print(f"full 5x4 table  {len(tables[0]):4d} deals  DDS median {statistics.median(tables[0]) * 1e3:8.2f} ms"
          f"  p99 {_p99(tables[0]) * 1e3:8.1f} ms   ours median {statistics.median(tables[1]) * 1e3:8.2f} ms"
          f"  p99 {_p99(tables[1]) * 1e3:8.1f} ms   ratio of medians {table_ratio:5.2f}"
          f"  p99 {_p99(tables[1]) / _p99(tables[0]):5.2f}")
    for line in wrong[:20]:
        print("disagree:", line)
    print(f"dds: agree {agree}/{total}, median ratio {worst_median:.2f}, p99 ratio {worst_p99:.2f},"
          f" table ratio {table_ratio:.2f}", flush=True)
    paired = {strain: _paired(*times[strain]) for strain in STRAINS}
    print("dds paired (median of each deal's ours / DDS): "
          + ", ".join(f"{strain} {r:.2f}" for strain, r in paired.items())
          + f", worst {max(paired.values()):.2f}, table {_paired(*tables):.2f}", flush=True)


def _paired(dds: list[float], ours: list[float]) -> float:
    """The median over the deals of each deal's time ours / DDS's: the same deals timed side
    by side, so a deal's own length cancels out (the ratio of medians above compares two
    medians that may fall on different deals, and moves more from run to run)."""
    return statistics.median(o / d for d, o in zip(dds, ours, strict=True))


def _played_hand(variant: str, seed: int) -> GameRecord:
    """A one-hand game of ``variant`` dealt, bid and played at random."""
    eng = _to_play(variant, seed)
    rand = random.Random(seed).random
    while eng.state.hands_played == 0:
        legal = eng.legal_ids()
        eng.apply_id(legal[int(rand() * len(legal))])
    return record_from_engine(eng)


def single_dummy(hands: int, samples: int, limit: int, seed: int, whole: int) -> None:
    """Single dummy's sampled estimates against the exact expectation (see the module
    docstring): per decision, the exact report over every layout and the sampled one;
    first, every decision of ``whole`` hands of Euchre and of Bid Euchre weighed as
    ``tricktable analyse --single-dummy`` does, timed."""
    for variant in ("euchre", "bid-euchre"):
        records = [_played_hand(variant, 1000 + i) for i in range(whole)]
        started = time.process_time()
        weighed = [d for r in records for h in analyse_decisions(r, seed=seed, samples=samples)
                   for d in h["decisions"]]
        cpu = time.process_time() - started
        if whole:
            print(f"single dummy: {variant} whole hands: {whole} hands, {len(weighed)} "
                  f"decisions, {cpu / whole:.2f} s of CPU a hand, decisions/s "
                  f"{len(weighed) / cpu:.1f}", flush=True)
    decisions = checked = holds = constant = 0
    cpu_sampled = 0.0
    widths: list[float] = []
    for hand in range(hands):
        record = _played_hand("euchre", hand)
        for hand_found in decisions_of(record):
            for decision in hand_found.decisions:
                knowledge, every, exact = draw(decision, seed, samples, limit)
                if not exact:
                    continue  # too many layouts to enumerate: an early decision
                truth = {c["choice"]: c for c in
                         weigh(decision, record.players, knowledge, every, True)["choices"]}
                started = time.process_time()
                _, drawn, _ = draw(decision, seed, samples, 0)
                sampled = weigh(decision, record.players, knowledge, drawn, False)
                cpu_sampled += time.process_time() - started
                decisions += 1
                for choice in sampled["choices"]:
                    real = truth[choice["choice"]]
                    if real["points_sd"] == 0:
                        constant += 1
                        continue
                    lo, hi = choice["points_ci95"]
                    checked += 1
                    holds += lo <= real["points"] <= hi
                    widths.append(hi - lo)
    rate = decisions / cpu_sampled if cpu_sampled else 0.0
    print(f"single dummy: {hands} Euchre hands, {decisions} decisions with at most {limit}"
          f" layouts; {checked} choice estimates whose points vary over the layouts"
          f" ({constant} constant ones not counted); median 95% interval width"
          f" {statistics.median(widths) if widths else 0.0:.3f} points", flush=True)
    print(f"single dummy: {decisions} decisions, {samples} samples each, agree with exact"
          f" {holds}/{checked}, decisions/s {rate:.1f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals for the small games")
    ap.add_argument("--big-deals", type=int, default=1000,
                    help="deals for Spades and Double Deck (13 and 12 cards)")
    ap.add_argument("--variant", action="append", choices=sorted(GAMES),
                    help="default: all four")
    ap.add_argument("--budget", type=float, default=600.0,
                    help="stop a variant at a deal that takes longer (seconds)")
    ap.add_argument("--no-hand", action="store_true", help="skip the whole-hand analysis")
    ap.add_argument("--single", action="store_true",
                    help="solve only the contract bid (one search) instead of every trump")
    ap.add_argument("--go-on", action="store_true",
                    help="a deal over the budget counts as the budget and the run goes on")
    ap.add_argument("--soak", type=int, metavar="N",
                    help="only the soak: RSS while N Spades deals are solved, a solver each")
    ap.add_argument("--soak-cards", type=int, default=13, help="cards each in the soak")
    ap.add_argument("--compare-dds", action="store_true",
                    help="only our solver beside DDS (endplay) on --deals bridge deals")
    ap.add_argument("--passes", type=int, default=1,
                    help="compare-dds: time every deal this many times, keep the least")
    ap.add_argument("--single-dummy", action="store_true",
                    help="only single dummy's sampled estimates against exact enumeration")
    ap.add_argument("--hands", type=int, default=120, help="single dummy: Euchre hands")
    ap.add_argument("--samples", type=int, default=100,
                    help="single dummy: layouts drawn a decision")
    ap.add_argument("--limit", type=int, default=5000,
                    help="single dummy: the most layouts a decision checked may have")
    ap.add_argument("--seed", type=int, default=0, help="single dummy: the layouts' seed")
    ap.add_argument("--whole-hands", type=int, default=10,
                    help="single dummy: whole hands of each game weighed and timed first")
    args = ap.parse_args()
    if args.single_dummy:
        single_dummy(args.hands, args.samples, args.limit, args.seed, args.whole_hands)
        return
    if args.compare_dds:
        compare_dds(args.deals, args.passes)
        return
    if args.soak:
        soak(args.soak, args.soak_cards)
        return
    for variant in args.variant or list(GAMES):
        big = GAMES[variant][1]
        bench(variant, args.big_deals if big else args.deals,
              not args.no_hand and not big, args.budget, args.single, args.go_on)


if __name__ == "__main__":
    main()

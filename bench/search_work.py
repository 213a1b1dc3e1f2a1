"""The search's work, counted, not timed: the nodes it visits, the trick starts it looks up in
its transposition table and the look-ups the table answers, over the positions of
``bench/analysis.py --compare-dds`` (bridge deals 0 to ``--deals`` - 1 x 5 strains, the
declarer's left-hand opponent leading, the declarer going round) and over the full 5x4
tables of deals 0 to ``--tables`` - 1 (``positions.table``), with a digest of every answer.
The counts are the same on every run of the same code, so a change to what the search does
is measured exactly, on a machine too noisy to time it (then time it with
``bench/ab_search.py``); the digests must not move unless the answers do.

    PYTHONPATH=host .venv/bin/python bench/search_work.py --deals 60 --tables 20
"""

import argparse
import hashlib

from tricktable.analysis import positions
from tricktable.analysis.positions import STRAINS, bench_leader, bridge
from tricktable.analysis.solver import Solver, Stats


def digest(answers: object) -> str:
    """A short digest of the answers (their repr: the same on every run)."""
    return hashlib.sha256(repr(answers).encode()).hexdigest()[:8]


def counts(stats: Stats) -> str:
    """The work ``stats`` counted, as one line's columns."""
    return f"nodes {stats.nodes:12,d}  trick starts {stats.probes:11,d}  table hits {stats.hits:11,d}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--tables", type=int, default=20)
    args = ap.parse_args()
    total = Stats()
    answers = []
    for strain in STRAINS:
        stats = Stats()
        for seed in range(args.deals):
            leader = bench_leader(seed)
            cp = bridge(seed, strain, leader)
            answers.append(Solver(cp, stats).tricks(cp.side_of[leader]))
        print(f"{strain:2s} single solves  {counts(stats)}", flush=True)
        total.nodes += stats.nodes
        total.probes += stats.probes
        total.hits += stats.hits
    print(f"single solves   {counts(total)}  answers {digest(answers)}", flush=True)
    stats = Stats()
    tables = [positions.table(bridge(seed, "NT", 0), stats) for seed in range(args.tables)]
    print(f"tables ({args.tables:3d})    {counts(stats)}  answers {digest(tables)}", flush=True)


if __name__ == "__main__":
    main()

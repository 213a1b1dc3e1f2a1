"""Two builds of the compiled search side by side: ``OLD.so`` and ``NEW.so`` (copies of
``analysis/_search*.so`` built from two versions of ``_search.c``) loaded in one process under
the name ``tricktable.analysis._search``, each position of bridge deals 0-9 x 5 strains
(``positions.bridge``, the declarer's left-hand opponent leading, the declarer going round
as in ``bench/analysis.py --compare-dds``) solved ``--reps`` times by each, interleaved
(which goes first alternates), a new ``Solver`` each time. Per position the least CPU time of
each is kept; prints the sums, the ratio of the sums (new / old) and the median per-position
ratio, and checks the two answer alike.

    PYTHONPATH=host .venv/bin/python bench/ab_search.py /tmp/old_search.so /tmp/new_search.so
"""

import argparse
import importlib.machinery
import importlib.util
import statistics
import time
from types import ModuleType

from tricktable.analysis import solver
from tricktable.analysis.positions import STRAINS, bench_leader, bridge


def load(path: str) -> ModuleType:
    """The extension module at ``path``, loaded as ``tricktable.analysis._search``."""
    name = "tricktable.analysis._search"
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def use(module: ModuleType) -> None:
    """Make ``solver.Solver`` build its searches from ``module`` (its ``Rules`` made anew)."""
    solver.Core = module.Core  # type: ignore[misc]
    solver.Rules = module.Rules  # type: ignore[misc]
    solver._RULES.clear()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--deals", type=int, default=10)
    args = ap.parse_args()
    builds = [load(args.old), load(args.new)]
    least: tuple[list[float], list[float]] = ([], [])
    for seed in range(args.deals):
        leader = bench_leader(seed)
        for strain in STRAINS:
            cp = bridge(seed, strain, leader)
            times, answers = [float("inf")] * 2, [0, 0]
            for rep in range(args.reps):
                for i in (0, 1) if rep % 2 == 0 else (1, 0):
                    use(builds[i])
                    t = time.process_time()
                    answers[i] = solver.Solver(cp).tricks(cp.side_of[leader])
                    times[i] = min(times[i], time.process_time() - t)
            if answers[0] != answers[1]:
                raise SystemExit(f"deal {seed} {strain}: old {answers[0]}, new {answers[1]}")
            least[0].append(times[0])
            least[1].append(times[1])
    old, new = sum(least[0]), sum(least[1])
    ratio = statistics.median(b / a for a, b in zip(*least, strict=True))
    print(f"old sum {old * 1e3:.1f} ms  new sum {new * 1e3:.1f} ms  sum ratio {new / old:.4f}"
          f"  median per-position ratio {ratio:.4f}")


if __name__ == "__main__":
    main()

"""Par for the auction (``analysis.par.hand_par``): time per deal and positions solved.

For each variant, random hands are dealt by the engine (``Engine.legal_ids``/``apply_id``,
the first action of a game deals it) and, from the table as its auction begins:

- *par alone*: ``hand_par`` with a new ``DoubleDummy`` (every position it needs solved);
- *table*: the same deal bid at random to its play (not alone), ``analysis.hand.
  contracts_table`` there (what a hand's analysis did before par, less the plays);
- *par after the table*: then ``hand_par`` sharing the table's ``DoubleDummy``, timed on its
  own: what par adds to a hand's analysis (Bid Euchre's pepper contracts, played alone, are
  new positions; Euchre's order-ups are the dealer's discards).

Prints median and p99 milliseconds per deal, the positions solved per deal, and the ratio
of the medians of par after the table to the table (measured deal by deal in the same
loop, so the machine's load cancels). One CPython process; the machine is shared, so expect
noise in the times.

    .venv/bin/python bench/par.py [--deals 200] [--variant euchre] [--variant bid-euchre]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tricktable.analysis.hand import contracts_table
from tricktable.analysis.par import DoubleDummy, auction_start, hand_par
from tricktable.engine import Engine

VARIANTS = ("euchre", "bid-euchre", "pfeffer", "hasenpfeffer", "eau-claire-clubs")


def _deal(variant: str, seed: int) -> tuple[Engine, Engine | None]:
    """A table of ``variant`` just dealt, and the same deal bid at random to its play by a
    side that plays together (random bids are mostly the top of the ladder, lone peppers,
    which a club seldom bids; None when twenty tries passed out or went alone)."""
    eng = Engine.new(variant, seed=seed)
    eng.apply_id(eng.legal_ids()[0])
    for attempt in range(20):
        played = Engine.new(variant, seed=seed)
        rand = random.Random(seed * 100 + attempt).random
        while played.phase != "play" and not played.state.hands_played:
            legal = played.legal_ids()
            played.apply_id(legal[int(rand() * len(legal))])
        contract = played.state.contract
        if played.phase == "play" and contract is not None and not contract.alone:
            return eng, played
    return eng, None


def _ms(values: list[float]) -> str:
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
    return f"median {statistics.median(values) * 1e3:7.1f} ms  p99 {p99 * 1e3:7.1f} ms"


def run(variant: str, deals: int) -> None:
    alone: list[float] = []
    table: list[float] = []
    after: list[float] = []
    positions: list[int] = []
    for seed in range(deals):
        eng, played = _deal(variant, seed)
        start = auction_start(eng.state)
        dd = DoubleDummy(eng.state)
        t = time.perf_counter()
        hand_par(start, dd)
        alone.append(time.perf_counter() - t)
        positions.append(dd.positions)
        if played is not None:
            shared = DoubleDummy(played.state)
            t = time.perf_counter()
            contracts_table(played.state, dd=shared)
            table.append(time.perf_counter() - t)
            t = time.perf_counter()
            hand_par(start, shared)
            after.append(time.perf_counter() - t)
    print(f"{variant:18} par alone           {deals:5} deals  {_ms(alone)}  "
          f"{statistics.median(positions):4.0f} positions/deal")
    if after:
        ratio = statistics.median(after) / statistics.median(table)
        print(f"{variant:18} table               {len(table):5} deals  {_ms(table)}")
        print(f"{variant:18} par after the table {len(after):5} deals  {_ms(after)}  "
              f"{ratio:.2f}x the table")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--variant", action="append", choices=VARIANTS)
    args = ap.parse_args()
    for variant in args.variant or VARIANTS:
        run(variant, args.deals)


if __name__ == "__main__":
    main()

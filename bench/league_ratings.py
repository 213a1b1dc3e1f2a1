"""How long the league takes to rate a season again (``LeagueStore.rerate``) from PostgreSQL.

A throwaway PostgreSQL (tests/pgkit.py) is filled with ``--clubs`` clubs' finished nights:
each night ``--tables`` tables play ``--games`` games of one rated hand each, with the club's
``4 x tables`` players moving between tables; one season holds them all, so every game is
rated twice (the season, and every game). Then ``rerate`` runs ``--runs`` times; printed: the
games rated, the median and slowest seconds per rerate, and games rated per second (both
ratings counted once). The service rates again at most once a minute under a steady stream,
and a second after the stream goes quiet: this says how much of an instance's time that is.

    .venv/bin/python bench/league_ratings.py --clubs 100 --nights 2
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests")]

from pgkit import PostgresServer  # noqa: E402
from tricktable.league.messages import LeagueHand, LeagueMessage, LeagueNight  # noqa: E402
from tricktable.league.store import LeagueStore  # noqa: E402


def club_nights(club: str, nights: int, tables: int, games: int,
                rng: random.Random) -> list[LeagueMessage]:
    players = [f"{club}.{n}" for n in range(1, 4 * tables + 1)]
    out: list[LeagueMessage] = []
    for night in range(1, nights + 1):
        name = f"n{night}"
        for game in range(1, games + 1):
            rng.shuffle(players)
            for table in range(tables):
                seats = players[4 * table:4 * table + 4]
                ns = rng.randint(0, 10)
                out.append(LeagueHand(club=club, journal=f"{night:x}", table=f"t{table + 1}",
                                      game=game, hand=1, night=name, round=game,
                                      variant="bid-euchre", seats=seats,
                                      sides=[[0, 2], [1, 3]], deltas=[ns, 10 - ns],
                                      scores=[ns, 10 - ns]))
        out.append(LeagueNight(club=club, night=name,
                               date=(dt.date(2026, 9, 3) + dt.timedelta(weeks=night)).isoformat(),
                               games=games, standings=[]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=100)
    parser.add_argument("--nights", type=int, default=2, help="finished nights per club")
    parser.add_argument("--tables", type=int, default=10, help="tables per club")
    parser.add_argument("--games", type=int, default=8, help="games per table per night")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(7)
    server = PostgresServer()
    try:
        with LeagueStore(server.new_database()) as store:
            for club in range(args.clubs):
                store.store(club_nights(f"c{club}", args.nights, args.tables, args.games, rng))
            store.add_season("autumn", dt.date(2026, 9, 1), dt.date(2026, 12, 31))
            times = []
            for _ in range(args.runs):
                started = time.perf_counter()
                ratings = store.rerate()
                times.append(time.perf_counter() - started)
        games = args.clubs * args.nights * args.tables * args.games
        median = statistics.median(times)
        print(f"{args.clubs} clubs x {args.nights} nights x {args.tables} tables x "
              f"{args.games} games = {games} games ({ratings} ratings rows, two seasons)")
        print(f"rerate: median {median:.2f} s, slowest {max(times):.2f} s over {args.runs} runs;"
              f" {2 * games / median:,.0f} games rated/s")
    finally:
        server.stop()


if __name__ == "__main__":
    main()

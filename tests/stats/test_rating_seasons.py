"""Ratings (openskill's Weng-Lin model, docs/stats.md "Rating") and season ladders with their
tie rule (docs/stats.md "Seasons")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from seasoning import VARIANTS, SeasonedClub
from tricktable.cli import main
from tricktable.club import load_night, standings
from tricktable.players import ClubDB, PlayersError
from tricktable.players.roster import name_key
from tricktable.stats import Stats
from tricktable.stats.rating import RatedGame, rate_games
from tricktable.stats.seasons import Seasons


def test_a_clearly_stronger_player_rises_to_the_top() -> None:
    """Eight players, partners drawn at random every game; the side with player 0 wins
    nine games in ten, every other game is a coin toss."""
    rng = random.Random(7)
    games = []
    for number in range(120):
        seats = rng.sample(range(8), 4)
        teams = ((seats[0], seats[1]), (seats[2], seats[3]))
        strong = 0 in seats
        first_wins = (0 in teams[0]) == (rng.random() < 0.9) if strong else rng.random() < .5
        games.append(RatedGame(number // 12 + 1, teams, (10, 3) if first_wins else (3, 10)))
    ratings = rate_games(games)
    last = {r.player: r for r in ratings}
    first_night = {r.player: r for r in ratings if r.night == 1}
    assert max(last.values(), key=lambda r: r.mu).player == 0
    assert last[0].mu > first_night[0].mu > 25
    assert last[0].ordinal > max(r.ordinal for p, r in last.items() if p != 0)
    assert last[0].sigma < first_night[0].sigma, "the more games, the surer"


def test_the_same_games_give_the_same_ratings() -> None:
    games = [RatedGame(1, ((1, 2), (3, 4)), (5, 2)), RatedGame(2, ((1, 3), (2, 4)), (4, 4))]
    assert rate_games(games) == rate_games(list(games))


def night_totals(seasoned: SeasonedClub) -> dict[str, list[tuple[int, int]]]:
    """name -> (points, games won) of each night, from the night files' own standings."""
    out: dict[str, list[tuple[int, int]]] = {}
    for variant in VARIANTS:
        for s in standings(load_night(seasoned.nights[variant][1]).tallies()):
            out.setdefault(name_key(s.name), []).append((s.total, s.won))
    return out


@pytest.mark.parametrize("ladder, best", [("total", 0), ("best", 2), ("won", 0)])
def test_a_season_ladder_ranks_the_nights_results(seasoned: SeasonedClub, tmp_path: Path,
                                                  ladder: str, best: int) -> None:
    with ClubDB(seasoned.copy_db(tmp_path)) as db:
        seasons = Seasons(Stats(db))
        seasons.new("Winter", ladder, best)
        for variant in VARIANTS:
            seasons.add_night("Winter", variant)
        rows = seasons.ladder(seasons.get("Winter"))
    totals = night_totals(seasoned)
    assert len(rows) == 8
    for row in rows:
        nights = totals[name_key(row.name)]
        points = sorted((p for p, _ in nights), reverse=True)
        expected = {"total": sum(points), "won": sum(w for _, w in nights),
                    "best": round(sum(points[:2]) / 2, 2)}[ladder]
        assert row.value == expected and row.nights == 3
    assert [r.value for r in rows] == sorted((r.value for r in rows), reverse=True)


def test_ties_are_broken_by_games_won_then_points_then_fewer_nights(tmp_path: Path) -> None:
    with ClubDB(tmp_path / "club.sqlite") as db:
        stats = Stats(db)
        for name in ("Ann", "Bob", "Cy", "Di", "Eve"):
            stats.players.add(name)
        with db.transaction() as tx:
            for night in (1, 2):
                tx.execute("INSERT INTO nights (id, name, journal) VALUES (?, ?, '')",
                           (night, f"n{night}"))
            # (night, name, points, won, played): every ladder value "won" is 3
            tx.executemany("INSERT INTO night_results VALUES (?,?,?,?,?)", [
                (1, "ann", 10, 3, 4), (1, "bob", 30, 3, 4),        # Bob: more points
                (1, "cy", 20, 1, 4), (2, "cy", 5, 2, 4),           # Cy: 25 points, 2 nights
                (1, "di", 25, 3, 4),                               # Di: 25 points, 1 night
                (1, "eve", 25, 3, 4)])                             # Eve: level with Di
        seasons = Seasons(stats)
        seasons.new("Spring", "won")
        seasons.add_night("Spring", "n1")
        seasons.add_night("Spring", "n2")
        rows = seasons.ladder(seasons.get("Spring"))
    assert [(r.place, r.name) for r in rows] == [
        (1, "Bob"), (2, "Di"), (2, "Eve"), (4, "Cy"), (5, "Ann")]


def test_bad_season_input_is_refused_and_changes_nothing(seasoned: SeasonedClub,
                                                         tmp_path: Path) -> None:
    db = str(seasoned.copy_db(tmp_path))
    run = CliRunner().invoke
    assert run(main, ["season", "--db", db, "new", "Fall", "--ladder", "best"]).exit_code == 1
    made = run(main, ["season", "--db", db, "new", "Fall", "--ladder", "best", "--best", "2"])
    assert made.exit_code == 0, made.output
    again = run(main, ["season", "--db", db, "add", "Fall", "euchre", "nope"])
    assert again.exit_code == 1 and "no night called 'nope'" in again.output
    assert run(main, ["season", "--db", db, "add", "Fall", "euchre"]).exit_code == 0
    ladder = run(main, ["season", "--db", db, "ladder", "Fall"])
    assert ladder.exit_code == 0 and "average of the best 2 nights" in ladder.output
    report = tmp_path / "fall.html"
    assert run(main, ["season", "--db", db, "report", "Fall", "-o", str(report)]).exit_code == 0
    assert "report-ladder" in report.read_text()
    with ClubDB(db) as club, pytest.raises(PlayersError, match="already in"):
        Seasons(Stats(club)).add_night("Fall", "euchre")

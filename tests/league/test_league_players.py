"""Players and ratings in the league (docs/league.md, "Players" and "Ratings").

A club with a players database names its players by league id, and says what the league may
show of each: a player the club hides later is sent again as "Guest", and the league keeps the
newest record. Ratings per season are the clubs' own model and update (``stats.rating``) run
over the stored games of finished nights; a record that cannot be rated is left out.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from leaguekit import rows
from tricktable.league.club_feed import ClubFeed
from tricktable.league.club_players import ClubPlayers
from tricktable.league.messages import LeagueHand, LeagueNight, LeaguePlayer
from tricktable.league.store import LeagueStore
from tricktable.players.db import ClubDB
from tricktable.players.roster import Players
from tricktable.serve.journal import Journal
from tricktable.stats.rating import RatedGame, rate_games


def test_a_player_hidden_later_is_sent_again_as_guest(tmp_path: Path) -> None:
    with ClubDB(tmp_path / "club.sqlite") as db, Journal(tmp_path / "journal") as journal:
        ann = Players(db).add("Ann").id
        players = ClubPlayers("ashby", db)
        feed = ClubFeed("ashby", journal, players=players)
        assert players.league_id("ann") == f"ashby.{ann}"  # any case: the club's name key
        assert players.league_id("Zed") == f"ashby.{ann + 1}"  # new to the club: added there
        first = feed.pending()
        assert [(m.player, m.name) for m in first] == [(f"ashby.{ann}", "Ann"),
                                                       (f"ashby.{ann + 1}", "Zed")]
        feed.receipted([m.id for m in first])
        assert feed.pending() == []

        Players(db).set_flags("Ann", hidden=True)
        again = feed.pending()
        assert [(m.player, m.name) for m in again] == [(f"ashby.{ann}", "Guest")]
        feed.receipted([m.id for m in again])

        Players(db).set_flags("Ann", hidden=False)  # shown again: her name is due again
        assert [(m.player, m.name) for m in feed.pending()] == [(f"ashby.{ann}", "Ann")]


@pytest.fixture
def store(league_db: str) -> Iterator[LeagueStore]:
    with LeagueStore(league_db) as opened:
        yield opened


def test_the_league_keeps_the_newest_record_of_a_player(store: LeagueStore,
                                                        league_db: str) -> None:
    def record(name: str, sent: float) -> LeaguePlayer:
        return LeaguePlayer(club="ashby", player="ashby.1", name=name, sent=sent)

    assert store.store([record("Ann", 1.0)]) == 1
    assert store.store([record("Guest", 2.0)]) == 1  # hidden since
    assert store.store([record("Ann", 1.5), record("Guest", 3.0)]) == 0  # late, and a resend
    assert rows(league_db, "SELECT name FROM players") == [("Guest",)]


JOURNALS = {"mar": "a1", "nov": "b2", "dec": "c3"}  # each night its own journal


def hand(club: str, night: str, table: str, seats: list[str], scores: list[int],
         sides: list[list[int]] | None = None) -> LeagueHand:
    return LeagueHand(club=club, journal=JOURNALS[night], table=table, game=1, hand=1, night=night,
                      round=1, variant="bid-euchre", seats=seats,
                      sides=sides or [[0, 2], [1, 3]], deltas=scores, scores=scores)


def finished(club: str, night: str, date: str) -> LeagueNight:
    return LeagueNight(club=club, night=night, date=date, games=1, standings=[])


def test_ratings_per_season_are_the_clubs_model_over_finished_nights(
        store: LeagueStore, league_db: str) -> None:
    a, b, c, d = "ashby.1", "ashby.2", "ashby.3", "ashby.4"
    store.add_season("spring", dt.date(2026, 3, 1), dt.date(2026, 5, 31))
    store.store([
        hand("ashby", "mar", "t1", [a, b, c, d], [5, -2]), finished("ashby", "mar", "2026-03-05"),
        hand("ashby", "nov", "t1", [a, c, b, d], [1, 4]), finished("ashby", "nov", "2026-11-19"),
        hand("ashby", "nov", "t2", [a, b, c, d], [3, 0], sides=[[0, 7], [1, 3]]),  # bad record
        hand("ashby", "dec", "t1", [a, b, c, d], [9, 0])])  # a night not finished: not rated
    store.rerate()

    def league(season: str) -> dict[tuple[str, str], tuple[float, float, int]]:
        return {(p, n): (mu, sigma, games) for p, n, mu, sigma, games in rows(
            league_db, "SELECT player, night, mu, sigma, games FROM ratings WHERE season = %s",
            season)}

    everything = rate_games([RatedGame(0, ((1, 3), (2, 4)), (5, -2)),
                             RatedGame(1, ((1, 2), (3, 4)), (1, 4))])
    nights = {0: "mar", 1: "nov"}
    assert league("") == {(f"ashby.{r.player}", nights[r.night]): (r.mu, r.sigma, r.games)
                          for r in everything}
    spring = rate_games([RatedGame(0, ((1, 3), (2, 4)), (5, -2))])
    assert league("spring") == {(f"ashby.{r.player}", "mar"): (r.mu, r.sigma, r.games)
                                for r in spring}

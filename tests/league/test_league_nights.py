"""Two clubs' nights through their own services, brokers and bridges into the league.

Each club plays a small progressive night on its own stack (the demo's bots on the club's
mosquitto and host service, the night kept by the tables, "Bid Euchre", section "Bid euchre
variations", "Progressive"); ``tricktable league send``'s sender publishes what the club's
journal and night file hold; the club broker's generated bridge carries it over TLS, with the
club's own credentials, to the league's broker; a league service stores it in PostgreSQL.
The league's standings must be each club's own, player by player, and the league's hand
records each club's journal, hand by hand. Clubs that keep a players database send their
players by league id (the club's id and the player's number there): the league's ratings
must be the club's own (its statistics' openskill ratings after the night), and a player the
club hides reaches the league as "Guest", never by name. A club whose league link is down all night (and
whose broker restarts meanwhile) catches up when the link returns, nothing lost or doubled,
and the same night sent again from the start is stored once.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from leaguekit import (
    ClubNight,
    LeagueBroker,
    league_standings,
    play_club_night,
    rows,
    running_service,
    start_club_broker,
)
from tricktable.league.club_feed import ClubFeed
from tricktable.league.consumer import LeagueService
from tricktable.league.store import LeagueStore
from tricktable.mqtt.broker import BrokerHandle
from waiting import eventually

NIGHT_TIMEOUT = 120  # a liveness bound for a two-table, two-game night under load


@pytest.fixture
def league_service(league_db: str, league_broker: LeagueBroker) -> Iterator[LeagueService]:
    with LeagueStore(league_db) as store, running_service(store, league_broker, "test") as service:
        yield service


def league_hands(dsn: str, club: str) -> dict[tuple[str, int], list[tuple[int, int]]]:
    """The league's hand records of a club: (table, game) -> (N/S, E/W) points per hand."""
    out: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for table, game, sides, deltas in rows(
            dsn, "SELECT table_id, game, sides, deltas FROM hands WHERE club = %s"
                 " ORDER BY table_id, game, hand", club):
        ns = sides.index([0, 2])
        out.setdefault((table, game), []).append((deltas[ns], deltas[1 - ns]))
    return out


def night_stored(dsn: str, club: str) -> bool:
    return bool(rows(dsn, "SELECT 1 FROM nights WHERE club = %s", club))


def all_in_league(night: ClubNight, dsn: str) -> bool:
    """The night is over and every message of it is stored and receipted."""
    return night_stored(dsn, night.club) and night.sender.feed.waiting() == 0 \
        and not night.sender.feed.pending()


def send_command(night: ClubNight, broker: BrokerHandle) -> list[str]:
    """``tricktable league send`` for the club's night, as a child process's argv."""
    return [sys.executable, "-c", "from tricktable.cli import main; main()", "league", "send",
            "--club", night.club, "--journal", str(night.demo.journal_path),
            "--night", str(night.demo.night_path), "--night-id", f"{night.club}-night",
            "--date", "2026-11-19", "--broker", broker.url, "--every", "0.2"]


def league_ratings(dsn: str, club: str) -> dict[str, tuple[float, float]]:
    """The league's ratings of a club's players over every game: id -> (mu, sigma) after the
    player's last night, rounded as the club's statistics give them."""
    return {player: (round(mu, 3), round(sigma, 3)) for player, mu, sigma in rows(
        dsn, "SELECT DISTINCT ON (player) player, mu, sigma FROM ratings"
             " WHERE season = '' AND club = %s ORDER BY player, date DESC, night DESC", club)}


def league_text(dsn: str, club: str) -> str:
    """Everything the league holds of a club, as text."""
    return "\n".join(str(row) for table in ("hands", "tallies", "nights", "players", "ratings")
                     for row in rows(dsn, f"SELECT * FROM {table} WHERE club = %s", club))


def check_league_against(night: ClubNight, dsn: str) -> None:
    """The league holds exactly the club's own results."""
    assert league_standings(dsn, night.club) == night.own_standings()
    own = {(table, game): hands for table, game, hands in night.own_hands() if hands}
    assert league_hands(dsn, night.club) == own


def test_two_clubs_nights_make_the_league_standings(
        tmp_path: Path, league_db: str, league_broker: LeagueBroker,
        league_service: LeagueService) -> None:
    clubs = {}
    hidden = {"ashby": ("Bob",), "brook": ()}  # ashby hides Bob; brook's Bob plays openly
    for seed, club in enumerate(("ashby", "brook"), 5):
        broker = start_club_broker(club, league_broker.club_url(club), league_broker.ca)
        clubs[club] = (broker, play_club_night(club, broker, tmp_path / club, seed,
                                               hidden=hidden[club]))
    try:
        for club, (_, night) in clubs.items():
            assert night.demo.wait(timeout=NIGHT_TIMEOUT), f"{club}'s night did not finish"
            eventually(lambda night=night: all_in_league(night, league_db),
                       f"{club}'s whole night in the league", timeout=60)
        for _, night in clubs.values():
            check_league_against(night, league_db)
            night.demo.stop()  # the club's host closes the night: its statistics rate it
            own = night.own_ratings()
            assert len(own) == 8
            eventually(lambda night=night, own=own: league_ratings(league_db, night.club) == own,
                       f"the league's ratings of {night.club} its own: {own}", timeout=30)
        with LeagueStore(league_db) as store:  # one table across both clubs
            table = store.standings(None)
        assert {r.club for r in table} == {"ashby", "brook"}
        assert len(table) == 16 and table == sorted(table, key=lambda r: (
            -r.total, -r.won, r.name.lower(), r.club, r.player))
        assert all(r.mu is not None and r.sigma is not None for r in table)

        ashby, brook = clubs["ashby"][1], clubs["brook"][1]
        assert {r.name for r in table if r.club == "ashby"} == {
            "Guest", "Ann", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"}
        assert rows(league_db, "SELECT name FROM players WHERE club = 'ashby' AND player = %s",
                    ashby.league_id("Bob")) == [("Guest",)]
        assert "Bob" not in league_text(league_db, "ashby")
        assert rows(league_db, "SELECT name FROM players WHERE club = 'brook' AND player = %s",
                    brook.league_id("Bob")) == [("Bob",)]
    finally:
        for broker, night in clubs.values():
            night.stop()
            broker.stop()


def test_a_club_offline_all_night_catches_up_with_nothing_lost_or_doubled(
        tmp_path: Path, league_db: str, league_broker: LeagueBroker,
        league_service: LeagueService) -> None:
    broker = start_club_broker("crane", league_broker.club_url("crane"), league_broker.ca)
    league_broker.handle.halt()  # the league is out of the club's reach all night
    night = play_club_night("crane", broker, tmp_path / "crane", seed=11)
    try:
        assert night.demo.wait(timeout=NIGHT_TIMEOUT), "crane's night did not finish"
        eventually(lambda: not night.sender.feed.pending(),
                   "everything of the night on the club's broker")
        broker.restart()  # the queue for the league is on the club broker's disk
        assert rows(league_db, "SELECT count(*) FROM hands")[0][0] == 0
        league_broker.handle.restart(0)
        eventually(lambda: all_in_league(night, league_db),
                   "the night in the league after the link came back", timeout=60)
        check_league_against(night, league_db)
        stored = rows(league_db, "SELECT count(*) FROM hands")[0][0]
        assert stored == sum(len(h) for _, _, h in night.own_hands())

        # `tricktable league send` started again sends the whole night again: stored once
        everything = len(ClubFeed("crane", night.journal, night.demo.night_path, "crane-night",
                                  "2026-11-19").pending())
        received = league_service.counts.received
        log = tmp_path / "send.log"
        with log.open("wb") as out:
            again = subprocess.Popen(send_command(night, broker), stdout=out,
                                     stderr=subprocess.STDOUT)
        try:
            eventually(lambda: league_service.counts.received >= received + everything,
                       f"the night sent again reaching the league (log: {log})")
            eventually(lambda: not league_service.busy(), "the league service done with it")
        finally:
            again.terminate()
            assert again.wait(30) == 0, log.read_text()
        check_league_against(night, league_db)
        assert rows(league_db, "SELECT count(*) FROM hands")[0][0] == stored
    finally:
        night.stop()
        broker.stop()


def test_what_the_league_broker_drops_is_sent_again_until_receipted(
        tmp_path: Path, league_db: str, league_broker: LeagueBroker) -> None:
    """With no service subscribed (mosquitto does not keep a shared subscription over its own
    restart; here the only instance has left), the league's broker drops the club's messages.
    The club's sender sends again what the league has not receipted, once it is there."""
    broker = start_club_broker("ashby", league_broker.club_url("ashby"), league_broker.ca)
    night = play_club_night("ashby", broker, tmp_path / "ashby", seed=3, resend_after=0.5)
    try:
        assert night.demo.wait(timeout=NIGHT_TIMEOUT), "ashby's night did not finish"
        eventually(lambda: not night.sender.feed.pending(), "the night sent once")
        assert night.sender.feed.waiting() > 0  # nobody at the league to receipt it
        with LeagueStore(league_db) as store, running_service(store, league_broker, "late"):
            eventually(lambda: all_in_league(night, league_db), "the night sent again, stored",
                       timeout=60)
            check_league_against(night, league_db)
    finally:
        night.stop()
        broker.stop()

"""The league's parts for tests and the bench, started for real: the league broker (mosquitto,
TLS, a user per club, the league's ACL), a club broker bridged to it by the config
``tricktable league bridge`` generates, league service instances (in this process or as
``tricktable league serve`` child processes), and reading the league's rows back.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
import psycopg
from tricktable.club import load_night, standings
from tricktable.club.journal_hands import hands_from_game
from tricktable.demo.runner import Demo, DemoConfig
from tricktable.engine.actions import action_from_json
from tricktable.league.bridge import bridge_config, league_acl
from tricktable.league.club_feed import ClubFeed
from tricktable.league.club_players import ClubPlayers
from tricktable.league.consumer import LeagueService
from tricktable.league.messages import (
    LeagueHand,
    LeagueMessage,
    encode,
    league_player_id,
    topic_for,
)
from tricktable.league.sender import Sender
from tricktable.league.store import LeagueStore
from tricktable.mqtt.broker import BrokerAuth, BrokerHandle, BrokerTLS, start_broker
from tricktable.mqtt.url import BrokerURL
from tricktable.players.db import ClubDB
from tricktable.players.roster import Players
from tricktable.serve.journal import Journal
from tricktable.stats.store import Stats

SERVICE_USER, SERVICE_PASSWORD = "league-service", "service-pw"
LEAGUE_BROKER_EXTRA = "max_inflight_messages 2000\nmax_queued_messages 0\n"


def club_password(club: str) -> str:
    return f"{club}-pw"


@dataclass
class LeagueBroker:
    handle: BrokerHandle
    ca: Path

    def service_url(self) -> str:
        return f"mqtts://{SERVICE_USER}:{SERVICE_PASSWORD}@{self.handle.host}:{self.handle.port}"

    def club_url(self, club: str) -> str:
        return f"mqtts://{club}:{club_password(club)}@{self.handle.host}:{self.handle.port}"


def start_league_broker(certificates: tuple[Path, Path, Path], clubs: tuple[str, ...],
                        port: int = 0, extra: str = "") -> LeagueBroker:
    """``extra``: more mosquitto configuration (the tests save sessions every second, so a
    broker stopped in a hurry under load still has the service's subscription)."""
    ca, cert, key = certificates
    users = {SERVICE_USER: SERVICE_PASSWORD, **{c: club_password(c) for c in clubs}}
    handle = start_broker("mosquitto", port=port, auth=BrokerAuth(users=users, acl=league_acl()),
                          tls=BrokerTLS(cert, key), extra=LEAGUE_BROKER_EXTRA + extra)
    return LeagueBroker(handle, ca)


def start_club_broker(club: str, league_url: str, ca: Path) -> BrokerHandle:
    """A club's own broker with the generated bridge to the league (plain MQTT on loopback for
    the club's tables; persistence on, as broker.py always sets it)."""
    return start_broker("mosquitto", extra=bridge_config(club, league_url, ca_file=ca,
                                                         retry_max=3) + "autosave_interval 1\n")


@contextmanager
def running_service(store: LeagueStore, broker: LeagueBroker, name: str) -> Iterator[LeagueService]:
    """A league service instance in this process, named ``name``, subscribed on the league's
    broker; stopped (leaving its group cleanly) afterwards."""
    service = LeagueService(store, BrokerURL.parse(broker.service_url()), name, str(broker.ca))
    service.start()
    try:
        assert service.subscribed.wait(30), f"league service {name!r} never subscribed"
        yield service
    finally:
        service.stop()


def serve_command(dsn: str, broker: LeagueBroker, name: str) -> list[str]:
    """``tricktable league serve`` for one instance, as a child process's argv."""
    return [sys.executable, "-c", "from tricktable.cli import main; main()", "league", "serve",
            "--db", dsn, "--broker", broker.service_url(), "--ca-file", str(broker.ca),
            "--name", name]


def start_instance(dsn: str, broker: LeagueBroker, name: str, log: Path) -> subprocess.Popen:
    out = log.open("ab")
    return subprocess.Popen(serve_command(dsn, broker, name), stdout=out,
                            stderr=subprocess.STDOUT)


def rows(dsn: str, sql: str, *params: object) -> list[tuple]:
    with psycopg.connect(dsn) as conn:
        return conn.execute(sql, params).fetchall()


def hand_count(dsn: str) -> int:
    return int(rows(dsn, "SELECT count(*) FROM hands")[0][0])


# --- a club's night, played and sent ----------------------------------------------------------

TABLES, ROUNDS, HANDS = 2, 2, 1  # a small night: two tables, two games, one hand to the bell


@dataclass
class ClubNight:
    """A club's night played by the demo's bots on the club's own broker and service, with
    ``tricktable league send``'s sender following its journal and night file."""

    club: str
    demo: Demo
    sender: Sender
    journal: Journal
    club_db: Path | None = None  # the club players database, when the club keeps one

    def stop(self) -> None:
        self.sender.stop()
        self.demo.stop()
        self.journal.close()
        if self.sender.feed.players is not None:
            self.sender.feed.players.close()

    def league_id(self, name: str) -> str:
        """How the league should know the player the club seats as ``name``: the club
        database's player number, or the name itself for a club without one."""
        if self.club_db is None:
            return name
        with ClubDB(self.club_db, readonly=True) as db:
            return league_player_id(self.club, Players(db).find(name).id)

    def own_standings(self) -> dict[str, tuple[int, int, int]]:
        """The club's own results: league player id -> (total, won, played)."""
        night = load_night(self.demo.night_path)
        assert night.finished
        return {self.league_id(s.name): (s.total, s.won, s.played)
                for s in standings(night.tallies())}

    def own_ratings(self) -> dict[str, tuple[float, float]]:
        """The club's own ratings after the night (its statistics, once the host closed
        the night): league player id -> (mu, sigma)."""
        assert self.club_db is not None
        with ClubDB(self.club_db, readonly=True) as db:
            stats = Stats(db)
            assert [night.closed for night in stats.nights()] == [True]
            return {league_player_id(self.club, player.id): (rated[-1]["mu"],
                                                             rated[-1]["sigma"])
                    for player in stats.players.all() if (rated := stats.ratings(player))}

    def own_hands(self) -> list[tuple[str, int, list[tuple[int, int]]]]:
        """Every game's scored hands, read from the club's journal: (table, game, hands)."""
        out = []
        for table in self.journal.tables():
            for record in self.journal.games(table):
                out.append((table, record.game, hands_from_game(
                    record.setup, [action_from_json(a) for a in record.actions])))
        return out


def play_club_night(club: str, broker: BrokerHandle, workdir: Path, seed: int,
                    date: str = "2026-11-19", resend_after: float = 2.0,
                    hidden: tuple[str, ...] | None = None) -> ClubNight:
    """Start the club's night (it plays itself) and its sender; wait for the night's end with
    ``night.demo.wait``. ``hidden`` given: the club keeps a players database (the host counts
    the night's statistics there, the sender names players by league id) in which these
    players are hidden before the night."""
    club_db = None
    if hidden is not None:
        club_db = workdir / "club.sqlite"
        workdir.mkdir(parents=True, exist_ok=True)
        with ClubDB(club_db) as db:
            for name in hidden:
                Players(db).add(name)
                Players(db).set_flags(name, hidden=True)
    demo = Demo(DemoConfig(tables=TABLES, night=True, rounds=ROUNDS, hands=HANDS, speed=0,
                           web_port=None, seed=seed, workdir=workdir, broker=broker.url,
                           club_db=club_db))
    demo.start()
    journal = Journal(demo.journal_path, readonly=True)
    players = ClubPlayers(club, ClubDB(club_db)) if club_db is not None else None
    sender = Sender(ClubFeed(club, journal, demo.night_path, f"{club}-night", date,
                             resend_after, players), BrokerURL.parse(broker.url), every=0.2)
    sender.start()
    return ClubNight(club, demo, sender, journal, club_db)


def league_standings(dsn: str, club: str) -> dict[str, tuple[int, int, int]]:
    """The league's standings of one club's players: player -> (total, won, played)."""
    with LeagueStore(dsn) as store:
        return {r.player: (r.total, r.won, r.played) for r in store.standings(None, club)}


def synthetic_hand(club: str, table: int, game: int, hand: int) -> LeagueHand:
    """A scored hand as a club sends it, made up (for streams of many hands)."""
    names = [f"{club}-p{(table * 4 + seat) % 40}" for seat in range(4)]
    return LeagueHand(club=club, journal="1", table=f"t{table}", game=game, hand=hand,
                      night=f"{club}-night", round=game, variant="bid-euchre", seats=names,
                      sides=[[0, 2], [1, 3]], deltas=[hand % 7 - 2, 2 - hand % 5],
                      scores=[hand, -hand], detail="made up", sent=time.time())


def publish(broker: BrokerHandle, messages: list[LeagueMessage]) -> None:
    """Publish league messages on a club broker at QoS 1, each acknowledged."""
    publish_raw(broker, [(topic_for(m), encode(m)) for m in messages])


def publish_raw(broker: BrokerHandle, messages: list[tuple[str, bytes]]) -> None:
    """Publish (topic, payload) pairs on a broker at QoS 1, each acknowledged."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.max_inflight_messages_set(200)
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        infos = [client.publish(topic, payload, qos=1) for topic, payload in messages]
        for info in infos:
            info.wait_for_publish(timeout=60)
    finally:
        client.disconnect()
        client.loop_stop()

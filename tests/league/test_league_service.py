"""The league service on real parts: PostgreSQL, the league's mosquitto, a bridged club broker.

A message is stored once however often it comes (its id is the table's unique key); several
instances share one subscription (``$share/league/...``) and an instance killed with SIGKILL
in the middle of a stream loses nothing: what it had not acknowledged after the commit is
handed to it again when it comes back under its name. Bad input is refused and counted, and
the service goes on.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from leaguekit import (
    LeagueBroker,
    hand_count,
    publish,
    publish_raw,
    rows,
    running_service,
    start_club_broker,
    start_instance,
    synthetic_hand,
)
from tricktable.league.consumer import LeagueService
from tricktable.league.messages import LeagueGame, LeagueMessage, TallyLine, encode, topic_for
from tricktable.league.store import LeagueStore
from tricktable.mqtt.broker import BrokerHandle
from tricktable.mqtt.client import configure_client
from tricktable.mqtt.url import BrokerURL
from waiting import eventually

STREAM = 1500  # hands in the stream an instance is killed in


@pytest.fixture
def club_broker(league_broker: LeagueBroker) -> Iterator[BrokerHandle]:
    broker = start_club_broker("ashby", league_broker.club_url("ashby"), league_broker.ca)
    yield broker
    broker.stop()


def test_a_message_stored_twice_is_one_row(league_db: str) -> None:
    hands = [synthetic_hand("ashby", 1, 1, n) for n in range(1, 6)]
    game = LeagueGame(club="ashby", night="n1", date="2026-11-19", round=1, lines=[
        TallyLine(player="Ann", table=1, seat="N", score=5, won=True),
        TallyLine(player="Bob", table=0, seat="bye", score=3, won=False, bye=True)])
    with LeagueStore(league_db) as store:
        assert store.store([*hands, game]) == 6
        assert store.store([*hands, game, hands[0]]) == 0
        assert store.counts() == {"hands": 5, "games": 1, "tallies": 2, "nights": 0}
        ann = store.standings(None)[0]
        assert (ann.player, ann.total, ann.won, ann.played) == ("Ann", 5, 1, 1)


def test_migrations_run_once_however_many_instances_start_together(league_db: str) -> None:
    stores: list[LeagueStore] = []
    threads = [threading.Thread(target=lambda: stores.append(LeagueStore(league_db)))
               for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert len(stores) == 3
        assert rows(league_db, "SELECT version FROM schema_version ORDER BY version") == [(1,), (2,)]
    finally:
        for store in stores:
            store.close()


def test_bad_messages_are_refused_and_the_service_goes_on(
        league_db: str, league_broker: LeagueBroker, club_broker: BrokerHandle) -> None:
    with LeagueStore(league_db) as store, running_service(store, league_broker, "bad") as service:
        publish_raw(club_broker, [
            ("league/v1/ashby/hand", b"{not json"),
            ("league/v1/ashby/hand",  # another club's hand on ashby's topic
             encode(synthetic_hand("brook", 1, 1, 1))),
            ("league/v1/ashby/hand", b'{"kind": "hand", "v": 2, "club": "ashby"}')])
        publish(club_broker, [synthetic_hand("ashby", 1, 1, 1)])
        eventually(lambda: hand_count(league_db) == 1, "the good hand stored")
        eventually(lambda: service.counts.refused == 3, "three messages refused")
        assert rows(league_db, "SELECT club FROM hands") == [("ashby",)]


def test_an_instance_killed_mid_stream_loses_nothing(
        tmp_path: Path, league_db: str, league_broker: LeagueBroker,
        club_broker: BrokerHandle) -> None:
    LeagueStore(league_db).close()  # the schema, before two instances race for it
    log = tmp_path / "serve.log"
    instances = {name: start_instance(league_db, league_broker, name, log) for name in "ab"}
    try:
        eventually(lambda: log.read_text(errors="replace").count("Ctrl-C stops it") == 2,
                   "both instances subscribed", timeout=60)
        stream = [synthetic_hand("ashby", t, 1, n) for t in range(1, 11)
                  for n in range(1, STREAM // 10 + 1)]
        sender = threading.Thread(target=publish, args=(club_broker, stream))
        sender.start()
        eventually(lambda: hand_count(league_db) >= STREAM // 10, "the stream flowing in")
        os.kill(instances["a"].pid, signal.SIGKILL)
        instances["a"].wait(10)
        instances["a"] = start_instance(league_db, league_broker, "a", log)  # back, same name
        sender.join(120)
        eventually(lambda: hand_count(league_db) == STREAM,
                   f"all {STREAM} hands stored (log: {log})", timeout=60)
        assert rows(league_db, "SELECT count(DISTINCT (table_id, hand)) FROM hands") == [
            (STREAM,)]
    finally:
        for process in instances.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def test_an_instance_stopped_cleanly_leaves_the_group_to_the_others(
        league_db: str, league_broker: LeagueBroker, club_broker: BrokerHandle) -> None:
    with LeagueStore(league_db) as store:
        url = BrokerURL.parse(league_broker.service_url())
        staying, leaving = (LeagueService(store, url, name, str(league_broker.ca))
                            for name in ("staying", "leaving"))
        for service in (staying, leaving):
            service.start()
            assert service.subscribed.wait(30)
        try:
            leaving.stop()
            publish(club_broker, [synthetic_hand("ashby", 1, 1, n) for n in range(1, 201)])
            # a member that stopped without leaving would hold half of these in its session
            eventually(lambda: hand_count(league_db) == 200, "every hand stored by the other")
            assert leaving.counts.received == 0
        finally:
            staying.stop()


def test_a_club_speaks_only_for_itself_on_the_league_broker(
        league_db: str, league_broker: LeagueBroker) -> None:
    """The league's ACL (``league.bridge.league_acl``): user ``ashby`` writes only under
    ``league/v1/ashby/``; what it publishes as another club never reaches the service
    (mosquitto drops it, and closes the connection)."""
    with LeagueStore(league_db) as store, running_service(store, league_broker, "acl") as service:
        for message in (synthetic_hand("brook", 1, 1, 1), synthetic_hand("ashby", 1, 1, 1)):
            publish_as_club(league_broker, "ashby", message)
        eventually(lambda: hand_count(league_db) == 1, "ashby's own hand stored")
        assert rows(league_db, "SELECT club FROM hands") == [("ashby",)]
        assert service.counts.received == 1  # brook's never reached the service


def publish_as_club(league_broker: LeagueBroker, club: str, message: LeagueMessage) -> None:
    """Publish straight to the league's broker as user ``club``, on a connection of its own."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    configure_client(client, BrokerURL.parse(league_broker.club_url(club)), str(league_broker.ca))
    client.connect(league_broker.handle.host, league_broker.handle.port)
    client.loop_start()
    try:
        eventually(client.is_connected, f"{club} connected to the league's broker")
        client.publish(topic_for(message), encode(message), qos=1).wait_for_publish(30)
    finally:
        client.disconnect()
        client.loop_stop()

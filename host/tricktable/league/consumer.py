"""``tricktable league serve``: league messages from the league's broker into PostgreSQL.

Each instance subscribes with MQTT v5 to the shared subscriptions
``$share/league/league/v1/+/hand`` (``game``, ``night``; ``messages.SHARED_SUBSCRIPTIONS``): the
broker hands each message to one instance of the group, so instances run side by side on
different machines and share the load. A message is acknowledged (PUBACK, paho's manual ack)
only after the transaction that stored it committed; until then the broker keeps it in the
instance's session. After the commit the instance also tells each club which of its ids are
stored (``LeagueReceipt`` on ``league/v1/{club}/receipt``, carried back by the club's bridge):
the club sends again what is not receipted, so a message a broker drops on the way (mosquitto
does not keep a shared subscription over its own restart, so what arrives before the
instances subscribe again has no subscriber) is sent again, never lost. The session is persistent (clean
start off, ``SESSION_EXPIRY`` seconds), so an instance that is killed and started again under
its ``name`` is handed again whatever it had not acknowledged. Storing is idempotent
(``LeagueStore.store``), so a message handed twice is stored once. Mosquitto goes on giving a
killed instance its share of the group's messages, queued in its session, until it is back:
run each instance under a supervisor that restarts it (docs/league.md). ``stop()`` leaves
cleanly instead: it unsubscribes, stores what was handed over, and ends the session.

Messages are stored in batches: the writer takes what has arrived, up to ``batch`` messages or
``linger`` seconds after the first, and writes them in one transaction. A message that is not
a league message is logged, counted and acknowledged (dropped): no input stops the service.
A database that fails is retried (the batch kept, nothing acknowledged) until it works again.

Ratings are derived (``LeagueStore.rerate``): once something new is stored, the instance's
rater thread (not the writer: storing never waits for it) rates every season again when
nothing new has been stored for ``RERATE_QUIET_S``, or at the latest ``RERATE_EVERY_S`` after
the first new row under a steady stream (instances take turns: ``rerate`` holds a database
lock). A rating that fails (the database away) is tried again at the next turn.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
import psycopg
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.subscribeoptions import SubscribeOptions

from tricktable.league.messages import (
    MAX_RECEIPT_IDS,
    SHARED_SUBSCRIPTIONS,
    LeagueMessage,
    LeagueReceipt,
    decode_league,
    encode,
    receipt_topic,
)
from tricktable.league.store import LeagueStore
from tricktable.mqtt.client import new_client, start_client, stop_client
from tricktable.mqtt.url import BrokerURL
from tricktable.protocol import ProtocolError

log = logging.getLogger("tricktable.league.serve")

SESSION_EXPIRY = 24 * 3600  # seconds the broker keeps a stopped instance's session and queue
RECEIVE_MAXIMUM = 2000  # unacknowledged messages the broker may have in flight to one instance
RECONNECT_MAX_S = 5  # the longest wait between attempts to reach the broker again
RETRY_S = 1.0
RERATE_QUIET_S = 1.0  # rate again once nothing new has been stored for this long ...
RERATE_EVERY_S = 60.0  # ... or at the latest this long after something new was
STOP_WAIT_S = 10.0  # at most, on stopping: for the broker's UNSUBACK, then to store what came
QUIET_S = 0.3  # stopping: what the broker had in flight has come when it is quiet this long  # wait before writing a failed batch again


@dataclass
class Counts:
    received: int = 0
    stored: int = 0  # new rows' messages (a duplicate is received, not stored)
    refused: int = 0
    batches: int = 0
    db_failures: int = 0
    rerated: int = 0


class LeagueService:
    """One league service instance (see the module docstring)."""

    def __init__(self, store: LeagueStore, broker: BrokerURL, name: str, ca_file: str | None = None,
                 batch: int = 500, linger: float = 0.05) -> None:
        self.store, self.name, self.batch, self.linger = store, name, batch, linger
        self.url = broker
        self.counts = Counts()
        self.subscribed = threading.Event()  # connected, and the broker took the subscription
        self.client = new_client(self.url, client_id=f"league-{name}", ca_file=ca_file,
                                 mqtt5=True, manual_ack=True, reconnect=(1, RECONNECT_MAX_S))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self.client.on_unsubscribe = lambda *_: self._unsubscribed.set()
        self._inbox: queue.Queue[tuple[int, LeagueMessage] | None] = queue.Queue()
        self._writer: threading.Thread | None = None
        self._unsubscribed = threading.Event()
        self._last_message = time.monotonic()
        self._rating_due = threading.Event()  # something new is stored since the last rerate
        self._last_stored = time.monotonic()
        self._stopping = threading.Event()
        self._rater: threading.Thread | None = None

    def start(self) -> None:
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = SESSION_EXPIRY
        properties.ReceiveMaximum = RECEIVE_MAXIMUM
        self._writer = threading.Thread(target=self._write, name="league-writer", daemon=True)
        self._writer.start()
        self._rater = threading.Thread(target=self._rate, name="league-rater", daemon=True)
        self._rater.start()
        start_client(self.client, self.url, background=True, clean_start=False,
                     properties=properties)

    def stop(self) -> None:
        """Leave the group cleanly: unsubscribe, store and acknowledge what was already handed
        over, then end the session (so the broker stops queueing for this name)."""
        if self.subscribed.is_set():
            self._unsubscribed.clear()
            self.client.unsubscribe(list(SHARED_SUBSCRIPTIONS))
            self._unsubscribed.wait(STOP_WAIT_S)
            give_up = time.monotonic() + STOP_WAIT_S
            while time.monotonic() < give_up and (self.busy() or self._quiet_for() < QUIET_S):
                time.sleep(0.05)
            ending = Properties(PacketTypes.DISCONNECT)
            ending.SessionExpiryInterval = 0
            stop_client(self.client, properties=ending)
        else:
            stop_client(self.client)
        self._inbox.put(None)
        if self._writer is not None:
            self._writer.join(10)
        self._stopping.set()
        if self._rater is not None:
            self._rater.join(30)

    def busy(self) -> bool:
        """Messages handed over and not yet stored and acknowledged."""
        return bool(self._inbox.unfinished_tasks)

    def _quiet_for(self) -> float:
        return time.monotonic() - self._last_message

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.error("the league broker refused instance %s: %s", self.name, reason)
            return
        client.subscribe([(topic, SubscribeOptions(qos=1)) for topic in SHARED_SUBSCRIPTIONS])

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any,
                      properties: Any) -> None:
        if any(reason.is_failure for reason in reasons):
            log.error("the league broker refused the subscription of instance %s: %s",
                      self.name, reasons)
            return
        self.subscribed.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.subscribed.clear()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        self.counts.received += 1
        self._last_message = time.monotonic()
        try:
            message = decode_league(msg.topic, msg.payload)
        except ProtocolError as exc:
            self.counts.refused += 1
            log.warning("refused a message on %s: %s", msg.topic, exc)
            client.ack(msg.mid, msg.qos)
            return
        self._inbox.put((msg.mid, message))

    def _write(self) -> None:
        while True:
            first = self._inbox.get()
            if first is None:
                self._inbox.task_done()
                return
            taken = [first]
            deadline = time.monotonic() + self.linger
            while len(taken) < self.batch:
                try:
                    item = self._inbox.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if item is None:
                    self._inbox.task_done()
                    self._inbox.put(None)
                    break
                taken.append(item)
            self._store(taken)
            for _ in taken:
                self._inbox.task_done()

    def _rate(self) -> None:
        """The rater thread (see the module docstring)."""
        while not self._stopping.is_set():
            if not self._rating_due.wait(RERATE_QUIET_S):
                continue
            due_since = time.monotonic()
            while not self._stopping.wait(RERATE_QUIET_S / 4):
                now = time.monotonic()
                if now - self._last_stored >= RERATE_QUIET_S \
                        or now - due_since >= RERATE_EVERY_S:
                    break
            else:
                return
            self._rating_due.clear()
            try:
                self.store.rerate()
                self.counts.rerated += 1
            except psycopg.Error as exc:  # the database is away: rate again later
                log.error("rating the league again failed (%s); trying again later", exc)
                self._rating_due.set()
            except Exception:  # a bug must not stop the service: said, and tried next time
                log.exception("rating the league again failed")

    def _store(self, taken: list[tuple[int, LeagueMessage]]) -> None:
        stored = self.counts.stored
        self._store_batch(taken)
        if self.counts.stored > stored:
            self._last_stored = time.monotonic()
            self._rating_due.set()
        self.counts.batches += 1
        self._receipts([m for _, m in taken])
        for mid, _ in taken:
            self.client.ack(mid, 1)

    def _store_batch(self, taken: list[tuple[int, LeagueMessage]]) -> None:
        while True:
            try:
                self.counts.stored += self.store.store([m for _, m in taken])
                break
            except (psycopg.DataError, psycopg.IntegrityError, psycopg.ProgrammingError):
                self._store_one_by_one(taken)  # a message the database refuses: find it
                break
            except psycopg.Error as exc:  # the database is away: keep the batch, try again
                self.counts.db_failures += 1
                log.error("storing %d league messages failed (%s); trying again", len(taken),
                          exc)
                time.sleep(RETRY_S)

    def _receipts(self, messages: list[LeagueMessage]) -> None:
        """Tell each club which of its messages are stored (or refused for good)."""
        by_club: dict[str, list[str]] = {}
        for message in messages:
            by_club.setdefault(message.club, []).append(message.id)
        for club, ids in by_club.items():
            for start in range(0, len(ids), MAX_RECEIPT_IDS):
                receipt = LeagueReceipt(club=club, ids=ids[start:start + MAX_RECEIPT_IDS])
                self.client.publish(receipt_topic(club), encode(receipt), qos=1)

    def _store_one_by_one(self, taken: list[tuple[int, LeagueMessage]]) -> None:
        """Store each message alone; refuse (log, count, drop) those the database refuses."""
        for _, message in taken:
            while True:
                try:
                    self.counts.stored += self.store.store([message])
                    break
                except (psycopg.DataError, psycopg.IntegrityError,
                        psycopg.ProgrammingError) as exc:
                    self.counts.refused += 1
                    log.warning("refused league message %s: %s", message.id, exc)
                    break
                except psycopg.Error as exc:
                    self.counts.db_failures += 1
                    log.error("storing league message %s failed (%s); trying again",
                              message.id, exc)
                    time.sleep(RETRY_S)

"""Test kit for the host: enrolled kits (sim.kit), raw MQTT boards and an observer, a bot,
and a service running in the test's own process (``Host``).

Boards here are plain paho clients publishing protocol v1 pad events, as the firmware does
(persistent session, QoS 1; the client id is made unique per test); the observer records everything the
service publishes. Nothing is mocked: a real broker, real SQLite, the real engine.
"""

from __future__ import annotations

import json
import random
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from tricktable.clubfile import Club, parse_club
from tricktable.deckkit import tags
from tricktable.deckkit.decks import Registry, deck_slots
from tricktable.engine import Engine
from tricktable.engine.actions import (
    Action,
    Bid,
    Call,
    Deal,
    Pass,
)
from tricktable.mqtt.client import no_delay
from tricktable.protocol import PadEvent, TableEvent, Topics, decode, encode
from tricktable.serve.journal import Journal, JournalError
from tricktable.serve.service import BrokerURL, Service
from tricktable.sim.kit import Kit
from waiting import eventually

CARD_DECK = 1
OTHER_DECK = 2
TOKEN_DECK = 100
SEATS = ("n", "e", "s", "w")
WAIT = 30.0  # a liveness bound: a loaded 2-core CI machine can be slow, never this slow
BID_EUCHRE_CARDS = [slot.name for slot in deck_slots("24")]  # 9 to ace, one copy


def _kits(registry: Registry) -> tuple[Kit, Kit]:
    """The table's kit (deck 1, tokens 100) and a kit of another table (deck 2, tokens 101)."""
    return (Kit.enroll(registry, 0, BID_EUCHRE_CARDS, CARD_DECK, TOKEN_DECK),
            Kit.enroll(registry, 1, BID_EUCHRE_CARDS, OTHER_DECK, TOKEN_DECK + 1))


KIT, OTHER_KIT = _kits(Registry(":memory:"))  # the UIDs are the same in every registry


def card_uid(name: str, other_deck: bool = False) -> bytes:
    return (OTHER_KIT if other_deck else KIT).card(name).uid


def token_uid(token: str) -> bytes:
    return KIT.tokens[token].uid


def tap_for(action: Action) -> bytes:
    """The tag a player taps to make ``action``."""
    return KIT.tag_for(action).uid


UNKNOWN_UID = bytes.fromhex("04deadbeef0001")


def make_registry(path: Path) -> Registry:
    """A registry file with both kits enrolled."""
    registry = Registry(path)
    _kits(registry)
    return registry


MEMBER_DECK = 90


def enroll_members(registry: Registry, names: list[str]) -> dict[str, bytes]:
    """A members deck (``MEMBER_DECK``) with these members, each with their own tag: name -> UID."""
    registry.create_deck(MEMBER_DECK, "members", "club members")
    registry.add_members(MEMBER_DECK, names)
    uids = {}
    for slot in registry.slots(MEMBER_DECK):
        uids[slot.label] = bytes([0x04, 0x4D, 0x45, 0x4D, 0x00, slot.copy, 0x80])
        registry.enroll(uids[slot.label], MEMBER_DECK, slot)
    return uids


PLAYERS = ["North", "East", "South", "West"]


def club_toml(prefix: str, tables: tuple[str, ...] = ("t1",), seed: int = 1,
              brightness: int | None = None) -> str:
    """A club file: Bid Euchre tables, boards ``{table}-n/e/s/w`` pad 0 -> seats 0..3."""
    lines = ["[club]", 'name = "test club"', f'prefix = "{prefix}"']
    for table in tables:
        lines += [f"[tables.{table}]", 'variant = "bid-euchre"',
                  "players = [" + ", ".join(f'"{p}"' for p in PLAYERS) + "]",
                  f"seed = {seed}", f"deck = {CARD_DECK}", f"token_decks = [{TOKEN_DECK}]",
                  *([f"brightness = {brightness}"] if brightness is not None else []),
                  f"[tables.{table}.pads]"]
        lines += [f'"{table}-{s}:0" = {i}' for i, s in enumerate(SEATS)]
    return "\n".join(lines) + "\n"


def make_club(prefix: str, tables: tuple[str, ...] = ("t1",), seed: int = 1,
              brightness: int | None = None) -> Club:
    return parse_club(tomllib.loads(club_toml(prefix, tables, seed, brightness)))


def new_shadow(seed: int = 1) -> Engine:
    """The engine a test plays alongside the service to choose legal actions and check it."""
    return Engine.new("bid-euchre", seed=seed, dealer=0, players=PLAYERS)


def bot_choice(engine: Engine, rng: random.Random) -> Action:
    """A legal action: deal by the engine, the first bidder bids, the rest pass, play at random."""
    legal = engine.legal_actions()
    deals = [a for a in legal if isinstance(a, Deal)]
    if deals:
        return deals[0]
    passes = [a for a in legal if isinstance(a, Pass)]
    if passes and engine.public_state()["bids"]:
        return passes[0]
    bids = [a for a in legal if isinstance(a, Bid) and f"BID:{a.bid}" in tags.TOKENS]
    if bids:
        return bids[0]
    return rng.choice([a for a in legal if not isinstance(a, Call)] or legal)


def mqtt_client(port: int, client_id: str, clean: bool = True,
                tls_ca: Path | None = None) -> mqtt.Client:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=clean, protocol=mqtt.MQTTv311)
    if tls_ca is not None:
        client.tls_set(ca_certs=str(tls_ca))
    client.max_inflight_messages_set(1000)
    client.reconnect_delay_set(min_delay=0.1, max_delay=1)
    client.on_socket_open = no_delay
    return client


class Observer:
    """Subscribes to everything under the prefix and keeps it, by topic, in arrival order."""

    def __init__(self, port: int, prefix: str, persistent: bool = False,
                 auth: tuple[str, str] | None = None, tls_ca: Path | None = None) -> None:
        self.topics = Topics(prefix)
        self.lock = threading.Condition()
        self.messages: list[tuple[str, bytes, bool]] = []
        self.client = mqtt_client(port, f"obs-{random.getrandbits(32):08x}", clean=not persistent,
                                  tls_ca=tls_ca)
        if auth:
            self.client.username_pw_set(*auth)
        subscribed = threading.Event()
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *a: subscribed.set()
        self.client.on_connect = lambda c, *a: c.subscribe(f"{prefix}/#", qos=1)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert subscribed.wait(WAIT), "observer could not subscribe"

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.messages.append((msg.topic, msg.payload, bool(msg.retain)))
            self.lock.notify_all()

    def wait_for(self, predicate: Any, start: int = 0, timeout: float = WAIT) -> tuple[int, str, bytes]:
        """The first message from index ``start`` for which ``predicate(topic, payload)``."""
        deadline = time.monotonic() + timeout
        with self.lock:
            index = start
            while True:
                while index < len(self.messages):
                    topic, payload, _ = self.messages[index]
                    if predicate(topic, payload):
                        return index, topic, payload
                    index += 1
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no matching message after index {start}")
                self.lock.wait(left)

    def mark(self) -> int:
        with self.lock:
            return len(self.messages)

    def verdict(self, table: str, start: int, board: str | None = None) -> tuple[int, TableEvent]:
        """The next accepted/refused/invalid event of ``table`` from index ``start`` (of
        ``board``'s plays only, when given: another reader's verdict may arrive after the mark)."""
        events = self.topics.events(table)

        def match(topic: str, payload: bytes) -> bool:
            if topic != events or b'"kind":"engine"' in payload or b'"kind":"control"' in payload:
                return False
            return board is None or decode(TableEvent, payload, 1 << 16).board == board

        index, _, payload = self.wait_for(match, start)
        return index + 1, decode(TableEvent, payload, 1 << 16)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class Board:
    """A table board as the firmware behaves: persistent session, QoS 1, seq per boot."""

    def __init__(self, port: int, prefix: str, board: str, boot: int = 1,
                 password: str | None = None, tls_ca: Path | None = None,
                 client_id: str | None = None) -> None:
        self.board, self.boot, self.seq = board, boot, 0
        self.topics = Topics(prefix)
        self.client = mqtt_client(port, client_id or f"{prefix}-{board}",  # unique per test
                                  clean=False, tls_ca=tls_ca)
        if password is not None:
            self.client.username_pw_set(board, password)
        self.delivered: set[int] = set()  # mids the broker acknowledged (PUBACK)
        self.client.on_publish = lambda c, u, mid, reason, props: self.delivered.add(mid)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def event(self, pad: int, uid: bytes, rec: bytes | None = None) -> PadEvent:
        self.seq += 1
        return PadEvent(board=self.board, boot=self.boot, seq=self.seq, t=self.seq * 10, pad=pad,
                        uid=uid.hex(), rec=None if rec is None else rec.hex())

    def send(self, event: PadEvent | bytes, topic: str | None = None) -> mqtt.MQTTMessageInfo:
        payload = event if isinstance(event, bytes) else encode(event)
        return self.client.publish(topic or self.topics.board_event(self.board), payload, qos=1)

    def wait_delivered(self, info: mqtt.MQTTMessageInfo, timeout: float = 15.0) -> None:
        """Wait for the broker's PUBACK, across a reconnect (paho keeps QoS 1 messages)."""
        eventually(lambda: info.mid in self.delivered,
                   f"{self.board}: message {info.mid} reaching the broker", timeout, every=0.01)

    def tap(self, uid: bytes, pad: int = 0) -> PadEvent:
        event = self.event(pad, uid)
        self.send(event)
        return event

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class Host:
    """A service in this process with its journal, boards and an observer on one broker."""

    def __init__(self, port: int, prefix: str, journal: Path, registry: Path,
                 club: Club | None = None) -> None:
        self.port, self.prefix, self.journal_path = port, prefix, journal
        self.club = club or make_club(prefix)
        self.registry = Registry(registry)
        self.observer = Observer(port, prefix)
        self._start_service()
        self.boards = [Board(port, prefix, f"t1-{s}") for s in SEATS]
        self.topics = self.observer.topics

    def _start_service(self, hold_s: float | None = None) -> None:
        """Start the service on the journal; ``hold_s``: how long it holds a kept play not yet
        in turn (serve.held), set before it connects, as the broker hands it the plays it kept
        for the host's session at once."""
        self.journal = Journal(self.journal_path)
        self.service = Service(self.club, self.journal, self.registry,
                               BrokerURL("127.0.0.1", self.port), client_id=f"host-{self.prefix}")
        if hold_s is not None:
            self.service.held.hold_s = hold_s
        self.service.start()
        assert self.service.connected.wait(10)

    def restart_service(self) -> None:
        """Stop the service and start it again on the same journal (the boards stay)."""
        self.service.stop()
        self.journal.close()
        self._start_service()

    def tap(self, seat: int, uid: bytes):
        """Tap a tag at a seat and return the verdict event."""
        mark = self.observer.mark()
        self.boards[seat].tap(uid)
        return self.observer.verdict("t1", mark)[1]

    def retained_state(self, actions: int) -> dict:
        """The table state as a new subscriber gets it (retained), once it counts ``actions``."""
        return retained_state(self.port, self.prefix, actions)

    def close(self) -> None:
        for board in self.boards:
            board.close()
        self.observer.close()
        self.service.stop()
        self.journal.close()
        self.registry.close()


def play_to(host: Host, shadow, rng: random.Random, stop) -> None:
    """Play bot actions as taps until ``stop(shadow)``; every verdict must be an acceptance."""
    while not stop(shadow):
        action = bot_choice(shadow, rng)
        assert shadow.apply(action).ok
        verdict = host.tap(action.seat, tap_for(action))
        assert (verdict.kind, verdict.seat, verdict.action) == ("accepted", action.seat,
                                                                action.to_json()), verdict


class ResendingBoard(Board):
    """A board with the firmware's outbox: each event is sent again every ``resend_s`` until
    the host acknowledges it (``Ack`` on the board's ack topic), in order; it subscribes to
    its acks again on every connection (a broker restarted under it)."""

    def __init__(self, port: int, prefix: str, board: str, resend_s: float = 0.5,
                 boot: int = 1, client_id: str | None = None, password: str | None = None,
                 tls_ca: Path | None = None) -> None:
        super().__init__(port, prefix, board, boot, password=password, tls_ca=tls_ca,
                         client_id=client_id)
        self.unacked: dict[int, PadEvent] = {}
        self._lock = threading.Lock()
        subscribed = threading.Event()
        ack = self.topics.ack(board)
        self.client.on_subscribe = lambda *a: subscribed.set()
        self.client.on_connect = lambda c, *a: c.subscribe(ack, qos=1)
        self.client.on_message = self._on_ack
        self.client.subscribe(ack, qos=1)
        assert subscribed.wait(WAIT), f"{board} could not subscribe to its acks"
        self._stop = threading.Event()
        self._resender = threading.Thread(target=self._resend, args=(resend_s,), daemon=True)
        self._resender.start()

    def _on_ack(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        ack = json.loads(msg.payload)
        if ack.get("boot") == self.boot:
            with self._lock:
                self.unacked.pop(ack.get("seq"), None)

    def send(self, event: PadEvent | bytes, topic: str | None = None) -> mqtt.MQTTMessageInfo:
        if isinstance(event, PadEvent):
            with self._lock:
                self.unacked[event.seq] = event
        return super().send(event, topic)

    def _resend(self, every: float) -> None:
        while not self._stop.wait(every):
            with self._lock:
                due = [self.unacked[seq] for seq in sorted(self.unacked)]
            for event in due:
                super().send(event)

    def close(self) -> None:
        self._stop.set()
        self._resender.join(5)
        super().close()


def retained_state(port: int, prefix: str, actions: int, table: str = "t1") -> dict:
    """The table state a newcomer sees once the host has published its ``actions``-th action.

    The verdict of the last tap goes out on the event stream just before the retained state,
    so a newcomer may first be handed the state one action earlier; wait for the one that
    counts every action.
    """
    late = Observer(port, prefix)

    def counts_every_action(topic: str, payload: bytes) -> bool:
        return topic == late.topics.state(table) and json.loads(payload)["actions"] == actions

    try:
        return json.loads(late.wait_for(counts_every_action)[2])
    finally:
        late.close()


def last_action(journal: Path, table: str) -> dict[str, Any] | None:
    """The last action of ``table``'s current game in the host's journal (None: none yet, or
    no journal yet), read as another process reads it while the host writes."""
    try:
        with Journal(journal, readonly=True) as opened:
            games = opened.games(table)
    except JournalError:
        return None
    return games[-1].actions[-1] if games and games[-1].actions else None

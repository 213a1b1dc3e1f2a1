"""The host service: MQTT in, journal, table sessions, MQTT out (``tricktable serve``).

For each pad event: check the topic and payload (size, schema, board seated), store it in
the journal, acknowledge it to the board, apply it to the table session, then publish the
seat feedback, the event stream and (when it changed) the retained table state and display.
A second copy of an event (same board, boot, seq) is acknowledged again and not applied.
Control commands are journaled and applied the same way. At start every table is rebuilt by
replaying its journal, so a restarted host carries on mid-hand.

paho-mqtt 2.x, QoS 1, a persistent session (fixed client id, clean session off) and
reconnect with backoff. In-process API for the web page, the demo and tests:
``listen(callback)`` for every message the service publishes, ``state(table)`` and
``control(table, Control)`` (docs/operations.md).

Imports journal, table, protocol, clubfile, decks and mqtturl (broker URL and TLS setup;
``BrokerURL`` and ``ServiceError`` are re-exported from here for callers).
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from tricktable.clubfile import Club
from tricktable.decks import Registry
from tricktable.journal import Entry, Journal
from tricktable.mqtturl import BrokerConfigError, BrokerURL, configure_client
from tricktable.protocol import (
    MAX_BOARD_MESSAGE,
    MAX_CONTROL_MESSAGE,
    Ack,
    BoardConfig,
    BoardStatus,
    Control,
    Feedback,
    HostStatus,
    MessageTooLarge,
    PadEvent,
    PadSeat,
    ProtocolError,
    TableEvent,
    Topics,
    decode,
    encode,
)
from tricktable.table import REFUSED_FEEDBACK, Result, TableSession

log = logging.getLogger("tricktable.service")

Listener = Callable[[str, bytes], None]  # (topic, payload) of every message the service publishes


def no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    """Turn Nagle off on the client's socket: our messages are small and latency matters."""
    if isinstance(sock, socket.socket) and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _code(error: ProtocolError) -> str:
    return "too_large" if isinstance(error, MessageTooLarge) else "malformed"


ServiceError = BrokerConfigError  # the service cannot start as configured (broker URL, CA file)


class Service:
    """The running host: one MQTT client, one journal, one session per table of the club."""

    def __init__(self, club: Club, journal: Journal, registry: Registry | None,
                 broker: BrokerURL, *, client_id: str = "tricktable-host",
                 ca_file: str | None = None) -> None:
        self.club, self.journal, self.registry = club, journal, registry
        self.topics = Topics(club.prefix)
        self.broker = broker
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._online: dict[str, bool] = {}
        self._displays: dict[str, bytes] = {}  # last display payload per table
        self.connected = threading.Event()
        self._stopping = False
        self.status = HostStatus(online=True)  # what the status topic says while connected
        self.tables: dict[str, TableSession] = {}
        self._rebuild()
        self.client = self._make_client(client_id, ca_file)

    # --- start, stop -----------------------------------------------------------------

    def _make_client(self, client_id: str, ca_file: str | None) -> mqtt.Client:
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                             clean_session=False, protocol=mqtt.MQTTv311)
        configure_client(client, self.broker, ca_file)
        client.will_set(self.topics.host_status(), encode(HostStatus(online=False)), qos=1,
                        retain=True)
        client.max_inflight_messages_set(1000)
        client.max_queued_messages_set(0)
        client.reconnect_delay_set(min_delay=1, max_delay=10)
        client.on_socket_open = no_delay
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        return client

    def start(self) -> None:
        """Connect (retrying in the background until the broker answers) and serve."""
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=30)
        self.client.loop_start()

    def stop(self) -> None:
        """Disconnect cleanly; the journal stays open (the caller owns it)."""
        self._stopping = True
        if self.connected.is_set():
            said = self.client.publish(self.topics.host_status(),
                                       encode(HostStatus(online=False)), qos=1, retain=True)
            said.wait_for_publish(2.0)
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.error("broker refused the connection: %s", reason)
            return
        client.subscribe([(topic, 1) for topic in self.topics.host_subscriptions()])
        with self._lock:
            self._publish(self.topics.host_status(), encode(self.status), retain=True)
            for table in self.tables.values():
                self._publish_config(table)
                self._publish_table(table, force=True)
        self.connected.set()
        log.info("connected to %s:%s", self.broker.host, self.broker.port)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected.clear()
        if not self._stopping:
            log.warning("disconnected from the broker (%s); reconnecting", reason)

    # --- rebuild from the journal ------------------------------------------------------

    def _rebuild(self) -> None:
        for cfg in self.club.tables.values():
            setups = {g.game: g.setup for g in self.journal.games(cfg.id)}
            session = TableSession(cfg, self.registry, setups)
            started = session.start_game()
            if not started.ok:
                log.error("table %s: %s", cfg.id, started.reason)
            self._record(session, 0, started)
            self.tables[cfg.id] = session
        for entry in self.journal.entries():
            session = self.tables.get(entry.table or "")
            if session is None:
                log.warning("journal entry %d is for table %r, not in the club file: skipped",
                            entry.id, entry.table)
                continue
            self._record(session, entry.id, self._replay(session, entry))

    @staticmethod
    def _replay(session: TableSession, entry: Entry) -> Result:
        if entry.kind == "pad":
            event = decode(PadEvent, entry.payload)
            return session.on_pad(event.board, event.pad, event.uid_bytes, event.rec_bytes)
        return session.on_control(decode(Control, entry.payload, MAX_CONTROL_MESSAGE))

    def _record(self, session: TableSession, entry_id: int, result: Result) -> None:
        """Write what applying did (idempotent: replays write the same rows)."""
        if result.game_started is not None:
            number, setup = result.game_started
            self.journal.record_game(session.config.id, number, entry_id, setup)
        if result.steps:
            self.journal.record_actions(session.config.id, session.game, entry_id, result.steps)

    # --- incoming --------------------------------------------------------------------

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            scope, name, leaf = self.topics.parse(msg.topic)
        except ProtocolError:
            return  # not ours (our subscriptions only match ours)
        with self._lock:
            if scope == "board" and leaf == "event":
                self._pad_event(name, msg.topic, msg.payload)
            elif scope == "board" and leaf == "status":
                self._board_status(name, msg.payload)
            elif scope == "table" and leaf == "control":
                self._control(name, msg.topic, msg.payload)

    def _pad_event(self, board: str, topic: str, payload: bytes) -> None:
        cfg = self.club.table_of_board(board)
        table = cfg.id if cfg else None
        try:
            event = decode(PadEvent, payload, MAX_BOARD_MESSAGE)
        except ProtocolError as exc:
            self._invalid(table, topic, payload, _code(exc), str(exc), board)
            return
        if event.board != board:
            self._invalid(table, topic, payload, "board_mismatch",
                          f"event names board {event.board!r} but came on {board!r}'s topic", board)
            return
        if cfg is None:
            # recorded, acknowledged (the board may stop resending) and refused: red at the pad
            self._invalid(None, topic, payload, "unseated_board",
                          f"board {board} is not seated at any table of {self.club.name}", board,
                          event.pad)
            self._publish(self.topics.ack(board), encode(Ack(boot=event.boot, seq=event.seq)))
            self._publish(self.topics.feedback(board),
                          encode(Feedback(pad=event.pad, **REFUSED_FEEDBACK)))
            return
        entry = self.journal.append_pad(cfg.id, event, topic, payload)
        self._publish(self.topics.ack(board), encode(Ack(boot=event.boot, seq=event.seq)))
        if entry is None:
            return  # a second copy: acknowledged again, not applied again
        session = self.tables[cfg.id]
        result = session.on_pad(board, event.pad, event.uid_bytes, event.rec_bytes)
        self._record(session, entry.id, result)
        self._announce(session, result, board=board, pad=event.pad)

    def _control(self, table: str, topic: str, payload: bytes) -> None:
        try:
            control = decode(Control, payload, MAX_CONTROL_MESSAGE)
        except ProtocolError as exc:
            self._invalid(table if table in self.tables else None, topic, payload, _code(exc),
                          str(exc))
            return
        self._apply_control(table, control, topic, payload)

    def _apply_control(self, table: str, control: Control, topic: str, payload: bytes) -> Result | None:
        session = self.tables.get(table)
        if session is None:
            self._invalid(None, topic, payload, "unknown_table",
                          f"no table {table!r} in the club file", control_id=control.id)
            return None
        entry = self.journal.append_control(table, control, topic, payload)
        if entry is None:
            return None  # the same command (same id) again
        result = session.on_control(control)
        self._record(session, entry.id, result)
        self._announce(session, result, control=control)
        return result

    def _board_status(self, board: str, payload: bytes) -> None:
        if not payload:
            return  # a cleared retained status
        try:
            status = decode(BoardStatus, payload, MAX_BOARD_MESSAGE)
        except ProtocolError as exc:
            log.warning("board %s: %s", board, exc)
            return
        if self._online.get(board) == status.online:
            return
        self._online[board] = status.online
        cfg = self.club.table_of_board(board)
        if cfg is not None:
            self._publish_table(self.tables[cfg.id])

    # --- outgoing --------------------------------------------------------------------

    def _publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain)
        for listener in list(self._listeners):
            try:
                listener(topic, payload)
            except Exception:  # a broken listener must not stop the tables
                log.exception("listener failed on %s", topic)

    def _invalid(self, table: str | None, topic: str, payload: bytes, code: str, reason: str,
                 board: str | None = None, pad: int | None = None,
                 control_id: str | None = None) -> None:
        self.journal.append_invalid(table, topic, payload, f"{code}: {reason}")
        event = TableEvent(table=table or "-", kind="invalid", board=board, pad=pad, code=code,
                           reason=reason, id=control_id)
        where = self.topics.events(table) if table else self.topics.host_events()
        self._publish(where, encode(event))

    def _announce(self, session: TableSession, result: Result, *, board: str | None = None,
                  pad: int | None = None, control: Control | None = None) -> None:
        table = session.config.id
        events = self.topics.events(table)
        for target, feedback in result.feedback:
            self._publish(self.topics.feedback(target), encode(feedback))
        if control is None:  # a tap: its verdict
            self._publish(events, encode(TableEvent(
                table=table, kind="accepted" if result.ok else "refused", seat=result.seat,
                board=board, pad=pad, code=result.code, reason=result.reason,
                action=result.action)))
        else:  # a command: its answer, and an entered action is also an accepted action
            self._publish(events, encode(TableEvent(
                table=table, kind="control", code=result.code, reason=result.reason,
                id=control.id, action=result.action, seat=result.seat)))
            if control.cmd == "action" and result.ok:
                self._publish(events, encode(TableEvent(
                    table=table, kind="accepted", seat=result.seat, action=result.action)))
        for event in result.events:
            self._publish(events, encode(TableEvent(table=table, kind="engine", event=event,
                                                    seat=event.get("seat"))))
        if result.changed:
            self._publish_table(session)

    def _publish_table(self, session: TableSession, force: bool = False) -> None:
        """The retained state, and the display when its text changed (or ``force``)."""
        table = session.config.id
        state = session.state()
        state["boards_online"] = [b for b in session.config.boards if self._online.get(b)]
        self._publish(self.topics.state(table), encode(state), retain=True)
        display = encode(session.display())
        if force or self._displays.get(table) != display:
            self._displays[table] = display
            self._publish(self.topics.display(table), display, retain=True)

    def _publish_config(self, session: TableSession) -> None:
        cfg = session.config
        for board in cfg.boards:
            pads = [PadSeat(pad=p, seat=s) for (b, p), s in sorted(cfg.pads.items()) if b == board]
            message = BoardConfig(table=cfg.id, pads=pads, display=board in cfg.displays)
            self._publish(self.topics.config(board), encode(message), retain=True)

    # --- in-process API --------------------------------------------------------------

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(topic, payload)`` for every message the service publishes, from
        the service's thread; returns a function that stops listening."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def state(self, table: str) -> dict[str, Any]:
        """The table's current state, as published (KeyError for an unknown table)."""
        with self._lock:
            session = self.tables[table]
            state = session.state()
            state["boards_online"] = [b for b in session.config.boards if self._online.get(b)]
            return state

    def control(self, table: str, control: Control) -> Result | None:
        """Apply a control command as if it arrived over MQTT (journaled the same way).

        None when the table is unknown or the command's id was already journaled."""
        with self._lock:
            return self._apply_control(table, control, self.topics.control(table), encode(control))

"""The host service: MQTT in, journal, table sessions, MQTT out (``tricktable serve``).

For each pad event: check the topic and payload (size, schema, board seated), store it in
the journal, acknowledge it to the board, apply it to the table session, then publish the
seat feedback, the event stream and (when it changed) the retained table state and display.
A second copy of an event (same board, boot, seq) is acknowledged again and not applied.
A kept event (``PadEvent.kept``: its reader could not deliver it at once) that is not yet in
turn is held instead, unstored and unacknowledged, until the plays placed before it arrive
(``serve.held``; docs/phones.md): so the acknowledgements follow the order actions are applied.
Control commands are journaled and applied the same way. At start every table is rebuilt by
replaying its journal, so a restarted host carries on mid-hand.

paho-mqtt 2.x, QoS 1, a persistent session (fixed client id, clean session off) and
reconnect with backoff. In-process API for the web page, the demo and tests:
``listen(callback)`` for every message the service publishes, ``state(table)`` and
``control(table, Control)`` (docs/operations.md); ``show(table, Display)`` puts a sign on a
table's display instead of its game and ``light(board, Feedback)`` sets a seat light (a club
night's bell and moves, ``club.live``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import paho.mqtt.client as mqtt

from tricktable.clubfile import Club, TableConfig
from tricktable.deckkit.decks import Registry
from tricktable.mqtt.client import Will, new_client, start_client, stop_client
from tricktable.mqtt.url import BrokerConfigError, BrokerURL
from tricktable.protocol import (
    KEPT_HOLD_S,
    MAX_BOARD_MESSAGE,
    MAX_CONTROL_MESSAGE,
    MAX_STATUS_MESSAGE,
    Ack,
    BoardConfig,
    BoardStatus,
    Control,
    Display,
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
from tricktable.serve.health import POISON_AFTER, REFUSED_PER_MINUTE, STORAGE_DISPLAY, Health
from tricktable.serve.held import WAITING, Held, HeldPlays, waited_reason
from tricktable.serve.journal import Entry, Journal, StorageError, digest
from tricktable.serve.room import in_the_room
from tricktable.serve.table import REFUSED_FEEDBACK, Result, TableSession

log = logging.getLogger("tricktable.serve.service")

Listener = Callable[[str, bytes], None]  # (topic, payload) of every message the service publishes


WATCH_EVERY_S = 2.0  # how often failing storage is probed and flooding boards reconsidered


class _HeldBack(Exception):
    """A kept play held back: its journal entry is rolled back; its refusal changed nothing."""


def _code(error: ProtocolError) -> str:
    return "too_large" if isinstance(error, MessageTooLarge) else "malformed"


def _pad_key(payload: bytes) -> PadEvent | None:
    """The event, when the payload is a readable pad event (to acknowledge it by its key)."""
    try:
        return decode(PadEvent, payload, MAX_BOARD_MESSAGE)
    except ProtocolError:
        return None


def _message_key(payload: bytes) -> str:
    """How a log line names a message: its pad event key, else the start of its digest."""
    event = _pad_key(payload)
    if event is not None:
        return f"board {event.board} boot {event.boot} seq {event.seq}"
    return f"{len(payload)} bytes, sha256 {digest('', payload)[:12]}"


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
        self._signs: dict[str, Display] = {}  # what a table shows instead of its game (show())
        self._rooms: dict[str, dict[str, Any]] = {}  # the night's word on a table (overlay())
        self.connected = threading.Event()  # connected and subscribed (the broker's SUBACK)
        self._subscribe_mid: int | None = None
        self.refusal = ""  # why the broker last refused us ("Not authorized" ...)
        self._answered = threading.Event()  # the broker accepted or refused us
        self._ever_connected = False
        self._stopping = False
        self.health = Health()
        # what replays could not write again while storage failed: (table, entry) -> (game, result)
        self._unrecorded: dict[tuple[str, int], tuple[int, Result]] = {}
        self._fault_attempts: dict[str, int] = {}  # when the journal cannot count them
        self._stop_watch = threading.Event()
        self.tables: dict[str, TableSession] = {}
        self.held = HeldPlays(KEPT_HOLD_S)  # kept plays not yet in turn (serve.held)
        self._handlers: dict[str, Listener] = {}  # topics served beside the tables (handle())
        if journal.unwritable:
            self.health.storage_failed(journal.unwritable)
        self._rebuild()
        self.client = self._make_client(client_id, ca_file)

    @property
    def status(self) -> HostStatus:
        """What the service's status topic says while it is connected."""
        return msgspec.structs.replace(self.health.status(), club=self.club.name[:100])

    # --- start, stop -----------------------------------------------------------------

    def _make_client(self, client_id: str, ca_file: str | None) -> mqtt.Client:
        client = new_client(self.broker, client_id=client_id, ca_file=ca_file, persistent=True,
                            will=Will(self.topics.host_status(),
                                      encode(HostStatus(online=False))),
                            reconnect=(1, 10), max_inflight=1000, max_queued=0, nodelay=True)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_subscribe = self._on_subscribe
        return client

    def start(self) -> None:
        """Connect (retrying in the background until the broker answers) and serve."""
        start_client(self.client, self.broker, keepalive=30, background=True)
        threading.Thread(target=self._watch, name="tricktable-health", daemon=True).start()

    def stop(self) -> None:
        """Disconnect cleanly; the journal stays open (the caller owns it)."""
        self._stopping = True
        self._stop_watch.set()
        with self._lock:
            for held in self.held.all():
                if held.timer is not None:  # a held play is forgotten: its reader sends it again
                    held.timer.cancel()
        if self.connected.is_set():
            said = self.client.publish(self.topics.host_status(),
                                       encode(HostStatus(online=False)), qos=1, retain=True)
            try:
                said.wait_for_publish(2.0)
            except (ValueError, RuntimeError) as refused:  # paho: queue full or a mid in use
                log.warning("the host's offline status was not sent on stop: %s", refused)
        stop_client(self.client)

    def wait_connected(self, timeout: float) -> None:
        """Wait for the first connection; ServiceError saying why if there is none."""
        self._answered.wait(timeout)
        if self.connected.is_set():
            return
        where = f"{self.broker.host}:{self.broker.port}"
        if self.refusal:
            raise ServiceError(f"the MQTT broker at {where} refused the host: {self.refusal} "
                               f"(check the user name and password)")
        tls = " (mqtts: is the CA file the one that signed the broker's certificate?)" \
            if self.broker.tls else ""
        raise ServiceError(f"no MQTT broker answered at {where} within {timeout:g} s{tls}")

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        log.debug("cannot reach the broker at %s:%s yet", self.broker.host, self.broker.port)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            if self._ever_connected and str(reason) != self.refusal:  # once, not every retry
                log.error("the broker refused the connection: %s", reason)
            self.refusal = str(reason)
            self._answered.set()  # at start, wait_connected says it
            return
        self.refusal = ""
        self._ever_connected = True
        _, self._subscribe_mid = client.subscribe(
            [(topic, 1) for topic in [*self.topics.host_subscriptions(), *self._handlers]])
        with self._lock:
            self._publish(self.topics.host_status(), encode(self.status), retain=True)
            for table in self.tables.values():
                self._publish_config(table)
                self._publish_table(table, force=True)
        log.info("connected to %s:%s", self.broker.host, self.broker.port)

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any,
                      properties: Any) -> None:
        """Connected means subscribed: a message published after ``connected`` is set
        reaches the service (before the SUBACK, the broker may drop it)."""
        if mid == self._subscribe_mid:
            self.connected.set()
            self._answered.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        was_connected = self.connected.is_set()
        self.connected.clear()
        if was_connected and not self._stopping:
            log.warning("disconnected from the broker (%s); reconnecting", reason)

    # --- rebuild from the journal ------------------------------------------------------

    def _rebuild(self) -> None:
        for cfg in self.club.tables.values():
            self.tables[cfg.id] = self._replayed(cfg)
        for table in self.journal.tables():
            if table not in self.club.tables:
                log.warning("the journal has entries for table %r, not in the club file: skipped",
                            table)

    def _replayed(self, cfg: TableConfig) -> TableSession:
        """The table's session rebuilt from its journal entries (a failing entry is skipped)."""
        setups = {g.game: g.setup for g in self.journal.games(cfg.id)}
        session = TableSession(cfg, self.registry, setups)
        started = session.start_game()
        if not started.ok:
            log.error("table %s: %s", cfg.id, started.reason)
        self._rerecord(session, 0, started)
        for entry in self.journal.entries(cfg.id):
            try:
                result = self._replay(session, entry)
            except Exception as exc:  # a bug met again on replay must not stop the service
                log.exception("table %s: journal entry %d fails to replay; skipped", cfg.id,
                              entry.id)
                self.health.fault(f"replay of entry {entry.id} of {cfg.id}", exc)
                continue
            self._rerecord(session, entry.id, result)
        return session

    def _rerecord(self, session: TableSession, entry_id: int, result: Result) -> None:
        """Write again what a replayed entry did (the rows are normally there already); on
        storage that cannot be written, keep them to write when it can."""
        try:
            self._record(session, entry_id, result)
        except StorageError:
            self._unrecorded[(session.config.id, entry_id)] = (session.game, result)

    @staticmethod
    def _replay(session: TableSession, entry: Entry) -> Result:
        if entry.kind == "pad":
            event = decode(PadEvent, entry.payload)
            return session.on_pad(event.board, event.pad, event.uid_bytes, event.rec_bytes)
        return session.on_control(decode(Control, entry.payload, MAX_CONTROL_MESSAGE))

    def _record(self, session: TableSession, entry_id: int, result: Result,
                game: int | None = None) -> None:
        """Write what applying did (idempotent: replays write the same rows)."""
        table = session.config.id
        if result.game_started is not None:
            number, setup = result.game_started
            self.journal.record_game(table, number, entry_id, setup)
        if result.steps:
            self.journal.record_actions(table, session.game if game is None else game, entry_id,
                                        result.steps)

    # --- incoming --------------------------------------------------------------------

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        """Handle one message; whatever goes wrong, the service goes on with the next."""
        try:
            scope, name, leaf = self.topics.parse(msg.topic)
        except ProtocolError:
            return  # not ours (our subscriptions only match ours)
        with self._lock:
            try:
                if scope == "board" and leaf == "event":
                    self._pad_event(name, msg.topic, msg.payload)
                elif scope == "board" and leaf == "status":
                    self._board_status(name, msg.payload)
                elif scope == "table" and leaf == "control":
                    self._control(name, msg.topic, msg.payload)
            except StorageError as exc:
                self._storage_failed(exc)
            except Exception as exc:
                self._handling_failed(scope, name, msg.topic, msg.payload, exc)

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
            self._ack(board, event)
            self._publish(self.topics.feedback(board),
                          encode(Feedback(pad=event.pad, **REFUSED_FEEDBACK)))
            return
        if self._judge(cfg.id, event, topic, payload):
            self._release(cfg.id)

    def _judge(self, table: str, event: PadEvent, topic: str, payload: bytes) -> bool:
        """Journal, apply, acknowledge and announce a pad event of ``table`` (or hold it back,
        ``serve.held``); True when it changed the table."""
        session = self.tables[table]
        if self._refused_for_good(topic, payload):
            self._ack(event.board, event)  # its ack was on its way when the board sent it again
            return False
        try:
            with self._applying(session) as applying:
                entry = self.journal.append_pad(table, event, topic, payload)
                if entry is not None:
                    applying.set()
                    result = session.on_pad(event.board, event.pad, event.uid_bytes,
                                            event.rec_bytes)
                    if event.kept and result.code in WAITING:
                        self._hold(table, event, topic, payload, result)
                    self._record(session, entry.id, result)
        except _HeldBack:
            return False  # nothing stored, nothing acknowledged: the reader keeps it
        self.held.drop(table, event.key)
        self._ack(event.board, event)
        if entry is None:  # a second copy: acknowledged again, not applied again
            return False
        self._announce(session, result, board=event.board, pad=event.pad)
        return result.changed

    def _hold(self, table: str, event: PadEvent, topic: str, payload: bytes,
              result: Result) -> None:
        """Hold a kept play refused for a reason an earlier play could lift (raising
        ``_HeldBack``), unless it has waited its time: then its refusal says so."""
        new = self.held.get(table, event.key) is None
        held = self.held.hold(table, event, topic, payload, time.monotonic())
        if held is None:
            result.reason = waited_reason(result.reason, self.held.hold_s)
            return
        if new:
            held.timer = threading.Timer(self.held.hold_s + 0.05, self._waited, (held,))
            held.timer.daemon = True
            held.timer.start()
        raise _HeldBack

    def _release(self, table: str) -> None:
        """After an action applied at ``table``: try its held plays again, first held first,
        until none more is applied."""
        again = True
        while again:
            again = False
            for held in self.held.waiting(table):
                if self.held.get(table, held.key) is held and \
                        self._judge(table, held.event, held.topic, held.payload):
                    again = True
                    break

    def _waited(self, held: Held) -> None:
        """A held play's time is up (a timer's thread): judge it as usual."""
        with self._lock:
            if self._stopping or self.held.get(held.table, held.key) is not held:
                return
            try:
                if self._judge(held.table, held.event, held.topic, held.payload):
                    self._release(held.table)
            except StorageError as exc:
                self._storage_failed(exc)
            except Exception as exc:
                self._handling_failed("board", held.event.board, held.topic, held.payload, exc)

    @contextmanager
    def _applying(self, session: TableSession) -> Iterator[threading.Event]:
        """One journal transaction around storing a message and applying it to ``session``.

        The caller sets the event it is given once the session may have changed: if anything
        then fails (storage included), nothing of it is stored and the session is rebuilt
        from the journal, so the table never holds what the journal does not."""
        applying = threading.Event()
        try:
            with self.journal.transaction():
                yield applying
        except _HeldBack:
            raise  # a refusal held back: it changed nothing, and the journal rolled back
        except BaseException:
            if applying.is_set():
                self.tables[session.config.id] = self._replayed(session.config)
            raise
        self._storage_works()

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
        with self._applying(session) as applying:
            entry = self.journal.append_control(table, control, topic, payload)
            if entry is not None:
                applying.set()
                result = session.on_control(control)
                self._record(session, entry.id, result)
        if entry is None:
            return None  # the same command (same id) again
        self._announce(session, result, control=control)
        if result.changed:
            self._release(table)
        return result

    def _board_status(self, board: str, payload: bytes) -> None:
        if not payload:
            return  # a cleared retained status
        try:
            status = decode(BoardStatus, payload, MAX_STATUS_MESSAGE)
        except ProtocolError as exc:
            within, changed = self.health.refusal(board, time.monotonic())
            if within:  # a flood of them is counted, not logged line by line
                log.warning("board %s: %s", board, exc)
            if changed:
                self._publish_status()
            return
        if self._online.get(board) == status.online:
            return
        self._online[board] = status.online
        cfg = self.club.table_of_board(board)
        if cfg is not None:
            self._publish_table(self.tables[cfg.id])

    # --- faults and failing storage ----------------------------------------------------

    def _handling_failed(self, scope: str, name: str, topic: str, payload: bytes,
                         error: Exception) -> None:
        """A fault while handling one message: say so, and refuse it for good once it has
        failed ``POISON_AFTER`` times (a poison message: journaled, acknowledged, shown)."""
        try:
            key = _message_key(payload)
            self.health.fault(f"{topic} ({key})", error)
            board = name if scope == "board" else None
            table = self._table_of(scope, name)
            why = f"{type(error).__name__}: {error}"
            try:
                attempts = self.journal.record_fault(topic, payload, why)
            except StorageError:
                mark = digest(topic, payload)
                attempts = self._fault_attempts[mark] = self._fault_attempts.get(mark, 0) + 1
            log.error("fault handling a message for table %s on %s (%s), attempt %d: %s",
                      table or "-", topic, key, attempts, why,
                      exc_info=error if attempts == 1 else None)  # the traceback once
            if attempts < POISON_AFTER:
                self._announce_invalid(table, "fault", f"handling failed (attempt {attempts} of "
                                       f"{POISON_AFTER}): {why}", board)
            else:
                if attempts == POISON_AFTER:  # a copy sent again before the ack came is not
                    self.health.poison()  # refused again: acknowledged again, no more
                    self._invalid(table, topic, payload, "poison",
                                  f"refused for good after failing {attempts} times: {why}",
                                  board)
                event = _pad_key(payload) if board else None
                if event is not None and event.board == board:
                    self._ack(board, event)
            self._publish_status()
        except Exception:  # the fault handler itself must never stop the service
            log.exception("fault while handling a fault on %s", topic)

    def _refused_for_good(self, topic: str, payload: bytes) -> bool:
        """A message already refused as poison (only looked up once one has been)."""
        if not self.health.poisoned:
            return False
        try:
            attempts = self.journal.fault_attempts(topic, payload)
        except StorageError:
            attempts = self._fault_attempts.get(digest(topic, payload), 0)
        return attempts >= POISON_AFTER

    def _table_of(self, scope: str, name: str) -> str | None:
        """The table a board or table topic belongs to, if it is one of the club's."""
        if scope == "table":
            return name if name in self.tables else None
        cfg = self.club.table_of_board(name)
        return cfg.id if cfg else None

    def _storage_failed(self, error: StorageError) -> None:
        if self.health.storage_failed(str(error)):
            log.error("STORAGE FAILING: %s. Plays are not acknowledged; the boards keep them "
                      "until the journal can store again", error)
            self._publish_status()
            for session in self.tables.values():
                self._publish_table(session, force=True)

    def _storage_works(self) -> None:
        """A write succeeded: leave the failing state, and write what waited for storage."""
        if self.health.failing is None:
            return
        for (table, entry_id), (game, result) in list(self._unrecorded.items()):
            self._record(self.tables[table], entry_id, result, game)
            del self._unrecorded[(table, entry_id)]
        self.health.storage_back()
        log.warning("storage works again: %s is stored and acknowledged as before",
                    self.journal.path)
        self._publish_status()
        for session in self.tables.values():
            self._publish_table(session, force=True)

    def _watch(self) -> None:
        """Every ``WATCH_EVERY_S``: probe failing storage, and forget calm flooders."""
        while not self._stop_watch.wait(WATCH_EVERY_S):
            with self._lock:
                try:
                    if self.health.failing is not None and self.journal.probe():
                        self._storage_works()
                    if self.health.calm(time.monotonic()):
                        self._publish_status()
                except StorageError as exc:
                    self._storage_failed(exc)
                except Exception:
                    log.exception("the health watch failed; it goes on")

    # --- outgoing --------------------------------------------------------------------

    def _publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain)
        for listener in list(self._listeners):
            try:
                listener(topic, payload)
            except Exception:  # a broken listener must not stop the tables
                log.exception("listener failed on %s", topic)

    def _publish_status(self) -> None:
        self._publish(self.topics.host_status(), encode(self.status), retain=True)

    def _ack(self, board: str, event: PadEvent) -> None:
        self._publish(self.topics.ack(board), encode(Ack(boot=event.boot, seq=event.seq)))

    def _invalid(self, table: str | None, topic: str, payload: bytes, code: str, reason: str,
                 board: str | None = None, pad: int | None = None,
                 control_id: str | None = None) -> None:
        """Journal (bounded) and announce a refused message, within the source's budget."""
        source = board or table or "unknown tables"  # topics are free: a budget per source
        within, changed = self.health.refusal(source, time.monotonic())
        if changed:
            log.warning("%s floods: more than %d refused messages a minute; the rest are "
                        "counted, not journaled", source, REFUSED_PER_MINUTE)
            self._publish_status()
        if not within:
            return
        self.journal.append_invalid(table, topic, payload, f"{code}: {reason}")
        self._announce_invalid(table, code, reason, board, pad, control_id)

    def _announce_invalid(self, table: str | None, code: str, reason: str,
                          board: str | None = None, pad: int | None = None,
                          control_id: str | None = None) -> None:
        event = TableEvent(table=table or "-", kind="invalid", board=board, pad=pad, code=code,
                           reason=reason[:300], id=control_id)
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
        state = in_the_room(session.state(), self._rooms.get(table))
        state["boards_online"] = [b for b in session.config.boards if self._online.get(b)]
        self._publish(self.topics.state(table), encode(state), retain=True)
        display = encode(STORAGE_DISPLAY if self.health.failing
                         else self._signs.get(table) or session.display(state))
        if force or self._displays.get(table) != display:
            self._displays[table] = display
            self._publish(self.topics.display(table), display, retain=True)

    def _publish_config(self, session: TableSession) -> None:
        cfg = session.config
        for board in cfg.boards:
            pads = [PadSeat(pad=p, seat=s) for (b, p), s in sorted(cfg.pads.items()) if b == board]
            message = BoardConfig(table=cfg.id, pads=pads, display=board in cfg.displays,
                                  brightness=cfg.brightness)
            self._publish(self.topics.config(board), encode(message), retain=True)

    # --- in-process API --------------------------------------------------------------

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(topic, payload)`` for every message the service publishes, from
        the service's thread; returns a function that stops listening."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def handle(self, topic: str, handler: Listener) -> None:
        """Also serve ``topic`` (subscribed at every connection): ``handler(topic, payload)``
        runs on the MQTT thread, outside the tables' lock (e.g. the night's corrections)."""
        self._handlers[topic] = handler

        def guarded(client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
            try:
                handler(msg.topic, msg.payload)
            except Exception:  # no message may stop the service (its MQTT thread)
                log.exception("handling a message on %s failed", msg.topic)

        self.client.message_callback_add(topic, guarded)
        if self.connected.is_set():
            self.client.subscribe(topic, 1)

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        """Publish as the service does (QoS 1; the listeners hear it too)."""
        self._publish(topic, payload, retain)

    def state(self, table: str) -> dict[str, Any]:
        """The table's current state, as published (KeyError for an unknown table)."""
        with self._lock:
            session = self.tables[table]
            state = session.state()
            state["boards_online"] = [b for b in session.config.boards if self._online.get(b)]
            return state

    def show(self, table: str, sign: Display | None) -> None:
        """Show ``sign`` on the table's display instead of its game (None: the game again)."""
        with self._lock:
            if sign is None:
                self._signs.pop(table, None)
            else:
                self._signs[table] = sign
            self._publish_table(self.tables[table])

    def overlay(self, table: str, room: dict[str, Any] | None) -> None:
        """Lay ``room`` (``serve.room``: the night's names, corrected scores and notes) over
        the table's published state and display from now on (None: the engine's alone)."""
        with self._lock:
            if room is None:
                self._rooms.pop(table, None)
            else:
                self._rooms[table] = room
            self._publish_table(self.tables[table])

    def light(self, board: str, feedback: Feedback) -> None:
        """Send a board's seat light (e.g. a seat that waits for its player)."""
        with self._lock:
            self._publish(self.topics.feedback(board), encode(feedback))

    def control(self, table: str, control: Control) -> Result | None:
        """Apply a control command as if it arrived over MQTT (journaled the same way).

        None when the table is unknown or the command's id was already journaled;
        StorageError when the journal cannot store it (the service then says so)."""
        with self._lock:
            try:
                return self._apply_control(table, control, self.topics.control(table),
                                           encode(control))
            except StorageError as exc:
                self._storage_failed(exc)
                raise

"""What the scoreboard knows about the club: a pure model fed by MQTT messages.

``Club.handle(topic, payload)`` takes one message from the host's topics (retained table
state, table events, board status and config; see docs/architecture.md, "MQTT") and
updates per-table views: the latest public state, the score through the current game, the
hands played (every completed trick, for the last-hands list and the replay page), recent
events, and alerts (a revoke in the current hand, a board that went offline, what the
host's own status says: offline, storage failing, poison messages, flooding boards, and on a
club night what the director corrected: the state's ``night.notes``, ``serve.room``). A club
night's table state already carries the night's names and corrected scores (``serve.room``). Views are
read as JSON-able dicts with ``Club.summary()``, ``Club.view(table)`` and ``Club.hand()``;
the boards' health as ``Club.fleet.rows()`` (``tricktable.fleet.health``).

No I/O, no clock, no threads: the MQTT feed (``tricktable.web.feed``), the web app and the
terminal view (``tricktable.web.termview``) wrap it.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tricktable import protocol
from tricktable.fleet.health import FleetHealth
from tricktable.history.words import bid_words, contract_words, event_words, trump_words

MAX_HANDS = 200
MAX_EVENTS = 30
HAND_OVER = ("hand_over", "game_over")
QUIET_EVENTS = ("card_scanned",)
EVERY_TABLE = "*"  # what ``Club.handle`` returns for a message about every table (host status)


class BadMessage(ValueError):
    """A message the scoreboard cannot use; the model is left unchanged."""


@dataclass
class HandRecord:
    """One hand as seen on the state topic: its bids, contract and every trick."""

    game: int
    hand: int
    dealer: int | None
    seats: list[str]
    sides: list[dict[str, Any]]
    bids: list[Any] = field(default_factory=list)
    contract: dict[str, Any] | None = None
    trump: str | None = None
    tricks: list[dict[str, Any]] = field(default_factory=list)
    scores_before: list[int] = field(default_factory=list)
    scores_after: list[int] = field(default_factory=list)
    revokes: list[Any] = field(default_factory=list)
    complete: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "hand": self.hand,
            "dealer": self.dealer,
            "seats": self.seats,
            "sides": self.sides,
            "bids": _bid_words(self.bids),
            "contract": self.contract,
            "contract_text": _contract_words(self.seats, self.contract),
            "trump": self.trump,
            "trump_text": trump_words(self.trump or (self.contract or {}).get("trump")),
            "tricks": self.tricks,
            "scores_before": self.scores_before,
            "scores_after": self.scores_after,
            "revokes": self.revokes,
            "complete": self.complete,
        }


@dataclass
class TableView:
    """Everything the scoreboard shows for one table."""

    table: str
    state: dict[str, Any] | None = None
    game: int = 0
    score_history: list[dict[str, Any]] = field(default_factory=list)
    hands: deque[HandRecord] = field(default_factory=lambda: deque(maxlen=MAX_HANDS))
    events: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=MAX_EVENTS))

    def apply_state(self, state: dict[str, Any]) -> None:
        hand_number = _int(state, "hand_number")
        if self.state is None or _new_game(self.state, state):
            host_game = state.get("game")
            self.game = host_game if isinstance(host_game, int) else self.game + 1
            self.score_history = [{"hand": 0, "scores": [0 for _ in state.get("scores") or []]}]
        self.state = state
        scores = list(state.get("scores") or [])
        seats = list(state.get("seats") or [])
        for record in self.hands:  # a club night's names hold for the whole game (serve.room)
            if record.game == self.game and len(record.seats) == len(seats):
                record.seats = seats
        for record in self.hands:
            if record.game == self.game and record.hand < hand_number and not record.complete:
                record.complete, record.scores_after = True, scores
        record = self._record(hand_number, scores, state)
        _merge_hand(record, state)
        if state.get("phase") in HAND_OVER:
            record.complete, record.scores_after = True, scores
        if scores != self.score_history[-1]["scores"]:
            point = {"hand": hand_number, "scores": scores}
            if self.score_history[-1]["hand"] == hand_number:
                self.score_history[-1] = point
            else:
                self.score_history.append(point)

    def apply_event(self, event: dict[str, Any]) -> bool:
        """Keep an event worth showing; an ``accepted`` action is told again by its engine
        events, and hand-scan taps are too many to list. True when kept."""
        inner = event.get("event") or {}
        if event.get("kind") == "accepted" or inner.get("type") in QUIET_EVENTS:
            return False
        if inner.get("type"):
            event = dict(event, text=event_words(inner, (self.state or {}).get("seats") or []))
        self.events.append(event)
        return True

    def _record(self, hand_number: int, scores: list[int], state: dict[str, Any]) -> HandRecord:
        for record in reversed(self.hands):
            if record.game == self.game and record.hand == hand_number:
                return record
        record = HandRecord(
            game=self.game,
            hand=hand_number,
            dealer=state.get("dealer"),
            seats=list(state.get("seats") or []),
            sides=list(state.get("sides") or []),
            scores_before=scores,
            scores_after=scores,
        )
        self.hands.append(record)
        return record

    def alerts(self, boards: dict[str, dict[str, Any]],
               host: Sequence[dict[str, str]] = ()) -> list[dict[str, str]]:
        out: list[dict[str, str]] = list(host)
        for board, info in sorted(boards.items()):
            if info.get("table") == self.table and info.get("online") is False:
                out.append({"kind": "offline", "text": f"board {board} is offline"})
        state = self.state or {}
        for revoke in state.get("revokes") or []:
            out.append({"kind": "revoke", "text": _revoke_text(state, revoke)})
        for note in (state.get("night") or {}).get("notes") or []:  # serve.room
            out.append({"kind": "director", "text": str(note)})
        return out

    def summary(self, boards: dict[str, dict[str, Any]],
                host: Sequence[dict[str, str]] = ()) -> dict[str, Any]:
        state = self.state or {}
        to_act = state.get("to_act")
        seats = state.get("seats") or []
        return {
            "table": self.table,
            "variant": state.get("variant"),
            "phase": state.get("phase"),
            "hand_number": state.get("hand_number"),
            "sides": state.get("sides") or [],
            "scores": state.get("scores") or [],
            "to_act": to_act,
            "to_act_name": _seat_name(seats, to_act),
            "contract": state.get("contract"),
            "contract_name": _seat_name(seats, (state.get("contract") or {}).get("seat")),
            "contract_text": _contract_words(seats, state.get("contract")),
            "bids": _bid_words(state.get("bids") or []),
            "trump": state.get("trump"),
            "game_over": bool(state.get("game_over")),
            "winner": state.get("winner"),
            "last_hand": state.get("last_hand"),
            "night_over": bool((state.get("night") or {}).get("over")),
            "alerts": self.alerts(boards, host),
        }

    def view(self, boards: dict[str, dict[str, Any]],
             host: Sequence[dict[str, str]] = ()) -> dict[str, Any]:
        return {
            "table": self.table,
            "state": self.state,
            "summary": self.summary(boards, host),
            "game": self.game,
            "score_history": self.score_history,
            "last_hands": [_hand_line(r) for r in self.hands if r.complete][-8:][::-1],
            "events": list(self.events)[-10:],
            "boards": {b: i for b, i in sorted(boards.items()) if i.get("table") == self.table},
        }


class Club:
    """Every table and board seen on the broker under one topic prefix."""

    def __init__(self, prefix: str = protocol.DEFAULT_PREFIX) -> None:
        self.names = protocol.Topics(prefix)
        self.tables: dict[str, TableView] = {}
        self.boards: dict[str, dict[str, Any]] = {}
        self.host: protocol.HostStatus | None = None  # the service's retained status
        self.fleet = FleetHealth()  # every board's health, for the fleet page

    def subscriptions(self) -> list[str]:
        """The subscriptions that feed this model."""
        t = self.names
        return [t.state("+"), t.events("+"), t.board_status("+"), t.config("+"),
                t.host_status()]

    def handle(self, topic: str, payload: bytes) -> str | None:
        """Apply one message; return the table it changed (None for none).

        Raises ``BadMessage`` (and changes nothing) for a topic outside ours or a payload
        that does not follow protocol v1.
        """
        try:
            kind, name, leaf = self.names.parse(topic)
            if kind == "host" and leaf == "status":
                self.host = protocol.decode(protocol.HostStatus, payload) if payload else None
                return EVERY_TABLE
            if not payload and leaf in ("state", "status", "config"):
                return self._forget(kind, name, leaf)
            if kind == "table" and leaf == "state":
                state = _state(payload)
                self._table(name).apply_state(state)
                return name
            if kind == "table" and leaf == "events":
                event = protocol.decode(protocol.TableEvent, payload, protocol.MAX_CONTROL_MESSAGE)
                kept = self._table(name).apply_event(msgspec.to_builtins(event))
                return name if kept else None
            if kind == "board" and leaf == "status":
                status = protocol.decode(protocol.BoardStatus, payload,
                                         protocol.MAX_STATUS_MESSAGE)
                info = self.boards.setdefault(name, {})
                info["online"] = status.online
                self.fleet.seen(name, status)
                return info.get("table")
            if kind == "board" and leaf == "config":
                config = protocol.decode(protocol.BoardConfig, payload)
                self.boards.setdefault(name, {})["table"] = config.table
                return config.table
        except protocol.ProtocolError as exc:
            raise BadMessage(f"{topic}: {exc}") from exc
        raise BadMessage(f"not a scoreboard topic: {topic!r}")

    def _forget(self, kind: str, name: str, leaf: str) -> str | None:
        """An empty retained payload clears the retained message: forget that thing."""
        if kind == "table" and leaf == "state":
            self.tables.pop(name, None)
            return name
        if kind == "board":
            info = self.boards.pop(name, {})
            self.fleet.forget(name)
            return info.get("table")
        raise BadMessage(f"empty payload on {kind}/{name}/{leaf}")

    def _table(self, name: str) -> TableView:
        if name not in self.tables:
            self.tables[name] = TableView(name)
        return self.tables[name]

    def host_alerts(self) -> list[dict[str, str]]:
        """What the host service's status says that every table must show."""
        host = self.host
        if host is None:
            return []
        out = []
        if not host.online:
            out.append({"kind": "host", "text": "the host service is offline: plays wait on "
                                                "the boards"})
        if host.storage == "failing":
            out.append({"kind": "host", "text": f"the host cannot save plays, so they are on "
                                                f"hold: {host.detail}"})
        if host.poisoned:
            out.append({"kind": "host", "text": f"{host.poisoned} message(s) refused for good "
                                                f"after failing again and again; last: "
                                                f"{host.last_fault}"})
        elif host.faults:
            out.append({"kind": "host", "text": f"{host.faults} fault(s) handling messages "
                                                f"since the host started; last: "
                                                f"{host.last_fault}"})
        if host.flooding:
            out.append({"kind": "host", "text": "flooding with bad messages (not all kept): "
                                                + ", ".join(host.flooding)})
        return out

    def summary(self) -> list[dict[str, Any]]:
        host = self.host_alerts()
        return [self.tables[t].summary(self.boards, host)
                for t in sorted(self.tables, key=protocol.natural_key)]

    def view(self, table: str) -> dict[str, Any] | None:
        view = self.tables.get(table)
        return None if view is None else view.view(self.boards, self.host_alerts())

    def hands(self, table: str) -> list[dict[str, Any]]:
        view = self.tables.get(table)
        return [] if view is None else [_hand_line(r) for r in view.hands if r.tricks]

    def hand(self, table: str, game: int, hand: int) -> dict[str, Any] | None:
        view = self.tables.get(table)
        for record in view.hands if view else ():
            if record.game == game and record.hand == hand:
                return record.to_json()
        return None


def _state(payload: bytes) -> dict[str, Any]:
    """The table state: ``engine.public_state()`` plus ``table``, as a JSON object."""
    try:
        state = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadMessage(f"table state is not JSON ({exc})") from exc
    if not isinstance(state, dict):
        raise BadMessage(f"table state must be a JSON object, not {type(state).__name__}")
    if "phase" not in state:
        raise BadMessage("table state lacks 'phase'")
    if state["phase"] is not None and not isinstance(state.get("seats"), list):
        raise BadMessage("table state: 'seats' must be a list of names")
    _int(state, "hand_number")
    return state


def _int(state: dict[str, Any], key: str) -> int:
    value = state.get(key) or 0
    if not isinstance(value, int):
        raise BadMessage(f"table state: {key!r} must be an integer, not {value!r}")
    return value


def _new_game(previous: dict[str, Any], state: dict[str, Any]) -> bool:
    """A new game began: the host's game number changed (or, without one, the variant
    changed, the hand number went down, or a finished game was followed by a live one)."""
    if isinstance(state.get("game"), int):
        return previous.get("game") != state["game"]
    if previous.get("variant") != state.get("variant"):
        return True
    if _int(state, "hand_number") < _int(previous, "hand_number"):
        return True
    return bool(previous.get("game_over")) and not state.get("game_over")


def _merge_hand(record: HandRecord, state: dict[str, Any]) -> None:
    """Take what the state adds to its hand; a later state never erases earlier tricks."""
    record.bids = list(state.get("bids") or record.bids)
    record.contract = state.get("contract") or record.contract
    record.trump = state.get("trump") or record.trump
    record.revokes = list(state.get("revokes") or record.revokes)
    tricks = list(state.get("tricks") or [])
    if len(tricks) >= len(record.tricks):
        record.tricks = tricks


def _hand_line(record: HandRecord) -> dict[str, Any]:
    contract = record.contract or {}
    return {
        "game": record.game,
        "hand": record.hand,
        "maker": _seat_name(record.seats, contract.get("seat")),
        "bid": contract.get("bid"),
        "trump": record.trump or contract.get("trump"),
        "contract_text": _contract_words(record.seats, record.contract),
        "tricks": len(record.tricks),
        "scores_before": record.scores_before,
        "scores_after": record.scores_after,
        "revokes": len(record.revokes),
        "complete": record.complete,
    }


def _contract_words(seats: list[str], contract: Any) -> str | None:
    """The contract in words (``hearts, ordered up by Bob``), None when there is none."""
    if not isinstance(contract, dict) or _seat_name(seats, contract.get("seat")) is None:
        return None
    return contract_words(seats, contract)


def _bid_words(bids: list[Any]) -> list[Any]:
    """The state's bids with each one's words (``small pepper``) beside the code."""
    return [dict(b, text=bid_words(str(b["bid"]))) if isinstance(b, dict) and "bid" in b
            else b for b in bids]


def _seat_name(seats: list[str], seat: Any) -> str | None:
    if isinstance(seat, int) and 0 <= seat < len(seats):
        return seats[seat]
    return None


def _revoke_text(state: dict[str, Any], revoke: Any) -> str:
    """``Cy revoked in trick 4 (spades)`` from the engine's revoke record."""
    if not isinstance(revoke, dict):
        return f"revoke: {revoke}"
    who = _seat_name(state.get("seats") or [], revoke.get("seat")) or "a player"
    suit = f" ({revoke['suit']})" if revoke.get("suit") else ""
    return f"{who} revoked in trick {revoke.get('trick', '?')}{suit}"

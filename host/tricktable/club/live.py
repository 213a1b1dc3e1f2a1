"""A club night kept by the live tables: no score typed, the bell rung by the head table.

``tricktable serve --club club.toml --night night.json`` links a night (``tricktable club
new``) to the club's tables: night table n is the club table whose id comes n-th in natural
order (t1, t2 ... t10). From then on:

- **Tallies.** Whenever a table's engine scores a hand, that table's hands in the current
  game of the night are read again from the journal (the table's game recorded for this
  round) and put on the night (``set_hands``): derived, never counted, so a restart or a
  second look changes nothing twice.
- **A game of the night ends by the bell**, whatever the variant's target
  (``club.night_games``): each table's game starts with the club file's variant and house
  rules, its target switched off (``night_options``); a variant that counts down to zero
  ends its game as the rules say, and the table starts a fresh one at once with the same
  players (a ``new_game`` control whose id names the round and ``FRESH`` and the game that
  ended), in the same game of the night: the table's hands of the round are those of every
  journal game it started in the round, in order. A head table that cannot start its fresh
  game rings the bell (as the director would by hand) rather than the night waiting.
- **The bell** rings itself when the head table has scored ``hands_per_round`` hands ("The
  lead table plays eight hands [...] then rings the bell"). Every table finishes the hand in
  play ("players at each table finish their current hand"): a table between hands (no
  action since its last hand ended, scored or thrown in) closes at once, one in a hand closes when that hand is
  scored; hands after that do not count.
- **The movement.** Once every table has closed, the game is tallied and the players move
  (``ProgressiveTournament.bell``), and each table starts its next game with its new
  players in seat order N, E, S, W, by a journaled ``new_game`` control whose id names the
  round (so a restart sends it again harmlessly). A tied table waits for the director:
  ``bell_blocked`` says which (the night's options do not allow guessing a winner).

- **The signs** (``club.signs``, on the table's retained display instead of its game, through
  ``Service.show``): BELL / FINISH HAND from the bell until the table's hand is scored, then
  HAND DONE / WAIT FOR MOVES; after the movement, each player's next table and seat
  (``ANN -> T3 N``) until the table's new players are all there; NIGHT OVER at the end.
- **One truth for the room** (``serve.room``): each table's published state and display carry
  the night's word on it (``Service.overlay``): the night's players in its seats after a swap
  or a substitute, each side's score after the director's fixes and voids, the director's
  notes ("hand 1 voided by the director"), and once the night is over its last game's final
  score, so the TV, the pages and the display never show a copy the correction missed. The
  file's ``live.rounds`` keeps each game of the night's first journal game at every table, so
  a replay names the night's game and players.
- **The next game starts when the seats are filled.** The new game is opened at once, but
  a seat counts as filled only when its player's first action of the new game is accepted
  (the first card scanned, or the first bid): until then the seat's pad blinks blue and the
  table shows the moves; once all its seats are filled the table shows its game again. The
  filled seats are read from the journal, so a restart shows the same signs.

The night file keeps, beside the night, a ``live`` section: the journal game each table
plays in this round, whether the bell has rung, how many hands each closed table kept, and
when the round began (``round_started``, seconds since the epoch, for the TV's round clock);
and a ``director`` section: the console's corrections and their audit log
(``club.night_commands``), taken from ``{p}/v1/night/control`` and answered on
``{p}/v1/night/events``.
Work runs on its own thread, after the message that caused it has been handled, so the
service's own publications keep their order; the same thread turns the signs' pages every
``PAGE_S`` seconds.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from tricktable.club.errors import ClubError
from tricktable.club.journal_hands import hands_and_rest
from tricktable.club.night_commands import CONSOLE_ID, Director
from tricktable.club.night_games import night_options, tally_sign
from tricktable.club.signs import bell_sign, closed_sign, moves, moves_sign, over_sign
from tricktable.club.store import night_from_json, night_to_json, write_atomically
from tricktable.club.tournament import ProgressiveTournament
from tricktable.clubfile import Club
from tricktable.engine.actions import action_from_json
from tricktable.protocol import (
    MAX_CONTROL_MESSAGE,
    Control,
    Display,
    Feedback,
    NightAnswer,
    NightCommand,
    ProtocolError,
    Topics,
    decode,
    encode,
    natural_key,
)
from tricktable.serve.journal import GameRecord, Journal
from tricktable.textfiles import TextFileError, read_text

log = logging.getLogger("tricktable.night")

NEW_GAME_ID = "night-game-"  # + the round: the id of the new_game control that starts it
FRESH = "-fresh-"  # + the game that ended: a fresh game within the same game of the night
PAGE_S = 2.0  # how long a sign's page stays before the next (text8 of the moves)
WAITING = Feedback(pad=0, led="blue", pattern="blink", ms=0)  # a seat that waits for its player


def _sums(hands: Any) -> tuple[int, int]:
    """Team A's and team B's totals of ``hands``."""
    hands = list(hands)
    return sum(h[0] for h in hands), sum(h[1] for h in hands)


class Tables(Protocol):
    """What the night needs of the running service."""

    def control(self, table: str, control: Control) -> Any: ...
    def state(self, table: str) -> dict[str, Any]: ...
    def listen(self, listener: Callable[[str, bytes], None]) -> Callable[[], None]: ...
    def show(self, table: str, sign: Display | None) -> None: ...
    def overlay(self, table: str, room: dict[str, Any] | None) -> None: ...
    def light(self, board: str, feedback: Feedback) -> None: ...
    def handle(self, topic: str, handler: Callable[[str, bytes], None]) -> None: ...
    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None: ...


class LiveNight:
    """A night file kept up to date by the service's tables (see the module docstring)."""

    def __init__(self, path: str | Path, club: Club, journal: Journal) -> None:
        self.path = Path(path)
        self.journal = journal
        self.tables = sorted(club.tables, key=natural_key)
        self.club = club
        self.topics = Topics(club.prefix)
        try:
            data = json.loads(read_text(self.path, "club night file"))
        except (TextFileError, ValueError) as exc:
            raise ClubError(str(exc)) from None
        self.night: ProgressiveTournament = night_from_json(data)
        if self.night.tables != len(self.tables):
            raise ClubError(f"the night {self.path} has {self.night.tables} tables and the club "
                            f"file {len(self.tables)}; they must be the same tables")
        live = data.get("live") or {}
        self.games: dict[str, int] = dict(live.get("games", {}))
        self.bell_rung: bool = bool(live.get("bell", False))
        self.closed: dict[str, int] = dict(live.get("closed", {}))
        self.round_started: float = live.get("round_started") or time.time()
        self.bell_at: float | None = live.get("bell_at")  # when the bell rang (the late list)
        self.director = Director(data.get("director"))
        self.bell_blocked = ""
        self.seated: set[str] = set()  # tables whose seats are all filled in this round
        self.raw: dict[str, tuple[int, int]] = {}  # each table's journal tally of the round
        self.rounds: dict[str, dict[str, int]] = {  # each game of the night's first journal
            str(r): dict(g) for r, g in (live.get("rounds") or {}).items()}  # game a table
        self.rooms: dict[str, dict[str, Any]] = {}  # what each table's state shows the room
        self.signs: dict[str, tuple[str, list[Display]]] = {}  # a table's sign: kind, pages
        self._page = 0
        self._lock = threading.Lock()  # the night's thread and the director's commands
        self._service: Tables | None = None
        self._work: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._unlisten: Callable[[], None] | None = None

    # --- start, stop -------------------------------------------------------------------

    def start(self, service: Tables) -> None:
        """Catch up with the journal (and a bell's new games a restart interrupted), then
        follow every scored hand."""
        self._service = service
        for table in self.tables:  # a table joining the night starts a game with its players
            self.games.setdefault(table, self._current_game(table) + 1)
        self._start_new_games()
        for table in self.tables:
            self._refresh(table, scored=False)
        self._settle()
        self._show()
        self._unlisten = service.listen(self._heard)
        service.handle(self.topics.night_control(), self.command)
        self._thread = threading.Thread(target=self._run, name="tricktable-night", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._unlisten is not None:
            self._unlisten()
        if self._thread is not None:
            self._work.put(None)
            self._thread.join(10)

    def ties(self) -> list[int]:
        """The tables (numbers) tied in this game, once every table has closed."""
        if not self.bell_rung or len(self.closed) < len(self.tables):
            return []
        return [n for n in range(1, self.night.tables + 1)
                if len(set(self.night.table_score(n))) == 1]

    def _heard(self, topic: str, payload: bytes) -> None:
        """From the service's thread: note a scored hand, or a first action at a table whose
        seats are not all filled yet, to be read after this message."""
        if not topic.endswith("/events"):
            return
        table = topic.split("/")[-2]
        if table not in self.games:
            return
        if b'"hand_scored"' in payload:
            self._work.put(("scored", table))
        elif table not in self.seated and b'"accepted"' in payload:
            self._work.put(("acted", table))

    def _run(self) -> None:
        while True:
            try:
                work = self._work.get(timeout=PAGE_S)
            except queue.Empty:
                with self._lock:
                    self._turn_pages()
                continue
            if work is None:
                return
            kind, table = work
            try:
                with self._lock:
                    if kind == "scored":
                        self._refresh(table, scored=True)
                        self._settle()
                    self._show(table if kind == "acted" else None)
            except Exception:  # the night must not stop the tables
                log.exception("the night could not take table %s's %s", table, kind)

    # --- the director's corrections (club.night_commands) --------------------------------

    @property
    def service(self) -> Tables | None:
        return self._service

    def command(self, topic: str, payload: bytes) -> None:
        """From the MQTT thread: do a director's command, save the night, answer."""
        try:
            command = decode(NightCommand, payload, MAX_CONTROL_MESSAGE)
        except ProtocolError as exc:
            self._answer(NightAnswer(id="-", ok=False, code="malformed", reason=str(exc)[:300]))
            return
        try:
            with self._lock:
                entry = self.director.done(command.id)
                if entry is not None and entry.get("refused"):  # a second copy of a refusal
                    raise ClubError(entry["refused"])
                if entry is None:
                    for table in self.tables:  # the director sees every hand scored so far
                        self._refresh(table, scored=False)
                    entry = self.director.run(self, command)
                    for table in self.tables:
                        self._refresh(table, scored=False)
                    self._save()
                    self._settle()
                    self._show()
                    log.warning("the director (%s): %s: %s -> %s", command.by, entry["what"],
                                entry["before"], entry["after"])
        except ClubError as exc:
            with self._lock:  # the audit log keeps what was refused too
                if self.director.done(command.id) is None:
                    self.director.refuse(self, command, str(exc))
                    self._save()
            self._answer(NightAnswer(id=command.id, ok=False, code="refused",
                                     reason=str(exc)[:300]))
            return
        except Exception as exc:  # the night must not stop the tables
            log.exception("the director's command %s failed", command.id)
            self._answer(NightAnswer(id=command.id, ok=False, code="fault",
                                     reason=f"{type(exc).__name__}: {exc}"[:300]))
            return
        self._answer(NightAnswer(id=command.id, ok=True, entry=entry))

    def _answer(self, answer: NightAnswer) -> None:
        assert self._service is not None
        self._service.publish(self.topics.night_events(), encode(answer))

    def reseat(self, tables: list[str], command_id: str) -> None:
        """A table whose game of this round has not begun starts it again with the night's
        seating (the others show the new names from their next game)."""
        assert self._service is not None
        for table in tables:
            state = self._service.state(table)
            if state.get("game") == self.games[table] and not state.get("actions"):
                self._service.control(table, Control(cmd="new_game", args=self._setup(table),
                                                     id=f"{CONSOLE_ID}{command_id}-{table}"))
                self.games[table] = self._current_game(table)

    def restart_games(self) -> None:
        """A reopened game: every table starts a new journal game with its players."""
        self.bell_rung, self.closed, self.seated = False, {}, set()
        self.games = {t: self._current_game(t) + 1 for t in self.tables}
        self._start_new_games()

    # --- the night -----------------------------------------------------------------------

    def _current_game(self, table: str) -> int:
        assert self._service is not None
        return int(self._service.state(table).get("game") or 0)

    def _record(self, table: str) -> GameRecord | None:
        """The journal's record of the table's game of this round, if it started."""
        return next((g for g in self.journal.games(table) if g.game == self.games[table]),
                    None)

    def records(self, table: str) -> list[GameRecord]:
        """The table's games of this round: its first and the fresh ones after it."""
        return [g for g in self.journal.games(table) if g.game >= self.games[table]]

    def _setup(self, table: str) -> dict[str, Any]:
        """The ``new_game`` arguments of the table's game of the night: the night's players
        for it, the club file's variant, its house rules with the target switched off, and
        the game of the night (``round``, on the table's display)."""
        setup = self.club.tables[table].setup()
        return {"players": list(self.night.seating[self.tables.index(table)]),
                "variant": setup["variant"],
                "options": night_options(setup["variant"], setup.get("options")),
                "round": self.night.round}

    def _refresh(self, table: str, scored: bool) -> bool:
        """This round's hands at ``table``, read again from the journal, on the night (saved
        by ``_settle``); ``scored``: a hand was just scored there (after the bell, the table's
        last). True when the table has acted since its last scored hand (a hand in play), in
        the same read."""
        if self.night.finished:
            return False
        number = self.tables.index(table) + 1
        scored_hands: list[tuple[int, int]] = []
        rest = 0
        for record in self.records(table):
            hands_of_game, rest = hands_and_rest(
                record.setup, [action_from_json(a) for a in record.actions])
            scored_hands += hands_of_game
        hands = self.director.hands(table, scored_hands)
        limit = self.closed.get(table, self.night.options.hands_per_round if number == 1
                                else len(hands))
        self.night.set_hands(number, self.director.fixed(table, hands[:limit]))
        self.raw[table] = _sums(scored_hands)
        if scored and self.bell_rung and table not in self.closed:
            self.closed[table] = len(hands)  # the hand in play when the bell rang is scored
        return rest > 0

    def _settle(self) -> None:
        """Ring the bell when the head table is through; move when every table has closed."""
        assert self._service is not None
        if self.night.finished:
            return
        if not self.bell_rung:
            for table in self.tables:
                self._play_on(table)
        if self.bell_rung and self.bell_at is None:
            self.bell_at = time.time()  # rung by the director (or a head table that cannot go on)
        if not self.bell_rung:
            self.bell_at = None
        if not self.bell_rung and self.night.hands_left() == 0:
            self.bell_rung, self.bell_at = True, time.time()
            log.warning("the head table rang the bell: every table finishes its hand")
        if self.bell_rung:
            for number, table in enumerate(self.tables, 1):
                # a table between hands closes with every hand it scored: read from the
                # journal now, as its own scored hand may not have been taken yet
                if table not in self.closed and not self._refresh(table, scored=False):
                    self.closed[table] = len(self.night.hands[number - 1])
        self._save()
        if self.bell_rung and len(self.closed) == len(self.tables):
            try:
                game = self.night.bell(self.director.winners(self),
                                       early=self.director.early)
            except ClubError as exc:
                if str(exc) != self.bell_blocked:  # said once, not at every hand scored
                    log.error("the bell waits for the director: %s", exc)
                self.bell_blocked = str(exc)
                return
            self.bell_blocked = ""
            log.warning("game %d of the night is over; the players move", game.number)
            self.games = {t: self._current_game(t) + 1 for t in self.tables}
            self.bell_rung, self.closed, self.seated = False, {}, set()
            self.round_started = time.time()
            notes = self.director.notes
            self.director.next_game()
            if self.night.finished:  # the last game's tables stay up with what was corrected
                self.director.notes = notes
            self._save()
            self._start_new_games()

    def _play_on(self, table: str) -> None:
        """A table whose game is over before the bell starts a fresh one (idempotent by id)
        with the same players: a director's swap with a table still in its game waits for
        the next game of the night, as there; one who left the night gives way to whom the
        night seats there (a substitute). A head table that cannot rings the bell."""
        assert self._service is not None
        state = self._service.state(table)
        game = int(state.get("game") or 0)
        if state.get("phase") != "game_over" or game < self.games[table]:
            return
        self._refresh(table, scored=False)  # its last hand may not have been taken yet
        if table == self.tables[0] and self.night.hands_left() == 0:
            return  # the head table is through: it rings the bell
        setup = self._setup(table)
        over = next((g for g in self.records(table) if g.game == game), None)
        if over is not None and over.setup.get("players"):
            here = self.night.present()
            setup["players"] = [old if old in here else new for old, new in
                                zip(over.setup["players"], setup["players"], strict=True)]
        result = self._service.control(table, Control(
            cmd="new_game", args=setup, id=f"{NEW_GAME_ID}{self.night.round}{FRESH}{game}"))
        if result is not None and not result.ok and table == self.tables[0]:
            log.error("the head table %s cannot start a fresh game (%s): it rings the bell",
                      table, result.reason)
            self.bell_rung, self.director.early = True, True
        elif result is not None and result.ok:
            log.warning("table %s: game %d is over before the bell; a fresh game goes on the "
                        "same tally", table, game)

    def _start_new_games(self) -> None:
        """Start each table's game of this round with its players (idempotent by id)."""
        assert self._service is not None
        if self.night.finished:
            return
        for table in self.tables:
            if self._current_game(table) < self.games[table]:
                self._service.control(table, Control(
                    cmd="new_game", args=self._setup(table),
                    id=f"{NEW_GAME_ID}{self.night.round}" + (
                        f"-again-{self.director.again}" if self.director.again else "")))

    def _save(self) -> None:
        data = night_to_json(self.night)
        data["live"] = {"games": self.games, "bell": self.bell_rung, "closed": self.closed,
                        "tables": self.tables, "round_started": self.round_started,
                        "bell_at": self.bell_at if self.bell_rung else None}
        if not self.night.finished:
            self.rounds[str(self.night.round)] = dict(self.games)
        data["live"]["rounds"] = self.rounds
        data["director"] = self.director.to_json()
        write_atomically(self.path, json.dumps(data, indent=1) + "\n")

    # --- the signs -----------------------------------------------------------------------

    def _filled(self, table: str) -> set[int]:
        """The seats whose player has acted in the table's game of this round (journal)."""
        record = self._record(table)
        return set() if record is None else {int(a["seat"]) for a in record.actions}

    def _sign(self, number: int, table: str) -> tuple[str, list[Display]] | None:
        """What ``table`` (night table ``number``) shows instead of its game, if anything:
        the sign's kind and its pages."""
        if self.night.finished:
            return "over", over_sign()
        if self.bell_rung:
            return ("closed", closed_sign(number)) if table in self.closed \
                else ("bell", bell_sign(number))
        if table in self.seated:
            return None
        if len(self._filled(table)) >= len(self.night.seating[number - 1]):
            self.seated.add(table)
            return None
        before = self.night.games[-1].seating if self.night.games else self.night.seating
        return "moves", moves_sign(moves(before[number - 1], self.night.seating,
                                        self.night.bench))

    def _room(self, number: int, table: str) -> dict[str, Any]:
        """What ``table``'s published state shows the room in place of its engine's own
        (``Service.overlay``, ``serve.room``): the night's names in its seats (after a swap or
        a substitute), each side's score after the director's fixes and voids (``adjust``,
        added to the engine's), and the director's notes, for the journal games from
        ``game`` on (the table's game of the night in play). Once the night is over: the
        table's last game of the night, its players and its final tally (``final``), whatever
        game the table's engine was left in (a bell's next game the end took back)."""
        night = self.night
        notes = self.director.table_notes(table)
        if night.finished and night.games:
            last = night.games[-1]
            first = self.rounds.get(str(last.number), {}).get(table, 0)
            return {"game": first, "round": last.number, "seats": list(last.seating[number - 1]),
                    "final": list(_sums(last.hands[number - 1])), "notes": notes}
        tally, raw = night.table_score(number), self.raw.get(table, (0, 0))
        sign = tally_sign(self.club.tables[table].setup()["variant"])
        return {"game": self.games[table], "round": night.round,
                "seats": list(night.seating[number - 1]), "notes": notes,
                "adjust": [sign * (tally[0] - raw[0]), sign * (tally[1] - raw[1])]}

    def _wait_lights(self, table: str) -> None:
        """Blink every pad of a seat that waits for its player."""
        assert self._service is not None
        filled = self._filled(table)
        for (board, pad), seat in sorted(self.club.tables[table].pads.items()):
            if seat not in filled:
                self._service.light(board, Feedback(pad=pad, led=WAITING.led,
                                                     pattern=WAITING.pattern, ms=WAITING.ms))

    def _show(self, only: str | None = None) -> None:
        """Put each table's sign up (or take it down) where it changed; ``only``: just that
        table (a first action there changes no other)."""
        assert self._service is not None
        for number, table in enumerate(self.tables, 1):
            if only is not None and table != only:
                continue
            room = self._room(number, table)
            if room != self.rooms.get(table):
                self.rooms[table] = room
                self._service.overlay(table, room)
            sign = self._sign(number, table)
            if sign != self.signs.get(table):
                was = self.signs.pop(table, None)
                if sign is not None:
                    self.signs[table] = sign
                    if sign[0] == "moves" and (was is None or was[0] != "moves"):
                        self._wait_lights(table)
                pages = sign[1] if sign else None
                self._service.show(table, pages[self._page % len(pages)] if pages else None)

    def _turn_pages(self) -> None:
        """The next page of every sign that has more than one."""
        assert self._service is not None
        self._page += 1
        for table, (_kind, pages) in list(self.signs.items()):
            if len(pages) > 1:
                self._service.show(table, pages[self._page % len(pages)])

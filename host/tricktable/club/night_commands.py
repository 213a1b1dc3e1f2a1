"""The director's corrections to a live club night, and their audit log (the console's commands).

``serve --night`` (``club.live``) takes each ``NightCommand`` from ``{p}/v1/night/control``
and hands it to ``Director.run``: the command is checked whole first (a ``ClubError`` saying
what is wrong; nothing changes), then done, and an audit entry (id, when, by whom, what,
before, after) is kept. The night file keeps this module's section (``to_json``) beside the
night, so a restarted service rebuilds the same night; a command whose id is in the audit log
is answered again and not done twice. A refused command is kept in the log too (``refused``:
the reason), and answered with the same refusal if it comes again. The corrections:

- ``replace_action`` {table, at, action}: a mis-scan; the table's ``replace`` control (journaled)
  puts the right action in place of the ``at``-th of the round's game and plays the rest again.
- ``fix_hand`` {table, hand, score: [A, B], game?} and ``void_hand`` {table, hand, game?}: a
  hand's score on the tally (a voided hand stays in its place and counts 0-0). In the game being
  played the fix is kept here and laid over the hands read from the journal; in a finished game
  it is written into the game, and only if the table's winner stays the same (the players have
  moved by it).
- ``swap`` {a: {table, seat}, b: {table, seat}}: two players change seats in this game's seating
  (tallies follow it); a table that has not begun its game starts it again with the new names.
- ``settle`` {winners: {table: "A" | "B", ...}}: the winners of tied tables, several at once,
  once they have closed after the bell.
- ``ring``: the bell by hand (the head table may have hands left: the game ends short).
- ``arrive`` {name}: a late arrival (or a player who left, back again) joins from the next game
  (``ProgressiveTournament.arrive``: a bye until a seat is free).
- ``substitute`` {out, in}: ``in`` takes ``out``'s seat now and ``out`` leaves the night; the
  game in play goes on the tally of whoever sits there at the bell. A table that has not begun
  its game starts it again with the new name; one in play shows it from its next game.
- ``end``: the night ends early: the game in play is the last (the bell still ends it), or, if
  no table has a hand of it yet, the last bell was (``ProgressiveTournament.end``).
- ``undo_bell`` {while_closing}: a bell rung by hand is taken back; before the players moved
  the game goes on, after they moved (and before any table's next game has begun) the game is
  reopened: each table starts a new journal game with that game's players, its hands so far
  carried over. ``while_closing`` true: only before the players moved (refused after), for a
  sender that decided while the tables were closing (the demo's director).

Tables are named by the club's table ids (``t3``); the night numbers them in natural order.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime
from typing import Any, Protocol

from tricktable.club.errors import ClubError
from tricktable.club.movement import SEAT_WORDS, SEATS, TEAMS, seat_labels
from tricktable.club.tournament import Hand, ProgressiveTournament
from tricktable.engine.actions import action_from_json
from tricktable.history.words import action_words
from tricktable.protocol import Control, NightCommand
from tricktable.serve.journal import GameRecord, Journal

__all__ = ["Director", "LiveState", "CONSOLE_ID"]


class _Tables(Protocol):
    def control(self, table: str, control: Control) -> Any: ...
    def state(self, table: str) -> dict[str, Any]: ...


class LiveState(Protocol):
    """What a director's command reads and changes of the live night (``club.live.LiveNight``)."""

    tables: list[str]
    night: ProgressiveTournament
    journal: Journal
    games: dict[str, int]
    closed: dict[str, int]
    bell_rung: bool

    @property
    def service(self) -> _Tables | None: ...
    def reseat(self, tables: list[str], command_id: str) -> None: ...
    def restart_games(self) -> None: ...
    def records(self, table: str) -> list[GameRecord]: ...

CONSOLE_ID = "console-"  # + the command's id: a table control the director's command sent
NAME_WANTED = {"name": "type the name of the player who arrives",
               "out": "pick the player who leaves",
               "in": "type the name of the player who takes the seat"}


def _score(value: object, what: str) -> Hand:
    if not isinstance(value, list) or len(value) != 2 or \
            any(isinstance(x, bool) or not isinstance(x, int) for x in value):
        raise ClubError(f"{what}: a hand's score is two whole numbers [team A, team B], "
                        f"not {value!r}")
    return value[0], value[1]


def _called(live: LiveState, table: str) -> str:
    """A table as the room names it: night table n is "Table n" (docs/web.md, "One name per
    table")."""
    return f"Table {live.tables.index(table) + 1}"


def _text(hand: Hand) -> str:
    """A hand's score as the console says it: team A is North/South, team B East/West."""
    return f"N/S {hand[0]}, E/W {hand[1]}"


class Director:
    """What the director changed in the night (the file's ``director`` section) and the audit
    log; ``run`` does a command on a ``LiveNight`` (see the module docstring)."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        """From the night file's ``director`` section; ``ClubError`` if it cannot be read."""
        data = data or {}
        try:
            self.fixes: dict[str, dict[int, Hand]] = {
                t: {int(n): _score(h, f"the fix of {t} hand {n}") for n, h in hands.items()}
                for t, hands in data.get("fixes", {}).items()}
            self.decided: dict[str, str] = dict(data.get("decided", {}))
            self.carried: dict[str, list[Hand]] = {
                t: [_score(h, f"a hand carried at {t}") for h in hands]
                for t, hands in data.get("carried", {}).items()}
            self.early: bool = bool(data.get("early", False))
            self.again: int = int(data.get("again", 0))
            self.notes: dict[str, dict[str, str]] = {
                str(t): {str(k): str(n) for k, n in notes.items()}
                for t, notes in data.get("notes", {}).items()}
            self.audit: list[dict[str, Any]] = [dict(e) for e in data.get("audit", [])]
            if any(not isinstance(e.get("id"), str) for e in self.audit):
                raise ClubError("every audit entry needs its command's id")
        except (AttributeError, TypeError, ValueError) as exc:
            raise ClubError(f"the night's director section cannot be read: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        return {"fixes": {t: {str(n): list(h) for n, h in hands.items()}
                          for t, hands in self.fixes.items() if hands},
                "decided": self.decided,
                "carried": {t: [list(h) for h in hands] for t, hands in self.carried.items()},
                "early": self.early, "again": self.again,
                "notes": {t: notes for t, notes in self.notes.items() if notes},
                "audit": self.audit}

    # --- what the night reads --------------------------------------------------------

    def hands(self, table: str, journal: list[Hand]) -> list[Hand]:
        """This game's hands at ``table``: carried over an undone bell, then the journal's."""
        return [*self.carried.get(table, []), *journal]

    def fixed(self, table: str, hands: list[Hand]) -> list[Hand]:
        """``hands`` with the director's fixes of this game laid over them."""
        fixes = self.fixes.get(table, {})
        return [fixes.get(n, hand) for n, hand in enumerate(hands, 1)]

    def winners(self, live: LiveState) -> dict[int, str]:
        """The settled ties, by table number, of the tables still tied."""
        numbers = {t: n for n, t in enumerate(live.tables, 1)}
        return {numbers[t]: team for t, team in self.decided.items()
                if len(set(live.night.table_score(numbers[t]))) == 1}

    def next_game(self) -> None:
        """The bell moved the players: this game's corrections are in it now."""
        self.fixes, self.decided, self.carried, self.early = {}, {}, {}, False
        self.notes = {}

    def note(self, table: str, key: str, words: str) -> None:
        """What the room is told at ``table`` in the game in play (the TV's tile, the table
        page): "hand 1 voided by the director"; a later note with the same ``key`` (the same
        hand, seat or action) replaces it."""
        self.notes.setdefault(table, {}).pop(key, None)
        self.notes[table][key] = words

    def table_notes(self, table: str) -> list[str]:
        """The notes of ``table`` in the game in play, oldest first."""
        return list(self.notes.get(table, {}).values())

    # --- commands ------------------------------------------------------------------------

    def done(self, command_id: str) -> dict[str, Any] | None:
        """The audit entry of a command already done (a second copy of it), else None."""
        return next((e for e in self.audit if e["id"] == command_id), None)

    def run(self, live: LiveState, command: NightCommand) -> dict[str, Any]:
        """Do ``command`` on ``live`` and return its audit entry; ``ClubError`` if refused."""
        if live.night.finished and command.cmd not in ("fix_hand", "void_hand", "undo_bell"):
            raise ClubError(f"the night is over: all {live.night.options.rounds} games are played")
        handler = getattr(self, f"_{command.cmd}")
        round_before = live.night.round
        what, before, after = handler(live, command.args, command.id)
        entry = {"id": command.id, "at": datetime.now(UTC).isoformat(timespec="seconds"),
                 "by": command.by, "cmd": command.cmd, "round": live.night.round,
                 "what": what, "before": before, "after": after}
        if command.cmd in ("fix_hand", "void_hand"):  # where, for the replay of that hand
            entry.update(table=command.args["table"], hand=command.args["hand"],
                         game=command.args.get("game", round_before))
        self.audit.append(entry)
        return entry

    def refuse(self, live: LiveState, command: NightCommand, reason: str) -> None:
        """Keep a refused command in the audit log (``refused``: why; nothing changed)."""
        self.audit.append({"id": command.id, "at": datetime.now(UTC).isoformat(
            timespec="seconds"), "by": command.by, "cmd": command.cmd,
            "round": live.night.round, "what": _command_words(command.cmd, command.args),
            "before": "", "after": "not changed", "refused": reason})

    @staticmethod
    def _table(live: LiveState, args: dict[str, Any], key: str = "table") -> tuple[str, int]:
        table = args.get(key)
        if table not in live.tables:
            raise ClubError(f"there is no table {table!r} tonight: the night's tables are "
                            f"Table 1 to Table {len(live.tables)} ({', '.join(live.tables)})")
        return table, live.tables.index(table) + 1

    def _replace_action(self, live: LiveState, args: dict[str, Any],
                        command_id: str) -> tuple[str, str, str]:
        table, _ = self._table(live, args)
        assert live.service is not None
        state = live.service.state(table)
        if not isinstance(state.get("game"), int) or state["game"] < live.games[table]:
            raise ClubError(f"{_called(live, table)} is not playing this game of the night "
                            "yet: nothing to correct there")
        # the game in play: the round's first, or a fresh one after a game over (countdowns)
        record = next((g for g in live.records(table) if g.game == state["game"]), None)
        actions = record.actions if record is not None else []
        at = args.get("at")
        if isinstance(at, bool) or not isinstance(at, int) or not 1 <= at <= len(actions):
            raise ClubError(f"{_called(live, table)}'s game has {len(actions)} actions: pick one "
                            f"of 1 to {len(actions)}, not {at!r}")
        try:
            new = action_from_json(args.get("action")).to_json()
        except ValueError as exc:
            raise ClubError(f"action: {exc}") from None
        result = live.service.control(table, Control(
            cmd="replace", args={"at": at, "action": new}, id=f"{CONSOLE_ID}{command_id}"))
        if result is not None and not result.ok:
            raise ClubError(f"{_called(live, table)}: {result.reason}")
        seats = seat_labels(record.setup.get("players") or [] if record is not None else [])
        self.note(table, f"action {at}",
                  f"action {at} corrected by the director: {action_words(new, seats)}")
        return (f"{_called(live, table)}, action {at}", action_words(actions[at - 1], seats),
                action_words(new, seats))

    def _fix(self, live: LiveState, args: dict[str, Any], score: Hand,
             void: bool = False) -> tuple[str, str, str]:
        table, number = self._table(live, args)
        night = live.night
        game = args.get("game", night.round)
        if isinstance(game, bool) or not isinstance(game, int) or not 1 <= game <= night.round \
                or (game == night.round and night.finished):
            raise ClubError(f"there is no game {game!r} to correct: the games of the night so "
                            f"far are 1 to {min(night.round, night.options.rounds)}")
        hands = list(night.hands[number - 1]) if game == night.round \
            else list(night.games[game - 1].hands[number - 1])
        hand = args.get("hand")
        if isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= len(hands):
            raise ClubError(f"{_called(live, table)} has {len(hands)} hands in game {game}: "
                            f"pick one of 1 to {len(hands)}, not {hand!r}")
        before = hands[hand - 1]
        if before == score and not void:
            raise ClubError(f"{_called(live, table)}'s hand {hand} of game {game} already scores "
                            f"{_text(score)}: nothing to change")
        if game == night.round:
            self.fixes.setdefault(table, {})[hand] = score
            self.note(table, f"hand {hand}", f"hand {hand} voided by the director" if void else
                      f"hand {hand} scored {_text(score)} by the director")
        else:
            hands[hand - 1] = score
            self._rewrite(live, game, number, hands)
        return (f"{_called(live, table)}, game {game}, hand {hand}", _text(before),
                _text(score))

    @staticmethod
    def _rewrite(live: LiveState, game: int, number: int, hands: list[Hand]) -> None:
        """A finished game's hands at table ``number`` replaced, its winner unchanged."""
        night = live.night
        old = night.games[game - 1]
        won = old.winners[number - 1]
        a, b = sum(h[0] for h in hands), sum(h[1] for h in hands)
        decided = dict(old.decided)
        if a == b and decided.get(number) != won:
            raise ClubError(f"Table {number} would be tied {a}-{b} in game "
                            f"{game}; its winners (team {won}) have moved on: not changed")
        if a != b and ("A" if a > b else "B") != won:
            raise ClubError(f"team {won} won Table {number} in game {game} and "
                            f"has moved on; this fix ({a}-{b}) would change the winner: "
                            f"not changed")
        if a != b:
            decided.pop(number, None)
        table_hands = list(old.hands)
        table_hands[number - 1] = tuple(hands)
        night.games[game - 1] = dataclasses.replace(old, hands=tuple(table_hands),
                                                    decided=decided)

    def _fix_hand(self, live: LiveState, args: dict[str, Any],
                  command_id: str) -> tuple[str, str, str]:
        return self._fix(live, args, _score(args.get("score"), "score"))

    def _void_hand(self, live: LiveState, args: dict[str, Any],
                   command_id: str) -> tuple[str, str, str]:
        what, before, _ = self._fix(live, args, (0, 0), void=True)
        return what, before, "void (N/S 0, E/W 0)"

    def _swap(self, live: LiveState, args: dict[str, Any],
              command_id: str) -> tuple[str, str, str]:
        places = []
        for key in ("a", "b"):
            place = args.get(key)
            which = "first" if key == "a" else "second"
            if not isinstance(place, dict):
                raise ClubError(f"pick the {which} seat of the swap (a table and a seat)")
            table, number = self._table(live, place)
            seat = place.get("seat")
            if seat not in SEATS:
                raise ClubError(f"the {which} seat of the swap must be North, East, South or "
                                f"West, not {seat!r}")
            places.append((table, number, SEATS.index(seat)))
        if places[0] == places[1]:
            raise ClubError(f"{_called(live, places[0][0])} {SEAT_WORDS[places[0][2]]} is picked "
                            "twice: a swap takes two different seats")
        names = [live.night.seating[n - 1][s] for _, n, s in places]
        live.night.swap(names[0], names[1])  # kept with the game's changes
        for (table, _, seat), name in zip(places, reversed(names), strict=True):
            self.note(table, f"seat {seat}",
                      f"{name} sits {SEAT_WORDS[seat]} from now, moved by the director")
        live.reseat(sorted({places[0][0], places[1][0]}), command_id)
        where = [f"{_called(live, t)} {SEAT_WORDS[s]}" for t, _, s in places]
        return (f"swap {where[0]} and {where[1]}",
                f"{where[0]}: {names[0]}, {where[1]}: {names[1]}",
                f"{where[0]}: {names[1]}, {where[1]}: {names[0]}")

    def _settle(self, live: LiveState, args: dict[str, Any],
                command_id: str) -> tuple[str, str, str]:
        winners = args.get("winners")
        if not isinstance(winners, dict) or not winners:
            raise ClubError("winners must name each tied table's winning team: "
                            "{\"t2\": \"A\", \"t5\": \"B\"}")
        if not live.bell_rung:
            raise ClubError("the bell has not rung: a table's tie is settled once it has "
                            "finished its game")
        scores = {}
        for table, team in winners.items():
            _, number = self._table(live, {"table": table})
            if team not in TEAMS:
                raise ClubError(f"{_called(live, table)}: the winner is team A (N/S) or B "
                                f"(E/W), not {team!r}")
            if table not in live.closed:
                raise ClubError(f"{_called(live, table)} is still finishing its hand; settle "
                                "its tie once that hand is scored")
            a, b = live.night.table_score(number)
            if a != b:
                raise ClubError(f"{_called(live, table)} is not tied (N/S {a}, E/W {b}); only "
                                "a tied table needs a winner named")
            scores[table] = a
        self.decided.update(winners)
        tables = sorted(winners, key=live.tables.index)
        return (f"ties at {', '.join(_called(live, t) for t in tables)}",
                "; ".join(f"{_called(live, t)} tied {scores[t]}-{scores[t]}" for t in tables),
                "; ".join(f"{_called(live, t)}: {'N/S' if winners[t] == 'A' else 'E/W'} win"
                          for t in tables))

    def _ring(self, live: LiveState, args: dict[str, Any],
              command_id: str) -> tuple[str, str, str]:
        if live.bell_rung:
            raise ClubError("the bell has already rung in this game")
        left = live.night.hands_left()
        played = live.night.options.hands_per_round - left
        live.bell_rung, self.early = True, left > 0
        return (f"the bell of game {live.night.round}", f"not rung; the head table has played "
                f"{played} of {live.night.options.hands_per_round} hands", "rung by hand")

    @staticmethod
    def _name(args: dict[str, Any], key: str) -> str:
        name = args.get(key)
        if not isinstance(name, str) or not name.strip():
            raise ClubError(NAME_WANTED.get(key, f"type a player's name ({key})"))
        return name

    def _arrive(self, live: LiveState, args: dict[str, Any],
                command_id: str) -> tuple[str, str, str]:
        name = live.night.arrive(self._name(args, "name"))
        return (f"{name} arrives", "not at the night", f"plays from game {live.night.round + 1}")

    def _substitute(self, live: LiveState, args: dict[str, Any],
                    command_id: str) -> tuple[str, str, str]:
        seated = {n: live.tables[i] for i, t in enumerate(live.night.seating) for n in t}
        out, coming = live.night.substitute(self._name(args, "out"), self._name(args, "in"))
        if out in seated:
            seat = live.night.seating[live.tables.index(seated[out])].index(coming)
            self.note(seated[out], f"seat {seat}", f"{coming} took {out}'s seat, by the director")
            live.reseat([seated[out]], command_id)
        where = f" at {_called(live, seated[out])}" if out in seated else ""
        return (f"{coming} for {out}", f"{out}{where}", f"{coming}{where}; {out} has left")

    def _end(self, live: LiveState, args: dict[str, Any],
             command_id: str) -> tuple[str, str, str]:
        planned = live.night.last_round
        last = live.night.end()
        return ("the night ends early", _games(planned), _games(last))

    def _undo_bell(self, live: LiveState, args: dict[str, Any],
                   command_id: str) -> tuple[str, str, str]:
        night = live.night
        if live.bell_rung:
            if not self.early:
                raise ClubError("the head table has played all its hands: by the rules the "
                                "bell rings now, and it would ring again at once")
            live.bell_rung, self.early, self.decided = False, False, {}
            live.closed = {}
            return (f"the bell of game {night.round}", "rung by hand; the tables were closing",
                    "not rung: the game goes on")
        if args.get("while_closing"):
            raise ClubError("the players have moved since the bell: asked to take it back "
                            "only while the tables were closing")
        if not night.games:
            raise ClubError("no bell has rung tonight: nothing to undo")
        last = night.games[-1]
        if not last.early:
            raise ClubError(f"game {last.number}'s bell rang itself after the head table's "
                            f"{night.options.hands_per_round} hands; by the rules it stands")
        assert live.service is not None
        for number, table in enumerate(live.tables, 1):
            state = live.service.state(table)
            if night.hands[number - 1] or (state.get("game") == live.games[table]
                                           and state.get("actions")):
                raise ClubError(f"{_called(live, table)} has begun game {night.round}; the bell of game "
                                f"{last.number} can no longer be taken back")
        night.unbell()
        self.fixes, self.decided = {}, {}
        self.carried = {t: list(last.hands[n]) for n, t in enumerate(live.tables)}
        self.early, self.again = False, self.again + 1
        live.restart_games()
        return (f"the bell of game {last.number}", f"rung by hand; the players had moved to "
                f"game {last.number + 1}", f"taken back: game {last.number} goes on")


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def _table_words(table: object) -> str:
    """A table id as the room says it (``t3`` is Table 3), for a command that may name none."""
    match = re.fullmatch(r"t?(\d+)", str(table))
    return f"Table {int(match.group(1))}" if match else f"table {table!r}"


def _seat_words(place: dict[str, Any]) -> str:
    seat = place.get("seat")
    return f"{_table_words(place.get('table'))} " + (
        SEAT_WORDS[SEATS.index(seat)] if seat in SEATS else f"seat {seat!r}")


def _command_words(cmd: str, args: dict[str, Any]) -> str:
    """A command the night refused, as the audit log says it."""
    table = _table_words(args.get("table"))
    if cmd == "replace_action":
        return f"correct action {args.get('at')} at {table}"
    if cmd in ("fix_hand", "void_hand"):
        verb = "fix" if cmd == "fix_hand" else "void"
        return f"{verb} {table}, hand {args.get('hand')}" + (
            f" of game {args['game']}" if "game" in args else "")
    if cmd == "swap":
        a, b = (args.get(k) if isinstance(args.get(k), dict) else {} for k in ("a", "b"))
        return f"swap {_seat_words(a)} and {_seat_words(b)}"
    if cmd == "arrive":
        return f"{args.get('name')} arrives"
    if cmd == "substitute":
        return f"{args.get('in')} for {args.get('out')}"
    if cmd == "settle":
        return "settle the ties"
    return {"ring": "ring the bell", "undo_bell": "undo the bell",
            "end": "end the night"}.get(cmd, cmd)

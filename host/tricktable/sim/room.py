"""A club night's room of bots: players who find their seats on the tables' displays.

``Room`` holds one bot per player of the night's roster, the simulated tables (``SimTable``,
with their seat boards) and one display board per table (a virtual board running the
firmware with a ``Screen``). ``play()`` plays the whole night the way people would:

- **Find your seat.** Before each game every player reads a table's display: before the
  first game any display that names them (the tables list who sits down there), after that
  the display of the table they just played at, which says where each of its players goes
  (``ANN -> T3 N``, ``club.signs``); a player not on that display (the director swapped
  them into another table's seat) looks at the other tables' displays. A player whom no
  display names (one who arrived late, who sat out, or who came in for a player who left)
  looks up their seat as players do on their phones (``seat_of``, the night's ``/seat``
  page). A display line ``ANN -> BYE`` sits Ann out for that game.
- **Who plays.** The players of each game are the night's (``present``): an arrival joins,
  a player who left is gone, each with a bot of their own (``make_bot``). At each table the
  bots sit as the host's game there seats them (its setup), which the displays told them.
- **Corrections.** A table whose game the director started again (a swap or a substitute
  before its first action) plays the new game with its new players; an action the director
  corrected is read again by the table (``SimTable``).
- **Play until the bell.** Each table plays its game on the host (the game the night
  started, read from the host) until, before a hand starts, its display says the bell has
  rung or the night is over or, at the head table, it has played its hands (it rings the
  bell; it counts scored hands, as the night does). A table whose players began a hand after
  the night closed it (its display says HAND DONE) stops there: that hand would count for
  nothing. A game that is over before the bell (a variant that counts down to zero,
  ``club.night_games``) is followed by the fresh game the night starts at that table, with
  the same players, until the bell. A table that began a hand just before its display showed
  the bell stops when the night starts its next game under it (``Replaced``) or, after the
  last game, before the next hand, which the end of the night's sign forbids as the bell's
  does.
- Then the players look at their displays again for the moves, until the night is over
  (after its last game, or earlier when the director ends it).
  A table whose players began a hand just as the bell closed it stops there; if the night
  already started the table's next game, the director takes that play back (``undo``).

Runs on the boards' asyncio loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from tricktable.club.signs import (
    BELL,
    NAME_CHARS,
    OVER,
    move_line,
    no_more_hands,
    parse_move_line,
    table_closed,
)
from tricktable.sim.boards import SeatBoard
from tricktable.sim.bots import Bot
from tricktable.sim.table_sim import GameSummary, Replaced, SimError, SimTable

SEAT_LETTERS = "NESW"
SIGN_TIMEOUT_S = 120.0  # the slowest table may play a whole hand after the bell
SeatOf = Callable[[str], tuple[int, int, str] | None]  # name -> (game, table, seat) or None


class Room:
    """The bots of a night, its tables (head first) and their display boards."""

    def __init__(self, bots: dict[str, Bot], tables: Sequence[SimTable],
                 displays: Sequence[SeatBoard], rounds: int, hands_per_round: int,
                 game_of: Callable[[str], tuple[int, dict[str, Any]]],
                 take_back: Callable[[str], Awaitable[None]],
                 present: Callable[[], list[str]] | None = None,
                 seat_of: SeatOf | None = None,
                 make_bot: Callable[[str], Bot] | None = None) -> None:
        self.bots = bots
        self.present = present  # the night's players now (None: the bots given)
        self.seat_of = seat_of  # a player's seat in the night's game being played now
        self.make_bot = make_bot  # a bot for a player who joins the night
        self.tables = list(tables)
        self.displays = list(displays)
        self.rounds = rounds
        self.hands_per_round = hands_per_round
        self.game_of = game_of  # the host's current game at a table: number, setup
        self.take_back = take_back  # the director undoes a table's last action
        self.round = 0  # the game of the night being played
        self.at: dict[str, int] = {}  # player -> the table number they last sat at
        self.signs: dict[str, list[str]] = {}  # table -> lines the host last showed there
        self.summaries: list[GameSummary] = []
        self.played: dict[str, int] = {}  # table -> hands played in this game of the night
        self.done = asyncio.Event()  # the night is over
        self.seen: list[tuple[int, str, str, list[str]]] = []  # (game, player, board, lines)

    def on_display(self, table: str, msg: dict[str, Any]) -> None:
        """The host's display message for ``table`` (call on the loop thread)."""
        self.signs[table] = list(msg.get("lines") or [])

    async def play(self) -> None:
        """Every game of the night, then wait for the end sign."""
        for number in range(1, self.rounds + 1):
            self.round = number
            await asyncio.gather(*(self._find_seat(name) for name in self._players()))
            if self._over():  # the director ended the night early
                break
            await asyncio.gather(*(self._play(number, sim)
                                   for number, sim in enumerate(self.tables, 1)))
        await self._until(lambda: all(d.screen is not None and d.screen.lines[:1]
                                      == ["NIGHT OVER"] for d in self.displays),
                          lambda: "the tables never showed the end of the night: " + "; ".join(
                              f"{d.id} shows {' / '.join(d.screen.lines) if d.screen else 'nothing'}"
                              for d in self.displays))
        self.done.set()

    def _over(self, board: SeatBoard | None = None) -> bool:
        """Does a table's display (``board``, else the head table's) say the night is over?
        (Every table shows it at once.)"""
        screen = (board or self.displays[0]).screen
        return screen is not None and screen.lines[:1] == [OVER]

    def _players(self) -> list[str]:
        """The night's players now, each with a bot (a newcomer gets one)."""
        names = self.present() if self.present is not None else list(self.bots)
        for name in names:
            if name not in self.bots:
                assert self.make_bot is not None, f"no bot for {name}"
                self.bots[name] = self.make_bot(name)
        for name in set(self.bots) - set(names):  # left the night
            del self.bots[name]
            self.at.pop(name, None)
        return names

    async def _find_seat(self, name: str) -> None:
        """Read the move line that names ``name`` and sit there (or sit out)."""
        shown = name.upper()[:NAME_CHARS]
        own = [self.displays[self.at[name] - 1]] if name in self.at else []
        found: list[tuple[int, str]] = []

        def moved_elsewhere() -> bool:  # my display shows the moves, and not mine
            assert own[0].screen is not None
            lines = own[0].screen.lines
            return any(parse_move_line(line) for line in lines) and \
                not any(line.startswith(f"{shown} -> ") for line in lines)

        def read() -> bool:
            if self._over(own[0] if own else None):
                return True
            # my own table's display; the others only once it shows the moves without me
            for board in (own if own and not moved_elsewhere() else self.displays):
                assert board.screen is not None
                for line in board.screen.lines:
                    move = parse_move_line(line)
                    if line == move_line((shown, 0, "BYE")):
                        move = (shown, 0, "BYE")
                    if move is not None and move[0] == shown:
                        found.append(move[1:])
                        self.seen.append((self.round, name, board.id, list(board.screen.lines)))
                        return True
            seat = self.seat_of(name) if self.seat_of is not None and self.round > 1 \
                and name not in self.at else None
            if seat is not None and seat[0] == self.round:  # the phone page, this game's
                found.append(seat[1:])
                return True
            return False

        await self._until(read, lambda: self._lost(name, own or self.displays))
        if not found:  # the night is over
            return
        number, letter = found[0]
        if not number:  # sits out this game
            self.at.pop(name, None)
            return
        self._sit(name, number, SEAT_LETTERS.index(letter))

    def _sit(self, name: str, number: int, seat: int) -> None:
        bot = self.bots[name]
        bot.seat = seat
        self.tables[number - 1].seats[seat].bot = bot
        self.at[name] = number

    def _lost(self, name: str, where: Sequence[SeatBoard]) -> str:
        """Why ``name`` gave up finding their seat: which display they read, what it shows."""
        shown = "; ".join(f"{board.id} shows "
                          f"{' / '.join(board.screen.lines) if board.screen else 'nothing'}"
                          for board in where)
        head = self.tables[0].table
        return (f"{name} never found their seat in game {self.round} of the night: no move "
                f"line names them within {SIGN_TIMEOUT_S:.0f} s ({shown}); the head table "
                f"{head} has played {self.played.get(head, 0)} of its {self.hands_per_round} "
                "hands")

    async def _play(self, number: int, sim: SimTable) -> None:
        """The table's game of the night, and the fresh games after one that is over."""
        self.played[sim.table] = 0
        def stop(hands: int) -> bool:
            return no_more_hands(self.signs.get(sim.table, [])) or \
                (number == 1 and self.played[sim.table] + hands >= self.hands_per_round)

        fresh = False  # the game before is over: wait for the night's fresh game
        game = 0
        while True:
            if fresh and not await self._fresh_game(sim.table, game, stop):
                return
            game, setup = self.game_of(sim.table)
            if any(name not in self.bots for name in setup["players"]):
                self._players()  # a fresh game seats the night's players now: a substitute
            for seat, name in enumerate(setup["players"]):  # as the host seats them
                if name not in self.bots:
                    raise SimError(f"table {sim.table}: the host seats {name}, who is not "
                                   "at the night")
                self._sit(name, number, seat)
            try:
                summary = await self._until_the_moves(number, sim, setup, stop)
            except Replaced as exc:
                self.played[sim.table] += sim.scored
                if exc.stale:  # that play went into the new game: the director takes it back
                    await self.take_back(sim.table)
                if exc.restarted:  # the director started this game again: play the new one
                    fresh = False
                    continue
                return  # the bell closed the table as its next hand began
            summary.game = game  # the host's number, for the journal
            if summary.actions:
                self.summaries.append(summary)
            self.played[sim.table] += summary.scored
            if sim.mirror.phase != "game_over":
                return
            fresh = True

    async def _fresh_game(self, table: str, over: int, stop: Callable[[int], bool]) -> bool:
        """After game ``over`` at ``table`` ended before the bell: True when the night started
        a fresh game there, False when the bell rang first."""
        await self._until(lambda: self.game_of(table)[0] > over or stop(0),
                          lambda: f"table {table}: its game {over} is over before the bell, "
                          "and the night started no fresh game there")
        return self.game_of(table)[0] > over

    async def _until_the_moves(self, number: int, sim: SimTable, setup: dict[str, Any],
                               stop: Callable[[int], bool]) -> GameSummary:
        """Play the table's game until the bell; a bell the director took back (the display
        shows the game again rather than the moves) and the table plays on."""
        resume = False
        while True:
            summary = await sim.play_game(
                setup, stop, lambda: table_closed(self.signs.get(sim.table, [])), resume=resume)
            if sim.mirror.phase == "game_over" or (number == 1 and self.played[sim.table]
                                                   + summary.scored >= self.hands_per_round):
                return summary  # a head table through with its hands rings the bell
            await self._until(lambda: self.signs.get(sim.table, [])[:1] != [BELL],
                              lambda: f"table {sim.table} never saw the moves after the bell")
            lines = self.signs.get(sim.table, [])
            if lines[:1] == [OVER] or any(parse_move_line(line) or " -> " in line
                                          for line in lines):
                return summary
            resume = True  # the bell was taken back: the game goes on

    @staticmethod
    async def _until(done: Callable[[], bool], message: Callable[[], str]) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SIGN_TIMEOUT_S
        while not done():
            if loop.time() > deadline:
                raise SimError(message())
            await asyncio.sleep(0.01)

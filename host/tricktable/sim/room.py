"""A club night's room of bots: players who find their seats on the tables' displays.

``Room`` holds one bot per player of the night's roster, the simulated tables (``SimTable``,
with their seat boards) and one display board per table (a virtual board running the
firmware with a ``Screen``). ``play()`` plays the whole night the way people would:

- **Find your seat.** Before each game every player reads a table's display: before the
  first game any display that names them (the tables list who sits down there), after that
  the display of the table they just played at, which says where each of its players goes
  (``ANN -> T3 N``, ``club.signs``). Nobody is told their seat any other way.
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
- Then the players look at their displays again for the moves, until the night is over.
  A table whose players began a hand just as the bell closed it stops there; if the night
  already started the table's next game, the director takes that play back (``undo``).

Runs on the boards' asyncio loop. Imports ``club.signs``, ``sim.boards``, ``sim.bots`` and
``sim.table_sim``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from tricktable.club.signs import NAME_CHARS, no_more_hands, parse_move_line, table_closed
from tricktable.sim.boards import SeatBoard
from tricktable.sim.bots import Bot
from tricktable.sim.table_sim import GameSummary, Replaced, SimError, SimTable

SEAT_LETTERS = "NESW"
SIGN_TIMEOUT_S = 120.0  # the slowest table may play a whole hand after the bell


class Room:
    """The bots of a night, its tables (head first) and their display boards."""

    def __init__(self, bots: dict[str, Bot], tables: Sequence[SimTable],
                 displays: Sequence[SeatBoard], rounds: int, hands_per_round: int,
                 game_of: Callable[[str], tuple[int, dict[str, Any]]],
                 take_back: Callable[[str], Awaitable[None]]) -> None:
        self.bots = bots
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
            await asyncio.gather(*(self._find_seat(name) for name in self.bots))
            await asyncio.gather(*(self._play(number, sim)
                                   for number, sim in enumerate(self.tables, 1)))
        await self._until(lambda: all(d.screen is not None and d.screen.lines[:1]
                                      == ["NIGHT OVER"] for d in self.displays),
                          lambda: "the tables never showed the end of the night: " + "; ".join(
                              f"{d.id} shows {' / '.join(d.screen.lines) if d.screen else 'nothing'}"
                              for d in self.displays))
        self.done.set()

    async def _find_seat(self, name: str) -> None:
        """Read the move line that names ``name`` and sit there."""
        shown = name.upper()[:NAME_CHARS]
        where = [self.displays[self.at[name] - 1]] if name in self.at else self.displays
        found: list[tuple[int, str]] = []

        def read() -> bool:
            for board in where:
                assert board.screen is not None
                for line in board.screen.lines:
                    move = parse_move_line(line)
                    if move is not None and move[0] == shown:
                        found.append(move[1:])
                        self.seen.append((self.round, name, board.id, list(board.screen.lines)))
                        return True
            return False

        await self._until(read, lambda: self._lost(name, where))
        number, letter = found[0]
        seat = SEAT_LETTERS.index(letter)
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
        seated = [next(n for n, b in self.bots.items() if b is seat.bot) for seat in sim.seats]

        def stop(hands: int) -> bool:
            return no_more_hands(self.signs.get(sim.table, [])) or \
                (number == 1 and self.played[sim.table] + hands >= self.hands_per_round)

        game = 0
        while True:
            if game and not await self._fresh_game(sim.table, game, stop):
                return
            game, setup = self.game_of(sim.table)
            if setup["players"] != seated:
                raise SimError(f"table {sim.table}: the host plays with {setup['players']} "
                               f"but the displays seated {seated}")
            try:
                summary = await sim.play_game(
                    setup, stop, lambda: table_closed(self.signs.get(sim.table, [])))
            except Replaced as exc:  # the bell closed the table as its next hand began
                self.played[sim.table] += sim.scored
                if exc.stale:  # that play went into the next game: the director takes it back
                    await self.take_back(sim.table)
                return
            summary.game = game  # the host's number, for the journal
            if summary.actions:
                self.summaries.append(summary)
            self.played[sim.table] += summary.scored
            if sim.mirror.phase != "game_over":
                return

    async def _fresh_game(self, table: str, over: int, stop: Callable[[int], bool]) -> bool:
        """After game ``over`` at ``table`` ended before the bell: True when the night started
        a fresh game there, False when the bell rang first."""
        await self._until(lambda: self.game_of(table)[0] > over or stop(0),
                          lambda: f"table {table}: its game {over} is over before the bell, "
                          "and the night started no fresh game there")
        return self.game_of(table)[0] > over

    @staticmethod
    async def _until(done: Callable[[], bool], message: Callable[[], str]) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SIGN_TIMEOUT_S
        while not done():
            if loop.time() > deadline:
                raise SimError(message())
            await asyncio.sleep(0.01)

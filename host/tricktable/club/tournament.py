"""The progressive tournament of one club night (“Bid Euchre”, section “Bid euchre variations”, "Progressive").

"The lead table plays eight hands, the deal revolving to the left with each hand, so that each
player has dealt twice, then rings the bell again. When the bell rings, players at each table
finish their current hand and record their team score on an individual tally. [...] After 10
games, players total their tally sheets, to determine the high score and low score."

``ProgressiveTournament`` holds the roster, the current seating (tables head first, four names
in seat order N, E, S, W; team A is N/S, team B is E/W), the hands recorded at each table in
the current game, and every finished game. ``bell()`` is allowed once the head table has
played ``hands_per_round`` hands; it closes the game, puts each team's score on its two
players' tallies and moves the players (``movement.move``). A tied table has no winner to move,
so the organiser names it (``bell({2: "A"})``); the article is silent on ties. Every method
checks its input first and raises ``ClubError`` without changing anything.

Imports ``errors``, ``movement``, ``roster``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tricktable.club.errors import ClubError
from tricktable.club.movement import SEATS, TEAM_SEATS, TEAMS, Table, move, pair
from tricktable.club.roster import validate_roster

__all__ = ["ProgressiveOptions", "TallyEntry", "Game", "ProgressiveTournament"]

Hand = tuple[int, int]


def _positive(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ClubError(f"{name} must be a whole number of at least 1, not {value!r}")
    return value


@dataclass(frozen=True)
class ProgressiveOptions:
    """The night's rules, defaulted from “Bid Euchre”, "Progressive"."""

    hands_per_round: int = 8
    """Hands the head table plays before it rings the bell: "The lead table plays eight hands
    [...] so that each player has dealt twice"."""
    rounds: int = 10
    """Games (rounds) in the night: "After 10 games, players total their tally sheets"."""

    def __post_init__(self) -> None:
        _positive("hands_per_round", self.hands_per_round)
        _positive("rounds", self.rounds)


@dataclass(frozen=True)
class TallyEntry:
    """One line of a player's tally sheet: one game, their team's score and the opponents'."""

    round: int
    table: int
    seat: str
    partner: str
    score: int
    against: int
    won: bool


@dataclass(frozen=True)
class Game:
    """A finished game (round): where everyone sat, the hands each table recorded, who won.
    ``decided`` holds the ties the organiser settled (table number -> team); ``early``: the
    director rang the bell by hand before the head table was through."""

    number: int
    seating: tuple[Table, ...]
    hands: tuple[tuple[Hand, ...], ...]
    winners: tuple[str, ...]
    decided: dict[int, str] = field(default_factory=dict)
    early: bool = False


def _score(hands: Sequence[Hand]) -> Hand:
    return sum(h[0] for h in hands), sum(h[1] for h in hands)


class ProgressiveTournament:
    """A club night's progressive tournament: seating, hands, the bell, the tallies."""

    def __init__(self, seating: Sequence[Sequence[str]],
                 options: ProgressiveOptions | None = None) -> None:
        """Start a night with this first seating (tables head first, four names each)."""
        if not seating:
            raise ClubError("a progressive night needs at least one table of four")
        for number, table in enumerate(seating, 1):
            if not isinstance(table, list | tuple) or not all(isinstance(n, str) for n in table):
                raise ClubError(f"table {number} must be a list of four names, not {table!r}")
            if len(table) != 4:
                raise ClubError(f"table {number} seats {len(table)} players; a table seats four")
        names = [name for table in seating for name in table]
        self.players: tuple[str, ...] = validate_roster(names)
        self.options = options or ProgressiveOptions()
        self.seating: list[Table] = [(t[0], t[1], t[2], t[3]) for t in seating]
        self.hands: list[list[Hand]] = [[] for _ in seating]
        self.games: list[Game] = []

    @classmethod
    def new(cls, players: Sequence[str], tables: int | None = None,
            options: ProgressiveOptions | None = None,
            shuffle_seed: int | None = None) -> ProgressiveTournament:
        """A night for ``players``, seated four to a table in roster order (N, E, S, W at
        table 1, then table 2 ...), or shuffled by ``shuffle_seed`` (deterministic)."""
        names = list(players)
        count = len(names)
        if count == 0 or count % 4:
            raise ClubError(f"{count} players cannot fill tables of four; bring a multiple of 4")
        if tables is not None and tables * 4 != count:
            raise ClubError(f"{count} players fill {count // 4} tables, not {tables}")
        if shuffle_seed is not None:
            random.Random(shuffle_seed).shuffle(names)
        return cls([names[i:i + 4] for i in range(0, count, 4)], options)

    # -- the state ---------------------------------------------------------------------
    @property
    def tables(self) -> int:
        return len(self.seating)

    @property
    def round(self) -> int:
        """The game being played (1-based); ``rounds + 1`` once the night is over."""
        return len(self.games) + 1

    @property
    def finished(self) -> bool:
        return len(self.games) >= self.options.rounds

    def table_score(self, table: int) -> Hand:
        """Team A's and team B's score at ``table`` (1 = head) so far in this game."""
        return _score(self.hands[self._index(table)])

    def hands_left(self) -> int:
        """Hands the head table still plays before the bell."""
        return self.options.hands_per_round - len(self.hands[0])

    # -- recording ---------------------------------------------------------------------
    def _index(self, table: int) -> int:
        if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= self.tables:
            raise ClubError(f"there is no table {table!r}: the tables are 1 (head) to {self.tables}")
        return table - 1

    def _check_open(self) -> None:
        if self.finished:
            raise ClubError(f"the night is over: all {self.options.rounds} games are played")

    def record_hand(self, table: int, a: int, b: int) -> None:
        """One hand's score at ``table``: team A (N/S) made ``a``, team B (E/W) made ``b``."""
        self.set_hands(table, [*self.hands[self._index(table)], (a, b)])

    def undo_hand(self, table: int) -> Hand:
        """Take back the last hand recorded at ``table`` this game (a score typed wrong)."""
        hands = self.hands[self._index(table)]
        if not hands:
            raise ClubError(f"table {table} has no hand recorded in this game")
        self.set_hands(table, hands[:-1])
        return hands[-1]

    def set_hands(self, table: int, hands: Sequence[Sequence[int]]) -> None:
        """Replace the hands recorded at ``table`` this game (e.g. read from its journal)."""
        self._check_open()
        index = self._index(table)
        checked: list[Hand] = []
        for n, hand in enumerate(hands, 1):
            if not isinstance(hand, list | tuple) or len(hand) != 2 or any(isinstance(x, bool) or not isinstance(x, int) for x in hand):
                raise ClubError(f"table {table}, hand {n}: a hand's score is two whole numbers "
                                f"(team A, team B), not {hand!r}")
            checked.append((hand[0], hand[1]))
        limit = self.options.hands_per_round
        if index == 0 and len(checked) > limit:
            raise ClubError(f"the head table plays {limit} hands a game and then rings the bell; "
                            f"hand {limit + 1} belongs to the next game")
        self.hands[index] = checked

    # -- the bell ----------------------------------------------------------------------
    def bell(self, decided: Mapping[int, str] | None = None, *, early: bool = False) -> Game:
        """Close this game: tally it and move the players. ``decided`` names the winning team
        of each tied table (table number -> "A" or "B") and of no other; ``early``: the
        director rings it before the head table has played all its hands."""
        self._check_open()
        decided = dict(decided or {})
        left = self.hands_left()
        if left and not early:
            raise ClubError(f"the head table has played {len(self.hands[0])} of its "
                            f"{self.options.hands_per_round} hands; it rings the bell after "
                            f"the last ({left} to go)")
        for number, team in decided.items():
            self._index(number)
            if team not in TEAMS:
                raise ClubError(f"table {number}: the winner is team A or B, not {team!r}")
        winners: list[str] = []
        for number in range(1, self.tables + 1):
            a, b = self.table_score(number)
            if a != b:
                if number in decided:
                    raise ClubError(f"table {number} is not tied (A {a}, B {b}); "
                                    "only a tied table needs a winner named")
                winners.append("A" if a > b else "B")
            elif number in decided:
                winners.append(decided[number])
            else:
                raise ClubError(f"table {number} is tied {a}-{a}: name its winning team "
                                f"(A or B) before ringing the bell")
        game = Game(self.round, tuple(self.seating), tuple(tuple(h) for h in self.hands),
                    tuple(winners), decided, early)
        self.games.append(game)
        if not self.finished:
            self.seating = move(self.seating, winners)
        self.hands = [[] for _ in self.seating]
        return game

    # -- the tallies -------------------------------------------------------------------
    def tallies(self) -> dict[str, list[TallyEntry]]:
        """Each player's tally sheet: one entry per finished game, in roster order."""
        sheets: dict[str, list[TallyEntry]] = {name: [] for name in self.players}
        for game in self.games:
            for number, (table, hands, won) in enumerate(
                    zip(game.seating, game.hands, game.winners, strict=True), 1):
                scores = dict(zip(TEAMS, _score(hands), strict=True))
                for team in TEAMS:
                    first, second = pair(table, team)
                    against = scores["B" if team == "A" else "A"]
                    for name, partner in ((first, second), (second, first)):
                        seat = SEATS[TEAM_SEATS[team][0 if name == first else 1]]
                        sheets[name].append(TallyEntry(game.number, number, seat, partner,
                                                       scores[team], against, won == team))
        return sheets

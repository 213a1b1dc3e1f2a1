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

What real nights need (the article is silent on all of it; the club's judgement, documented in
docs/club.md), as methods a console may call:

* ``new(players)`` with a count that is not a multiple of four seats ``len // 4`` tables and
  benches the rest; ``bench`` sits out this game and the bench rotates at every bell
  (``byes.rotate``); a bye scores ``options.bye_score`` ("average" or "zero"; ``byes``).
* ``arrive(name)``: a late arrival (or a player who left, coming back) joins from the next
  game; until the bell they wait in ``arriving``.
* ``substitute(out, name)``: ``name`` (a newcomer, a player who left, or one sitting out)
  takes ``out``'s place at once; ``out`` leaves the night (``left``; ``arrive`` brings them
  back). The game in play goes whole on the tally of whoever sits in the seat at the bell.
* ``swap(a, b)``: two players change places (seats, or a seat and a bye) in the game in play,
  a director's correction; ``seat(name, table, seat)`` swaps ``name`` with whoever sits there.
* ``end()``: the game in play is the last one (or, with no hand played in it yet, the last
  bell was); ``last_round`` is then the night's length.
* ``unbell()``: take back the last bell (its movement and its tallies); the game comes back
  with its hands, so a score can be fixed and the bell rung again.

``players`` is everyone who has been on the roster tonight, in the order they came;
``changes`` lists this game's arrivals, substitutions and swaps (``("arrive", name)``,
``("substitute", out, name)``, ``("swap", a, b)``), kept on the ``Game`` at the bell so a
night file can replay them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tricktable.club.byes import bye_score, check_bye_score, rotate
from tricktable.club.errors import ClubError
from tricktable.club.movement import SEATS, TEAM_SEATS, TEAMS, Table, move, pair
from tricktable.club.roster import validate_roster

__all__ = ["ProgressiveOptions", "TallyEntry", "Game", "ProgressiveTournament"]

Hand = tuple[int, int]
Change = tuple[str, ...]


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
    bye_score: str = "average"
    """What a player sitting out a game scores: "average" or "zero" (``byes``; the article is
    silent on byes)."""

    def __post_init__(self) -> None:
        _positive("hands_per_round", self.hands_per_round)
        _positive("rounds", self.rounds)
        check_bye_score(self.bye_score)


@dataclass(frozen=True)
class TallyEntry:
    """One line of a player's tally sheet: one game, their team's score and the opponents'.
    A bye is table 0, seat "bye", no partner, ``bye`` true."""

    round: int
    table: int
    seat: str
    partner: str
    score: int
    against: int
    won: bool
    bye: bool = False


@dataclass(frozen=True)
class Game:
    """A finished game (round): where everyone sat at the bell, the hands each table recorded,
    who won. ``decided`` holds the ties the organiser settled (table number -> team);
    ``early``: the director rang the bell by hand before the head table was through;
    ``bench`` who sat out; ``changes`` the arrivals, substitutions and swaps made during it;
    ``joined`` the arrivals that came in at its bell."""

    number: int
    seating: tuple[Table, ...]
    hands: tuple[tuple[Hand, ...], ...]
    winners: tuple[str, ...]
    decided: dict[int, str] = field(default_factory=dict)
    early: bool = False
    bench: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()
    joined: tuple[str, ...] = ()


def _score(hands: Sequence[Hand]) -> Hand:
    return sum(h[0] for h in hands), sum(h[1] for h in hands)


class ProgressiveTournament:
    """A club night's progressive tournament: seating, hands, the bell, the tallies."""

    def __init__(self, seating: Sequence[Sequence[str]],
                 options: ProgressiveOptions | None = None, bench: Sequence[str] = ()) -> None:
        """Start a night with this first seating (tables head first, four names each) and
        ``bench`` sitting out the first game."""
        if not seating:
            raise ClubError("a progressive night needs at least one table of four")
        for number, table in enumerate(seating, 1):
            if not isinstance(table, list | tuple) or not all(isinstance(n, str) for n in table):
                raise ClubError(f"table {number} must be a list of four names, not {table!r}")
            if len(table) != 4:
                raise ClubError(f"table {number} seats {len(table)} players; a table seats four")
        if not isinstance(bench, list | tuple) or not all(isinstance(n, str) for n in bench):
            raise ClubError(f"the players sitting out must be a list of names, not {bench!r}")
        if len(bench) >= 4 * len(seating):
            raise ClubError(f"{len(bench)} players cannot all sit out at {len(seating)} "
                            "tables; seat them at another table")
        names = [name for table in seating for name in table]
        self.players: tuple[str, ...] = validate_roster([*names, *bench])
        self.options = options or ProgressiveOptions()
        self.seating: list[Table] = [(t[0], t[1], t[2], t[3]) for t in seating]
        self.bench: list[str] = list(self.players[len(names):])
        self.first_seating: tuple[Table, ...] = tuple(self.seating)
        self.first_bench: tuple[str, ...] = tuple(self.bench)
        self.hands: list[list[Hand]] = [[] for _ in seating]
        self.games: list[Game] = []
        self.arriving: list[str] = []
        self.left: list[str] = []
        self.changes: list[Change] = []
        self.ended: int | None = None

    @classmethod
    def new(cls, players: Sequence[str], tables: int | None = None,
            options: ProgressiveOptions | None = None,
            shuffle_seed: int | None = None) -> ProgressiveTournament:
        """A night for ``players``, seated four to a table in roster order (N, E, S, W at
        table 1, then table 2 ...), or shuffled by ``shuffle_seed`` (deterministic); the
        players beyond the last full table sit out the first game."""
        names = list(players)
        count = len(names)
        fit = count // 4
        if fit == 0:
            raise ClubError(f"{count} players cannot fill a table of four; bring at least 4")
        if tables is not None and tables != fit:
            spare = f" with {count % 4} sitting out each game" if count % 4 else ""
            raise ClubError(f"{count} players fill {fit} tables{spare}, not {tables}")
        if shuffle_seed is not None:
            random.Random(shuffle_seed).shuffle(names)
        return cls([names[i:i + 4] for i in range(0, fit * 4, 4)], options, names[fit * 4:])

    # -- the state ---------------------------------------------------------------------
    @property
    def tables(self) -> int:
        return len(self.seating)

    @property
    def round(self) -> int:
        """The game being played (1-based); ``rounds + 1`` once the night is over."""
        return len(self.games) + 1

    @property
    def last_round(self) -> int:
        """The number of games the night plays: ``rounds``, or fewer after ``end()``."""
        return self.ended or self.options.rounds

    @property
    def finished(self) -> bool:
        return len(self.games) >= self.last_round

    def present(self) -> list[str]:
        """Everyone at the night now: seated, sitting out and arriving for the next game."""
        return [*(n for t in self.seating for n in t), *self.bench, *self.arriving]

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
            raise ClubError(f"the night is over: all {self.last_round} games are played")

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
                    tuple(winners), decided, early, tuple(self.bench), tuple(self.changes),
                    tuple(self.arriving))
        self.games.append(game)
        if not self.finished:
            self.seating, self.bench = rotate(move(self.seating, winners),
                                              [*self.bench, *self.arriving], self._played(),
                                              self.players)
        self.arriving = []
        self.hands = [[] for _ in self.seating]
        self.changes = []
        return game

    def unbell(self) -> Game:
        """Take back the last bell: its game comes back with its hands and its seating, its
        tallies and its movement are undone (a score to fix, a tie settled wrongly). Refused
        once a hand of the next game is recorded or a player was substituted or moved since."""
        if not self.games:
            raise ClubError("no bell has rung tonight; there is none to take back")
        busy = [str(n) for n, hands in enumerate(self.hands, 1) if hands]
        if busy:
            raise ClubError(f"table {', '.join(busy)} already recorded hands of game "
                            f"{self.round}; take them back first (undo), then the bell")
        if any(change[0] != "arrive" for change in self.changes):
            raise ClubError(f"players were substituted or moved in game {self.round}, after "
                            "the bell; the bell can no longer be taken back")
        game = self.games.pop()
        self.seating = list(game.seating)
        self.hands = [list(hands) for hands in game.hands]
        self.bench = list(game.bench)
        self.arriving = [*game.joined, *self.arriving]
        self.changes = [*game.changes, *self.changes]
        return game

    def end(self) -> int:
        """End the night early: the game in play is the last (or, if no table has recorded a
        hand of it yet, the last bell was, and its movement is taken back: there is no next
        game). Returns the night's number of games."""
        self._check_open()
        last = self.round if any(self.hands) else len(self.games)
        if last == 0:
            raise ClubError("no hand has been played tonight; there is no night to end")
        if last == len(self.games):
            if self.changes:
                raise ClubError(f"players arrived, were substituted or moved after the bell "
                                f"of game {last}; a night that ends with that bell has no game "
                                "for them")
            self.seating = list(self.games[-1].seating)
            self.bench = list(self.games[-1].bench)
        self.ended = last
        return last

    # -- who is here -------------------------------------------------------------------
    def _played(self) -> dict[str, int]:
        played = dict.fromkeys(self.players, 0)
        for game in self.games:
            for name in (n for table in game.seating for n in table):
                played[name] += 1
        return played

    def _find(self, name: str, among: Sequence[str], what: str) -> str:
        key = str(name).strip().casefold()
        found = next((n for n in among if n.casefold() == key), None)
        if found is None:
            raise ClubError(f"{name!r} is not {what}")
        return found

    def _newcomer(self, name: str) -> str:
        """``name`` as it goes on the roster: a player who left, or a new name."""
        key = str(name).strip().casefold()
        here = next((n for n in self.present() if n.casefold() == key), None)
        if here is not None:
            raise ClubError(f"{str(name).strip()!r} is already at the night (as {here!r})")
        returning = next((n for n in self.left if n.casefold() == key), None)
        return returning or validate_roster([*self.players, name])[-1]

    def _enter(self, name: str) -> None:
        if name in self.left:
            self.left.remove(name)
        elif name not in self.players:
            self.players = (*self.players, name)

    def arrive(self, name: str) -> str:
        """A late arrival (or a player who left, back again) joins from the next game.
        Returns the name as it goes on the roster."""
        self._check_open()
        newcomer = self._newcomer(name)
        self._enter(newcomer)
        self.arriving.append(newcomer)
        self.changes.append(("arrive", newcomer))
        return newcomer

    def substitute(self, out: str, name: str) -> tuple[str, str]:
        """``name`` takes ``out``'s place now (seat, bye or arrival) and ``out`` leaves the
        night. ``name`` is a newcomer, a player who left, or one sitting out or arriving
        (who then takes ``out``'s seat). Returns both names as on the roster."""
        self._check_open()
        leaving = self._find(out, self.present(), "at the night")
        waiting = [*self.bench, *self.arriving]
        key = str(name).strip().casefold()
        coming = next((n for n in waiting if n.casefold() == key), None)
        if coming is not None:
            if leaving in waiting:
                raise ClubError(f"{leaving} and {coming} are both waiting; "
                                "a substitute takes a seat at a table")
            (self.bench if coming in self.bench else self.arriving).remove(coming)
        else:
            coming = self._newcomer(name)
            self._enter(coming)
        self.seating = [tuple(coming if n == leaving else n for n in table)  # type: ignore[misc]
                        for table in self.seating]
        self.bench = [coming if n == leaving else n for n in self.bench]
        self.arriving = [coming if n == leaving else n for n in self.arriving]
        self.left.append(leaving)
        self.changes.append(("substitute", leaving, coming))
        return leaving, coming

    def swap(self, first: str, second: str) -> tuple[str, str]:
        """``first`` and ``second`` change places now (two seats, or a seat and a bye); the
        game in play goes on the tally of whoever sits in a seat at the bell. Returns both
        names as on the roster."""
        self._check_open()
        places = [*(n for t in self.seating for n in t), *self.bench]
        a = self._find(first, places, "seated or sitting out")
        b = self._find(second, places, "seated or sitting out")
        if a == b:
            raise ClubError(f"{a} cannot change places with themselves")
        other = {a: b, b: a}
        self.seating = [tuple(other.get(n, n) for n in table)  # type: ignore[misc]
                        for table in self.seating]
        self.bench = [other.get(n, n) for n in self.bench]
        self.changes.append(("swap", a, b))
        return a, b

    def seat(self, name: str, table: int, seat: str) -> tuple[str, str]:
        """Put ``name`` at ``table`` (1 = head), ``seat`` (N, E, S or W), swapping with the
        player there. Returns both names."""
        index = self._index(table)
        if seat not in SEATS:
            raise ClubError(f"a seat is {', '.join(SEATS)}, not {seat!r}")
        return self.swap(name, self.seating[index][SEATS.index(seat)])

    # -- the tallies -------------------------------------------------------------------
    def tallies(self) -> dict[str, list[TallyEntry]]:
        """Each player's tally sheet: one entry per finished game they played or sat out
        (a bye), in roster order."""
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
            bye = bye_score(self.options.bye_score, [_score(h) for h in game.hands])
            for name in game.bench:
                sheets[name].append(TallyEntry(game.number, 0, "bye", "", bye, 0, False, True))
        return sheets

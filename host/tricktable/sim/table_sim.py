"""One simulated table: bots at virtual boards playing whole games through the host.

``SimTable.play_game()`` plays one game the way people at a real table would: the dealer
shuffles the kit's deck (from the table's own ``random.Random``) and deals; every player
taps each of their cards on their pad (the hand scan); then whoever is to act decides
(``tricktable.sim.bots.Bot``) and places the card or token that does it on their pad,
waits for the host's verdict on the table's event stream and lifts it. A refused play
(a revoke under the strict house rule) is taken back and replaced by an honest one.

The bots follow the game on a private copy of the engine, fed only with the actions the
host reports as accepted (``on_event``), so they see what the host decided, not what they
meant. A director's correction of an action (the table's ``replace`` control, from the
console) changes the game under them: they read the host's actions again (``host_actions``)
and go on from there, as players told "that card was the Q♦" would. In a club night the
bell ends a game early: ``play_game(stop=...)``, and ``Replaced`` when the night started the
next game under a play. Runs on the boards' asyncio loop.
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tricktable.cards import parse_card_copy
from tricktable.club.live import FRESH, NEW_GAME_ID
from tricktable.club.night_commands import CONSOLE_ID
from tricktable.engine import Engine
from tricktable.engine.actions import Action, ScanCard, TurnUp, action_from_json
from tricktable.engine.events import HandScored
from tricktable.sim.boards import SeatBoard
from tricktable.sim.bots import Bot
from tricktable.sim.kit import Kit

VERDICT_TIMEOUT_S = 15.0


class SimError(RuntimeError):
    """The simulated table and the host disagree, or the host did not answer."""


class Replaced(SimError):
    """A club night started the table's next game under a play (``stale``: the host applied
    it to the new game; ``restarted``: the director started the same game of the night
    again, with new players, rather than the bell the next)."""

    def __init__(self, table: str, stale: bool, restarted: bool = False) -> None:
        super().__init__(f"table {table}: the night started the next game")
        self.stale = stale
        self.restarted = restarted


@dataclass
class GameSummary:
    """How one simulated game went."""

    table: str
    game: int
    variant: str
    sides: list[str]
    scores: list[int]
    winner: str | None
    hands: int
    revokes: int
    refused: list[str] = field(default_factory=list)
    actions: int = 0
    scored: int = 0  # hands scored (a hand thrown in is not: the night counts these)


@dataclass
class Seat:
    board: SeatBoard
    pad: int
    bot: Bot


def deck_cards(setup: dict[str, Any]) -> list[str]:
    """Every physical card of the game ``setup`` starts, printed (``AS``, ``AS'``)."""
    state = Engine.replay(setup, []).state
    return [state.card_name(p) for p in state.deck.physical]


class SimTable:
    """Bots, their boards and their kit for one table of the host's club."""

    def __init__(self, table: str, setup: dict[str, Any], seats: list[Seat], kit: Kit,
                 rng: random.Random, pace_s: float,
                 host_actions: Callable[[], list[dict[str, Any]]] | None = None) -> None:
        self.table = table
        self.host_actions = host_actions  # the host's actions of the game in play (JSON)
        self.corrected = False  # a correction changed the game since the bots last read it
        self.setup = setup
        self.seats = seats
        self.kit = kit
        self.rng = rng
        self.pace_s = pace_s
        self.games = 0
        self.mirror = Engine.replay(setup, [])
        self.revokes = self.scored = 0
        self.deck = deck_cards(setup)
        self._pile: list[str] = []
        self._dealt = 0
        self._shuffled_for: tuple[int, int] | None = None  # (game, hand) of the shuffle
        self._verdicts: dict[tuple[str, int], asyncio.Queue[dict[str, Any]]] = defaultdict(
            asyncio.Queue)
        self.replaced = False
        self.restarted = False

    # -- the host's event stream -----------------------------------------------------------
    def on_event(self, event: dict[str, Any]) -> None:
        """One ``TableEvent`` of this table (call on the loop thread); a night's new game
        there ends the game being played (``Replaced``), but not the fresh game the night
        starts after a game that is over."""
        reason = str(event.get("reason", ""))
        control_id = str(event.get("id"))
        if event.get("kind") == "control" and control_id.startswith(NEW_GAME_ID) \
                and FRESH not in control_id:
            self.replaced = True
        elif event.get("kind") == "control" and control_id.startswith(CONSOLE_ID) \
                and reason.startswith("game ") and " started" in reason:
            # the director's console started the night's game again (club.night_commands)
            self.replaced = self.restarted = True
        elif event.get("kind") == "control" and reason.startswith("action ") \
                and " is now " in reason:  # table.replace's answer
            self.corrected = True
        if event.get("kind") in ("accepted", "refused") and event.get("board") is not None:
            # a verdict after the night's new game is the new game's
            self._verdicts[(event["board"], event.get("pad") or 0)].put_nowait(
                {**event, "next_game": self.replaced})

    # -- a game ----------------------------------------------------------------------------
    async def play_game(self, setup: dict[str, Any] | None = None,
                        stop: Callable[[int], bool] | None = None,
                        closed: Callable[[], bool] | None = None,
                        resume: bool = False) -> GameSummary:
        """Play from the start of a game on the host to its end, or until ``stop(hands
        scored)`` says so before a hand starts (a club night's bell), or ``closed()`` at any
        time (the night closed the table as a hand began: that hand counts for nothing).
        ``setup``: the game the host started, when it is not the table's own (a night's new
        players); ``resume``: go on with the game where the host has it (a bell taken back;
        its hands scored so far still count)."""
        if not resume:
            self.games += 1
            self.replaced = self.restarted = False
            self.scored = 0
        self.setup = setup or self.setup
        self.mirror = Engine.replay(self.setup, [])
        if resume:
            self.corrected = True  # read the host's game
        self.revokes = 0
        refused: list[str] = []
        while True:
            if self.restarted:
                raise Replaced(self.table, stale=False, restarted=True)
            if self.corrected:
                self._read_again()
            if self.mirror.phase == "game_over":
                break
            hand = self.mirror.public_state()["hand_number"]
            if closed is not None and closed():
                break
            if stop is not None and (self.replaced or self._shuffled_for != (self.games, hand)
                                     and stop(self.scored)):
                break
            if self.mirror.phase == "deal" and await self._deal_step():
                continue
            legal = [a for a in self.mirror.legal_actions() if self.kit.has_tag(a)]
            if not legal:
                raise SimError(f"table {self.table}: no tag of the kit does any legal action "
                               f"in phase {self.mirror.phase}")
            seat = self.mirror.to_act if self.mirror.to_act is not None else legal[0].seat
            hand = self.mirror.known_hand(seat)
            state = self.mirror.public_state()
            action = self.seats[seat].bot.choose(state, hand, legal)
            verdict = await self._do(seat, action)
            if verdict["kind"] == "refused" and self.corrected:
                continue  # chosen before a correction changed the game: read it again
            if verdict["kind"] == "refused":
                refused.append(f"{state['seats'][seat]}: {verdict.get('reason')}")
                action = self.seats[seat].bot.choose(state, hand, legal, honest=True)
                verdict = await self._do(seat, action)
                if verdict["kind"] == "refused" and not self.corrected:
                    raise SimError(f"table {self.table}: the host refused an honest "
                                   f"{action.to_json()}: {verdict.get('reason')}")
            trick_done = len(self.mirror.public_state()["trick"]["cards"]) == 0
            await asyncio.sleep(self.pace_s * (3 if trick_done else 1))
        state = self.mirror.public_state()
        sides = [s["name"] for s in state["sides"]]
        winner = state.get("winner")
        return GameSummary(
            table=self.table, game=self.games, variant=state["variant"], sides=sides,
            scores=state["scores"], winner=sides[winner] if isinstance(winner, int) else None,
            hands=state["hand_number"], revokes=self.revokes,
            refused=refused, actions=len(self.mirror.actions), scored=self.scored)

    def _read_again(self) -> None:
        """The game as the host has it now, after a director's correction."""
        self.corrected = False
        if self.host_actions is None:
            raise SimError(f"table {self.table}: an action was corrected and the bots cannot "
                           "read the host's game again")
        self.mirror = Engine.replay(self.setup, [action_from_json(a)
                                                 for a in self.host_actions()])

    async def _deal_step(self) -> bool:
        """Deal and scan one card, or turn up the up-card; False when the deal is done."""
        state = self.mirror.public_state()
        if self._shuffled_for != (self.games, state["hand_number"]):
            self._shuffle((self.games, state["hand_number"]))
        legal = self.mirror.legal_actions()
        turn_up = [a for a in legal if isinstance(a, TurnUp)]
        if turn_up:  # the dealer turns up the top card before the players pick up their hands
            card, copy = parse_card_copy(self._pile.pop())
            dealer = turn_up[0].seat
            self._expect_ok(await self._do(dealer, TurnUp(dealer, card, copy)))
            return True
        scanning = [a for a in legal if isinstance(a, ScanCard)]
        if scanning:
            n = len(self.seats)
            waiting = {a.seat for a in scanning}
            seat = next(s for s in ((state["dealer"] + 1 + self._dealt + i) % n
                                    for i in range(n)) if s in waiting)
            card, copy = parse_card_copy(self._pile.pop())
            self._dealt += 1
            self._expect_ok(await self._do(seat, ScanCard(seat, card, copy)))
            await asyncio.sleep(self.pace_s / 8)
            return True
        return False

    def _shuffle(self, hand: tuple[int, int]) -> None:
        self._pile = list(self.deck)
        self.rng.shuffle(self._pile)
        self._dealt = 0
        self._shuffled_for = hand

    def _expect_ok(self, verdict: dict[str, Any]) -> None:
        if verdict["kind"] != "accepted":
            raise SimError(f"table {self.table}: the host refused a deal step: "
                           f"{verdict.get('reason')}")

    async def _do(self, seat: int, action: Action) -> dict[str, Any]:
        """Place the tag for ``action`` on the seat's pad; apply what the host accepted."""
        where = self.seats[seat]
        tag = self.kit.tag_for(action)
        queue = self._verdicts[(where.board.id, where.pad)]
        while not queue.empty():
            queue.get_nowait()
        await where.board.place(where.pad, tag.uid, tag.record)
        try:
            verdict = await asyncio.wait_for(queue.get(), VERDICT_TIMEOUT_S)
        except TimeoutError:
            raise SimError(f"table {self.table}: no verdict on {tag.name} from seat {seat} "
                           f"within {VERDICT_TIMEOUT_S:.0f} s") from None
        finally:
            where.board.lift(where.pad)
        if self.replaced:
            raise Replaced(self.table, stale=verdict["kind"] == "accepted" and
                           verdict["next_game"], restarted=self.restarted)
        if verdict["kind"] == "accepted" and not self.corrected:
            out = self.mirror.apply(action_from_json(verdict["action"]))
            if not out.ok:
                raise SimError(f"table {self.table}: the host accepted {verdict['action']} "
                               f"but the bots' copy of the game refuses it: {out.reason}")
            self.revokes += sum(1 for e in out.events if e.to_json()["type"] == "revoke")
            self.scored += sum(1 for e in out.events if isinstance(e, HandScored))
        return verdict

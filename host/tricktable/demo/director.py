"""The demo night's director: ties settled by a coin toss, and (``--director``) each of the
console's corrections done once during the night, the way a director would on a real one.

``DemoDirector.run()`` watches the live night (``club.live.LiveNight``) from the boards'
asyncio loop and sends its commands exactly as the console does (a ``NightCommand`` handed
to the night, answered and kept in the audit log). With ``corrections`` it does, in this
order and each when its moment comes (and again later if the night refuses it, e.g. a table
played on meanwhile): a hand's score fixed and another voided, a card and a bid corrected
(the last action of a table, put right as a mis-scan), two players of two tables in play
swapped, a substitute for a player who leaves, a late arrival, the bell rung by hand, undone,
and rung again. ``done`` lists the audit entries of what it did, ``missing`` what the night
ended before it could do. The tables, their displays and the bots follow each correction
(``sim.room``, ``sim.table_sim``).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tricktable import protocol
from tricktable.club.live import LiveNight
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, Play, action_from_json

log = logging.getLogger("tricktable.demo.runner")

BY = "demo director"
ARRIVING, SUBSTITUTE = "Zoe", "Yan"  # not in the demo's roster (demo.NAMES)
POLL_S = 0.05

Args = dict[str, Any] | None  # a correction's arguments once its moment has come
MIN_HANDS, MIN_ROUNDS = 3, 3
"""The smallest night every correction fits in: the bell rung by hand needs the head table
to have played a hand and have two left, and to be rung again after the undo, one more; an
arrival needs a game after the one in play; the earlier corrections take a game of their own
on a fast machine."""


def fits(hands: int, rounds: int) -> str | None:
    """Why a night of ``rounds`` games of ``hands`` hands cannot hold every correction of
    ``--director`` (said before the night starts), or None when it can."""
    if hands >= MIN_HANDS and rounds >= MIN_ROUNDS:
        return None
    return (f"--director does every correction once, the bell rung by hand, undone and rung "
            f"again among them: that needs --hands {MIN_HANDS} or more and --rounds "
            f"{MIN_ROUNDS} or more (this night: --hands {hands}, --rounds {rounds})")


@dataclass
class _Step:
    cmd: str
    label: str  # what the end summary calls it
    ready: Callable[[], Args]


class DemoDirector:
    """The director of a demo night (see the module docstring)."""

    def __init__(self, live: LiveNight, seed: int | None, corrections: bool) -> None:
        self.live = live
        self.toss = random.Random(seed)
        self.done: list[tuple[str, dict[str, Any]]] = []  # (label, audit entry)
        self._count = 0
        self._head_hands_at_undo = 0
        self._ring_by_hand = _Step("ring", "the bell rung by hand", self._ring)
        self._steps = [
            _Step("fix_hand", "a hand's score fixed", self._fix),
            _Step("void_hand", "a hand voided", self._void),
            _Step("replace_action", "a card corrected", lambda: self._correct(Play)),
            _Step("replace_action", "a bid corrected", lambda: self._correct(Bid)),
            _Step("swap", "two players swapped", self._swap),
            _Step("substitute", "a substitute for a player who left", self._substitute),
            _Step("arrive", "a late arrival", self._arrive),
            self._ring_by_hand,
            _Step("undo_bell", "the bell undone", self._undo),
            _Step("ring", "the bell rung again", self._ring_again),
        ] if corrections else []

    @property
    def missing(self) -> list[str]:
        """The corrections the night ended before they could be done."""
        return [step.label for step in self._steps]

    async def run(self, over: asyncio.Event) -> None:
        """Direct until ``over`` is set."""
        while not over.is_set():
            await self._settle_ties()
            if self._steps and not self.live.night.finished:
                step = self._steps[0]
                if step.cmd == "undo_bell" and not self.live.bell_rung:
                    # the tables finished their hands and moved before the undo was sent (a
                    # loaded machine): the bell is rung by hand again, for the undo to catch
                    log.info("the bell moved the players before it could be undone: rung again")
                    self._steps.insert(0, self._ring_by_hand)
                    continue
                args = step.ready()
                if args is not None:
                    entry = await self._send(step.cmd, args)
                    if entry is not None:
                        self.done.append((step.label, entry))
                        self._steps.pop(0)
                        if step.cmd == "undo_bell":
                            self._head_hands_at_undo = len(self.live.night.hands[0])
                        continue  # the next one at once (a bell is undone before it moves)
            await asyncio.sleep(POLL_S)

    async def _send(self, cmd: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """Do one command as the console does; its audit entry, or None if refused."""
        self._count += 1
        command_id = f"demo-{self._count}-{cmd}"
        payload = protocol.encode(protocol.NightCommand(cmd=cmd, args=args, by=BY,  # type: ignore[arg-type]
                                                        id=command_id))
        await asyncio.to_thread(self.live.command, self.live.topics.night_control(), payload)
        entry = self.live.director.done(command_id)
        if entry is None or "refused" in entry:  # a refusal is in the audit log too
            log.info("the director's %s was refused (%s); tried again later", cmd,
                     entry["refused"] if entry else "no answer")
            return None
        return entry

    async def _settle_ties(self) -> None:
        """A tied table's winner by a coin toss (the rules are silent)."""
        live = self.live
        ties = live.ties() if live.bell_blocked else []
        if ties:
            log.warning("the director settles the tie at table(s) %s by a coin toss", ties)
            await self._send("settle", {"winners": {live.tables[n - 1]: self.toss.choice("AB")
                                                    for n in ties}})

    # --- when each correction's moment has come -------------------------------------------

    def _playing(self) -> bool:
        return not self.live.bell_rung and not self.live.night.finished

    def _begun(self, table: str) -> bool:
        service = self.live.service
        assert service is not None
        state = service.state(table)
        return state.get("game") == self.live.games.get(table) and bool(state.get("actions"))

    def _scored(self, table: str) -> Args:
        number = self.live.tables.index(table) + 1
        hands = self.live.night.hands[number - 1]
        return {"table": table, "hand": 1, "score": list(hands[0])} if hands and \
            self._playing() else None

    def _fix(self) -> Args:
        args = self._scored(self.live.tables[-1])
        if args is not None:
            args["score"] = [args["score"][0] + 1, args["score"][1]]
        return args

    def _void(self) -> Args:
        args = self._scored(self.live.tables[1])
        return None if args is None else {"table": args["table"], "hand": 1}

    def _correct(self, kind: type) -> Args:
        """A table whose last action is of ``kind`` and could have been another: that one."""
        if not self._playing():
            return None
        service = self.live.service
        assert service is not None
        for table in self.live.tables:
            game = service.state(table).get("game")  # a fresh game's too (a countdown's)
            record = next((g for g in self.live.records(table) if g.game == game), None)
            if record is None or not record.actions:
                continue
            last = action_from_json(record.actions[-1])
            if not isinstance(last, kind):
                continue
            engine = Engine.replay(record.setup, [action_from_json(a)
                                                  for a in record.actions[:-1]])
            other = next((a for a in engine.legal_actions()
                          if isinstance(a, kind) and a.seat == last.seat and a != last), None)
            if other is not None:
                return {"table": table, "at": len(record.actions), "action": other.to_json()}
        return None

    def _swap(self) -> Args:
        first, second = self.live.tables[1], self.live.tables[-1]
        if not self._playing() or not self._begun(first) or not self._begun(second):
            return None
        return {"a": {"table": first, "seat": "E"}, "b": {"table": second, "seat": "W"}}

    def _substitute(self) -> Args:
        table = self.live.tables[-1]
        if not self._playing() or not self._begun(table):
            return None
        return {"out": self.live.night.seating[-1][2], "in": SUBSTITUTE}

    def _arrive(self) -> Args:
        night = self.live.night
        return {"name": ARRIVING} if night.round < night.last_round else None

    def _in_a_hand(self) -> bool:
        """Is some table in the middle of a hand (so that the bell cannot move the players
        at once, before it is undone)?"""
        service = self.live.service
        assert service is not None
        return any(service.state(t).get("phase") == "play" for t in self.live.tables)

    def _ring(self) -> Args:
        night = self.live.night
        early = bool(night.hands[0]) and night.hands_left() >= 2
        return {} if self._playing() and early and night.round < night.last_round and \
            self._in_a_hand() else None

    def _undo(self) -> Args:
        # only while closing: the tables may finish and move before the night reads it (a
        # loaded machine); refused then, and the bell is rung again for an undo to catch
        return {"while_closing": True} if self.live.bell_rung and self.live.director.early \
            else None

    def _ring_again(self) -> Args:
        night = self.live.night
        more = len(night.hands[0]) > self._head_hands_at_undo and night.hands_left() >= 1
        return {} if self._playing() and more and self._in_a_hand() else None

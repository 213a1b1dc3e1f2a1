"""Games played at random through the engine's int API, for the analysis tests: optionally
with a first card in each hand that the double-dummy solver says costs its side a trick;
and such a game written to a journal as the host records it."""

from __future__ import annotations

import random
from pathlib import Path

from tricktable.analysis.solver import Solver
from tricktable.engine import Engine
from tricktable.engine.intplay import CardPlay
from tricktable.journal import Journal
from tricktable.protocol import Control, encode

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def random_game(seed: int, hands: int, variant: str = "bid-euchre", blunder: bool = False):
    """``hands`` scored hands of random legal play through the int API; with ``blunder``
    the first card of each hand is one the solver says costs its side a trick, when there
    is one."""
    eng = Engine.new(variant, options={"target": None}, seed=seed, players=PLAYERS)
    rng = random.Random(seed)
    while eng.state.hands_played < hands:
        legal = eng.legal_ids()
        st = eng.state
        if blunder and st.phase == "play" and not st.tricks and not st.trick:
            cp = CardPlay.from_state(st)
            side = cp.side_of[cp.to_play]
            best = Solver(cp).tricks(side)
            for p in legal:
                cp.play(p)
                worse = cp.won[side] + Solver(cp).tricks(side) < best
                cp.undo()
                if worse:
                    legal = [p]
                    break
        eng.apply_id(rng.choice(legal))
    return eng


def write_journal(path: Path, table: str, eng: Engine) -> None:
    """The journal ``path`` with ``eng``'s game as game 1 of ``table``."""
    with Journal(path) as journal:
        control = Control(cmd="new_game")
        entry = journal.append_control(table, control, "c", encode(control))
        journal.record_game(table, 1, entry.id, dict(eng.config))
        journal.record_actions(table, 1, entry.id,
                               [(n, a.to_json()) for n, a in enumerate(eng.actions, 1)])

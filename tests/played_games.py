"""Games played at random through the engine's int API, for the analysis tests: optionally
with a first card in each hand that the double-dummy solver says costs its side a trick;
a hand with a revoke (record mode) as well; and such a game written to a journal as the
host records it."""

from __future__ import annotations

import random
from pathlib import Path

from tricktable.analysis.solver import Solver
from tricktable.cards import CARDS, COPY_STRIDE
from tricktable.engine import Engine
from tricktable.engine.actions import Play
from tricktable.engine.intplay import CardPlay
from tricktable.protocol import Control, encode
from tricktable.serve.journal import Journal

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


def revoke_game(seed: int, variant: str = "bid-euchre") -> Engine:
    """One hand in record mode (“revoke_mode=record”: the table accepts a card that does not
    follow suit and penalises it when the hand is scored) whose first card costs its side a
    trick, and where the first seat that can follow suit after that does not: it plays a
    card of another suit, which its hand proves a revoke. Every hand is known (dealt by the
    engine), so the analysis runs on it."""
    eng = Engine.new(variant, options={"target": None, "revoke_mode": "record"}, seed=seed,
                     players=PLAYERS)
    rng = random.Random(seed)
    revoked = False
    while eng.state.hands_played < 1:
        st = eng.state
        if st.phase == "play" and (st.tricks or st.trick) and not revoked:
            seat = st.to_act
            legal = set(eng.legal_ids())
            others = [p for p in range(106) if st.known[seat] >> p & 1 and p not in legal]
            if others:
                p = rng.choice(others)
                out = eng.apply(Play(seat, CARDS[p % COPY_STRIDE], p // COPY_STRIDE))
                assert out.ok, out.reason
                revoked = True
                continue
        if st.phase == "play" and not st.tricks and not st.trick:
            _play_costly(eng, rng)
            continue
        eng.apply_id(rng.choice(eng.legal_ids()))
    assert revoked, f"seed {seed}: no seat could revoke"
    return eng


def _play_costly(eng: Engine, rng: random.Random) -> None:
    """The first card of a hand: one that costs its side a trick when there is one."""
    cp = CardPlay.from_state(eng.state)
    side = cp.side_of[cp.to_play]
    best = Solver(cp).tricks(side)
    legal = eng.legal_ids()
    for p in legal:
        cp.play(p)
        worse = cp.won[side] + Solver(cp).tricks(side) < best
        cp.undo()
        if worse:
            eng.apply_id(p)
            return
    eng.apply_id(rng.choice(legal))


def write_journal(path: Path, table: str, eng: Engine) -> None:
    """The journal ``path`` with ``eng``'s game as game 1 of ``table``."""
    with Journal(path) as journal:
        control = Control(cmd="new_game")
        entry = journal.append_control(table, control, "c", encode(control))
        journal.record_game(table, 1, entry.id, dict(eng.config))
        journal.record_actions(table, 1, entry.id,
                               [(n, a.to_json()) for n, a in enumerate(eng.actions, 1)])

"""Analysis of recorded hands: every play's double-dummy cost, and what each trump would make.

``analyse_game(record)`` replays a game record (``tricktable.history``) on the engine and,
for each hand whose cards were all known when the play began (dealt by the engine, or every
card scanned), returns a JSON-able dict (the format is in docs/analysis.md):

- ``contracts``: for each trump the variant names (and any other the contract allowed,
  such as no trump) and each seat that could have declared
  it, the tricks each side takes double-dummy from the hands as the play began, led as the
  variant's rules lead that contract (``made``: the declaring side reaches the tricks the
  actual contract needed);
- ``plays``: for every card played, the tricks the player's side takes in all (taken so far
  plus double-dummy from there) before and after the card; ``cost`` is the difference, so a
  card that cost a trick has cost 1 or more. A card that failed to follow suit is played as
  it was (``revoke``: true) and the analysis goes on from the position it made.

Hands with unknown cards (a table that did not scan them) are listed with ``unknown`` and a
reason. Caching and files live with the CLI (``cli.analyse_cmd``). Imports ``engine``,
``history``, ``rules`` and ``analysis.solver``.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from tricktable.analysis.solver import Solver, Stats
from tricktable.engine import Engine
from tricktable.engine.actions import Play
from tricktable.engine.intplay import CardPlay
from tricktable.engine.state import State
from tricktable.history.record import GameRecord

__all__ = ["analyse_game", "contracts_table", "FORMAT"]

FORMAT = 1
"""The version of the analysis JSON (docs/analysis.md)."""


def analyse_game(record: GameRecord, stats: Stats | None = None) -> dict[str, Any]:
    """The analysis of every hand of ``record`` (see the module docstring); ``stats``
    counts the searches' work."""
    cfg = record.config
    eng = Engine.new(cfg["variant"], cfg.get("options"), cfg.get("seed", 0),
                     cfg.get("dealer", 0), cfg.get("players"))
    hands: list[dict[str, Any]] = []
    current: _HandWalk | None = None
    for action in record.actions():
        st = eng.state
        if current is not None and type(action) is Play and st.phase == "play":
            current.before_play(st, action)
        out = eng.apply(action)
        if not out.ok:
            raise ValueError(f"hand {st.hand_number}: {action.to_json()} refused: {out.reason}")
        st = eng.state
        if st.phase != "play":
            current = None
        elif current is None:
            current = _HandWalk(st, stats)
            hands.append(current.result)
    return {"format": FORMAT, "variant": eng.state.variant.name,
            "players": list(eng.state.players), "hands": hands}


class _HandWalk:
    """One hand's analysis, built as its plays are replayed."""

    def __init__(self, st: State, stats: Stats | None) -> None:
        c = st.contract
        self.result: dict[str, Any] = {
            "hand_number": st.hand_number, "dealer": st.dealer,
            "contract": c.to_json() if c else None,
            "sides": [list(s) for s in st.sides]}
        self.cp: CardPlay | None = None
        try:
            self.cp = CardPlay.from_state(st)
        except ValueError as exc:
            self.result["unknown"] = str(exc)
            return
        self.solver = Solver(self.cp, stats)
        self.result["contracts"] = contracts_table(st, stats)
        self.result["plays"] = []

    def before_play(self, st: State, action: Play) -> None:
        cp = self.cp
        if cp is None:
            return
        p = action.card.index + 53 * (action.copy or 0)
        if not cp.hands[action.seat] >> p & 1:  # a bare double-deck card: the copy it held
            p += 53
        side = cp.side_of[action.seat]
        before = cp.won[side] + self.solver.tricks(side)
        revoke = not cp.legal_mask() >> p & 1
        trick = len(cp.tricks) + 1
        cp.play(p)
        after = cp.won[side] + self.solver.tricks(side)
        self.result["plays"].append({
            "seat": action.seat, "card": st.card_name(p), "trick": trick, "side": side,
            "before": before, "after": after, "cost": before - after, "revoke": revoke})


def contracts_table(st: State, stats: Stats | None = None) -> list[dict[str, Any]]:
    """What each trump makes from the hands of a table whose play is beginning, for each
    seat that could declare it (``first_leader`` of a copy of the table decides who leads):
    the ``contracts`` of a hand's analysis."""
    v = st.variant
    actual = st.contract
    assert actual is not None, "the play has begun: there is a contract"
    rows: list[dict[str, Any]] = []
    seats = [s for s in range(st.n) if s not in st.out]
    solved: dict[tuple[str, int], list[int]] = {}
    for trump in dict.fromkeys([*v.trump_names, *v.trump_choices(st)]):
        for declarer in seats:
            view = copy.copy(st)
            view.contract = dataclasses.replace(actual, seat=declarer, trump=trump)
            view.order = v.ordering(trump)
            view.tricks = []
            leader = v.first_leader(view)
            while leader in st.out:  # as the engine starts the play
                leader = (leader + 1) % st.n
            key = (trump, leader)
            if key not in solved:
                cp = CardPlay(v, st.options, view.order, st.known, seats, st.side_of, leader)
                solver = Solver(cp, stats)
                solved[key] = [solver.tricks(i) for i in range(len(st.sides))]
            tricks = solved[key]
            side = st.side_of[declarer]
            rows.append({"trump": trump, "declarer": declarer, "leader": leader,
                         "tricks": tricks,
                         "made": tricks[side] >= actual.need})
    return rows

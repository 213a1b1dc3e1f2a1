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
  it was (``revoke``: true) and the analysis goes on from the position it made;
- ``par``: every contract the auction could have reached, what it makes and scores, and the
  contract a perfect-information auction ends in (``analysis.par``), from the hands as dealt.

Hands with unknown cards (a table that did not scan them) are listed with ``unknown`` and a
reason. Caching and files live in ``analysis.cache``.
"""

from __future__ import annotations

import copy
from typing import Any

from tricktable.analysis.par import DoubleDummy, auction_start, hand_par
from tricktable.analysis.solver import Solver, Stats
from tricktable.engine import Engine
from tricktable.engine.actions import Play
from tricktable.engine.intplay import CardPlay
from tricktable.engine.state import State
from tricktable.history.record import GameRecord
from tricktable.rules.base import STOCK, Contract

__all__ = ["analyse_game", "contracts_table", "FORMAT"]

FORMAT = 2
"""The version of the analysis JSON (docs/analysis.md)."""


def analyse_game(record: GameRecord, stats: Stats | None = None) -> dict[str, Any]:
    """The analysis of every hand of ``record`` (see the module docstring); ``stats``
    counts the searches' work."""
    cfg = record.config
    eng = Engine.new(cfg["variant"], cfg.get("options"), cfg.get("seed", 0),
                     cfg.get("dealer", 0), cfg.get("players"))
    hands: list[dict[str, Any]] = []
    current: _HandWalk | None = None
    dealt = auction_start(eng.state)
    for action in record.actions():
        st = eng.state
        if current is not None and type(action) is Play and st.phase == "play":
            current.before_play(st, action)
        out = eng.apply(action)
        if not out.ok:
            raise ValueError(f"hand {st.hand_number}: {action.to_json()} refused: {out.reason}")
        st = eng.state
        if st.phase in ("deal", "bidding") and not st.bids:
            dealt = auction_start(st)
        if st.phase != "play":
            if current is not None:
                current.finish()
            current = None
        elif current is None:
            current = _HandWalk(st, dealt, stats)
            hands.append(current.result)
    return {"format": FORMAT, "variant": eng.state.variant.name,
            "players": list(eng.state.players), "hands": hands}


class _HandWalk:
    """One hand's analysis, built as its plays are replayed."""

    def __init__(self, st: State, dealt: State, stats: Stats | None) -> None:
        c = st.contract
        self.result: dict[str, Any] = {
            "hand_number": st.hand_number, "dealer": st.dealer,
            "contract": c.to_json() if c else None,
            "sides": [list(s) for s in st.sides]}
        self.cp: CardPlay | None = None
        self.dealt, self.dd = dealt, DoubleDummy(st, stats)
        self.exposed: list[int] | None = None
        """The cards each seat has played, when par waits for the play to show the hands."""
        self.taken_up = [0] * st.n
        """Per seat, the card it took up (not dealt to it); ``discarded``: the card it
        put down for it (dealt to it, not played)."""
        self.discarded = [0] * st.n
        if all(h.bit_count() == dealt.hand_size for h in dealt.known):
            self.result["par"] = hand_par(dealt, self.dd) | {"hands": "as dealt"}
        elif self._undo_stock_exchanges(st, dealt) and not st.out:
            self.exposed = [0] * st.n
        else:
            self.result["par"] = {"none": "the hands as dealt are not known, and the play "
                                          "cannot show them (cards passed unseen, or a seat "
                                          "sat out)"}
        try:
            self.cp = CardPlay.from_state(st)
        except ValueError as exc:
            self.result["unknown"] = str(exc)
            return
        self.solver = Solver(self.cp, stats)
        self.result["contracts"] = contracts_table(st, dd=self.dd)
        self.result["plays"] = []

    def _undo_stock_exchanges(self, st: State, dealt: State) -> bool:
        """Whether the hands as dealt follow from the hands the play will show: no card
        passed between players, and the up-card taken up and the card discarded for it
        known (kept in ``taken_up`` and ``discarded``)."""
        for giver, receiver in st.variant.exchanges(st):
            if giver == STOCK:
                if dealt.up_card is None:
                    return False
                self.taken_up[receiver] |= 1 << dealt.up_card
            elif receiver == STOCK:
                self.discarded[giver] |= st.kitty & ~dealt.kitty & ~self.taken_up[giver]
            else:
                return False
        return True

    def finish(self) -> None:
        """The hand is over: par from the hands the play showed, when it waited for them
        (every seat played its hand; the up-card taken out and the discard put back)."""
        if self.exposed is None:
            return
        hands = [h & ~up | back for h, up, back
                 in zip(self.exposed, self.taken_up, self.discarded, strict=True)]
        if any(h.bit_count() != self.dealt.hand_size for h in hands):
            self.result["par"] = {"none": "every hand must be known as dealt to work out par"}
            return
        shown = copy.copy(self.dealt)
        shown.known = hands
        self.result["par"] = hand_par(shown, self.dd) | {"hands": "as the play showed them"}

    def before_play(self, st: State, action: Play) -> None:
        p = action.card.index + 53 * (action.copy or 0)
        if self.exposed is not None:
            shown = p
            if action.copy is None and any(h >> p & 1 for h in self.exposed):
                shown += 53  # a bare double-deck card whose first copy is shown: the second
            self.exposed[action.seat] |= 1 << shown
        cp = self.cp
        if cp is None:
            return
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


def contracts_table(st: State, stats: Stats | None = None,
                    dd: DoubleDummy | None = None) -> list[dict[str, Any]]:
    """What each trump makes from the hands of a table whose play is beginning, for each
    seat that could declare it (``first_leader`` of the table, each contract set on it in
    turn and put back, decides who leads):
    the ``contracts`` of a hand's analysis (``dd``, when given, solves and keeps each
    position, as par shares it; else a new one counting into ``stats``)."""
    dd = dd or DoubleDummy(st, stats)
    v = st.variant
    actual = st.contract
    assert actual is not None, "the play has begun: there is a contract"
    rows: list[dict[str, Any]] = []
    seats = [s for s in range(st.n) if s not in st.out]
    known = list(st.known)
    kept = st.contract, st.order, st.tricks
    st.tricks = []  # each row's contract and trump are set on the table itself in turn
    try:            # (a copy of a table costs more than the searches of a Euchre hand)
        for trump in dict.fromkeys([*v.trump_names, *v.trump_choices(st)]):
            st.order = v.ordering(trump)
            for declarer in seats:
                st.contract = Contract(declarer, actual.bid, actual.need, actual.alone,
                                       actual.forced, trump)
                leader = v.first_leader(st)
                while leader in st.out:  # as the engine starts the play
                    leader = (leader + 1) % st.n
                tricks = dd.tricks(trump, known, seats, leader)
                side = st.side_of[declarer]
                rows.append({"trump": trump, "declarer": declarer, "leader": leader,
                             "tricks": tricks,
                             "made": tricks[side] >= actual.need})
    finally:
        st.contract, st.order, st.tricks = kept
    return rows

"""The double-dummy solver: the tricks a side takes from a position with best play by all.

A position is a ``CardPlay`` (``engine.intplay``): every hand known, trump (the ordering),
the trick in progress and who plays next. ``Solver(cp).tricks(side)`` is how many of the
tricks still to be finished ``side`` takes when it plays to take the most and every other
seat plays to stop it. With two sides that is the exact double-dummy result; with more
(cutthroat, five-handed) it is what the side can make against the others together.

The search is a null-window test ("can the side take ``need`` more tricks?") repeated as a
search on the target that starts from the solver's last answer (the positions of one hand
follow each other) and halves the interval from there, with:

- a transposition table at trick starts (the leader and, suit by suit, who holds the cards
  left in rank order -> bounds on the tricks the side takes from there: positions that
  differ only in which low cards are gone share an entry), kept across one solver's tests;
- equivalent cards merged: cards of one suit in one hand with no card of another hand (or
  of the trick in progress) ranking between them play alike, so one of them is tried
  (the two copies of a double-deck card tie: a copy elsewhere breaks the run);
- sure tricks bound the search before it starts a trick: a hand's run of best trumps wins
  a trick each whoever leads (each in a trick of its own), and the leader cashes its runs
  of best cards in other suits when no opponent holds a trump; a team is sure of its
  surest hand's count;
- move ordering: the lowest card that wins the trick first, low cards when partner wins.

The solver changes the ``CardPlay`` only between its own make and unmake, so the position
is as it was after each call. Imports ``cards`` and ``engine.intplay``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tricktable.cards import bits as _bits
from tricktable.engine.intplay import CardPlay

__all__ = ["Solver", "Stats"]


@dataclass
class Stats:
    """The work of searches (several solvers may share one): nodes visited, transposition
    table probes and the probes answered by a stored bound."""

    nodes: int = 0
    probes: int = 0
    hits: int = 0


class Solver:
    """Double-dummy searches from one position (see the module docstring); ``stats`` counts
    their work (for the benches)."""

    def __init__(self, cp: CardPlay, stats: Stats | None = None) -> None:
        self.cp = cp
        self.stats = stats or Stats()
        order = cp.order
        self._strength = order.strength
        self._keys = order.keys
        self._trumps = order.suit_masks[order.trump_suit]
        present = self._present()
        self._suit_order = [
            sorted((p for p in _bits(present & m)), key=order.strength.__getitem__, reverse=True)
            for m in order.suit_masks]
        self._twin = {p: 1 << (p + 53 if p < 53 else p - 53) for p in _bits(present)}
        owner = {p: seat for seat in cp.seats for p in _bits(cp.hands[seat])}
        self._key_order = [
            [(1 << p, owner[p], 1 << seq[i - 1] if i and order.strength[p] == order.strength[
                seq[i - 1]] else 0) for i, p in enumerate(seq) if p in owner]
            for seq in self._suit_order]
        """Per suit, each card held at the start (bit, holder, the bit of the card above when
        the two tie): the transposition key of a trick start is the holders in rank order
        (+ 8 for a card that ties the one above)."""
        self._tables: dict[int, dict[int, tuple[int, int]]] = {}
        self._last: dict[int, int] = {}

    def tricks(self, side: int) -> int:
        """The tricks ``side`` takes of those still to be finished, with best play. With two
        sides, side 1 takes what side 0 does not (one search, one table)."""
        cp = self.cp
        if cp.over:
            return 0
        if side == 1 and len(cp.won) == 2:
            return cp.remaining - self.tricks(0)
        self._side = side
        self._tt = self._tables.setdefault(side, {})
        lo, hi = 0, cp.remaining
        total = self._last.get(side)  # the last answer, in tricks of the whole hand
        mid = (lo + hi + 1) // 2 if total is None else min(hi, max(1, total - cp.won[side]))
        first = True
        present = self._present()
        while lo < hi:
            ok = self._wins(mid, present)
            if ok:
                lo = mid
            else:
                hi = mid - 1
            # from a guess, step once to the neighbour that settles it; then halve
            mid = (lo + 1 if ok else hi) if first else (lo + hi + 1) // 2
            first = False
        self._last[side] = cp.won[side] + lo
        return lo

    # -- the search ----------------------------------------------------------------------
    def _wins(self, need: int, present: int) -> bool:
        """Can ``self._side`` take ``need`` more of the remaining tricks? ``present``: the
        cards in the playing hands and in the trick in progress."""
        stats = self.stats
        stats.nodes += 1
        if need <= 0:
            return True
        cp = self.cp
        rem = cp.hands[cp.to_play].bit_count()
        if need > rem:
            return False
        side = self._side
        if rem == 1:  # the last trick: every card is forced
            return cp.side_of[self._last_trick_winner()] == side
        key = None
        if not cp.trick:
            key = cp.leader
            for seq in self._key_order:
                key = key * 16 + 15
                for bit, holder, tie in seq:
                    if present & bit:
                        key = key * 16 + (holder + 8 if present & tie else holder)
            stats.probes += 1
            bounds = self._tt.get(key)
            if bounds is not None:
                if bounds[0] >= need:
                    stats.hits += 1
                    return True
                if bounds[1] < need:
                    stats.hits += 1
                    return False
            ours, theirs = self._sure(present)
            if ours >= need:
                self._store(key, need, True)
                return True
            if rem - theirs < need:
                self._store(key, need, False)
                return False
        maxing = cp.side_of[cp.to_play] == side
        won = cp.won
        result = not maxing
        for p in self._moves(present):
            before = won[side]
            cp.play(p)
            if cp.trick:
                ok = self._wins(need, present)
            else:
                gone = 0
                for _, q in cp.tricks[-1][1]:
                    gone |= 1 << q
                ok = self._wins(need - (won[side] - before), present & ~gone)
            cp.undo()
            if ok == maxing:
                result = ok
                break
        if key is not None:
            self._store(key, need, result)
        return result

    def _last_trick_winner(self) -> int:
        """Who takes the last trick, each seat still to play playing its one card."""
        cp = self.cp
        trick = list(cp.trick)
        seat = cp.to_play
        while len(trick) < len(cp.seats):
            trick.append((seat, cp.hands[seat].bit_length() - 1))
            seat = cp.next_seat[seat]
        return trick[cp.order.winner([p for _, p in trick])][0]

    def _store(self, key: int, need: int, ok: bool) -> None:
        lo, hi = self._tt.get(key, (0, 99))
        self._tt[key] = (max(lo, need), hi) if ok else (lo, min(hi, need - 1))

    def _present(self) -> int:
        """Every card still in a playing hand or in the trick in progress."""
        cp = self.cp
        m = 0
        for s in cp.seats:
            m |= cp.hands[s]
        for _, p in cp.trick:
            m |= 1 << p
        return m

    def _moves(self, present: int) -> list[int]:
        """One card of each group of equivalent legal cards, best guesses first."""
        cp = self.cp
        seat = cp.to_play
        hand = cp.hands[seat]
        legal = cp.legal_mask()
        others = present & ~hand
        twin = self._twin
        reps = []
        for s, m in enumerate(cp.suit_masks):
            if not legal & m:
                continue
            prev_mine = False
            prev = 0
            for p in self._suit_order[s]:
                bit = 1 << p
                if legal & bit:
                    if not (prev_mine and not others & (twin[p] | twin[prev])):
                        reps.append(p)
                    prev_mine, prev = True, p
                elif others & bit:
                    prev_mine = False
        trick = cp.trick
        if not trick:
            strength = self._strength
            reps.sort(key=lambda p: -strength[p])
            return reps
        keys = self._keys[cp.eff[trick[0][1]]]
        best_seat, best = trick[0]
        for s, q in trick[1:]:
            if keys[q] > keys[best]:
                best_seat, best = s, q
        top = keys[best]
        if cp.side_of[best_seat] == cp.side_of[seat]:
            strength = self._strength
            reps.sort(key=lambda p: (keys[p], strength[p]))
            return reps
        strength = self._strength
        return sorted(reps, key=lambda p: (keys[p] <= top, keys[p], strength[p]))

    def _sure(self, present: int) -> tuple[int, int]:
        """Tricks each team (the side searched; everyone else) takes whatever happens: the
        most that one of its hands is sure of. A hand is sure of its run of best trumps (no
        card elsewhere ranks between them), each in a trick of its own; the leader also of
        its runs of best cards in other suits, cashed one after another, when no opponent
        holds a trump (and the lead is free: not a first lead under a lead restriction)."""
        cp = self.cp
        side = self._side
        hands = cp.hands
        twin = self._twin
        trump_suit = cp.order.trump_suit
        runs: dict[int, list[int]] = {}  # seat -> [trump run, side-suit runs]
        for s, seq in enumerate(self._suit_order):
            holder = -1
            run = 0
            for p in seq:
                bit = 1 << p
                if not present & bit:
                    continue
                if holder < 0:
                    holder = next(x for x in cp.seats if hands[x] & bit)
                hand = hands[holder]
                if not hand & bit or present & ~hand & twin[p]:
                    break
                run += 1
            if run:
                r = runs.setdefault(holder, [0, 0])
                r[0 if s == trump_suit else 1] += run
        if not runs:
            return 0, 0
        trumps = self._trumps
        team_trumps = [0, 0]  # trumps held by the side searched, by the others
        for x in cp.seats:
            if hands[x] & trumps:
                team_trumps[cp.side_of[x] != side] = 1
        cash = not (cp.restricts and not cp.tricks)  # a first lead may have to be a trump
        best = [0, 0]
        for x, (t, other) in runs.items():
            team = cp.side_of[x] != side
            sure = t + (other if x == cp.leader and cash and not team_trumps[1 - team] else 0)
            if sure > best[team]:
                best[team] = sure
        return best[0], best[1]

"""The double-dummy solver: the tricks a side takes from a position with best play by all.

A position is a ``CardPlay`` (``engine.intplay``): every hand known, trump (the ordering),
the trick in progress and who plays next. ``Solver(cp).tricks(side)`` is how many of the
tricks still to be finished ``side`` takes when it plays to take the most and every other
seat plays to stop it. With two sides that is the exact double-dummy result; with more
(cutthroat, five-handed) it is what the side can make against the others together.

The search is a null-window test ("can the side take ``need`` more tricks?") repeated as a
search on the target that starts from the solver's last answer (the positions of one hand
follow each other) or, for the first, from the side's share of the high cards, and steps
one trick at a time from there (the tests near the answer are the costly ones), with:

- a transposition table at trick starts (the leader and, suit by suit, who holds the cards
  left in rank order -> bounds on the tricks the side takes from there: positions that
  differ only in which low cards are gone share an entry), kept across one solver's tests;
- equivalent cards merged: cards of one suit in one hand with no card of another hand (or
  of the trick in progress) ranking between them play alike, so one of them is tried
  (the two copies of a double-deck card tie: a copy elsewhere breaks the run);
- sure tricks bound the search from both sides before it starts a trick: a hand's run of
  best trumps wins a trick each whoever leads (each in a trick of its own), and the leader
  cashes its runs of best cards in other suits (as many rounds as every opponent who holds
  a trump follows suit; the whole suit when nobody else holds it after the run and no
  opponent holds a trump); a team is sure of its surest hand's count;
- move ordering: at a lead, winners nobody can ruff, then low cards to a partner's winner,
  then high cards, suits an opponent ruffs last; following, the lowest card that wins the
  trick first, low cards when partner wins;
- the search walks the hands itself (bit sets, the trick's best card carried down), with
  no ``CardPlay.play`` on its path.

A variant's lead restriction is asked once per hand and set of cards gone (what Spades'
broken spades and Bauer's first lead depend on). The solver changes the ``CardPlay``'s
hands (and, under a lead restriction, its finished tricks, which the variant's
``lead_mask`` reads) only between its own make and unmake, so the position is as it was
after each call, even one stopped by an exception. Imports ``cards`` and
``engine.intplay``.
"""

from __future__ import annotations

from collections.abc import Callable
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


_Search = Callable[[int, int, int, int, int, int, int, int], bool]


class Solver:
    """Double-dummy searches from one position (see the module docstring); ``stats`` counts
    their work (for the benches)."""

    def __init__(self, cp: CardPlay, stats: Stats | None = None) -> None:
        self.cp = cp
        self.stats = stats or Stats()
        order = cp.order
        self._strength = order.strength
        self._trumps = order.suit_masks[order.trump_suit]
        present = self._present()
        self._suit_order = [
            sorted((p for p in _bits(present & m)), key=order.strength.__getitem__, reverse=True)
            for m in order.suit_masks]
        self._twin = [1 << ((p + 53) % 106) for p in range(106)]
        owner = {p: seat for seat in cp.seats for p in _bits(cp.hands[seat])}
        self._key_order = [
            [(1 << p, owner[p], 1 << seq[i - 1] if i and order.strength[p] == order.strength[
                seq[i - 1]] else 0) for i, p in enumerate(seq) if p in owner]
            for seq in self._suit_order]
        """Per suit, each card held at the start (bit, holder, the bit of the card above when
        the two tie): the transposition key of a trick start is the holders in rank order
        (+ 8 for a card that ties the one above)."""
        self._codes: list[dict[tuple[int, ...], int]] = [{} for _ in self._key_order]
        """Per suit, the code of the holders in rank order by what each seat holds of it."""
        self._tables: dict[int, dict[int, tuple[int, int]]] = {}
        self._reps: dict[tuple[int, int], list[int]] = {}
        self._leads: dict[tuple[int, int], int] = {}
        self._last: dict[int, int] = {}

    def tricks(self, side: int) -> int:
        """The tricks ``side`` takes of those still to be finished, with best play. With two
        sides, side 1 takes what side 0 does not (one search, one table)."""
        cp = self.cp
        if cp.over:
            return 0
        if side == 1 and len(cp.won) == 2:
            return cp.remaining - self.tricks(0)
        counters = [0, 0, 0]
        search = self._search(side, counters)
        present = self._present()
        trick = cp.trick
        gone = led = best = best_seat = 0
        if trick:
            led = cp.eff[trick[0][1]]
            keys = cp.order.keys[led]
            best = -2
            for s, q in trick:
                gone |= 1 << q
                if keys[q] > best:
                    best, best_seat = keys[q], s
        hands, done = list(cp.hands), len(cp.tricks)
        lo, hi = 0, cp.remaining
        total = self._last.get(side)  # the last answer, in tricks of the whole hand
        guess = self._guess(side, present) if total is None else total - cp.won[side]
        mid = min(hi, max(1, guess))
        try:
            while lo < hi:
                ok = search(mid, present, cp.to_play, len(trick), led, best, best_seat, gone)
                if ok:
                    lo = mid
                else:
                    hi = mid - 1
                mid = lo + 1 if ok else hi  # one trick at a time from the guess
        finally:
            cp.hands[:] = hands
            del cp.tricks[done:]
            stats = self.stats
            stats.nodes += counters[0]
            stats.probes += counters[1]
            stats.hits += counters[2]
        self._last[side] = cp.won[side] + lo
        return lo

    # -- the search ----------------------------------------------------------------------
    def _search(self, side: int, counters: list[int]) -> _Search:
        """The null-window test for ``side`` as a function of the node: ``search(need,
        present, seat, n, led, best, best_seat, gone)`` -- can the side take ``need`` more
        tricks (the one in progress included) when ``seat`` plays the trick's ``n``-th
        card, ``led`` the suit led, ``best`` the key of the best card so far (played by
        ``best_seat``), ``gone`` the cards of the trick, ``present`` every card not yet
        gone in an earlier trick. ``counters``: nodes, probes, hits."""
        cp = self.cp
        hands = cp.hands
        nseats = len(cp.seats)
        next_seat = cp.next_seat
        ours = [cp.side_of[s] == side for s in range(len(cp.side_of))]
        order = cp.order
        eff = order.eff
        keys_by = order.keys
        suit_masks = cp.suit_masks
        strength = self._strength
        suit_order = self._suit_order
        twin = self._twin
        key_suits = [(m.__and__, self._codes[s], seq) for s, (m, seq) in
                     enumerate(zip(suit_masks, self._key_order, strict=True)) if seq]
        trumps = self._trumps
        trump_suit = order.trump_suit
        tt = self._tables.setdefault(side, {})
        tt_get = tt.get
        restricts = cp.restricts
        lead_mask = cp.variant.lead_mask
        finished = cp.tricks
        trick_cards = list(cp.trick)  # kept only under a lead restriction
        sure = self._sure
        known_reps: dict[tuple[int, int], list[int]] = self._reps
        leads: dict[tuple[int, int], int] = self._leads

        def reps_of(legal: int, others: int) -> list[int]:
            """One card of each group of equivalent cards of ``legal`` (``others``: the
            cards of other hands and of the trick in its suits), highest first."""
            reps = known_reps.get((legal, others))
            if reps is not None:
                return reps
            reps = known_reps[legal, others] = []
            for s in range(5):
                if not legal & suit_masks[s]:
                    continue
                prev_mine = False
                prev = 0
                for p in suit_order[s]:
                    bit = 1 << p
                    if legal & bit:
                        if not (prev_mine and not others & (twin[p] | twin[prev])):
                            reps.append(p)
                        prev_mine, prev = True, p
                    elif others & bit:
                        prev_mine = False
            return reps

        def lead_order(seat: int, reps: list[int], present: int) -> list[int]:
            """Winners nobody ruffs, low cards to a partner's winner, high cards, then suits
            an opponent can ruff."""
            mine = ours[seat]
            ruffers = [hands[x] for x in next_seat if ours[x] != mine and hands[x] & trumps]
            scored = []
            tops: dict[int, int] = {}
            for p in reps:
                s = eff[p]
                top = tops.get(s)
                if top is None:
                    top = -1
                    for q in suit_order[s]:
                        if present >> q & 1:
                            top = q
                            break
                    tops[s] = top
                ruffed = s != trump_suit and any(not h & suit_masks[s] for h in ruffers)
                if top == p:
                    score = 1 if ruffed else 4
                elif ruffed:
                    score = 0
                elif ours[next(x for x in next_seat if hands[x] >> top & 1)] == mine:
                    scored.append((-3, strength[p], p))
                    continue
                else:
                    score = 2
                scored.append((-score, -strength[p], p))
            scored.sort()
            return [p for _, _, p in scored]

        def follow_order(seat: int, n: int, led: int, keys: tuple[int, ...], best: int,
                         winning: bool, reps: list[int]) -> list[int]:
            """The cheapest card that wins the trick against the opponents still to play
            first, then: partner winning, low cards; second hand, low cards before the
            other winners; later, the other winners before low cards."""
            mine = ours[seat]
            threat = -2  # the best an opponent still to play can put on the trick
            x = next_seat[seat]
            for _ in range(n + 1, nseats):
                if ours[x] != mine:
                    h = hands[x]
                    suit = led if h & suit_masks[led] else trump_suit  # follows, or ruffs
                    f = h & suit_masks[suit]
                    for q in suit_order[suit] if f else ():
                        if f >> q & 1:
                            if keys[q] > threat:
                                threat = keys[q]
                            break
                x = next_seat[x]
            if winning:
                if threat <= best:
                    return sorted(reps, key=lambda p: (keys[p], strength[p]))
                return sorted(reps, key=lambda p: (keys[p] < threat, keys[p], strength[p]))
            low = 2 if n == 1 else 1
            return sorted(reps, key=lambda p: (
                0 if keys[p] > best and keys[p] >= threat else low if keys[p] > best else 3 - low,
                keys[p], strength[p]))

        def search(need: int, present: int, seat: int, n: int, led: int, best: int,
                   best_seat: int, gone: int) -> bool:
            counters[0] += 1
            hand = hands[seat]
            key = -1
            if n == 0:
                if need <= 0:
                    return True
                rem = hand.bit_count()
                if need > rem:
                    return False
                if rem == 1:  # the last trick: every card is forced
                    p = hand.bit_length() - 1
                    keys = keys_by[eff[p]]
                    best, best_seat = keys[p], seat
                    x = next_seat[seat]
                    while x != seat:
                        q = hands[x].bit_length() - 1
                        if keys[q] > best:
                            best, best_seat = keys[q], x
                        x = next_seat[x]
                    return ours[best_seat]
                key = seat
                for holding, codes, seq in key_suits:
                    t = tuple(map(holding, hands))
                    code = codes.get(t)
                    if code is None:
                        code = 1
                        for bit, holder, tie in seq:
                            if present & bit:
                                code = code * 16 + (holder + 8 if present & tie else holder)
                        codes[t] = code
                    key = key << 128 | code
                counters[1] += 1
                bounds = tt_get(key)
                if bounds is None:  # a new position starts from its sure tricks
                    mine, theirs = sure(present, seat, ours)
                    bounds = tt[key] = (mine, rem - theirs)
                    hit = 0
                else:
                    hit = 1
                if bounds[0] >= need:
                    counters[2] += hit
                    return True
                if bounds[1] < need:
                    counters[2] += hit
                    return False
                if restricts:  # the rules read the cards gone, the same for one set gone
                    legal = leads.get((hand, present))
                    if legal is None:
                        legal = leads[hand, present] = lead_mask(cp, seat, hand)
                else:
                    legal = hand
                moves = lead_order(seat, reps_of(legal, present & ~hand), present)
            else:
                follow = hand & suit_masks[led]
                if follow and not follow & (follow - 1):  # one card of the suit led
                    reps = [follow.bit_length() - 1]
                else:
                    reps = reps_of(follow or hand, present & ~hand & suit_masks[led]
                                   if follow else present & ~hand)
                keys = keys_by[led]
                if len(reps) == 1:
                    moves = reps
                else:
                    moves = follow_order(seat, n, led, keys, best, ours[best_seat], reps)
            maxing = ours[seat]
            result = not maxing
            for p in moves:
                bit = 1 << p
                hands[seat] = hand ^ bit
                if restricts:
                    trick_cards.append((seat, p))
                if n == 0:
                    led = eff[p]
                    ok = search(need, present, next_seat[seat], 1, led, keys_by[led][p], seat,
                                bit)
                else:
                    k = keys[p]
                    b, bs = (k, seat) if k > best else (best, best_seat)
                    if n + 1 == nseats:
                        if restricts:
                            finished.append((trick_cards[0][0], list(trick_cards), bs))
                        ok = search(need - ours[bs], present & ~(gone | bit), bs, 0, 0, 0, 0, 0)
                        if restricts:
                            finished.pop()
                    else:
                        ok = search(need, present, next_seat[seat], n + 1, led, b, bs,
                                    gone | bit)
                if restricts:
                    trick_cards.pop()
                hands[seat] = hand
                if ok == maxing:
                    result = ok
                    break
            if key >= 0:
                _store(tt, key, need, result)
            return result

        return search

    def _guess(self, side: int, present: int) -> int:
        """A first target: the side's share of the high cards (the four best of each suit,
        trumps counting double) of the tricks left."""
        cp = self.cp
        points = [0, 0]  # the side's, everyone else's
        for s, seq in enumerate(self._suit_order):
            weight = 2 if s == cp.order.trump_suit else 1
            value = 4
            for p in seq:
                if not present >> p & 1 or not value:
                    continue
                holder = [x for x in cp.seats if cp.hands[x] >> p & 1]
                if holder:
                    points[cp.side_of[holder[0]] != side] += value * weight
                value -= 1
        total = points[0] + points[1]
        return round(cp.remaining * points[0] / total) if total else 0

    def _present(self) -> int:
        """Every card still in a playing hand or in the trick in progress."""
        cp = self.cp
        m = 0
        for s in cp.seats:
            m |= cp.hands[s]
        for _, p in cp.trick:
            m |= 1 << p
        return m

    def _sure(self, present: int, leader: int, ours: list[bool]) -> tuple[int, int]:
        """Tricks each team (the side searched; everyone else) takes whatever happens when
        ``leader`` leads: the most that one of its hands is sure of. A hand is sure of its
        run of best trumps (no card elsewhere ranks between them), each in a trick of its
        own; the leader also of its runs of best cards in other suits, cashed one after
        another (and the lead is free: not a first lead under a lead restriction): as many
        rounds as every opponent holding a trump follows suit, or, when no opponent holds
        a trump, the whole suit once nobody else holds a card of it after the run. A partner
        with too few cards outside trumps might have to ruff a winner and take the lead: then
        no cashing is counted."""
        cp = self.cp
        hands = cp.hands
        twin = self._twin
        suit_masks = cp.suit_masks
        trump_suit = cp.order.trump_suit
        trumps = self._trumps
        seats = cp.seats
        trump_run: dict[int, int] = {}
        cashable: list[tuple[int, int]] = []  # (suit, run) of the leader's side suits
        for s, seq in enumerate(self._suit_order):
            holder = -1
            run = 0
            hand = 0
            for p in seq:
                bit = 1 << p
                if not present & bit:
                    continue
                if holder < 0:
                    holder = next(x for x in seats if hands[x] & bit)
                    hand = hands[holder]
                if not hand & bit or present & ~hand & twin[p]:
                    break
                run += 1
            if run:
                if s == trump_suit:
                    trump_run[holder] = run
                elif holder == leader:
                    cashable.append((s, run))
        cash = 0
        if cashable and not (cp.restricts and not cp.tricks):
            mine = ours[leader]
            ruffers = [hands[x] for x in seats if ours[x] != mine and hands[x] & trumps]
            for s, run in cashable:
                m = suit_masks[s]
                if ruffers:
                    cash += min(run, min((h & m).bit_count() for h in ruffers))
                elif all((hands[x] & m).bit_count() <= run for x in seats if x != leader):
                    cash += (hands[leader] & m).bit_count()
                else:
                    cash += run
            if cash and any(ours[x] == mine and x != leader and (hands[x] & ~trumps).bit_count()
                            < cash for x in seats):
                cash = 0
        best = [0, 0]
        team = 0 if ours[leader] else 1
        best[team] = cash + trump_run.get(leader, 0)
        for x, t in trump_run.items():
            team = 0 if ours[x] else 1
            if t > best[team]:
                best[team] = t
        return best[0], best[1]


def _store(tt: dict[int, tuple[int, int]], key: int, need: int, ok: bool) -> None:
    """Narrow the stored bounds of ``key`` by a test's answer."""
    lo, hi = tt.get(key, (0, 99))
    tt[key] = (max(lo, need), hi) if ok else (lo, min(hi, need - 1))

"""The card play in compact integer form, with make/unmake: what a search walks.

``CardPlay`` is the card play of one hand with every hand known: hands as bit sets of
physical card indices (``tricktable.cards``), the trick in progress, the finished tricks and
the tricks each side has taken. ``legal_mask``/``legal_actions`` give the cards the seat to
play may play (as bit sets / as ints, the same ints as ``engine.ids``), ``play(p)`` plays one
and ``undo()`` takes the last play back, so a search needs no copies. The follow-suit rule
and the trick's winner are the engine's (``Ordering``); a variant's lead restriction
(``Variant.lead_mask``) is asked with the ``CardPlay`` itself as the table view, which is why
it carries ``known``, ``order``, ``options`` and ``tricks`` under the engine's names.

Build one from a table in its play phase (``CardPlay.from_state``) or from parts (a solver's
test positions). Nothing is checked on ``play``: it is the search's make; the engine's
``apply``/``apply_id`` check.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tricktable.cards import Ordering, bits
from tricktable.engine.state import State
from tricktable.rules.base import Variant

__all__ = ["CardPlay"]


class CardPlay:
    """The play of one hand, every card known (see the module docstring).

    ``hands[seat]``: the bit set each seat holds (also ``known``); ``seats``: the seats that
    play, in order round the table; ``side_of[seat]``: a seat's side; ``won[side]``: tricks
    taken; ``trick``: (seat, card) played to the trick in progress; ``tricks``: (leader,
    [(seat, card) ...], winner) of each finished trick; ``to_play`` and ``leader``."""

    __slots__ = ("variant", "options", "order", "hands", "known", "seats", "next_seat",
                 "side_of", "won", "trick", "tricks", "leader", "to_play", "restricts",
                 "eff", "suit_masks")

    def __init__(self, variant: Variant, options: Any, order: Ordering, hands: Sequence[int],
                 seats: Sequence[int], side_of: Sequence[int], leader: int,
                 trick: Sequence[tuple[int, int]] = (),
                 tricks: Sequence[tuple[int, list[tuple[int, int]], int]] = ()) -> None:
        self.variant = variant
        self.options = options
        self.order = order
        self.hands = self.known = list(hands)
        self.seats = tuple(seats)
        self.next_seat = {s: self.seats[(i + 1) % len(self.seats)]
                          for i, s in enumerate(self.seats)}
        self.side_of = list(side_of)
        self.won = [0] * (max(self.side_of) + 1)
        self.tricks = [(lead, list(cards), w) for lead, cards, w in tricks]
        for _, _, w in self.tricks:
            self.won[self.side_of[w]] += 1
        self.trick = list(trick)
        self.leader = leader
        self.to_play = self.next_seat[trick[-1][0]] if trick else leader
        self.restricts = variant.restricts_leads
        self.eff = order.eff
        self.suit_masks = order.suit_masks

    @classmethod
    def from_state(cls, st: State) -> CardPlay:
        """The play of a table in its play phase whose hands are all known."""
        if st.phase != "play" or st.order is None:
            raise ValueError(f"the table is in the {st.phase} phase, not the play phase")
        seats = [s for s in range(st.n) if s not in st.out]
        if any(st.count[s] != st.known[s].bit_count() for s in seats):
            raise ValueError("every hand must be known to analyse the play")
        return cls(st.variant, st.options, st.order, st.known, seats, st.side_of, st.leader,
                   st.trick, st.tricks)

    @property
    def remaining(self) -> int:
        """Tricks still to be finished (the one in progress included)."""
        return self.hands[self.to_play].bit_count()

    @property
    def over(self) -> bool:
        return not self.hands[self.to_play]

    def legal_mask(self) -> int:
        """The cards the seat to play may play: the suit led if it holds it, else any; a lead
        as the variant allows."""
        hand = self.hands[self.to_play]
        if self.trick:
            follow = hand & self.suit_masks[self.eff[self.trick[0][1]]]
            return follow or hand
        if self.restricts:
            return self.variant.lead_mask(self, self.to_play, hand)  # type: ignore[arg-type]
        return hand

    def legal_actions(self) -> list[int]:
        """``legal_mask`` as ascending card ints."""
        return bits(self.legal_mask())

    def play(self, p: int) -> None:
        """The seat to play plays card ``p`` (not checked); the last card gives the trick."""
        seat = self.to_play
        self.hands[seat] ^= 1 << p
        trick = self.trick
        trick.append((seat, p))
        if len(trick) < len(self.seats):
            self.to_play = self.next_seat[seat]
            return
        winner = trick[self.order.winner([q for _, q in trick])][0]
        self.tricks.append((self.leader, trick, winner))
        self.won[self.side_of[winner]] += 1
        self.trick = []
        self.leader = self.to_play = winner

    def undo(self) -> None:
        """Take back the last card played (a finished trick is reopened)."""
        trick = self.trick
        if not trick:
            self.leader, trick, winner = self.tricks.pop()
            self.won[self.side_of[winner]] -= 1
            self.trick = trick
        seat, p = trick.pop()
        self.hands[seat] |= 1 << p
        self.to_play = seat

"""Card play: where a card is, whether a play is legal, revokes, and who wins the trick.

This is the engine's hot path, kept small. Hands are bit sets (see ``engine.state``):

- ``locate`` finds the physical card a seat plays or passes: a known card of that seat, or
  else (when the seat holds unknown cards) an unseen copy. A bare card in a double-deck game
  (copy None) is the seat's known copy if it has one, else the first unseen copy; it is
  refused as already played only when every copy has been played.
- ``legal_mask`` is the set of cards the seat may play: what it could hold, restricted to
  the suit led when it is known to hold that suit. Unseen cards of a suit the seat showed
  out of are left out (playing one is accepted, but it proves an earlier revoke) unless
  nothing else is left unseen.
- ``play`` moves the card, records show-outs and proven revokes, and resolves the trick. A
  play that provably fails to follow suit (a known card of the suit led is in the hand) is
  refused in strict mode (``Refused``, raised before anything changes) and accepted as a
  revoke in record mode. ``place`` is its last step: the card moves and the trick is given.
"""

from __future__ import annotations

from tricktable.cards import COPY_STRIDE, JOKER_SUIT, Card, format_card
from tricktable.engine.events import CardPlayed, Event, Revoke, TrickWon
from tricktable.engine.refusals import Refusal, Verdict
from tricktable.engine.state import State

__all__ = ["locate", "legal_mask", "play", "place", "Refused", "SUIT_WORDS"]

SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs", "the joker")


def locate(st: State, seat: int, card: Card, copy: int | None) -> tuple[int, Verdict, str]:
    """(bit index, "", "") of the card ``seat`` holds, or (-1, code, reason)."""
    deck = st.deck
    base = card.index
    if not st.deck_mask >> base & 1 or (copy is not None and copy >= deck.copies):
        return -1, "card_not_in_deck", f"{_label(card, copy)} is not in this game's {deck.name} deck"
    copies = range(deck.copies) if copy is None else (copy,)
    known = st.known[seat]
    for k in copies:
        p = base + COPY_STRIDE * k
        if known >> p & 1:
            return p, "", ""
    if st.count[seat] > known.bit_count():
        for k in copies:
            p = base + COPY_STRIDE * k
            if st.unseen >> p & 1:
                return p, "", ""
    who = st.players[seat]
    label = _label(card, copy)
    if all(st.played >> (base + COPY_STRIDE * k) & 1 for k in copies):
        return -1, "card_already_played", f"{label} has already been played this hand"
    for other in range(st.n):
        if other != seat and any(st.known[other] >> (base + COPY_STRIDE * k) & 1 for k in copies):
            return -1, "card_not_in_hand", f"{label} is in {st.players[other]}'s hand, not {who}'s"
    return -1, "card_not_in_hand", f"{label} is not in {who}'s hand"


def _label(card: Card, copy: int | None) -> str:
    return format_card(card, copy) if copy else str(card)


def _void_cards(st: State, seat: int) -> int:
    void, masks, out = st.void[seat], st.order.suit_masks, 0  # type: ignore[union-attr]
    for s in range(5):
        if void >> s & 1:
            out |= masks[s]
    return out


def legal_mask(st: State, seat: int) -> int:
    """The bit set of cards ``seat`` may legally play now."""
    known = st.known[seat]
    cands = known
    if not st.dealt and st.count[seat] > known.bit_count():  # dealt: every card is known
        unseen = st.unseen
        if st.void[seat] and unseen & ~_void_cards(st, seat):
            unseen &= ~_void_cards(st, seat)
        cands |= unseen
    if st.trick:
        order = st.order
        assert order is not None  # trump is named before the play
        follow = order.suit_masks[order.eff[st.trick[0][1]]]
        if known & follow:
            cands &= follow
    elif st.variant.restricts_leads:
        cands = st.variant.lead_mask(st, seat, cands)
    return cands


class Refused(Exception):
    """A play refused by ``play`` before it changed anything: ``code`` and ``reason`` as in
    the engine's ``Outcome``."""

    def __init__(self, code: Refusal, reason: str) -> None:
        super().__init__(reason)
        self.code: Refusal = code
        self.reason = reason


def play(st: State, seat: int, p: int, events: list[Event]) -> bool:
    """Play ``p`` (already located, its lead checked) for ``seat``; True when the hand is over.

    Raises ``Refused`` (nothing changed) for a provable failure to follow suit in strict
    mode. Records a show-out (a card not of the suit led when the seat is not known to hold
    it), reports a revoke (proven by the known hand, or by a suit the seat showed out of),
    moves the card from the hand to the trick and, with the last card, gives the trick."""
    order = st.order
    eff = order.eff[p]  # type: ignore[union-attr]
    trick = st.trick
    hand = st.known[seat]
    trick_no = len(st.tricks) + 1
    if trick:
        led = order.eff[trick[0][1]]  # type: ignore[union-attr]
        if eff != led:
            if hand & order.suit_masks[led]:  # type: ignore[union-attr]
                if st.strict:
                    raise Refused("must_follow_suit",
                                  f"{st.players[seat]} must follow {SUIT_WORDS[led]}")
                _revoke(st, events, seat, trick_no, led, "hand", trick_no)
            elif led != JOKER_SUIT:
                st.void[seat] |= 1 << led
                st.void_trick[seat, led] = trick_no
    if st.void[seat] >> eff & 1:
        st.void[seat] &= ~(1 << eff)
        _revoke(st, events, seat, st.void_trick[seat, eff], eff, "showed_out", trick_no)
    events.append(CardPlayed(seat, st.names[p], trick_no))
    return place(st, seat, p, events)


def place(st: State, seat: int, p: int, events: list[Event] | None) -> bool:
    """Move ``p`` from ``seat``'s hand (or the unseen cards) to the trick and, with the last
    card, give the trick (a ``TrickWon`` event when ``events`` is a list); True when the
    hand is over. ``play`` calls it after its checks; ``Engine.apply_id`` calls it alone
    for a legal card of a hand the engine dealt (every card known: no show-out to note)."""
    bit = 1 << p
    hand = st.known[seat]
    if hand & bit:
        st.known[seat] = hand ^ bit
    else:
        st.unseen &= ~bit
    st.count[seat] -= 1
    st.played |= bit
    trick = st.trick
    trick.append((seat, p))
    if len(trick) < st.active:
        st.to_act = st.next_active[seat]
        return False
    cards = [q for _, q in trick]
    order = st.order
    assert order is not None
    winner = trick[order.winner(cards)][0]
    st.tricks.append((st.leader, trick, winner))
    st.tricks_won[winner] += 1
    trick_no = len(st.tricks)
    if events is not None:
        names = st.names
        events.append(TrickWon(trick_no, winner, st.leader, tuple([names[q] for q in cards])))
    st.trick = []
    st.leader = st.to_act = winner
    return trick_no == st.hand_size


def _revoke(st: State, events: list[Event], seat: int, trick: int, suit: int, proof: str,
            proven_in: int) -> None:
    record = {"seat": seat, "trick": trick, "suit": SUIT_WORDS[suit], "proof": proof,
              "proven_in": proven_in}
    st.revokes.append(record)
    events.append(Revoke(seat, trick, SUIT_WORDS[suit], proof, proven_in))

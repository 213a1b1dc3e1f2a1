"""Cards: suits, ranks, the joker, decks, and the order of cards under a trump.

What lives here: ``Suit``, ``Card`` (53 interned values: 52 plus ``JOKER``), parsing and
printing (``AS``, ``10H``/``TH``, ``JOKER``, suit symbols, ``AS'`` for the second copy of a
double-deck card), ``Deck`` (24, 25 with the joker, 28, 32, 36, 40, 48 as 2x24, 52, or any
rank range with one or two copies) and ``Ordering`` (effective suit and trick strength under
a trump suit with or without bowers, under no trump, and under low no-trump).

A *physical* card is a (card, copy) pair; its bit index is ``card.index + 53 * copy`` so a
hand is one Python integer used as a bit set (``Deck.mask``, ``Ordering.suit_masks``).
No game logic lives here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache

__all__ = [
    "Suit", "Card", "JOKER", "CARDS", "Deck", "Ordering", "CardError",
    "parse_card", "parse_card_copy", "format_card", "make_deck", "deck",
    "physical_index", "from_physical", "COPY_STRIDE", "NO_TRUMP", "JOKER_SUIT", "bits",
]


class CardError(ValueError):
    """A card name that cannot be read, or a deck that cannot be built."""


class Suit(IntEnum):
    """The four suits. Spades and clubs are black; hearts and diamonds are red."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (where the left bower comes from)."""
        return Suit((3, 2, 1, 0)[self])


RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
              11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_PARSE = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10}
_SUIT_PARSE = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS,
               "♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS,
               "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
COPY_STRIDE = 53
JOKER_INDEX = 52


@dataclass(frozen=True, slots=True)
class Card:
    """One card face: ``rank`` 2..14 (ace 14) and ``suit``, or the joker (rank 0, suit None).

    Cards are interned: use ``CARDS[i]``, ``parse_card`` or ``JOKER``; compare with ``==``.
    """

    rank: int
    suit: Suit | None
    index: int = field(default=-1, compare=False, repr=False)
    """0..51 for suited cards (suit * 13 + rank - 2), 52 for the joker (set on creation)."""

    def __post_init__(self) -> None:
        index = JOKER_INDEX if self.suit is None else self.suit * 13 + self.rank - 2
        object.__setattr__(self, "index", index)

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        if self.suit is None:
            return "JOKER"
        return RANK_NAMES[self.rank] + self.suit.letter

    def __repr__(self) -> str:
        return f"Card({self})"

    def __copy__(self) -> Card:
        return self  # interned

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self


CARDS: tuple[Card, ...] = tuple(
    [Card(rank, suit) for suit in Suit for rank in range(2, 15)] + [Card(0, None)]
)
JOKER = CARDS[JOKER_INDEX]


def physical_index(card: Card, copy: int = 0) -> int:
    """The bit index of copy ``copy`` of ``card``."""
    return card.index + COPY_STRIDE * copy


def from_physical(p: int) -> tuple[Card, int]:
    """The (card, copy) of a bit index."""
    return CARDS[p % COPY_STRIDE], p // COPY_STRIDE


def bits(mask: int) -> list[int]:
    """The bit indices set in ``mask``, ascending (the physical cards of a hand)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def parse_card_copy(text: str) -> tuple[Card, int | None]:
    """Read ``AS``, ``10h``, ``TS``, ``J♥``, ``JOKER``; a trailing ``'`` means copy 1, a
    trailing ``?`` an unknown copy (None); no suffix means copy 0."""
    raw = text.strip()
    copy: int | None = 0
    if raw.endswith("'"):
        copy, raw = 1, raw[:-1]
    elif raw.endswith("?"):
        copy, raw = None, raw[:-1]
    upper = raw.upper()
    if upper in ("JOKER", "JK", "BENNY"):
        return JOKER, copy
    if len(upper) < 2 or upper[-1] not in _SUIT_PARSE or upper[:-1] not in _RANK_PARSE:
        raise CardError(f"not a card: {text!r} (expected e.g. AS, 10H, TD, J♣ or JOKER)")
    return CARDS[_SUIT_PARSE[upper[-1]] * 13 + _RANK_PARSE[upper[:-1]] - 2], copy


def parse_card(text: str) -> Card:
    """Read one card face (see ``parse_card_copy``); a copy suffix is refused here."""
    card, copy = parse_card_copy(text)
    if copy != 0:
        raise CardError(f"{text!r}: a copy suffix is only meaningful for a physical card")
    return card


def format_card(card: Card, copy: int | None = 0) -> str:
    """Print a physical card: ``AS`` (copy 0), ``AS'`` (copy 1), ``AS?`` (copy unknown)."""
    return str(card) + {0: "", 1: "'", None: "?"}[copy]


@dataclass(frozen=True)
class Deck:
    """A pack: the card faces of one copy, how many copies, and the bit set of them all."""

    name: str
    faces: tuple[Card, ...]
    copies: int = 1

    @property
    def size(self) -> int:
        return len(self.faces) * self.copies

    physical: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Every physical card's bit index, copy 0 first (set on creation)."""
    mask: int = field(init=False, repr=False, compare=False)
    """The bit set of ``physical`` (set on creation)."""

    def __post_init__(self) -> None:
        physical = tuple(c.index + COPY_STRIDE * k for k in range(self.copies) for c in self.faces)
        m = 0
        for p in physical:
            m |= 1 << p
        object.__setattr__(self, "physical", physical)
        object.__setattr__(self, "mask", m)

    def __contains__(self, card: object) -> bool:
        return card in self.faces

    def __deepcopy__(self, memo: dict[int, object]) -> Deck:
        return self  # immutable


def make_deck(low: int, *, joker: bool = False, copies: int = 1, name: str | None = None,
              extra: tuple[Card, ...] = ()) -> Deck:
    """Every suit from rank ``low`` up to the ace, optionally the joker, ``copies`` times."""
    if not 2 <= low <= 14 or copies not in (1, 2):
        raise CardError(f"cannot build a deck from rank {low} with {copies} copies")
    faces = tuple(CARDS[s * 13 + r - 2] for s in Suit for r in range(low, 15)) + extra
    if joker:
        faces += (JOKER,)
    size = len(faces) * copies
    return Deck(name or (f"{size}" if copies == 1 else f"{copies}x{len(faces)}"), faces, copies)


_NAMED = {
    "24": (9, False, 1), "25": (9, True, 1), "28": (8, False, 1), "32": (7, False, 1),
    "36": (6, False, 1), "40": (5, False, 1), "48": (9, False, 2), "52": (2, False, 1),
    "56": (8, False, 2),
}


def deck(name: str | int) -> Deck:
    """A named deck: 24, 25 (24 + joker), 28, 32, 36, 40, 48 (two copies of 24), 52, 56 (two
    copies of 28, for seven-handed five-handed)."""
    key = str(name)
    if key not in _NAMED:
        raise CardError(f"unknown deck {name!r}; known: {', '.join(_NAMED)}")
    low, joker, copies = _NAMED[key]
    return make_deck(low, joker=joker, copies=copies, name=key)


NO_TRUMP = None
JOKER_SUIT = 4
"""The effective suit of the joker under no trump: a suit of its own that wins any trick."""


class Ordering:
    """How cards compare in one hand: the effective suit of each card and its strength.

    ``trump`` is a suit or None (no trump). ``bowers``: the trump jack and the other jack of
    its colour are the top two trumps, and the left bower belongs to the trump suit. ``low``:
    low no-trump, every suit ranks upside down (9 beats the ace). The joker is always the
    best trump; under no trump it forms a suit of its own (``JOKER_SUIT``) that beats
    everything. ``key(p, led)`` is the number a trick compares: trumps above the suit led,
    other cards -1. Ties keep the first card played (two identical double-deck cards).
    """

    __slots__ = ("trump", "bowers", "low", "eff", "strength", "suit_masks", "trump_suit", "keys")

    def __init__(self, trump: Suit | None, *, bowers: bool = True, low: bool = False) -> None:
        self.trump = trump
        self.bowers = bowers and trump is not None
        self.low = low
        self.trump_suit = JOKER_SUIT if trump is None else int(trump)
        eff: list[int] = []
        strength: list[int] = []
        for p in range(2 * COPY_STRIDE):
            card = CARDS[p % COPY_STRIDE]
            eff.append(self.effective_suit(card))
            strength.append(self._strength(card))
        self.eff = tuple(eff)
        self.strength = tuple(strength)
        masks = [0] * 5
        for p, s in enumerate(eff):
            masks[s] |= 1 << p
        self.suit_masks = tuple(masks)
        self.keys = tuple(
            tuple(200 + st if s == self.trump_suit else (st if s == led else -1)
                  for s, st in zip(eff, strength, strict=True))
            for led in range(5))

    @staticmethod
    @lru_cache(maxsize=64)
    def get(trump: Suit | None, bowers: bool = True, low: bool = False) -> Ordering:
        """The shared (immutable) ordering for these rules; building one costs ~100 µs."""
        return Ordering(trump, bowers=bowers, low=low)

    def effective_suit(self, card: Card) -> int:
        """The suit a card follows as: the left bower and the joker belong to trump."""
        if card.suit is None:
            return self.trump_suit
        if self.bowers and card.rank == 11 and card.suit == self.trump.partner:  # type: ignore[union-attr]
            return int(self.trump)  # type: ignore[arg-type]
        return int(card.suit)

    def _strength(self, card: Card) -> int:
        if card.suit is None:
            return 100
        if self.bowers and card.rank == 11:
            if card.suit == self.trump:
                return 99
            if card.suit == self.trump.partner:  # type: ignore[union-attr]
                return 98
        return 16 - card.rank if self.low else card.rank

    def __deepcopy__(self, memo: dict[int, object]) -> Ordering:
        return self  # immutable, shared (``get``)

    def is_trump(self, card: Card) -> bool:
        return self.effective_suit(card) == self.trump_suit

    def key(self, p: int, led: int) -> int:
        """The value a trick compares for bit index ``p`` when suit ``led`` was led: a trump
        200 + its strength, a card of the suit led its strength, any other -1."""
        return self.keys[led][p]

    def winner(self, played: list[int]) -> int:
        """Position in ``played`` (bit indices in play order) of the card that wins; of
        equal cards the first played."""
        keys = self.keys[self.eff[played[0]]]
        best, best_key = 0, -2
        for i, p in enumerate(played):
            k = keys[p]
            if k > best_key:
                best, best_key = i, k
        return best

"""The double-dummy solver agrees exactly with a plain minimax over the card play, for every
family of variants (partnerships, everyone for themselves, lead restrictions, two copies of
each card, the joker, no trump, a seat sitting out), and gives the tricks the rules make
certain in positions built from the rules' own statements."""

import gc
import json
import os
import random
import subprocess
import sys
import weakref

import pytest
from tricktable.analysis import _search
from tricktable.analysis.positions import bridge_table, deal
from tricktable.analysis.solver import Solver
from tricktable.cards import Suit, from_physical, parse_card
from tricktable.engine.intplay import CardPlay
from tricktable.rules import get_variant, list_variants
from tricktable.rules.base import build_options


def minimax(cp: CardPlay, side: int) -> int:
    """The plain game-tree value: every legal card tried, no pruning, no table."""
    if cp.over:
        return 0
    maxing = cp.side_of[cp.to_play] == side
    values = []
    for p in cp.legal_actions():
        before = cp.won[side]
        cp.play(p)
        values.append(cp.won[side] - before + minimax(cp, side))
        cp.undo()
    return max(values) if maxing else min(values)


FAMILIES = [
    # variant, seats, trumps, most cards each, positions
    ("euchre", 4, ("H", "C"), 3, 300),
    ("euchre-british", 4, ("S", "D"), 3, 200),       # the joker (Benny) above the bowers
    ("pfeffer", 4, ("S", "NT"), 3, 200),             # no trump
    ("buckpfeffer", 4, ("HIGH", "LOW"), 3, 200),     # high and low no-trump
    ("hasenpfeffer", 4, ("H", "NT"), 3, 200),        # the joker with and without trump
    ("spades", 4, ("S",), 3, 300),                   # spades may not be led until broken
    ("spades-cutthroat", 4, ("S",), 3, 200),         # four sides
    ("bauer-saarland", 4, ("D",), 3, 200),           # forehand leads a trump
    ("double-deck", 4, ("C",), 3, 200),              # two copies of each card
    ("buck-euchre", 3, ("H",), 3, 200),              # three players, each for himself
    ("five-handed", 5, ("S",), 2, 150),               # five sides, two copies
    ("jucker", 6, ("C",), 2, 100),                    # six players, two teams of three
]


def _positions(variant: str, n: int, trumps: tuple[str, ...], most: int, count: int):
    names = get_variant(variant).trump_names
    for seed in range(count):
        rng = random.Random(seed)
        trump = trumps[seed % len(trumps)]
        if trump not in names:
            pytest.fail(f"{variant} has no trump {trump}")
        cards = rng.randint(1, most)
        out = frozenset({2}) if variant == "euchre" and seed % 5 == 0 else frozenset()
        leader = rng.choice([s for s in range(n) if s not in out])
        cp = deal(variant, seed, trump=trump, leader=leader, cards=cards + 1, n=n, out=out)
        for _ in range(rng.randrange(n * 2)):  # into the play: a trick or two, maybe mid-trick
            if not cp.over:
                cp.play(rng.choice(cp.legal_actions()))
        yield seed, cp, rng.randrange(len(cp.won))


@pytest.mark.parametrize("variant,n,trumps,most,count", FAMILIES,
                         ids=[f[0] for f in FAMILIES])
def test_solver_agrees_with_minimax(variant, n, trumps, most, count):
    for seed, cp, side in _positions(variant, n, trumps, most, count):
        before = (list(cp.hands), list(cp.trick), len(cp.tricks), list(cp.won), cp.to_play)
        solved = Solver(cp).tricks(side)
        assert (list(cp.hands), list(cp.trick), len(cp.tricks), list(cp.won),
                cp.to_play) == before, f"seed {seed}: the solver left the position changed"
        assert solved == minimax(cp, side), f"{variant} seed {seed}, side {side}"


FOLLOWED = [
    # variant, seats, trump, cards each
    ("spades", 4, "S", 4),
    ("double-deck", 4, "C", 4),
    ("euchre", 4, "H", 4),
    ("bauer-saarland", 4, "D", 4),
    ("buck-euchre", 3, "H", 4),
    ("five-handed", 5, "S", 3),
]


def _long_suits(variant: str, seed: int, n: int, cards: int, trump: str) -> CardPlay:
    """A random deal from two suits of the variant's pack (hearts and spades): long suits,
    many small cards in each hand (fewer cards each when the two suits are short)."""
    v = get_variant(variant)
    options = build_options(v.Options, None, v.name)
    pack = [p for p in v.deck(n, options).physical
            if from_physical(p)[0].suit in (Suit.HEARTS, Suit.SPADES)]
    rng = random.Random(seed)
    rng.shuffle(pack)
    hands = [0] * n
    for i, p in enumerate(pack[:min(cards, len(pack) // n) * n]):
        hands[i % n] |= 1 << p
    sides = v.sides(n, options)
    side_of = [next(i for i, side in enumerate(sides) if s in side) for s in range(n)]
    return CardPlay(v, options, v.ordering(trump), hands, range(n), side_of, seed % n)


@pytest.mark.parametrize("variant,n,trump,cards", FOLLOWED, ids=[f[0] for f in FOLLOWED])
def test_one_solver_follows_a_hand(variant, n, trump, cards):
    """A table entry answers every trick start that agrees with it on the cards its result
    depended on (partition search): one solver kept through a hand played at random, its
    table answering the later positions as the analysis of a hand does, agrees with a plain
    minimax before every card, on deals from the whole pack and from two suits."""
    for seed in range(60):
        rng = random.Random(seed)
        cp = (deal(variant, seed, trump=trump, leader=seed % n, cards=cards, n=n) if seed % 2
              else _long_suits(variant, seed, n, cards, trump))
        solver = Solver(cp)
        side = seed % len(cp.won)
        while not cp.over:
            assert solver.tricks(side) == minimax(cp, side), f"{variant} seed {seed}"
            cp.play(rng.choice(cp.legal_actions()))


def test_one_solver_through_double_deck_play_agrees_with_minimax():
    """One solver kept through double-deck hands played at random (two copies of each card:
    equal cards, small cards not searched after one like them) agrees with a plain minimax
    before every card, its table's bounds reused from position to position."""
    for seed in range(80):
        rng = random.Random(seed)
        cp = deal("double-deck", seed, trump=("C", "H")[seed % 2], leader=seed % 4, cards=4)
        solver = Solver(cp)
        side = seed % 2
        while not cp.over:
            assert solver.tricks(side) == minimax(cp, side), f"seed {seed}"
            cp.play(rng.choice(cp.legal_actions()))


def test_one_solver_answers_for_every_side():
    """The tricks of the two sides add up to the tricks left (one table per side)."""
    for seed in range(30):
        cp = deal("bid-euchre", seed, trump="H", leader=seed % 4)
        solver = Solver(cp)
        assert solver.tricks(0) + solver.tricks(1) == 6


def _position(variant: str, trump: str, hands: list[str], leader: int) -> CardPlay:
    v = get_variant(variant)
    bits = [sum(1 << parse_card(c).index for c in h.split()) for h in hands]
    n = len(hands)
    options = build_options(v.Options, None, v.name)
    sides = v.sides(n, options)
    side_of = [next(i for i, s in enumerate(sides) if seat in s) for seat in range(n)]
    return CardPlay(v, options, v.ordering(trump), bits, range(n), side_of, leader)


def test_bowers_rank_above_the_ace_of_trump():
    """“Bid Euchre”, section “Single Deck Bid Euchre”: 'The rank of the cards in the trump suit
    is: J (... "right bower" ...; high), J (of the other suit of the same colour ...), A, K, Q,
    10, 9 (low)'. The left bower led, the ace and the right bower follow: the right bower's
    side takes the trick; with the right bower on the leader's side, the leader's side does."""
    cp = _position("bid-euchre", "H", ["JD", "AH", "JH", "9H"], leader=0)
    assert Solver(cp).tricks(0) == 1
    cp = _position("bid-euchre", "H", ["JD", "JH", "AH", "9H"], leader=0)
    assert Solver(cp).tricks(0) == 0


def test_the_top_six_trumps_take_every_trick():
    """“Bid Euchre”, section “Single Deck Bid Euchre”: the contracting bidder 'may lead any
    card' and the trick goes 'to the highest trump': with both bowers, A, K, Q and 10 of trump
    the bidder takes all six tricks (a Pfeffer made) whatever the others hold."""
    for seed in range(20):
        rng = random.Random(seed)
        rest = [c for c in ("9H AS KS QS JS 10S 9S AC KC QC JC 10C 9C AD KD QD 10D 9D".split())]
        rng.shuffle(rest)
        hands = ["JH JD AH KH QH 10H", " ".join(rest[:6]), " ".join(rest[6:12]),
                 " ".join(rest[12:18])]
        assert Solver(_position("bid-euchre", "H", hands, leader=0)).tricks(0) == 6


def test_the_benny_is_the_highest_trump():
    """“Euchre”, on the British game: 'A key feature is that a joker, called the Benny, is the
    highest trump': the joker beats the right bower led to the trick."""
    cp = _position("euchre-british", "S", ["JS", "JOKER", "AS", "9S"], leader=0)
    assert Solver(cp).tricks(1) == 1


def test_of_two_identical_cards_the_first_played_wins():
    """Double Deck Bid Euchre has two of every card; the table's rule for a tie (the sources
    give none: ``cards.Ordering``) is that the first played holds the trick."""
    v = get_variant("double-deck")
    options = build_options(v.Options, None, v.name)
    ace, nine, ten = (parse_card(c).index for c in ("AH", "9H", "10H"))
    hands = [1 << ace, 1 << (ace + 53), 1 << nine, 1 << ten]
    for leader, side0 in ((0, 1), (1, 0)):
        cp = CardPlay(v, options, v.ordering("H"), hands, range(4), [0, 1, 0, 1], leader)
        assert Solver(cp).tricks(0) == side0


def test_top_cards_that_must_be_thrown_away_win_nothing():
    """“Bid Euchre”, section “Single Deck Bid Euchre”: players 'must follow suit if possible.
    If a player cannot follow suit, any card can be played' and the trick goes to the highest
    card of the suit led when nobody trumps: the ace and king of spades, held with no club
    while clubs are led, are thrown away and take nothing, though nobody could beat them."""
    cp = _position("bid-euchre", "H", ["AC KC", "AS KS", "9C 10C", "QC JC"], leader=0)
    solver = Solver(cp)
    assert (solver.tricks(0), solver.tricks(1)) == (2, 0)


def test_leaders_of_one_deal_share_tables():
    """A solver that shares another's tables (another leader of the same deal, as the
    contracts table asks) answers as a solver of its own."""
    for seed in range(20):
        first = None
        for leader in range(4):
            cp = deal("bid-euchre", seed, trump="S", leader=leader)
            alone = [Solver(cp).tricks(side) for side in (0, 1)]
            shared = Solver(cp, share=first)
            first = first or shared
            assert [shared.tricks(side) for side in (0, 1)] == alone, f"seed {seed}"


@pytest.mark.parametrize("variant", ["spades", "bauer-saarland"])
def test_a_lifted_lead_restriction_stays_lifted(variant):
    """Spades, section "Play" (spades may be led once broken) and Bauer, section "Bauer"
    (forehand's first lead): once ``leads_free`` says no lead is refused any more, none is
    for the rest of the hand, whatever is played -- the search stops asking below it."""
    v = get_variant(variant)
    for seed in range(40):
        rng = random.Random(seed)
        cp = deal(variant, seed, leader=seed % 4)
        free = False
        while not cp.over:
            if not cp.trick:
                hand = cp.hands[cp.to_play]
                if free:
                    assert v.lead_mask(cp, cp.to_play, hand) == hand, f"seed {seed}"
                free = v.leads_free(cp)
            cp.play(rng.choice(cp.legal_actions()))
        assert free, f"seed {seed}: the restriction never lifted"


@pytest.mark.parametrize("variant", list_variants())
def test_a_solver_is_freed(variant):
    """A solver and its compiled search are freed once nothing refers to them, for every
    variant: the search of a variant that restricts leads holds the solver's callback to
    the rules (a cycle the garbage collector must be able to break), and a long-running
    process (the replay, ``tricktable analyse`` over a journal) solves hand after hand."""
    v = get_variant(variant)
    n = v.seat_counts[0]
    cp = deal(variant, 1, cards=3, n=n)
    solver = Solver(cp)
    for side in range(len(cp.won)):
        solver.tricks(side)
    gone = weakref.ref(solver)
    del solver
    gc.collect()
    assert gone() is None, f"{variant}: the solver is still alive after gc.collect()"


_BUILDS_ANSWER = """
import json
from tricktable.analysis import _search
from tricktable.analysis.positions import bridge_table, deal
from tricktable.analysis.solver import Solver
spades = [Solver(cp).tricks(0) for cp in (deal("spades", seed, leader=seed % 4, cards=6)
                                          for seed in range(8))]
print(json.dumps([_search.BUILD, [bridge_table(seed) for seed in range(2)], spades]))
"""


def test_the_baseline_build_answers_alike():
    """On x86-64 the search is compiled twice more for x86-64-v3 processors and picked when
    the processor runs it (``_search.BUILD``); TRICKTABLE_SEARCH_BASELINE keeps the plain
    build. Both answer alike: bridge tables (the first pass) and Spades under its lead
    restriction (the second), here and in a process made to keep the plain build."""
    assert _search.BUILD in ("baseline", "x86-64-v3")
    env = {**os.environ, "TRICKTABLE_SEARCH_BASELINE": "1"}
    out = subprocess.run([sys.executable, "-c", _BUILDS_ANSWER], env=env, check=True,
                         capture_output=True, text=True).stdout
    build, tables, spades = json.loads(out)
    assert build == "baseline"
    assert tables == [bridge_table(seed) for seed in range(2)]
    assert spades == [Solver(cp).tricks(0) for cp in (deal("spades", seed, leader=seed % 4,
                                                           cards=6) for seed in range(8))]

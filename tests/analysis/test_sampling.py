"""Single dummy's conditioning: what a seat knew (``analysis.knowledge``) and the hidden hands
dealt consistently with it (``analysis.sampling``), on positions the engine reaches and on
hand-written ones; against an independent dealer (endplay's, with the same facts as a
predicate) on bridge positions."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tricktable.analysis.knowledge import STOCK, Knowledge, Layout
from tricktable.analysis.positions import pbn
from tricktable.analysis.sampling import (
    Layouts,
    count_layouts,
    exact_layouts,
    sample_layouts,
    stratified_layouts,
)
from tricktable.cards import CARDS, Suit
from tricktable.engine import Engine
from tricktable.engine.state import State
from tricktable.rules import get_variant
from tricktable.rules.euchre import ORDER_UP

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def chance(statistic: float, df: int) -> bool:
    """Whether a chi-square ``statistic`` with ``df`` degrees of freedom is within chance:
    below the 0.1% critical value (Wilson and Hilferty's cube-root approximation of the
    chi-square quantile, z = 3.09; no scipy needed)."""
    z = 3.090
    critical = df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3
    return statistic < critical


def uniform(counts: list[int]) -> bool:
    """Chi-square goodness of fit of ``counts`` against equal counts, within chance."""
    expected = sum(counts) / len(counts)
    return chance(sum((c - expected) ** 2 / expected for c in counts), len(counts) - 1)


def walk(variant: str, seed: int, options: dict | None = None, stop=None):
    """A hand of ``variant`` played at random through the engine; at every action, the table,
    the seat to act and the cards each seat has passed (card -> receiver). ``stop(st)``
    ends the walk early."""
    game = {"hand_limit": 1, **(options or {})}
    if "target" in {f.name for f in fields(get_variant(variant).Options)}:
        game["target"] = None
    eng = Engine.new(variant, game, seed=seed, players=PLAYERS)
    rng = random.Random(seed)
    passed: dict[int, dict[int, int]] = {}
    while not eng.state.game_over:
        st = eng.state
        if st.to_act is not None and st.phase != "deal":
            yield st, st.to_act, passed.get(st.to_act, {})
        if stop and stop(st):
            return
        exchange = st.phase == "exchange"
        if exchange:
            giver, receiver = st.exchange_queue[0]
            before = st.known[giver]
        eng.apply_id(rng.choice(eng.legal_ids()))
        if exchange:
            for p in range(106):
                if before >> p & 1 and not eng.state.known[giver] >> p & 1:
                    passed.setdefault(giver, {})[p] = receiver


def truth(st: State) -> Layout:
    """Where every card not yet played really is (every hand dealt by the engine)."""
    held = 0
    for h in st.known:
        held |= h
    return Layout(tuple(st.known), st.deck_mask & ~st.played & ~held)


@pytest.mark.parametrize("variant,options", [("euchre", None), ("euchre-1844", None),
                                             ("euchre", {"discard_up_card": True}),
                                             ("bid-euchre", None), ("euchre-british", None),
                                             ("jucker", None), ("pepper", None),
                                             ("pfeffer", None)])
def test_the_real_hands_always_agree_with_what_the_player_knew(variant, options):
    """What a seat knew are facts: at every action of random hands the real layout is one
    of the consistent layouts, and each sampled layout is consistent too."""
    rng = random.Random(0)
    for seed in range(12):
        for state, seat, passed in walk(variant, seed, options):
            k = Knowledge.of(state, seat, passed)
            assert k.consistent(truth(state)), (seed, seat, state.phase)
            layouts = Layouts(k)
            assert layouts.count >= 1
            assert k.consistent(layouts.sample(rng))


def test_a_seat_that_did_not_follow_trump_holds_neither_trumps_nor_the_left_bower():
    """“Euchre”, section “Rules” (the account's play): follow suit if able, the left bower
    belonging to the trump suit: a seat that showed out of trump led holds no trump, the
    left bower included, but may still hold the other cards of the left bower's suit."""
    found = 0
    for seed in range(200):
        for state, seat, passed in walk("euchre", seed):
            order = state.order
            if state.phase != "play" or order is None:
                continue
            trump = order.trump_suit
            left = next(p for p in state.deck.physical if order.eff[p] == trump
                        and CARDS[p].suit != trump and CARDS[p].rank == 11)
            showed = [s for _, cards, _ in state.tricks for s, p in cards[1:]
                      if order.eff[cards[0][1]] == trump and order.eff[p] != trump]
            k = Knowledge.of(state, seat, passed)
            out = [s for s in showed if s != seat]
            if not out or not k.hidden >> left & 1:
                continue
            void = out[0]
            assert k.barred[void] >> left & 1
            layouts = sample_layouts(k, 200, seed)
            assert not any(lay.hands[void] & order.suit_masks[trump] for lay in layouts)
            found += 1
            break
        if found >= 3:
            return
    pytest.fail(f"only {found} positions where a seat showed out of trump")


def test_the_up_card_ordered_up_is_the_dealers_until_played():
    """“Euchre”, section “Making trump”: the dealer takes up the ordered-up card, 'left in
    place until played' (North American rule): every layout gives it to the dealer."""
    for seed in range(40):
        for state, seat, passed in walk("euchre", seed):
            if state.phase == "play" and state.taken_up is not None and seat != state.dealer \
                    and state.known[state.dealer] >> state.taken_up & 1:
                k = Knowledge.of(state, seat, passed)
                assert all(lay.hands[state.dealer] >> state.taken_up & 1
                           for lay in sample_layouts(k, 50, seed))
                return
    pytest.fail("no hand was ordered up")


def test_the_up_card_may_be_the_discard_where_the_dealer_may_discard_it():
    """“Euchre”, section “History” (Mathews' 1844 rules): the dealer 'picks up the upcard and
    discards a card in return', which may be the up-card: the others cannot tell whether
    the dealer kept it or discarded it, so both are dealt."""
    for seed in range(60):
        for state, seat, passed in walk("euchre-1844", seed):
            if state.phase == "play" and not state.tricks and state.taken_up is not None \
                    and seat != state.dealer:
                k = Knowledge.of(state, seat, passed)
                where = Counter(STOCK if lay.stock >> state.taken_up & 1 else
                                next(s for s, h in enumerate(lay.hands)
                                     if h >> state.taken_up & 1)
                                for lay in sample_layouts(k, 400, seed))
                assert set(where) == {state.dealer, STOCK}, where
                return
    pytest.fail("no hand was ordered up")


def test_the_up_card_turned_down_is_in_the_stock_and_the_dealers_discard_is_known_to_him():
    """“Euchre”, section “Making trump”: a card turned down stays out of play; the dealer
    knows the card it discarded (it is in the stock in every layout it imagines)."""
    def after_round_one(state: State) -> bool:
        return state.phase == "bidding" and len(state.bids) == 4

    for seed in range(40):
        *_, (state, seat, passed) = walk("euchre", seed, stop=after_round_one)
        if after_round_one(state):
            assert state.up_card is not None
            k = Knowledge.of(state, seat, passed)
            assert all(lay.stock >> state.up_card & 1 for lay in sample_layouts(k, 30, seed))
            break
    else:
        pytest.fail("no hand went to round two")
    for seed in range(40):
        for state, seat, passed in walk("euchre", seed):
            if state.phase == "play" and seat == state.dealer and passed:
                (discard,) = passed
                k = Knowledge.of(state, seat, passed)
                assert all(lay.stock >> discard & 1 for lay in sample_layouts(k, 30, seed))
                return
    pytest.fail(f"no dealer discarded after an {ORDER_UP}")


def hand_written() -> Knowledge:
    """Seat 0 holds card 20; 10 hidden cards (0-9); seats 1-3 hold 3, 3 and 2 cards; the
    stock the other 2. Seat 1 showed out of the suit of cards 0-3; card 9 is the up-card a
    dealer (seat 3) took up and may have discarded."""
    return Knowledge(seat=0, held=(1 << 20, 0, 0, 0), counts=(1, 3, 3, 2),
                     barred=(0, 0b1111, 0, 0), hidden=(1 << 10) - 1,
                     confined=((9, (3, STOCK)),))


def brute_force(k: Knowledge) -> set[Layout]:
    """Every way to give each hidden card a place (4 ** 10), kept where consistent."""
    cards = [p for p in range(64) if k.hidden >> p & 1]
    places = [1, 2, 3, STOCK]
    out = set()
    for code in range(len(places) ** len(cards)):
        hands, stock = list(k.held), 0
        for p in cards:
            place = places[code % 4]
            code //= 4
            if place == STOCK:
                stock |= 1 << p
            else:
                hands[place] |= 1 << p
        layout = Layout(tuple(hands), stock)
        if k.consistent(layout):
            out.add(layout)
    return out


def test_every_consistent_layout_is_enumerated_once_and_counted_exactly():
    k = hand_written()
    every = list(exact_layouts(k))
    assert len(every) == len(set(every)) == count_layouts(k)
    assert set(every) == brute_force(k)


def test_each_consistent_layout_is_dealt_equally_often():
    """Uniform over the consistent layouts: 60,000 draws over 1,200 layouts, a chi-square
    test against equal counts (a fixed seed: the same answer every run)."""
    k = hand_written()
    every = list(exact_layouts(k))
    drawn = Counter(sample_layouts(k, 60_000, seed=7))
    assert set(drawn) <= set(every)
    assert uniform([drawn[lay] for lay in every])


def test_the_layouts_are_numbered_in_the_order_they_are_enumerated():
    layouts = Layouts(hand_written())
    assert [layouts.layout(r) for r in range(layouts.count)] == list(layouts.all())
    with pytest.raises(ValueError, match="no layout 1200"):
        layouts.layout(1200)


def test_a_stratified_draw_gives_every_layout_the_same_chance():
    """One layout in each n-th of the numbering: over many draws each consistent layout
    comes up as often as any other (chi-square, a fixed seed)."""
    k = hand_written()
    every = list(exact_layouts(k))
    drawn: Counter[Layout] = Counter()
    for seed in range(600):
        drawn.update(stratified_layouts(k, 100, seed))
    assert uniform([drawn[lay] for lay in every])


def test_the_layouts_are_the_same_for_the_same_seed():
    k = hand_written()
    assert sample_layouts(k, 50, 3) == sample_layouts(k, 50, 3)
    assert sample_layouts(k, 50, 3) != sample_layouts(k, 50, 4)


def test_facts_that_contradict_each_other_have_no_layout():
    k = Knowledge(seat=0, held=(1, 0, 0, 0), counts=(1, 2, 0, 0), barred=(0, 0b110, 0, 0),
                  hidden=0b110)
    assert count_layouts(k) == 0
    with pytest.raises(ValueError, match="no layout"):
        sample_layouts(k, 1, 0)


@st.composite
def situations(draw):
    """A real layout of a small deck (the observer's hand, three others, a stock) and facts
    drawn from it: some cards of others known, voids in suits a hand does not hold."""
    cards = draw(st.integers(6, 24))
    order = draw(st.permutations(range(cards)))
    cuts = sorted(draw(st.lists(st.integers(0, cards), min_size=4, max_size=4)))
    parts = [order[a:b] for a, b in zip([0, *cuts], [*cuts, cards], strict=True)]
    hands = [sum(1 << p for p in part) for part in parts[:4]]
    stock = sum(1 << p for p in parts[4])
    suits = [sum(1 << p for p in range(cards) if p % 4 == s) for s in range(4)]
    held = [hands[0]] + [h & draw(st.integers(0, (1 << cards) - 1)) for h in hands[1:]]
    barred = [0] + [sum(suits[s] for s in range(4) if not h & suits[s]
                        and draw(st.booleans())) for h in hands[1:]]
    known = 0
    for h in held:
        known |= h
    k = Knowledge(0, tuple(held), tuple(h.bit_count() for h in hands), tuple(barred),
                  ((1 << cards) - 1) & ~known)
    return k, Layout(tuple(hands), stock), (1 << cards) - 1


@settings(max_examples=150, deadline=None)
@given(situations(), st.integers(0, 2 ** 32))
def test_every_sampled_layout_is_consistent_and_deals_the_whole_deck(situation, seed):
    k, real, deck = situation
    assert k.consistent(real)
    for layout in sample_layouts(k, 5, seed) + stratified_layouts(k, 5, seed):
        assert k.consistent(layout)
        union = layout.stock
        for h in layout.hands:
            assert not union & h
            union |= h
        assert union == deck


# -- against endplay's dealer, on bridge positions --------------------------------------


def bridge_position(seed: int, tricks: int) -> State:
    """A bridge deal (the engine's Spades with ``breaking_spades`` off: bridge's card play)
    played at random for ``tricks`` tricks, seat 0 to see it."""
    eng = Engine.new("spades", {"breaking_spades": False, "target": None, "hand_limit": 1},
                     seed=seed, players=PLAYERS)
    rng = random.Random(seed)
    while eng.state.phase != "play" or len(eng.state.tricks) < tricks or eng.state.trick:
        eng.apply_id(rng.choice(eng.legal_ids()))
    return eng.state


def suit_of(p: int) -> int:
    return int(CARDS[p].suit)  # type: ignore[arg-type]


def endplay_hands(deal, dealt: list[int]) -> list[int]:
    """An endplay deal's hands as bit sets, without the cards ``dealt`` (played) to them."""
    from endplay.types import Player

    return [sum(1 << (int(c.suit) * 13 + c.rank.value.bit_length() - 3)
                for c in deal[Player(s)]) & ~dealt[s] for s in range(4)]


def alike(ours: list[int], theirs: list[int]) -> bool:
    """Chi-square test of two samples of one statistic (a 2 x k table of counts), within
    chance; 0.5 added to each cell (a value one sample never shows is no division by zero)."""
    a, b = Counter(ours), Counter(theirs)
    values = sorted(set(a) | set(b))
    if len(values) < 2:
        return True
    rows = [[a[v] + 0.5 for v in values], [b[v] + 0.5 for v in values]]
    total = sum(map(sum, rows))
    columns = [r0 + r1 for r0, r1 in zip(*rows, strict=True)]
    statistic = sum((cell - sum(row) * col / total) ** 2 / (sum(row) * col / total)
                    for row in rows for cell, col in zip(row, columns, strict=True))
    return chance(statistic, len(values) - 1)


def test_the_layouts_agree_with_endplays_dealer_on_bridge_positions():
    """The same position dealt two ways: by ``Layouts`` from seat 0's knowledge, and by
    endplay's dealer (the bench extra) with seat 0's hand and every card played predealt
    where they were and the voids as a predicate (rejection). Which seat holds a given
    hidden card, and how many cards of a suit seat 1 holds, are distributed alike: a
    chi-square test of the two samples (fixed seeds: the same answer every run)."""
    dealer = pytest.importorskip("endplay.dealer")
    from endplay.types import Deal, Player

    checked = 0
    for seed in range(30):
        st = bridge_position(seed, 4)
        k = Knowledge.of(st, 0)
        voids = {(s, suit_of(cards[0][1])) for _, cards, _ in st.tricks
                 for s, p in cards[1:] if suit_of(p) != suit_of(cards[0][1])}
        if not voids:
            continue
        dealt = [0] * 4
        dealt[0] = st.known[0]
        for _, cards, _ in st.tricks:
            for s, p in cards:
                dealt[s] |= 1 << p
        predeal = Deal(pbn(type("Hands", (), {"hands": dealt})))  # type: ignore[arg-type]

        def keeps_voids(deal, voids=voids, dealt=dealt):
            return all(sum(1 for c in deal[Player(s)] if int(c.suit) == suit)
                       == sum(1 for p in range(52) if dealt[s] >> p & 1 and suit_of(p) == suit)
                       for s, suit in voids)

        theirs = [endplay_hands(d, dealt) for d in dealer.generate_deals(
            keeps_voids, predeal=predeal, produce=1500, seed=seed)]
        ours = [list(lay.hands) for lay in sample_layouts(k, 1500, seed)]
        hidden = [p for p in range(52) if k.hidden >> p & 1]
        card = hidden[len(hidden) // 2]
        suit = next(int(s) for s in Suit if (1, int(s)) not in voids)
        mask = st.deck.mask & sum(1 << p for p in range(52) if suit_of(p) == suit)

        def holder(hands: list[int], card: int = card) -> int:
            return next(s for s in range(1, 4) if hands[s] >> card & 1)

        assert alike([holder(h) for h in ours], [holder(h) for h in theirs]), seed
        assert alike([(h[1] & mask).bit_count() for h in ours],
                     [(h[1] & mask).bit_count() for h in theirs]), seed
        checked += 1
        if checked == 4:
            return
    pytest.fail(f"only {checked} bridge positions with a void")


def test_facts_that_cannot_be_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="seat 1 is known to hold 2 cards, more than the 1"):
        Knowledge(seat=0, held=(0, 0b11), counts=(0, 1), barred=(0, 0), hidden=0)
    with pytest.raises(ValueError, match="a card of a suit it showed out of"):
        Knowledge(seat=0, held=(0, 0b1), counts=(0, 1), barred=(0, 0b1), hidden=0)
    with pytest.raises(ValueError, match="more unknown places than hidden cards"):
        Knowledge(seat=0, held=(0, 0), counts=(0, 2), barred=(0, 0), hidden=0b1)


def test_a_seat_that_revoked_proved_no_void():
    """A table in record mode accepts a card that does not follow suit (“Euchre”, section
    “Renege”): that seat showed out of a suit it still held, so its show-outs are not
    facts, and the real hands still agree with what each player knew."""
    from played_games import revoke_game
    from tricktable.analysis.decisions import decisions_of
    from tricktable.history import record_from_engine

    record = record_from_engine(revoke_game(2, variant="euchre"))
    checked = 0
    for hand in decisions_of(record):
        for decision in hand.decisions:
            st = decision.st
            k = Knowledge.of(st, decision.seat, decision.passed)
            assert k.consistent(truth(st))
            for r in st.revokes:
                assert not k.barred[r["seat"]]
                checked += 1
    assert checked

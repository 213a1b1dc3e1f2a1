"""Lockstep with OpenSpiel's euchre (google-deepmind/open_spiel, ``open_spiel/games/euchre``):
the same deal on both tables, the same random choices, and at every turn the same legal set:
the bids, the dealer's discard (the up-card “is left in place until played”: “Euchre”,
section “Making trump”, which OpenSpiel keeps too) and every card of the play (follow suit,
the left bower a trump); then the same score for the hand.

OpenSpiel asks a maker about going alone after the discard, we take ``:ALONE`` with the bid:
the lockstep decides before the bid and answers both. Where the dealer is the lone maker's
partner the two differ by design (we leave the up-card in the kitty: docs/rules/euchre.md),
so that hand is played with the partner."""

from __future__ import annotations

import random

import pyspiel  # OpenSpiel, a test extra (pyproject.toml)
from tricktable.cards import parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import Action, Bid, Exchange, Pass, Play, ScanCard, TurnUp
from variantkit import ok

PASS, SUIT_ACTIONS, ALONE, PARTNER = 24, range(25, 29), 29, 30
SUITS = "CDHS"  # OpenSpiel's suit order: action 25 + i names SUITS[i], card c is suit c % 4
DEALS = 300


def _card(name: str) -> str:
    """OpenSpiel's ``ST`` (suit, rank) as ours: ``10S``."""
    return {"T": "10"}.get(name[1], name[1]) + name[0]


def _ours(eng: Engine, state: object, action: int, up_suit: str, alone: bool) -> Action | None:
    """Our action for OpenSpiel's ``action`` in ``state`` (None for its alone question)."""
    seat = eng.to_act
    assert seat is not None
    if action in (ALONE, PARTNER):
        return None
    if action == PASS:
        return Pass(seat)
    suffix = ":ALONE" if alone else ""
    if action in SUIT_ACTIONS:
        suit = SUITS[action - 25]
        return Bid(seat, ("ORDER_UP" if eng.state.contract is None and len(eng.state.bids) < 4
                          and suit == up_suit else suit) + suffix)
    card = parse_card(_card(state.action_to_string(action)))  # type: ignore[attr-defined]
    return Exchange(seat, card) if eng.phase == "exchange" else Play(seat, card)


def _key(a: Action) -> tuple[str, int, str]:
    """An action by its kind, seat and card or bid (a single deck: no copies)."""
    return type(a).__name__, a.seat, str(getattr(a, "card", None) or getattr(a, "bid", ""))


def _lockstep(seed: int) -> tuple[int, bool]:
    """One deal on both tables; (how many discards were compared, whether it was scored)."""
    rng = random.Random(seed)
    game = pyspiel.load_game("euchre", {"stick_the_dealer": False})
    st = game.new_initial_state()
    while st.is_chance_node():
        st.apply_action(rng.choice([o for o, _ in st.chance_outcomes()]))
    dealer, up = st.dealer(), _card(st.action_to_string(st.upcard()))
    eng = Engine.new("euchre", seed=seed, dealer=dealer)
    ok(eng, TurnUp(dealer, parse_card(up)))
    for c, holder in enumerate(st.card_holder()):
        if holder is not None:
            ok(eng, ScanCard(holder, parse_card(_card(st.action_to_string(c)))))
    alone = rng.random() < 0.2
    discards = 0
    while not st.is_terminal():
        theirs = st.legal_actions()
        if theirs[0] in (ALONE, PARTNER):
            maker = eng.state.contract
            assert maker is not None and st.current_player() == maker.seat, seed
            st.apply_action(ALONE if maker.alone else PARTNER)
            continue
        assert st.current_player() == eng.to_act, (seed, eng.phase)
        discards += eng.phase == "exchange"
        bid_alone = alone and not (len(eng.state.bids) < 4 and _partner_deals(eng))
        mapped = {a: _ours(eng, st, a, up[-1], bid_alone) for a in theirs}
        mine = {_key(a) for a in eng.legal_actions()
                if not isinstance(a, Bid) or a.bid.endswith(":ALONE") == bid_alone}
        assert {_key(a) for a in mapped.values() if a is not None} == mine, \
            (seed, eng.phase, [st.action_to_string(a) for a in theirs], sorted(mine))
        choice = rng.choice(theirs)
        st.apply_action(choice)
        ours = mapped[choice]
        assert ours is not None
        ok(eng, ours)
    last = eng.state.last_hand
    if st.returns() == [0.0] * 4:  # thrown in: all passed twice
        assert eng.phase == "deal" and last is None and eng.state.dealer == (dealer + 1) % 4
        return discards, False
    assert last is not None
    assert last["deltas"][0] - last["deltas"][1] == st.returns()[0], (seed, last, st.returns())
    return discards, True


def _partner_deals(eng: Engine) -> bool:
    """The seat to bid is the dealer's partner (a lone bid there is played differently)."""
    return eng.to_act == (eng.state.dealer + 2) % 4


def test_lockstep_with_openspiel_euchre_agrees_on_every_legal_set() -> None:
    """“Euchre”, section “Making trump”: the up-card 'is left in place until played, and the
    dealer discards a card to the bottom of the kitty' -- the discard's legal set is the
    five cards in the hand on both tables, as is every other legal set of the deal."""
    discards = scored = 0
    for seed in range(DEALS):
        d, s = _lockstep(seed)
        discards += d
        scored += s
    assert discards > DEALS // 4 and scored > DEALS // 2, (discards, scored)

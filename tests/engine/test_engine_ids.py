"""The engine's integer API (``legal_ids``/``apply_id``) and the card play's integer form
with make/unmake (``CardPlay``) say what the dataclass API says, for every variant."""

from __future__ import annotations

import random

import pytest
from tricktable.engine import Engine
from tricktable.engine.ids import CARD_IDS, DEAL, IllegalAction
from tricktable.engine.intplay import CardPlay
from tricktable.rules import get_variant, list_variants


def _endless(variant: str) -> dict[str, object]:
    fields = get_variant(variant).Options.__dataclass_fields__
    return {"target": None} if "target" in fields else {}


@pytest.mark.parametrize("variant", list_variants())
def test_int_actions_are_the_legal_actions_and_apply_alike(variant):
    """Two tables of one seed, one driven by ints and one by the actions they stand for,
    stay identical for three hands (or the game)."""
    by_int = Engine.new(variant, options=_endless(variant), seed=4)
    by_action = Engine.new(variant, options=_endless(variant), seed=4)
    rng = random.Random(4)
    while by_int.state.hands_played < 3 and not by_int.state.game_over:
        ids = by_int.legal_ids()
        st = by_action.state
        if st.phase == "deal":
            assert ids == [DEAL]
        else:
            assert sorted(ids) == sorted(by_int.ids.id_of(a) for a in by_action.legal_actions())
        a = rng.choice(ids)
        by_int.apply_id(a)
        assert by_action.apply(by_int.ids.action_of(a, st.to_act, st.phase)).ok
        assert by_int.public_state() == by_action.public_state()
    assert by_int.actions == by_action.actions


def test_an_illegal_int_is_refused_and_changes_nothing():
    eng = Engine.new("euchre", seed=2)
    while eng.phase != "play":
        eng.apply_id(eng.legal_ids()[0])
    before = eng.public_state()
    held = [p for p in range(CARD_IDS) if eng.state.known[eng.to_act] >> p & 1]
    other = next(p for p in range(CARD_IDS) if eng.state.deck_mask >> p & 1 and p not in held)
    with pytest.raises(IllegalAction) as no:
        eng.apply_id(other)
    assert no.value.code in ("card_not_in_hand", "card_already_played")
    with pytest.raises(IllegalAction) as no:
        eng.apply_id(10_000)
    assert no.value.code == "unknown_action"
    assert eng.public_state() == before


def test_actions_applied_after_int_actions_still_report_what_they_caused():
    """``apply_id`` makes no events (nobody reads them); ``apply`` on the same table, after
    int actions accepted and refused, reports its events as ever."""
    eng = Engine.new("euchre", seed=3)
    eng.apply_id(DEAL)
    with pytest.raises(IllegalAction):
        eng.apply_id(10_000)
    out = eng.apply(eng.legal_actions()[-1])  # a pass or a bid
    assert out.ok and out.events
    while eng.phase != "play":
        eng.apply_id(eng.legal_ids()[0])
    while eng.state.hands_played == 0 and len(eng.state.tricks) < 4:
        eng.apply_id(eng.legal_ids()[0])
    while eng.state.hands_played == 0:  # the last trick, by actions: the hand is scored
        out = eng.apply(eng.legal_actions()[0])
    assert [e.TYPE for e in out.events][-2:] == ["hand_scored", "hand_started"]


@pytest.mark.parametrize("variant", list_variants())
def test_the_card_play_in_integer_form_follows_the_engine(variant):
    """From the start of each hand's play: the same legal cards as the engine at every
    step, the same tricks to each side, and every play undone gives the start back."""
    eng = Engine.new(variant, options=_endless(variant), seed=6)
    rng = random.Random(6)
    hands = 0
    while hands < 3 and not eng.state.game_over:
        if eng.phase != "play":
            eng.apply_id(rng.choice(eng.legal_ids()))
            continue
        st = eng.state
        cp = CardPlay.from_state(st)
        start = (list(cp.hands), cp.to_play)
        plays = 0
        while not cp.over:
            assert cp.legal_actions() == eng.legal_ids()
            p = rng.choice(cp.legal_actions())
            cp.play(p)
            eng.apply_id(p)
            plays += 1
        last = eng.state.last_hand
        assert [sum(last["tricks_won"][s] for s in side) for side in st.sides] == cp.won
        for _ in range(plays):
            cp.undo()
        assert (cp.hands, cp.to_play, cp.won, cp.tricks) == (start[0], start[1], [0] * len(cp.won), [])
        hands += 1

"""The up-card rule in records (docs/hand-history.md, "Options"): a Euchre game's record states
option ``discard_up_card``, and a record made before the option existed, when the dealer could
discard the up-card, still replays and verifies (“Euchre”, section “Making trump”: the
up-card 'is left in place until played', the default since)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from played_games import PLAYERS, write_journal
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, Deal, Exchange
from tricktable.history import (
    read_json,
    read_text,
    record_from_engine,
    verify,
    write_json,
    write_text,
)
from tricktable.serve.journal import Journal


def _up_card_discarded() -> Engine:
    """A Euchre game (house rule ``discard_up_card``) whose dealer discards the up-card, then
    plays the hand out by the first legal card."""
    eng = Engine.new("euchre", {"discard_up_card": True}, seed=3, players=PLAYERS)
    eng.apply(Deal(0))
    up = eng.state.card_name(eng.state.up_card)
    assert eng.apply(Bid(1, "ORDER_UP")).ok
    [discard] = [a for a in eng.legal_actions() if isinstance(a, Exchange) and str(a.card) == up]
    assert eng.apply(discard).ok
    while eng.state.hand_number == 1:
        assert eng.apply(eng.legal_actions()[0]).ok
    return eng


def _as_before_the_option(text: str) -> str:
    """The record as the engine wrote it before the option: no ``discard_up_card`` line."""
    line = '[Option "discard_up_card=true"]\n'
    assert line in text
    return text.replace(line, "")


def test_a_new_game_states_its_up_card_rule() -> None:
    eng = Engine.new("euchre", players=PLAYERS)
    assert eng.config["options"] == {"discard_up_card": False}
    assert '[Option "discard_up_card=false"]' in write_text(record_from_engine(eng))


def test_an_old_text_record_that_discards_the_up_card_still_replays_and_verifies() -> None:
    old = _as_before_the_option(write_text(record_from_engine(_up_card_discarded())))
    record = read_text(old)
    assert record.config["options"]["discard_up_card"] is True
    assert verify(record) == []


def test_an_old_json_record_and_journal_read_the_same(tmp_path: Path) -> None:
    eng = _up_card_discarded()
    data = json.loads(write_json(record_from_engine(eng)))
    del data["config"]["options"]["discard_up_card"]
    assert read_json(json.dumps(data)).config["options"]["discard_up_card"] is True
    before = SimpleNamespace(config=dict(eng.config) | {"options": {}}, actions=eng.actions)
    write_journal(tmp_path / "j.sqlite", "t1", before)  # type: ignore[arg-type]
    with Journal(tmp_path / "j.sqlite", readonly=True) as journal:
        [game] = journal.games("t1")
        assert game.setup["options"] == {"discard_up_card": True}
        assert verify(journal.history("t1", 1)) == []

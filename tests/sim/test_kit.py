"""The demo kit: every card and token enrolled, and the tag for an action is the one the
host reads back as that action."""

from __future__ import annotations

from pathlib import Path

import pytest
from tricktable.cards import parse_card_copy
from tricktable.deckkit.decks import Registry
from tricktable.engine.actions import Bid, DeclareTrump, Pass, Play, SitOut
from tricktable.serve.table import token_actions
from tricktable.sim.kit import Kit, KitError
from tricktable.sim.table_sim import deck_cards

SETUP = {"variant": "bid-euchre", "players": ["A", "B", "C", "D"]}


@pytest.fixture
def kit(tmp_path: Path) -> Kit:
    with Registry(tmp_path / "decks.sqlite") as registry:
        return Kit.enroll(registry, 3, deck_cards(SETUP), card_deck=4, token_deck=1004)


def test_every_card_of_the_deck_and_every_token_is_enrolled(tmp_path: Path) -> None:
    with Registry(tmp_path / "decks.sqlite") as registry:
        kit = Kit.enroll(registry, 3, deck_cards(SETUP), card_deck=4, token_deck=1004)
        assert len(kit.cards) == 24 and "PASS" in kit.tokens
        for tag in [*kit.cards.values(), *kit.tokens.values()]:
            resolved = registry.resolve(tag.uid, tag.record)
            assert (resolved.token or str(resolved.card)) == tag.name


@pytest.mark.parametrize("action", [Pass(2), Bid(2, "4"), Bid(2, "PEPPER:SMALL"),
                                    DeclareTrump(2, "H"), DeclareTrump(2, "LOW"),
                                    SitOut(2, True), SitOut(2, False)])
def test_the_token_for_an_action_means_that_action_to_the_host(kit: Kit, action) -> None:
    tag = kit.tag_for(action)
    assert action in token_actions(tag.name, 2)


def test_a_card_action_uses_the_card(kit: Kit) -> None:
    assert kit.tag_for(Play(0, *parse_card_copy("JH"))).name == "JH"


def test_an_action_without_a_tag_is_refused(kit: Kit) -> None:
    assert not kit.has_tag(Bid(0, "14"))
    with pytest.raises(KitError, match="no token does"):
        kit.tag_for(Bid(0, "14"))
    with pytest.raises(KitError, match="no card \"AS'\""):
        kit.card("AS'")


def test_a_double_deck_game_gets_a_deck_with_both_copies(tmp_path: Path) -> None:
    cards = deck_cards({"variant": "double-deck", "players": ["A", "B", "C", "D"]})
    with Registry(tmp_path / "decks.sqlite") as registry:
        kit = Kit.enroll(registry, 0, cards, card_deck=1, token_deck=2)
    assert "AS'" in kit.cards and set(cards) <= set(kit.cards)
    with Registry(tmp_path / "other.sqlite") as registry, pytest.raises(KitError):
        Kit.enroll(registry, 0, ["AS", "AS'", "2S'"], card_deck=1, token_deck=2)

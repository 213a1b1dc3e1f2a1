"""What the host makes of a card put back and of a misread (docs/cardpath.md, issue 16).

"Put back": a card lifted and placed again is reported again by its pad; the rules refuse it
(the card is played already), so it never counts twice. "Misreads": an enrolled UID that comes with a record of ours whose MAC is for another UID
was read wrong; it is refused as ``misread`` with the board's "read again" light, and
changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from tricktable.clubfile import TableConfig
from tricktable.deckkit.decks import Misread, Registry
from tricktable.serve.table import READ_AGAIN_FEEDBACK, Result, TableSession
from tricktable.sim.kit import Kit
from tricktable.sim.table_sim import deck_cards

pytestmark = pytest.mark.timeout(60)

PLAYERS = ("N", "E", "S", "W")


@contextmanager
def table() -> Iterator[tuple[TableSession, Kit, Registry]]:
    """A Bid Euchre table in its deal (hands scanned on the pads), board ``b{seat}`` pad 0."""
    config = TableConfig(id="t", variant="bid-euchre", options={}, players=PLAYERS, dealer=0,
                         seed=3, pads={(f"b{s}", 0): s for s in range(4)})
    setup = {"variant": "bid-euchre", "options": {}, "dealer": 0, "seed": 3,
             "players": list(PLAYERS)}
    with Registry(":memory:") as registry:
        kit = Kit.enroll(registry, 0, deck_cards(setup), card_deck=1, token_deck=2)
        session = TableSession(config, registry)
        assert session.start_game().ok
        yield session, kit, registry


def look(result: Result, board: str) -> dict[str, object]:
    """The look the tapping board's pad got (the last feedback for that board)."""
    shown = [f for b, f in result.feedback if b == board][-1]
    return {"led": shown.led, "pattern": shown.pattern, "ms": shown.ms, "buzz": shown.buzz}


def test_a_card_put_back_on_the_pad_counts_once() -> None:
    with table() as (session, kit, _):
        card = kit.card("AS")
        assert session.on_pad("b1", 0, card.uid, card.record).ok
        actions = list(session.actions)
        again = session.on_pad("b1", 0, card.uid, card.record)
        assert not again.ok and session.actions == actions, again.reason
        assert look(again, "b1")["led"] == "red"


def test_a_record_with_a_mac_for_another_uid_is_a_misread() -> None:
    with table() as (session, kit, registry):
        card, other = kit.card("AS"), kit.card("KH")
        actions = list(session.actions)
        result = session.on_pad("b1", 0, card.uid, other.record)
        assert not result.ok and result.code == "misread" and "place the card again" in result.reason
        assert look(result, "b1") == READ_AGAIN_FEEDBACK
        assert session.actions == actions
        with pytest.raises(Misread):
            registry.resolve(card.uid, other.record)
        assert registry.resolve(card.uid, bytes(16)).card is not None, "no record of ours: registry"
        assert registry.resolve(card.uid, card.record).card is not None

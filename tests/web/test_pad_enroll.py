"""Tagging a deck with a phone (docs/phones.md, "Tagging a deck with a phone"): the phone
reads each tag's UID (Web NFC) and the host's registry takes it as the next card; a tag
enrolled already is refused and nothing changes; all of it behind the admin token."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from browsing import needs_chromium
from phonekit import WAIT, colon_hex, make_registry, phone_context
from tricktable.deckkit.decks import Registry, deck_slots
from tricktable.web.server import Scoreboard
from web_fixtures import ADMIN_TOKEN

pytestmark = [needs_chromium, pytest.mark.browser]


@pytest.fixture
def web(mqtt_broker, topic_prefix, tmp_path) -> Iterator[Scoreboard]:
    make_registry(tmp_path / "decks.sqlite").close()
    board = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                       admin_token=ADMIN_TOKEN, registry=tmp_path / "decks.sqlite")
    board.start()
    yield board
    board.stop()


def test_a_deck_tagged_card_by_card_with_a_phone(browser, web, tmp_path):
    with Registry(tmp_path / "decks.sqlite") as registry:
        taken = next(iter(registry.enrolled(1)))
    context = phone_context(browser)
    phone = context.new_page()
    phone.goto(f"{web.url}/enroll")
    phone.fill("#token", ADMIN_TOKEN)
    phone.fill("#deck", "7")
    phone.select_option("#kind", "24")
    phone.fill("#name", "green deck")
    phone.click("#deck-form button")
    phone.wait_for_selector("body[data-reading=yes]", timeout=WAIT * 1000)
    slots = [s.name for s in deck_slots("24")]
    assert phone.locator("#ask").inner_text() == f"Tap the {slots[0]}"
    phone.evaluate("s => window.__nfcField.tap(s)", colon_hex(taken))
    phone.wait_for_selector("#verdict[data-kind=refused]", timeout=WAIT * 1000)
    assert "enrolled" in phone.locator("#verdict-detail").inner_text()
    for n in range(24):
        phone.evaluate("s => window.__nfcField.tap(s)",
                       colon_hex(bytes([0x04, 0x77, 0x07, n, 0, 1, 2])))
        phone.wait_for_selector(f"body[data-done='{n + 1}']", timeout=WAIT * 1000)
    assert phone.locator("#ask").inner_text() == "Deck complete"
    with Registry(tmp_path / "decks.sqlite") as registry:
        enrolled = registry.enrolled(7)
    assert sorted(s.name for s in enrolled.values()) == sorted(slots)
    assert enrolled[bytes([0x04, 0x77, 0x07, 0, 0, 1, 2])].name == slots[0]
    context.close()


def test_tagging_is_behind_the_admin_token(web, tmp_path):
    start = {"deck": 8, "kind": "24"}
    assert httpx.post(f"{web.url}/api/enroll", json=start).status_code == 403
    assert httpx.post(f"{web.url}/api/enroll", json=start,
                      headers={"Authorization": "Bearer nope"}).status_code == 403
    with Registry(tmp_path / "decks.sqlite") as registry:
        assert registry.deck(8) is None
    made = httpx.post(f"{web.url}/api/enroll", json=start,
                      headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert made.status_code == 200 and made.json()["next"] == deck_slots("24")[0].name

"""The scoreboard in chromium while the demo really plays: the club and table pages follow
the game live (cards appear on the felt, the phase and score change) without reloads."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browsing import chromium, needs_chromium
from playwright.sync_api import Page, expect
from tricktable.demo.runner import Demo, DemoConfig

WAIT_MS = 60_000

pytestmark = [
    pytest.mark.browser,
    needs_chromium,
]


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Demo]:
    running = Demo(DemoConfig(tables=1, games=1, speed=8, web_port=0, seed=11,
                              options={"hand_limit": 1}, workdir=tmp_path))
    running.start()
    yield running
    running.stop()


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium() as browser:
        yield browser.new_context(viewport={"width": 1280, "height": 800}).new_page()


def test_club_and_table_pages_follow_a_game_being_played(demo: Demo, page: Page) -> None:
    page.goto(f"{demo.web_url}/")
    card = page.locator('.table-card[data-table="t1"]')
    expect(card).to_contain_text("Bid Euchre", timeout=WAIT_MS)
    card.click()
    expect(page).to_have_url(f"{demo.web_url}/table/t1")
    expect(page.locator("#live")).to_have_text("live", timeout=WAIT_MS)
    expect(page.locator("#felt .slot .card").first).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#facts")).to_contain_text("Contract", timeout=WAIT_MS)
    expect(page.locator("#facts")).to_contain_text("game over", timeout=WAIT_MS)
    expect(page.locator("#hands li")).to_have_count(1, timeout=WAIT_MS)
    page.locator("#hands li a").click()
    expect(page.locator("#step")).to_have_text("Trick 1 of 6", timeout=WAIT_MS)
    page.locator("#last").click()
    expect(page.locator("#step")).to_have_text("Trick 6 of 6")
    assert demo.wait(timeout=60)

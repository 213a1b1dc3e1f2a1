"""``tricktable demo --phones`` (docs/phones.md, "Try it without a phone"): table 1 is read
by phones, its seat pages open in a desktop browser (no NFC) with a labelled "place card"
stand-in, and a card placed there goes through the real relay, broker and host; the other
tables play on with their bots. The demo then runs until it is stopped (Ctrl-C)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browsing import chromium, needs_chromium
from click.testing import CliRunner
from playwright.sync_api import expect
from tricktable.cli import main
from tricktable.demo.runner import Demo, DemoConfig
from waiting import eventually

WAIT_MS = 60_000

pytestmark = [pytest.mark.browser, needs_chromium]


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Demo]:
    running = Demo(DemoConfig(tables=2, speed=0, web_port=0, seed=11, phones=True,
                              options={"hand_limit": 1}, games=1, workdir=tmp_path))
    running.start()
    yield running
    running.stop()


def test_the_seat_pages_play_by_the_place_card_stand_in(demo: Demo) -> None:
    pages = demo.seat_pages()
    assert len(pages) == 4 and all("/pad#pair=" in url for url in pages)
    with chromium() as browser:
        dealer = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        dealer.goto(pages[0])
        standin = dealer.locator("#standin")
        expect(standin).to_be_visible(timeout=WAIT_MS)
        expect(standin.locator("h2")).to_have_text("No NFC here: the “place card” stand-in")
        expect(dealer.locator("#where")).to_have_text("Table 1 · North")
        dealer.select_option("#standin-card", label="chip DEAL")
        dealer.click("#standin-place")
        expect(dealer.locator("#verdict")).to_have_attribute("data-kind", "accepted",
                                                             timeout=WAIT_MS)
        expect(dealer.locator("#verdict-detail")).to_contain_text("dealt")
    service = demo._started.service
    assert service.state("t1")["actions"] == 1
    eventually(lambda: service.state("t2")["actions"] > 10, "table 2 playing with its bots",
               WAIT_MS / 1000)


def test_each_tab_stays_its_seat_after_a_reload(demo: Demo) -> None:
    """The demo opens the four seat pages as tabs of one browser, which share localStorage:
    a reloaded tab is still the seat it was opened for, not the seat of the tab saved last."""
    seats = ["North", "East", "South", "West"]
    with chromium() as browser:
        one_browser = browser.new_context(viewport={"width": 1280, "height": 800})
        tabs = []
        for url, seat in zip(demo.seat_pages(), seats, strict=True):
            tab = one_browser.new_page()
            tab.goto(url)
            expect(tab.locator("#where")).to_have_text(f"Table 1 · {seat}", timeout=WAIT_MS)
            tabs.append(tab)
        for tab, seat in zip(tabs, seats, strict=True):
            tab.reload()
            expect(tab.locator("#where")).to_have_text(f"Table 1 · {seat}", timeout=WAIT_MS)


def test_phones_need_the_scoreboard_and_no_night() -> None:
    result = CliRunner().invoke(main, ["demo", "--phones", "--night", "--no-view"])
    assert result.exit_code == 1 and "--phones plays table 1 by hand" in result.output

"""The replay page in a real browser (Debian's chromium through Playwright) on a revoke hand
(“Bid Euchre”, record mode, hands unknown): the four hands, trump and the bidding in words,
the revoking card and the card that proved it marked, a link to each trick, keyboard
stepping; and any hand-history or EGN file opened on the page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from browsing import needs_chromium
from playwright.sync_api import Browser, Page, expect
from tricktable.mqtt.broker import BrokerHandle
from tricktable.web.server import Scoreboard

WAIT_MS = 10_000
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
REVOKE = EXAMPLES / "bid-euchre-unknown-revoke.txt"
EGN = EXAMPLES / "euchre-club-final.egn"

pytestmark = [pytest.mark.browser, needs_chromium]


@pytest.fixture
def replays(mqtt_broker: BrokerHandle, topic_prefix: str,
            tmp_path: Path) -> Iterator[Scoreboard]:
    """``tricktable web --history bid-euchre-unknown-revoke.txt``, a copy of the example (the
    page keeps its analysis beside the file)."""
    copy = tmp_path / REVOKE.name
    copy.write_text(REVOKE.read_text())
    board = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                       histories=[copy])
    board.start()
    yield board
    board.stop()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def test_replay_of_a_revoke_hand(page: Page, replays: Scoreboard) -> None:
    page.goto(replays.url + "/replay/bid-euchre-unknown-revoke?game=1&hand=1&trick=3")
    step = page.locator("#step")
    expect(step).to_have_text("Trick 3 of 6", timeout=WAIT_MS)
    facts = page.locator("#facts")
    expect(facts).to_contain_text("Bob: 3, Cy: pass, Di: 5, Ann: pass")
    expect(facts).to_contain_text("5 in diamonds by Di")
    expect(facts).to_contain_text("diamonds")
    expect(facts).to_contain_text("0 to 0, then −18 to 6 (-18 / +6)")
    hands = page.locator("#deal-hands tr")
    expect(hands).to_have_count(4)
    expect(hands.nth(0).locator(".card")).to_have_count(6)
    # trick 3 on the felt: Ann's club is the revoke
    expect(page.locator('#felt .slot[data-seat="0"] .card')).to_have_attribute("data-card", "10C")
    expect(page.locator('#felt .slot[data-seat="0"] .card.revoke')).to_have_count(1)
    # the hands and the trick list mark the revoking card and the card that proved it
    ann = hands.nth(0)
    expect(ann.locator('.card.played.revoke[data-card="10C"]')).to_have_count(1)
    expect(ann.locator('.card.revoke.proof[data-card="QH"]')).to_have_count(1)
    expect(page.locator("#deal-hands .card.revoke, #deal-hands .card.proof")).to_have_count(3)
    trick4 = page.locator('#trick-list li[data-trick="4"]')
    expect(trick4.locator('.card.proof.revoke[data-card="QH"]')).to_have_count(1)
    expect(page.locator("#revokes li").first).to_contain_text(
        "Ann revoked in trick 3 (did not follow hearts), proven in trick 4")
    # nobody scanned the cards: the double-dummy analysis says why there is none
    expect(page.locator("#analysis-note")).to_have_text(
        "Not analysed: every hand must be known to analyse the play.")
    # played out, the hands are the cards each seat played: par is worked out from them
    expect(page.locator("#par-line")).to_have_text("Par: 6 in hearts by Bob: 0-6 tricks, -6/+6.")
    link = page.locator('#trick-list li[data-trick="5"] a')
    expect(link).to_have_attribute(
        "href", "/replay/bid-euchre-unknown-revoke?game=1&hand=1&trick=5")
    expect(page.locator('#trick-list li[aria-current="step"]')).to_have_attribute(
        "data-trick", "3")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text("Trick 4 of 6")
    assert page.url.endswith("trick=4")
    page.keyboard.press("End")
    expect(step).to_have_text("Trick 6 of 6")
    page.keyboard.press("Home")
    expect(step).to_have_text("Trick 1 of 6")
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text("Trick 1 of 6")
    link.click()
    expect(step).to_have_text("Trick 5 of 6", timeout=WAIT_MS)
    assert "ORDER_UP" not in page.content() and "PASS" not in page.locator("main").inner_text()


def test_a_file_opened_on_the_page_is_replayed(page: Page, replays: Scoreboard,
                                               tmp_path: Path) -> None:
    """An EGN record (only the calls and the play) opened with the page's file input."""
    egn = EGN
    page.goto(replays.url + "/replay/bid-euchre-unknown-revoke")
    expect(page.locator("#step")).to_have_text("Trick 1 of 6", timeout=WAIT_MS)
    page.locator("#history-file").set_input_files(str(egn))
    expect(page.locator("#title")).to_have_text("Replay · euchre-club-final.egn",
                                                timeout=WAIT_MS)
    expect(page.locator("#step")).to_have_text("Trick 1 of 5")
    expect(page.locator("#facts")).to_contain_text("clubs, ordered up by Cy")
    expect(page.locator("#facts")).to_contain_text("Di: pass, Ann: pass, Bob: pass, Cy: order up")
    bad = tmp_path / "bad.egn"
    doc = json.loads(EGN.read_text())
    doc["metadata"]["initialScore"] = [3, 2]
    bad.write_text(json.dumps(doc))
    page.locator("#history-file").set_input_files(str(bad))
    expect(page.locator("#file-error")).to_contain_text("bad.egn: metadata.initialScore")

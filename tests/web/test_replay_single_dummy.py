"""The single-dummy estimate on the replay page, in a real browser (Debian's chromium through
Playwright), drawn from a hand's ``decisions`` (the analysis JSON's contract: each decision's
choices best first with their expected points and 95% interval, the choice played, its cost
and why): at the step of a decision the panel lists its choices ranked with their expected
points ("+1.2 points (±0.3)"), marks the one played in words, says the cost in points and
the reason; the hand's costliest decisions link to their steps; the panel says it is an
estimate and how it is made; with no estimate it says why; it fits a phone and meets WCAG AA
contrast. The hand is a real Euchre hand; its ``decisions`` here are a fixture given to the
page in place of the server's (the page's drawing is what is tested: the estimate itself is
``tricktable.analysis.decisions``'s)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import SIZES, needs_chromium
from played_games import random_game
from playwright.sync_api import Browser, Page, Route, expect
from test_contrast import CONTRAST
from tricktable.history import record_from_engine, write_json
from tricktable.mqtt.broker import BrokerHandle
from tricktable.web.server import Scoreboard

WAIT_MS = 30_000

pytestmark = [pytest.mark.browser, needs_chromium]


@pytest.fixture
def board(mqtt_broker: BrokerHandle, topic_prefix: str, tmp_path: Path) -> Iterator[Scoreboard]:
    """``tricktable web --history euchre-night.json``: one Euchre hand played at random."""
    path = tmp_path / "euchre-night.json"
    path.write_text(write_json(record_from_engine(random_game(3, hands=1, variant="euchre"))))
    b = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                   histories=[path])
    b.start()
    yield b
    b.stop()


def choice(name: str, points: float, spread: float, tricks: float, played: bool
           ) -> dict[str, Any]:
    return {"choice": name, "tricks": tricks, "points": points,
            "points_ci95": [points - spread, points + spread], "samples": 100,
            "played": played}


def fixture_decisions(hand: dict[str, Any]) -> list[dict[str, Any]]:
    """Decisions for ``hand`` as the analysis gives them: the first bid (ordering up, said
    to have cost 0.6 points), and each card of trick 2 (the first of them with a second
    choice that was better by 1.1 points, the others the best)."""
    bid = hand["bids"][0]
    out = [{"seat": bid["seat"], "player": hand["seats"][bid["seat"]], "kind": "order-up",
            "trick": None, "played": "order up",
            "choices": [choice("pass", 0.4, 0.2, 2.1, False),
                        choice("order up", -0.2, 0.3, 2.9, True)],
            "cost": 0.6, "cost_ci95": [0.3, 0.9],
            "why": "ordering up cost 0.6 points on average: your partner needed the right "
                   "bower 71% of the time", "samples": 100, "exact": False}]
    for i, played in enumerate(hand["tricks"][1]["cards"]):
        seat, card = played["seat"], played["card"]
        other = next(c for c in hand["hands"][seat] if c != card)
        best, worse = (other, card) if i == 0 else (card, other)
        out.append({"seat": seat, "player": hand["seats"][seat], "kind": "card", "trick": 2,
                    "played": card,
                    "choices": [choice(best, 1.2, 0.3, 3.4, i != 0),
                                choice(worse, 0.1, 0.4, 2.6, i == 0)],
                    "cost": 1.1 if i == 0 else 0.0, "cost_ci95": [0.7, 1.5] if i == 0 else [0, 0],
                    "why": f"the {card} cost 1.1 points on average" if i == 0 else "",
                    "samples": 100, "exact": False})
    return out


def serve_decisions(page: Page, single_dummy: dict[str, Any],
                    decisions: list[dict[str, Any]] | None = None, pending: int = 0) -> None:
    """The page's hand answers carry ``decisions`` (fixtures for the hand they answer),
    after ``pending`` answers that say the estimate is being worked out."""
    def answer(route: Route) -> None:
        nonlocal pending
        hand = route.fetch().json()
        if pending:
            pending -= 1
            hand["analysis"] = {**hand["analysis"], "single_dummy": {"pending": "queued"}}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(hand))
            return
        hand["analysis"] = {**hand["analysis"], "single_dummy": single_dummy}
        if decisions is not None:
            hand["analysis"]["decisions"] = decisions or fixture_decisions(hand)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(hand))
    page.route("**/api/table/euchre-night/hands/1/1", answer)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


ESTIMATE = {"seed": 0, "samples": 100, "method": "sampled", "format": 1}


def test_a_decision_shows_its_choices_ranked_with_expected_points(
        page: Page, board: Scoreboard) -> None:
    """Trick 2: each card played is a decision; its choices best first with "+1.2 points
    (±0.3)", the card played marked "(played)" (words, not colour alone), the cost and why."""
    serve_decisions(page, ESTIMATE, [])
    page.goto(board.url + "/replay/euchre-night?game=1&hand=1&trick=2")
    panel = page.locator("#sd")
    expect(panel).to_have_attribute("data-state", "ready", timeout=WAIT_MS)
    expect(page.locator("#sd-note")).to_contain_text("An estimate (100 deals of the unseen")
    expect(page.locator("#sd-step-title")).to_have_text("Decisions in trick 2")
    boxes = page.locator("#sd-decisions .sd-decision")
    expect(boxes).to_have_count(4)
    first = boxes.nth(0)
    expect(first.locator("h4")).to_contain_text("Trick 2 · ")
    rows = first.locator(".sd-choices tr[data-choice]")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("th")).to_contain_text("best: ")
    expect(rows.nth(0).locator("td").nth(0)).to_have_text("+1.2 points (±0.3)")
    expect(rows.nth(1)).to_have_class("played")
    expect(rows.nth(1).locator("th")).to_contain_text("(played)")
    expect(rows.nth(1).locator("td").nth(0)).to_have_text("+0.1 points (±0.4)")
    expect(first.locator(".sd-cost")).to_have_text(
        "Cost 1.1 points on average (±0.4) against the best choice.")
    expect(first.locator(".sd-why")).to_contain_text("cost 1.1 points on average")
    expect(boxes.nth(1).locator(".sd-cost")).to_contain_text("The best choice")
    expect(boxes.nth(1).locator(".sd-choices tr.played th")).to_contain_text("best: ")
    # what it is, said on the panel: an estimate, and how it is made
    how = page.locator(".sd-how")
    how.locator("summary").click()
    expect(how).to_contain_text("deals the cards they could not see many ways")
    expect(how).to_contain_text("docs/analysis.md")


def test_the_costliest_decisions_link_to_their_step(page: Page, board: Scoreboard) -> None:
    """Where the points went: the hand's costly decisions, costliest first, each a link to
    its step; the bidding's decisions are shown with trick 1, a linked one framed."""
    serve_decisions(page, ESTIMATE, [])
    page.goto(board.url + "/replay/euchre-night?game=1&hand=1&trick=4")
    expect(page.locator("#sd")).to_have_attribute("data-state", "ready", timeout=WAIT_MS)
    costly = page.locator("#sd-costly li a")
    expect(costly).to_have_count(2)
    expect(costly.nth(0)).to_contain_text("Trick 2 · ")
    expect(costly.nth(0)).to_contain_text(", cost 1.1 points (±0.4)")
    expect(costly.nth(1)).to_contain_text("Bidding · ")
    expect(costly.nth(1)).to_contain_text(": order up, cost 0.6 points (±0.3)")
    expect(costly.nth(1)).to_have_attribute(
        "href", "/replay/euchre-night?game=1&hand=1&trick=1&decision=0")
    costly.nth(1).click()
    expect(page.locator("#step")).to_have_text("Trick 1 of 5", timeout=WAIT_MS)
    expect(page.locator("#sd-step-title")).to_have_text("Decisions in the bidding and trick 1")
    linked = page.locator('#sd-decisions .sd-decision[aria-current="true"]')
    expect(linked).to_have_attribute("data-decision", "0")
    expect(linked.locator(".sd-why")).to_have_text(
        "ordering up cost 0.6 points on average: your partner needed the right bower 71% of "
        "the time")
    expect(linked.locator("tr.played th")).to_have_text("order up (played)")


@pytest.mark.parametrize(("single_dummy", "says"), [
    ({"pending": "one game at a time"}, "Working out the single-dummy estimate"),
    ({"unavailable": "analysis not available for this hand size"},
     "No single-dummy estimate: analysis not available for this hand size."),
])
def test_no_estimate_says_why(page: Page, board: Scoreboard, single_dummy: dict[str, Any],
                              says: str) -> None:
    serve_decisions(page, single_dummy)
    page.goto(board.url + "/replay/euchre-night?game=1&hand=1&trick=2")
    expect(page.locator("#sd-note")).to_contain_text(says, timeout=WAIT_MS)
    expect(page.locator("#sd-hand")).to_be_hidden()


def test_an_estimate_worked_out_while_the_page_is_open_shows_when_ready(
        page: Page, board: Scoreboard) -> None:
    """The host works the estimate out in the background: the page says so, asks again, and
    shows it once the answer has it, at the step on show."""
    serve_decisions(page, ESTIMATE, [], pending=2)
    page.goto(board.url + "/replay/euchre-night?game=1&hand=1&trick=2")
    expect(page.locator("#sd-note")).to_contain_text(
        "Working out the single-dummy estimate: queued.", timeout=WAIT_MS)
    expect(page.locator("#sd")).to_have_attribute("data-state", "ready", timeout=WAIT_MS)
    expect(page.locator("#sd-decisions .sd-decision")).to_have_count(4)
    expect(page.locator("#step")).to_have_text("Trick 2 of 5")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_estimate_fits_and_meets_wcag_aa_contrast(browser: Browser, board: Scoreboard,
                                                      size: str) -> None:
    width, height = SIZES[size]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    try:
        serve_decisions(page, ESTIMATE, [])
        page.goto(board.url + "/replay/euchre-night?game=1&hand=1&trick=2")
        expect(page.locator("#sd")).to_have_attribute("data-state", "ready", timeout=WAIT_MS)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than the {size} screen"
        checked = page.evaluate(CONTRAST)
    finally:
        page.context.close()
    seen = {c["what"] for c in checked}
    named = {"h4", "p.sd-cost.costly", "p.sd-why", "th", "td.sd-num", "a"}
    assert named <= seen, f"not measured: {named - seen}"
    low = [c for c in checked if c["ratio"] < c["need"]]
    assert not low, f"below WCAG AA on the replay's estimate ({size}): {low[:8]}"

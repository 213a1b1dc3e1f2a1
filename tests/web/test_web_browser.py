"""The scoreboard in a real browser (Debian's chromium through Playwright): pages update
live while a game is published to the broker, the replay page steps through a hand, and
no page overflows sideways at TV (1920x1080) or phone (390x844) size; the club page bears the
club's name, and a table clicked while it updates is still opened.

Screenshots go to ``$TRICKTABLE_SCREENSHOTS`` when set (to look at them), else a temp dir.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browsing import SIZES, needs_chromium
from playwright.sync_api import Browser, Page, expect
from tricktable.web.server import Scoreboard
from waiting import eventually
from web_fixtures import Publisher
from web_script import game_states

WAIT_MS = 30_000  # a live update reaches the page in well under a second; 10 s ran out on a
# run of 8 workers beside two CPU burners on 2 cores

pytestmark = [
    pytest.mark.browser,
    needs_chromium,
]


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context.new_page()
    context.close()


def test_club_page_updates_live(page: Page, scoreboard: Scoreboard, publisher: Publisher) -> None:
    states = game_states("1", hands=2)
    page.goto(scoreboard.url + "/")
    expect(page.locator("#live")).to_have_text("live", timeout=WAIT_MS)
    publisher.state(states[0])
    card = page.locator('.table-card[data-table="1"]')
    expect(card).to_contain_text("Bid Euchre", timeout=WAIT_MS)
    expect(card.locator(".phase")).to_contain_text("bidding")
    revoked = next(s for s in states if s["revokes"])
    publisher.state(revoked)
    expect(card.locator(".alert.revoke")).to_contain_text("revoked in trick 4", timeout=WAIT_MS)
    publisher.state(states[-1])
    expect(card.locator(".phase")).to_contain_text("game over", timeout=WAIT_MS)
    expect(card.locator("td.num")).to_have_text(["0", "1"])


def test_a_table_clicked_while_it_reports_a_play_still_opens(
        page: Page, scoreboard: Scoreboard, publisher: Publisher) -> None:
    """A click is a press and a release: a table that reports a play between the two is still
    the table opened (its card is renewed in place, so the press and the release land on it)."""
    states = game_states("3", hands=1)
    page.goto(scoreboard.url + "/")
    expect(page.locator("#live")).to_have_text("live", timeout=WAIT_MS)
    publisher.state(states[0])
    card = page.locator('.table-card[data-table="3"]')
    expect(card.locator(".phase")).to_contain_text("bidding", timeout=WAIT_MS)
    box = card.locator("h2").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    publisher.state(states[-1])
    expect(card.locator(".phase")).to_contain_text("game over", timeout=WAIT_MS)
    page.mouse.up()
    expect(page).to_have_url(f"{scoreboard.url}/table/3", timeout=WAIT_MS)


def test_the_club_page_is_titled_with_the_clubs_name_the_host_gives(
        page: Page, scoreboard: Scoreboard, publisher: Publisher) -> None:
    page.goto(scoreboard.url + "/")
    expect(page.locator("#live")).to_have_text("live", timeout=WAIT_MS)
    expect(page.locator("#club-title")).to_have_text("tricktable")  # no host has spoken
    publisher.send(f"{publisher.prefix}/v1/host/status",
                   {"v": 1, "online": True, "club": "Riverside Euchre Club"}, retain=True)
    eventually(lambda: httpx.get(f"{scoreboard.url}/api/club").json()["host"]["club"]
               == "Riverside Euchre Club", "the scoreboard has the host's status")
    page.reload()  # the page reads the name as it opens
    expect(page.locator("#club-title")).to_have_text("Riverside Euchre Club", timeout=WAIT_MS)
    assert page.title() == "Riverside Euchre Club · tricktable"


def test_table_page_updates_live(page: Page, scoreboard: Scoreboard, publisher: Publisher) -> None:
    states = game_states("2", hands=2)
    publisher.state(states[0])
    page.goto(scoreboard.url + "/table/2")
    expect(page.locator("#facts")).to_contain_text("Bid Euchre", timeout=WAIT_MS)
    mid_trick = next(s for s in states if len(s["trick"]["cards"]) == 3)
    publisher.state(mid_trick)
    for played in mid_trick["trick"]["cards"]:
        expect(page.locator(f'.slot[data-seat="{played["seat"]}"] .card')).to_have_attribute(
            "data-card", played["card"], timeout=WAIT_MS)
    to_act = mid_trick["to_act"]
    expect(page.locator(f'.seat[data-seat="{to_act}"]')).to_have_class("seat to-act")
    expect(page.locator("#facts")).to_contain_text("Contract")
    expect(page.locator("#facts")).to_contain_text("hearts")
    publisher.state(states[-1])
    expect(page.locator("#sides .score")).to_have_text(["0", "1"], timeout=WAIT_MS)
    expect(page.locator("#hands li")).to_have_count(2)
    expect(page.locator("#chart polyline")).to_have_count(2)
    assert page.locator("button, input").count() == 0  # no admin buttons: the console has them


def test_replay_steps_through_a_hand_forwards_and_back(
    page: Page, scoreboard: Scoreboard, publisher: Publisher
) -> None:
    states = game_states("3", hands=2)
    for state in states:
        publisher.state(state)
    hand = [s for s in states if s["hand_number"] == 2][-1]
    page.goto(scoreboard.url + "/table/3")
    expect(page.locator("#hands li")).to_have_count(2, timeout=WAIT_MS)
    page.locator("#hands li a", has_text="#2").click()
    step = page.locator("#step")
    expect(step).to_have_text("Trick 1 of 6", timeout=WAIT_MS)

    def shows(n: int) -> None:
        expect(step).to_have_text(f"Trick {n} of 6")
        for played in hand["tricks"][n - 1]["cards"]:
            expect(page.locator(f'.slot[data-seat="{played["seat"]}"] .card')).to_have_attribute(
                "data-card", played["card"])

    shows(1)
    page.locator("#next").click()
    shows(2)
    page.keyboard.press("ArrowRight")
    shows(3)
    page.locator("#prev").click()
    shows(2)
    page.locator("#last").click()
    shows(6)
    page.locator("#next").click()
    shows(6)
    page.locator("#first").click()
    shows(1)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_pages_fit_tv_and_phone_without_sideways_overflow(
    browser: Browser, scoreboard: Scoreboard, publisher: Publisher, shots: Path, size: str
) -> None:
    states = game_states("4", hands=2) + game_states("12", hands=1)[:30]
    for state in states:
        publisher.state(state)
    mid = next(s for s in game_states("4", hands=2)[40:] if len(s["trick"]["cards"]) == 3)
    publisher.state(dict(mid, hand_number=3))
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        for name, path, ready in [
            ("club", "/", '.table-card[data-table="12"]'),
            ("table", "/table/4", '.slot .card'),
            ("replay", "/replay/4?game=1&hand=2", "#felt .card"),
        ]:
            page.goto(scoreboard.url + path)
            page.locator(ready).first.wait_for(timeout=WAIT_MS)
            page.screenshot(path=str(shots / f"{name}-{size}.png"), full_page=True)
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{name} page overflows by {overflow}px at {width}x{height}"
    finally:
        context.close()


def test_pages_without_a_club_database_ask_its_names_without_an_error(
        page: Page, scoreboard: Scoreboard) -> None:
    """Every page asks ``/api/players/names`` (app.js); a scoreboard without a club database
    answers it with no players and no club, not a 404 the browser logs as an error, and
    the pages then link no player and show no leaderboard link."""
    errors: list[str] = []  # (without a night, /api/standings is a 404 of its own)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}")
            if r.status >= 400 and "/api/players/" in r.url else None)
    for path in ("/", "/tv", "/seat", "/standings", "/table/1"):
        with page.expect_response(lambda r: r.url.endswith("/api/players/names"),
                                  timeout=WAIT_MS) as asked:
            page.goto(scoreboard.url + path)
        answer = asked.value
        assert answer.status == 200 and answer.json() == {"players": {}, "club": False}, path
        expect(page.locator("[data-needs-club]:visible")).to_have_count(0)
        assert page.evaluate("document.body.dataset.players") is None, path
    assert errors == [], errors

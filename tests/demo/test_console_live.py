"""The director console on a live night, in Debian's chromium: the demo's night (its broker,
the host service keeping the night, virtual boards running the firmware, bots who find their
seats on the tables' displays) with the console beside it, as a director would run one.

One night serves every action, in the order a night brings them: a hand's score fixed and
another voided, a mis-scan corrected from the picker, two players swapped, a substitute for a
player who leaves, a late arrival, the bell rung by hand and undone, rung again, and the night
ended after its game. Each answer is in view beside the button pressed and in the strip at the
top; the TV follows (the bell, each tile done or finishing its hand) and never loses its
stream; the bots follow (the substitute and the arrival play); the night plays to its end.
"""

from __future__ import annotations

import re
from pathlib import Path

from browsing import SIZES, needs_chromium
from playwright.sync_api import Browser, Page, expect
from tricktable.club.store import load_night
from tricktable.demo.runner import Demo, DemoConfig
from tricktable.sim.room import SIGN_TIMEOUT_S
from tricktable.web.console import create_console
from tricktable.web.console_link import NightLink
from tricktable.web.server import Scoreboard
from waiting import eventually

TOKEN = "director-secret"
WAIT_MS = 90_000  # a table may have to play a whole hand first, on a loaded machine


def confirm(page: Page, key: str, expected: str) -> None:
    """Confirm the dialog; the answer shows beside the button (``key``) and on top."""
    page.click("#confirm")
    answer = page.locator(f'[data-answer-for="{key}"]')
    expect(answer).to_contain_text(expected, timeout=WAIT_MS)
    expect(page.locator("#result")).to_contain_text(expected)
    assert answer.is_visible() and page.locator("#result").is_visible()
    top = page.locator("#result").bounding_box()
    assert top is not None and 0 <= top["y"] < 200, f"the answer strip is not on top: {top}"


@needs_chromium
def test_every_console_action_on_a_live_night_and_the_night_plays_on(
        browser: Browser, tmp_path: Path, shots: Path) -> None:
    demo = Demo(DemoConfig(tables=3, night=True, rounds=3, hands=3, speed=4, web_port=0,
                           seed=11, workdir=tmp_path))
    demo.start()
    assert demo.broker is not None
    link = NightLink(demo.broker, demo.config.prefix)
    console = Scoreboard(demo.broker.host, demo.broker.port, port=0, prefix=demo.config.prefix,
                         make_app=lambda feed: create_console(feed, TOKEN, demo.night_path,
                                                              demo.journal_path, link))
    console.start()
    try:
        tv = browser.new_page(viewport=dict(zip(("width", "height"), SIZES["tv"], strict=True)))
        tv.goto(f"{demo.web_url}/tv?rotate=0&screen=tables")
        expect(tv.locator(".live")).to_have_text("live", timeout=WAIT_MS)
        tv.evaluate("""() => { window.lost = 0; new MutationObserver(() => {
            if (document.getElementById('live').textContent.startsWith('reconnecting'))
                window.lost += 1; }).observe(document.getElementById('live'),
                {childList: true, characterData: true, subtree: true}); }""")
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(console.url)
        page.fill("#by", "Dana")
        page.fill("#token", TOKEN)
        page.click("#signin button")
        expect(page.locator("#desk")).to_be_visible(timeout=WAIT_MS)

        # game 1: a score fixed at table 3 and a hand voided at table 2, once they have one
        page.locator('[data-fix="t3/1/1"]').click(timeout=WAIT_MS)
        page.fill("#fix-a", "7")
        confirm(page, "fix:t3/1/1", "Done: Table 3, game 1, hand 1")
        page.locator('[data-void="t2/1/1"]').click(timeout=WAIT_MS)
        confirm(page, "void:t2/1/1", "Done: Table 2, game 1, hand 1")
        # a mis-scan put right from the picker: the answer is in view either way (the later
        # actions of the hand may no longer fit, and then nothing changes)
        page.locator('[data-actions="t1"] summary').click()
        played = page.locator('[data-actions="t1"] li').filter(has_text="played the").last
        action = played.locator("[data-replace]").get_attribute("data-replace", timeout=WAIT_MS)
        key = f"replace:{action}"
        page.locator(f'[data-replace="{action}"]').click()  # that card, though t1 plays on
        answer = page.locator(f'[data-answer-for="{key}"]')
        # polled from here: the page's CSP forbids the eval that wait_for_function needs
        eventually(lambda: page.evaluate("""(key) => document.getElementById('confirm-dialog')
            .open || document.querySelector(`[data-answer-for="${key}"]`).textContent""", key),
                   "the picker or an answer", timeout=WAIT_MS / 1000)
        if page.locator("#confirm-dialog").get_attribute("open") is not None:
            expect(page.locator("#picker")).to_contain_text(
                re.compile(r"(North|East|South|West) \(\w+\) played the "))
            page.click("#confirm")
        expect(answer).to_contain_text(re.compile(r"Done|Refused|Nothing else"), timeout=WAIT_MS)
        page.screenshot(path=str(shots / "console.png"))
        # two players of two tables swapped, a substitute, a late arrival
        page.select_option("#swap-a", "t2/E")
        page.select_option("#swap-b", "t3/W")
        page.click("#swap")
        confirm(page, "swap", "Done: swap Table 2 East and Table 3 West")
        leaving = page.locator("#sub-out option").nth(10).get_attribute("value")
        page.select_option("#sub-out", leaving)
        page.fill("#sub-in", "Yan")
        page.click("#substitute")
        confirm(page, "substitute", f"Done: Yan for {leaving}")
        page.fill("#arrive-name", "Zoe")
        page.click("#arrive")
        confirm(page, "arrive", "Done: Zoe arrives")
        tv.screenshot(path=str(shots / "tv-play.png"))

        # the bell by hand in game 2 (the tables go on after it is undone), then again
        expect(page.locator("#round")).to_have_text("2 of 3", timeout=WAIT_MS)
        expect(page.locator("#undo-bell")).to_be_disabled()
        # a hand of game 2, once the bots found their seats (the room gives up, saying who
        # could not and what the displays showed, after SIGN_TIMEOUT_S)
        eventually(lambda: demo.error is not None
                   or page.locator('[data-fix="t1/2/1"]').is_visible(),
                   "a hand of game 2 at table 1", timeout=SIGN_TIMEOUT_S + 60, every=0.2)
        assert demo.error is None, f"the bots stopped: {demo.error}"
        # rung while two tables are in the middle of a hand, so that it can be undone before
        # the players move
        eventually(lambda: page.evaluate("""() => [...document.querySelectorAll('.table-state')]
            .filter((p) => p.textContent.startsWith('playing')).length >= 2"""),
                   "two tables in the middle of a hand", timeout=WAIT_MS / 1000)
        page.click("#ring")
        confirm(page, "ring", "Done: the bell of game 2")
        expect(tv.locator("#clock-time")).to_have_text("BELL", timeout=WAIT_MS)
        expect(tv.locator(".tile .tile-bell").first).to_have_text(
            re.compile(r"^(Done|Finishing hand \d+)$"), timeout=WAIT_MS)
        expect(page.locator("#ring")).to_be_disabled()
        expect(tv.locator("#late-strip")).to_be_visible()
        tv.screenshot(path=str(shots / "tv-bell.png"))
        page.click("#undo-bell")
        confirm(page, "undo-bell", "Done: the bell of game 2")
        expect(tv.locator("#clock-time")).not_to_have_text("BELL", timeout=WAIT_MS)
        page.click("#ring")
        confirm(page, "ring", "Done: the bell of game 2")
        if page.locator("#late-panel").is_visible():
            expect(page.locator("#late")).to_contain_text("Table")
        # the night ends after this game
        page.click("#end")
        confirm(page, "end", "Done: the night ends early")
        assert demo.wait(timeout=300), "the night did not finish"
        expect(page.locator("#bell-state")).to_have_text("the night is over", timeout=WAIT_MS)
        expect(page.locator("#ring")).to_be_disabled()
        expect(tv.locator("#clock-game")).to_have_text("Final results", timeout=WAIT_MS)
        assert tv.evaluate("window.lost") == 0, "the TV lost its stream"
        # after the night: the table page lists every hand played there, each a replay link
        table = browser.new_page(viewport={"width": 1280, "height": 900})
        table.goto(f"{demo.web_url}/table/t1")
        links = table.locator("#night-hands a")
        expect(links.first).to_have_attribute("href", re.compile(r"^/replay/t1\?game=\d+&hand=1$"),
                                              timeout=WAIT_MS)
        expect(table.locator("#night-hands h3").first).to_have_text("Game 1")
        table.screenshot(path=str(shots / "table-after-night.png"), full_page=True)
        assert page.locator("#audit tr").count() >= 9  # each action (a correction may not be sent)
    finally:
        console.stop()
        demo.stop()
    night = load_night(demo.night_path)
    assert night.finished and len(night.games) in (2, 3)  # ended in game 2, or as 3 began
    # the bots followed: the substitute played from the game after, and the arrival too
    assert any("Yan" in table for table in night.games[1].seating)
    assert any("Zoe" in table for table in night.games[1].seating) or "Zoe" in night.games[1].bench
    assert leaving not in {n for table in night.games[1].seating for n in table}

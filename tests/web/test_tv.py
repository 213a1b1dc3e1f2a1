"""The TV mode (/tv) in a real browser (Debian's chromium through Playwright) at 1920x1080
with a club-size night: 30 tables live on the broker and 120 players in the night file.

What the room must see: every table in natural order (t1, t2 ... t30, each "Table N", the
name the night uses too), nothing beyond the screen and no tile over another, the standings in
columns, the find-your-seat list (alphabetical: name -> table and seat, from the night's
seating), pages that rotate when a list does not fit, the round clock and the hands to the
bell, the bell banner with its beep, revoke banners, and a table lit up with the result when
it ends a hand or a game. The night's rules are the club package's (“Bid Euchre”, section
“Bid euchre variations”, "Progressive"); these tests check what the TV shows of them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browsing import needs_chromium
from club_night import club_night, publish_tables, table_id, write_night
from playwright.sync_api import Browser, Page, expect
from tricktable.club import SEATS, ProgressiveTournament
from tricktable.web.server import Scoreboard
from waiting import eventually
from web_fixtures import Publisher

WAIT_MS = 30_000  # a liveness bound for a loaded 2-core machine
WIDTH, HEIGHT = 1920, 1080
SEAT_NAMES = dict(zip(SEATS, ("North", "East", "South", "West"), strict=True))

pytestmark = [pytest.mark.browser, needs_chromium]


@pytest.fixture
def night() -> ProgressiveTournament:
    return club_night(tables=30)


@pytest.fixture
def night_path(tmp_path: Path, night: ProgressiveTournament) -> Path:
    path = tmp_path / "thursday.json"
    write_night(night, path, bell=False, round_started=time.time() - 125)
    return path


@pytest.fixture
def games(publisher: Publisher, night: ProgressiveTournament) -> dict[str, list[dict]]:
    return publish_tables(publisher, night)


@pytest.fixture
def tv(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    yield context.new_page()
    context.close()


def boxes(page: Page, selector: str) -> list[dict]:
    return page.eval_on_selector_all(selector, """els => els.map(e => {
        const r = e.getBoundingClientRect();
        return {x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height,
                what: e.tagName + "." + e.className + " " + (e.textContent || "").slice(0, 40)};
    })""")


def assert_on_screen(page: Page) -> None:
    """Nothing scrolls, and every element that takes room lies inside the 1920x1080 screen."""
    scroll = page.evaluate("""[document.documentElement.scrollWidth - innerWidth,
                               document.documentElement.scrollHeight - innerHeight]""")
    assert scroll[0] <= 0 and scroll[1] <= 0, f"the TV page scrolls by {scroll}"
    beyond = [b for b in boxes(page, "body *") if b["w"] > 0 and b["h"] > 0 and (
        b["x"] < -0.5 or b["y"] < -0.5 or b["right"] > WIDTH + 0.5 or b["bottom"] > HEIGHT + 0.5)]
    assert not beyond, f"beyond the screen: {beyond[:5]}"


def assert_apart(items: list[dict]) -> None:
    """No two boxes overlap."""
    for i, a in enumerate(items):
        for b in items[i + 1:]:
            apart = (a["right"] <= b["x"] + 0.5 or b["right"] <= a["x"] + 0.5
                     or a["bottom"] <= b["y"] + 0.5 or b["bottom"] <= a["y"] + 0.5)
            assert apart, f"overlap: {a['what']!r} and {b['what']!r}"


def test_thirty_tables_fit_one_screen_in_natural_order_with_the_banners_up(
        tv: Page, board: Scoreboard, games: dict, night_path: Path,
        night: ProgressiveTournament, publisher: Publisher, shots: Path) -> None:
    tv.goto(board.url + "/tv?rotate=0&screen=tables")
    tiles = tv.locator(".tile")
    expect(tiles).to_have_count(30, timeout=WAIT_MS)
    expect(tv.locator(".tile h2")).to_have_text([f"Table {n}" for n in range(1, 31)])
    assert tv.locator("body").get_attribute("data-screen-page") == "1/1"
    assert_on_screen(tv)
    assert_apart(boxes(tv, ".tile"))
    # the bell rings and three tables revoke at once: the banners take room, the tiles still fit
    for number in (4, 17, 29):
        revoked = next(s for s in games[table_id(number)] if s["revokes"])
        publisher.state(revoked)
    write_night(night, night_path, bell=True, round_started=time.time() - 125)
    expect(tv.locator(".banner.bell")).to_contain_text("BELL", timeout=WAIT_MS)
    expect(tv.locator(".banner.revoke")).to_have_count(3, timeout=WAIT_MS)
    expect(tv.locator(".banner.revoke").first).to_contain_text("Table 4 · ")
    expect(tv.locator("#clock-hands")).to_have_text("BELL")  # a night kept by hand
    expect(tv.locator("#clock-time")).to_have_text("BELL")
    # kept by the live tables: each tile says it is done or still in its hand, a strip
    # names the late tables and the clock counts them
    ids = [table_id(n) for n in range(1, 31)]
    write_night(night, night_path, bell=True, round_started=time.time() - 125,
                bell_at=time.time() - 65, tables=ids,
                closed={t: 1 for t in ids if t not in ("t2", "t17")})
    expect(tv.locator("#late-strip")).to_contain_text(
        re.compile(r"^1:0\d since the bell · Still playing: Table 2, Table 17$"), timeout=WAIT_MS)
    expect(tv.locator("#clock-hands")).to_have_text("2 tables still playing")
    expect(tv.locator('.tile[data-table="t17"] .tile-bell')).to_have_text(
        re.compile(r"^Finishing hand \d+$"))
    expect(tv.locator('.tile[data-table="t3"] .tile-bell')).to_have_text("Done")
    expect(tiles).to_have_count(30)
    assert tv.locator("body").get_attribute("data-screen-page") == "1/1"
    assert_on_screen(tv)
    assert_apart(boxes(tv, ".tile") + boxes(tv, ".banner") + boxes(tv, ".tv-bar"))
    assert_on_screen(tv)
    tv.screenshot(path=str(shots / "tv-tables-bell.png"))


def seat_rows(page: Page) -> list[tuple[str, str]]:
    rows = page.locator(".tv-list.seats .row")
    return list(zip(rows.locator(".who").all_text_contents(),
                    rows.locator(".where").all_text_contents(), strict=True))


def test_find_your_seat_lists_everyone_alphabetically_with_table_and_seat(
        tv: Page, board: Scoreboard, night: ProgressiveTournament, shots: Path) -> None:
    expected = sorted(((name, f"Table {number} · {SEAT_NAMES[seat]}")
                       for number, table in enumerate(night.seating, 1)
                       for seat, name in zip(SEATS, table, strict=True)),
                      key=lambda row: row[0].casefold())
    tv.goto(board.url + "/tv?rotate=0&screen=seats")
    expect(tv.locator(".tv-list.seats .row").first).to_be_visible(timeout=WAIT_MS)
    # no host runs here: its banner takes room, and the screens are planned with it
    expect(tv.locator("body")).to_have_attribute("data-host", "down", timeout=WAIT_MS)
    pages = int(tv.locator("body").get_attribute("data-screen-page").split("/")[1])
    assert pages >= 2, "120 names in large type take more than one screen"
    shown = []
    for page in range(1, pages + 1):
        tv.goto(board.url + f"/tv?rotate=0&screen=seats&page={page}")
        expect(tv.locator("body")).to_have_attribute("data-host", "down", timeout=WAIT_MS)
        expect(tv.locator("body")).to_have_attribute("data-screen-page", f"{page}/{pages}",
                                                     timeout=WAIT_MS)
        expect(tv.locator("#tv-where")).to_contain_text("Find your seat")
        assert_on_screen(tv)
        rows = boxes(tv, ".tv-list.seats .row")
        assert_apart(rows)
        if page == 1:
            assert len({round(r["x"]) for r in rows}) >= 3, "the list reads down columns"
        tv.screenshot(path=str(shots / f"tv-seats-{page}.png"))
        shown += seat_rows(tv)
    assert shown == expected


def test_the_standings_read_down_columns_in_rank_order(
        tv: Page, board: Scoreboard, night: ProgressiveTournament, shots: Path) -> None:
    tv.goto(board.url + "/tv?rotate=0&screen=standings")
    rows = tv.locator(".tv-list.standings .row")
    expect(rows.first).to_be_visible(timeout=WAIT_MS)
    assert_on_screen(tv)
    assert_apart(boxes(tv, ".tv-list.standings .row"))
    tv.screenshot(path=str(shots / "tv-standings.png"))
    ranks = [int(r) for r in rows.locator(".rank").all_text_contents()]
    assert ranks == sorted(ranks) and ranks[0] == 1
    expect(rows.first.locator(".mark.high")).to_have_text("HIGH")


def test_a_redraw_that_changes_nothing_on_screen_keeps_its_links_under_the_pointer(
        tv: Page, board: Scoreboard, games: dict[str, list[dict]], publisher: Publisher) -> None:
    """A table's news redraws the TV; a standings page it does not change keeps its very
    nodes, so a name being clicked is not pulled from under the pointer."""
    tv.goto(board.url + "/tv?rotate=0&screen=standings")
    expect(tv.locator(".tv-list.standings .row").first).to_be_visible(timeout=WAIT_MS)
    tv.eval_on_selector(".tv-list.standings .row", "row => { row.kept = true; }")
    def draws() -> int:
        return int(tv.locator("body").get_attribute("data-draws") or "0")
    before = draws()
    publisher.state(games[table_id(1)][21])
    eventually(lambda: draws() > before, "the TV redrawn for the table's news")
    assert tv.eval_on_selector(".tv-list.standings .row", "row => row.kept === true")


def test_the_screens_rotate_and_a_new_game_opens_on_find_your_seat(
        tv: Page, board: Scoreboard, games: dict, night_path: Path,
        night: ProgressiveTournament) -> None:
    tv.goto(board.url + "/tv?rotate=1")
    body = tv.locator("body")
    for screen in ("tables", "standings", "seats", "tables"):
        expect(body).to_have_attribute("data-screen", screen, timeout=WAIT_MS)
    for hand in range(6):  # the head table's game ends, every table has a hand: the bell
        night.record_hand(1, hand, 1)
    for number in range(2, night.tables + 1):
        night.record_hand(number, number % 5 + 3, 2)
    night.bell()
    tv.goto(board.url + "/tv?rotate=600")
    expect(body).to_have_attribute("data-screen", "tables", timeout=WAIT_MS)
    write_night(night, night_path, bell=False, round_started=time.time())
    expect(body).to_have_attribute("data-screen", "seats", timeout=WAIT_MS)
    expect(tv.locator("#tv-where")).to_contain_text("Find your seat · game 3")
    expect(tv.locator("#clock-game")).to_have_text("Game 3 of 3")


def test_the_round_clock_counts_from_the_start_of_the_game_to_the_bell(
        tv: Page, board: Scoreboard, night: ProgressiveTournament) -> None:
    tv.goto(board.url + "/tv?rotate=0")
    expect(tv.locator("#clock-game")).to_have_text("Game 2 of 3", timeout=WAIT_MS)
    expect(tv.locator("#clock-hands")).to_have_text("6 hands to the bell")
    expect(tv.locator(".pip")).to_have_count(8)
    expect(tv.locator(".pip.done")).to_have_count(2)
    expect(tv.locator("#clock-time")).to_have_text(re.compile(r"^([2-9]|\d\d):\d\d$"))


def test_the_bell_rings_with_a_banner_and_a_beep(
        tv: Page, board: Scoreboard, night_path: Path, night: ProgressiveTournament) -> None:
    tv.goto(board.url + "/tv?rotate=0")
    expect(tv.locator("#clock-hands")).to_have_text("6 hands to the bell", timeout=WAIT_MS)
    assert tv.locator("body").get_attribute("data-beeps") is None
    expect(tv.locator(".banner.bell")).to_have_count(0)
    write_night(night, night_path, bell=True)
    expect(tv.locator(".banner.bell")).to_contain_text("every table finishes the hand in play",
                                                       timeout=WAIT_MS)
    expect(tv.locator("body")).to_have_attribute("data-beeps", "1")


def test_the_end_of_a_hand_and_of_a_game_light_up_the_table_with_the_result(
        tv: Page, board: Scoreboard, games: dict, publisher: Publisher) -> None:
    tv.goto(board.url + "/tv?rotate=0&screen=tables&flash=2")
    tile = tv.locator('.tile[data-table="t7"]')
    expect(tile).to_be_visible(timeout=WAIT_MS)
    states = games["t7"]
    scored = next(s for s in states if s["phase"] == "hand_over")
    publisher.state(scored)
    sides = [side["name"] for side in scored["sides"]]
    expect(tile).to_have_class(re.compile(r"\bflash-hand\b"), timeout=WAIT_MS)
    expect(tile.locator(".result")).to_have_text("Hand 1 scored: +4 / −2")
    expect(tile).not_to_have_class(re.compile(r"\bflash\b"), timeout=WAIT_MS)  # a few seconds
    publisher.state(states[-1])
    expect(tile).to_have_class(re.compile(r"\bflash-game\b"), timeout=WAIT_MS)
    expect(tile.locator(".result")).to_have_text(f"Game over · 0–1 · {sides[0]} win")


def test_the_tv_says_when_the_tables_host_is_not_running(
        tv: Page, board: Scoreboard, publisher: Publisher) -> None:
    """No host has said it runs (``tricktable up`` restarting a host that cannot start, or
    none started): the TV says the tables' host is not running and never shows "live"; once
    the host says it runs (its retained status), the banner goes and the badge is live. The
    title is the club's name the host gives (its club file's), kept when the host goes."""
    tv.goto(board.url + "/tv?rotate=0&screen=tables&addresses=0")
    expect(tv.locator("#host-down")).to_contain_text("The tables' host is not running",
                                                    timeout=WAIT_MS)
    expect(tv.locator("#live")).to_have_text("host down")
    expect(tv.locator("#tv-title")).to_have_text("thursday")  # no host yet: the night file's name
    publisher.send(f"{publisher.prefix}/v1/host/status",
                   {"v": 1, "online": True, "club": "Riverside Euchre Club"}, retain=True)
    expect(tv.locator("#host-down")).to_have_count(0, timeout=WAIT_MS)
    expect(tv.locator("#live")).to_have_text("live")
    expect(tv.locator("#tv-title")).to_have_text("Riverside Euchre Club")
    assert tv.title() == "Riverside Euchre Club · TV"
    # its last will: gone again
    publisher.send(f"{publisher.prefix}/v1/host/status", {"v": 1, "online": False}, retain=True)
    expect(tv.locator("#host-down")).to_be_visible(timeout=WAIT_MS)
    expect(tv.locator("#tv-title")).to_have_text("Riverside Euchre Club")

"""Players on their phones (390x844, Debian's chromium): "where do I sit?" (/seat) finds a
player's table and seat by name in large type and follows the night live (the bell, the moves,
a game sat out, the end); the club page puts everyone's seat by name before the standings; the
standings come a page at a time on a phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browsing import SIZES, needs_chromium
from club_night import club_night, write_night
from playwright.sync_api import Browser, Page, expect
from tricktable.club import SEATS, ProgressiveTournament

WAIT_MS = 15_000
pytestmark = needs_chromium


@pytest.fixture
def night() -> ProgressiveTournament:
    return club_night(games=1)


@pytest.fixture
def night_path(tmp_path: Path, night: ProgressiveTournament) -> Path:
    path = tmp_path / "night.json"
    write_night(night, path, bell=False, round_started=None)
    return path


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    width, height = SIZES["phone"]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()


def where(night: ProgressiveTournament, name: str) -> str:
    number, table = next((n, t) for n, t in enumerate(night.seating, 1) if name in t)
    return f"Table {number} · {dict(zip(SEATS, ('North', 'East', 'South', 'West'), strict=True))[SEATS[table.index(name)]]}"


def test_a_player_finds_their_seat_by_name_and_it_follows_the_night(
        phone: Page, board, night: ProgressiveTournament, night_path: Path, shots: Path) -> None:
    name = night.seating[6][1]  # East at table 7
    phone.goto(f"{board.url}/seat")
    expect(phone.locator("#live")).to_have_text("live", timeout=WAIT_MS)
    phone.fill("#name", name.lower())  # as typed on a phone
    expect(phone.locator("#seat-where")).to_have_text(where(night, name))
    expect(phone.locator("#seat-game")).to_have_text("Game 2 of 3")
    size = phone.eval_on_selector("#seat-where", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 36, f"the seat is shown in large type, not {size}px"
    phone.screenshot(path=str(shots / "phone-seat.png"))
    # the bell: finish the hand; then the moves: the new seat, without reloading
    write_night(night, night_path, bell=True, round_started=None)
    expect(phone.locator("#seat-note")).to_contain_text("The bell has rung", timeout=WAIT_MS)
    for number in range(2, night.tables + 1):
        night.set_hands(number, [(5, number % 4)])
    night.bell(early=True)
    write_night(night, night_path, bell=False, round_started=None)
    expect(phone.locator("#seat-game")).to_have_text("Game 3 of 3", timeout=WAIT_MS)
    expect(phone.locator("#seat-where")).to_have_text(where(night, name))
    # remembered on the phone; another name is told plainly
    phone.reload()
    expect(phone.locator("#seat-where")).to_have_text(where(night, name), timeout=WAIT_MS)
    phone.fill("#name", "Nobody Here")
    expect(phone.locator("#seat-note")).to_contain_text("No player called Nobody Here")
    # a name still being typed is not refused: the names it may become are offered
    phone.fill("#name", name[:2])
    expect(phone.locator("#seat-note")).to_contain_text("Keep typing, or pick your name")
    expect(phone.locator("#seat-note")).to_contain_text(name)


def test_the_club_page_shows_seats_by_name_first_and_pages_the_standings_on_a_phone(
        phone: Page, board, night: ProgressiveTournament) -> None:
    phone.goto(board.url + "/")
    names = phone.locator("#seat-names li")
    expect(names).to_have_count(120, timeout=WAIT_MS)
    shown = names.locator(".who").all_text_contents()
    assert shown == sorted(shown, key=str.casefold)
    first = night.seating[0][0]
    expect(phone.locator(f'#seat-names li[data-player="{first}"] .where')).to_have_text(
        "Table 1 · North")
    seats_at = phone.locator("#seat-names").bounding_box()["y"]
    assert seats_at < phone.locator("#standings-table").bounding_box()["y"]
    assert seats_at < 400, "where to sit is near the top of the club page"
    rows = phone.locator("#standings-body tr")
    expect(rows).to_have_count(25)  # a page at a time on a phone
    expect(phone.locator("#pager a")).to_have_count(5)
    phone.locator("#pager a").nth(4).click()
    expect(rows).to_have_count(20)
    expect(rows.first.locator(".rank")).not_to_have_text("1")
    assert phone.locator("button, input").count() == 0  # a public page: only links

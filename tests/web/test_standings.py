"""The club night's standings on the scoreboard (``tricktable web --night``): the JSON API and
the event stream against a night file written by the club package, the file re-read when it
changes, a damaged file kept out, and the /standings and club pages in a real browser
(Debian's chromium through Playwright) at TV and phone size, live as the night goes on.

The standings are those of “Bid Euchre”, section “Bid euchre variations”, "Progressive" ("players total
their tally sheets, to determine the high score and low score"), as the club package computes
them; these tests check the scoreboard shows the same, not the club rules themselves.
Screenshots go to ``$TRICKTABLE_SCREENSHOTS`` when set (to look at them), else a temp dir.
"""

from __future__ import annotations

import itertools
import queue
import threading
from dataclasses import asdict
from pathlib import Path

import httpx
import pytest
from browsing import SIZES, needs_chromium
from click.testing import CliRunner
from playwright.sync_api import Browser, Page, expect
from tricktable.cli import main
from tricktable.club import (
    ProgressiveOptions,
    ProgressiveTournament,
    load_night,
    save_night,
    standings,
)
from tricktable.demo.runner import Demo, DemoConfig
from tricktable.mqtt.broker import BrokerHandle
from tricktable.web.night import NightFile
from tricktable.web.server import Scoreboard
from web_fixtures import read_stream

WAIT = 30.0  # a liveness bound: a loaded 2-core CI machine can be slow, never this slow
PLAYERS = ["Ada", "Bea", "Cal", "Dot", "Eli", "Flo", "Gus", "Hal"]


def play_game(night: ProgressiveTournament, hands: list[tuple[int, int]],
              other: tuple[int, int]) -> None:
    """The head table plays ``hands``, table 2 one hand scored ``other``; the bell rings."""
    for hand in hands:
        night.record_hand(1, *hand)
    night.record_hand(2, *other)
    night.bell()


@pytest.fixture
def night_path(tmp_path: Path) -> Path:
    """Eight players, two hands a game, three games; one game played, one hand into the next."""
    night = ProgressiveTournament.new(PLAYERS, options=ProgressiveOptions(hands_per_round=2,
                                                                          rounds=3))
    play_game(night, [(4, -2), (3, 1)], (-4, 6))
    night.record_hand(1, 2, 4)
    path = tmp_path / "night.json"
    save_night(night, path)
    return path


def advance(path: Path) -> ProgressiveTournament:
    """What the organiser does between two looks: the head table's last hand, table 2's
    hand, and the bell (through the club package, saved to the same file)."""
    night = load_night(path)
    night.record_hand(1, 1, 3)
    night.record_hand(2, 5, 0)
    night.bell()
    save_night(night, path)
    return night


def expected_rows(night: ProgressiveTournament) -> list[dict]:
    return [asdict(s) for s in standings(night.tallies())]


# ---- the API -------------------------------------------------------------------------------

def test_standings_api_shows_the_club_package_standings_and_seating(
        board: Scoreboard, night_path: Path) -> None:
    night = load_night(night_path)
    view = httpx.get(f"{board.url}/api/standings").json()
    assert view["standings"] == expected_rows(night)
    assert [r["name"] for r in view["standings"] if r["high"]] == ["Ada", "Cal"]  # 7 - 4 = 3
    assert {r["name"] for r in view["standings"] if r["low"]} == {"Eli", "Gus"}   # -4
    assert (view["round"], view["rounds"], view["games_played"]) == (2, 3, 1)
    assert view["hands_left"] == 1 and view["error"] is None and view["night"] == "night.json"
    head = view["seating"][0]
    assert head["table"] == 1 and head["score"] == [2, 4] and head["hands"] == 1
    assert [list(t["seats"].values()) for t in view["seating"]] == [list(t) for t in night.seating]
    assert httpx.get(f"{board.url}/standings").status_code == 200


def test_the_stream_sends_the_standings_again_when_the_night_file_changes(
        board: Scoreboard, night_path: Path) -> None:
    got: queue.Queue = queue.Queue()
    stop = threading.Event()
    threading.Thread(target=read_stream, daemon=True,
                     args=(f"{board.url}/api/stream?only=standings", got, stop)).start()
    kind, first = got.get(timeout=WAIT)
    assert kind == "standings" and first["games_played"] == 1
    night = advance(night_path)
    kind, second = got.get(timeout=WAIT)
    assert kind == "standings" and second["games_played"] == 2
    assert second["standings"] == expected_rows(night)
    stop.set()


def test_a_finished_night_has_final_standings_and_no_seating(tmp_path: Path) -> None:
    night = ProgressiveTournament.new(PLAYERS[:4], options=ProgressiveOptions(1, 1))
    night.record_hand(1, 6, -3)
    night.bell()
    save_night(night, tmp_path / "done.json")
    view = NightFile(tmp_path / "done.json").view()
    assert view["finished"] and view["seating"] == [] and view["round"] == 1
    assert [(r["name"], r["total"], r["high"], r["low"]) for r in view["standings"]] == [
        ("Ada", 6, True, False), ("Cal", 6, True, False),
        ("Bea", -3, False, True), ("Dot", -3, False, True)]


def start_again(path: Path) -> ProgressiveTournament:
    """A new night saved where the old one was."""
    night = ProgressiveTournament.new(PLAYERS, options=ProgressiveOptions(1, 3))
    play_game(night, [(5, 1)], (0, 2))
    save_night(night, path)
    return night


def test_a_damaged_night_file_keeps_the_last_good_standings_and_says_why(
        night_path: Path) -> None:
    watched = NightFile(night_path)
    good = watched.view()
    assert watched.refresh() is False  # nothing changed, nothing reloaded
    night_path.write_text("{ not json", encoding="utf-8")
    assert watched.refresh() is True
    damaged = watched.view()
    assert "is not valid JSON" in damaged["error"]
    assert damaged["standings"] == good["standings"] and damaged["seating"] == good["seating"]
    night_path.unlink()
    watched.refresh()
    assert "no club night at" in watched.view()["error"]
    night = start_again(night_path)
    assert watched.refresh() is True
    assert watched.view()["error"] is None
    assert watched.view()["standings"] == expected_rows(night)


def test_without_a_night_there_are_no_standings(mqtt_broker: BrokerHandle,
                                                topic_prefix: str) -> None:
    b = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix)
    b.start()
    try:
        missing = httpx.get(f"{b.url}/api/standings")
        assert missing.status_code == 404 and "--night" in missing.json()["error"]
        assert httpx.get(f"{b.url}/api/stream?only=standings").status_code == 404
        assert httpx.get(f"{b.url}/api/stream?only=tables").status_code == 400
    finally:
        b.stop()


def test_web_refuses_a_night_file_that_is_not_there(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["web", "--night", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "none.json' does not exist" in result.output


def test_the_demo_night_serves_its_standings_and_the_bell(tmp_path: Path) -> None:
    demo = Demo(DemoConfig(tables=1, speed=1, web_port=0, workdir=tmp_path, night=True, seed=2))
    demo.start()
    try:
        view = httpx.get(f"{demo.web_url}/api/standings").json()
        seating = load_night(demo.night_path).seating[0]
    finally:
        demo.stop()
    assert sorted(r["name"] for r in view["standings"]) == sorted(seating)
    assert not any(r["high"] or r["low"] for r in view["standings"])  # no bell rung yet
    assert view["seating"][0]["seats"] == dict(zip("NESW", seating, strict=True))
    assert view["bell"] is False


# ---- the browser ---------------------------------------------------------------------------

def open_page(browser: Browser, width: int, height: int) -> Page:
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


@pytest.mark.browser
@needs_chromium
@pytest.mark.parametrize("path", ["/standings", "/"])
def test_standings_render_and_follow_the_night_live(
        browser: Browser, board: Scoreboard, night_path: Path, path: str, shots: Path) -> None:
    page = open_page(browser, 1280, 800)
    try:
        page.goto(board.url + path)
        body = page.locator("#standings-body")
        expect(body.locator("tr")).to_have_count(8, timeout=WAIT * 1000)
        expect(body.locator("tr.high th")).to_have_text(["Ada", "Cal"])
        expect(page.locator("#night-status")).to_contain_text("game 2 of 3")
        expect(page.locator('.seat-card[data-table="1"]')).to_contain_text("N/S 2 · E/W 4")
        night = advance(night_path)
        expect(page.locator("#night")).to_have_attribute("data-games", "2", timeout=WAIT * 1000)
        totals = [str(r["total"]) for r in expected_rows(night)]
        expect(body.locator("td.total")).to_have_text(totals)
        expect(body.locator("th.player")).to_have_text([r["name"] for r in expected_rows(night)])
        page.screenshot(path=str(shots / f"standings{path.replace('/', '-')}live.png"),
                        full_page=True)
    finally:
        page.context.close()



@pytest.mark.browser
@needs_chromium
def test_the_standings_fit_tv_and_phone_and_print(
        browser: Browser, board: Scoreboard, shots: Path) -> None:
    for (path, name), (size, (width, height)) in itertools.product(
            (("/standings", "standings"), ("/", "club")), SIZES.items()):
        page = open_page(browser, width, height)
        try:
            page.goto(board.url + path)
            expect(page.locator("#standings-body tr")).to_have_count(8, timeout=WAIT * 1000)
            page.screenshot(path=str(shots / f"{name}-night-{size}.png"), full_page=True)
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{path} overflows by {overflow}px at {width}x{height}"
            if path == "/standings" and size == "tv":  # readable across the room: large type
                px = page.evaluate("parseFloat(getComputedStyle("
                                   "document.querySelector('#standings-body td.total')).fontSize)")
                assert px >= 36, f"standings type is {px}px on a 1920x1080 TV"
                page.emulate_media(media="print")
                expect(page.locator("#seating")).to_be_hidden()
                expect(page.locator("#standings-body tr")).to_have_count(8)
                page.screenshot(path=str(shots / "standings-print.png"), full_page=True)
        finally:
            page.context.close()


@pytest.mark.browser
@needs_chromium
def test_a_damaged_night_file_is_named_over_the_last_good_standings(
        browser: Browser, board: Scoreboard, night_path: Path) -> None:
    page = open_page(browser, 1280, 800)
    try:
        page.goto(board.url + "/standings")
        expect(page.locator("#standings-body tr")).to_have_count(8, timeout=WAIT * 1000)
        night_path.write_text("{ not json", encoding="utf-8")
        error = page.locator("#night-error")
        expect(error).to_contain_text("is not valid JSON", timeout=WAIT * 1000)
        expect(page.locator("#standings-body tr")).to_have_count(8)
        start_again(night_path)
        expect(error).to_be_hidden(timeout=WAIT * 1000)
    finally:
        page.context.close()

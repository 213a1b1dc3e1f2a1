"""The end of the night on the scoreboard: the results page (printable on A4 and Letter), the
CSV downloads and each player's scorecard, all derived from the night file, so they can be
served again any time later from it.

The results are “Bid Euchre”, section “Bid euchre variations”, "Progressive": "After 10 games,
players total their tally sheets, to determine the high score and low score"; a scorecard is a
player's "individual tally" with the people named. The club package computes them; these tests
check the scoreboard serves and prints the same. Browser tests use Debian's chromium.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browsing import needs_chromium
from club_night import club_night, write_night
from playwright.sync_api import Browser, Page, expect
from tricktable.club import ProgressiveTournament
from tricktable.club.scorecard import results_csv, scorecards, scorecards_csv
from tricktable.mqtt.broker import BrokerHandle
from tricktable.web.night import standing_rows
from tricktable.web.server import Scoreboard

WAIT_MS = 30_000
MM = 72 / 25.4  # PDF points per millimetre
PAPER = {"A4": (210 * MM, 297 * MM), "Letter": (612.0, 792.0)}


@pytest.fixture(scope="module")
def night() -> ProgressiveTournament:
    """A whole night at club size: 30 tables, 120 players, three games, over."""
    return club_night(tables=30, games=3, rounds=3)


@pytest.fixture
def night_path(tmp_path: Path, night: ProgressiveTournament) -> Path:
    path = tmp_path / "thursday.json"
    write_night(night, path, bell=False)
    return path


# ---- the API and the downloads --------------------------------------------------------------

def test_the_results_are_the_standings_and_every_game_table_by_table(
        board: Scoreboard, night: ProgressiveTournament) -> None:
    v = httpx.get(f"{board.url}/api/results").json()
    assert v["finished"] and v["games_played"] == 3
    assert v["standings"] == standing_rows(night)
    assert [g["game"] for g in v["games"]] == [1, 2, 3]
    table = v["games"][1]["tables"][4]
    seats = night.games[1].seating[4]
    assert table["table"] == 5 and list(table["seats"].values()) == list(seats)
    assert table["winner"] == night.games[1].winners[4]
    card = scorecards(night)[seats[0]][1]
    assert table["score"] == [card.score, card.against]


def test_a_scorecard_is_served_by_name_and_an_unknown_name_is_refused(
        board: Scoreboard, night: ProgressiveTournament) -> None:
    name = night.players[7]
    v = httpx.get(f"{board.url}/api/scorecard/{name.upper()}").json()
    assert v["name"] == name
    assert [(line["game"], line["table"], line["partner"], tuple(line["opponents"]),
             line["score"]) for line in v["lines"]] == [
        (c.game, c.table, c.partner, c.opponents, c.score) for c in scorecards(night)[name]]
    missing = httpx.get(f"{board.url}/api/scorecard/Nobody")
    assert missing.status_code == 404 and "no player of that name on tonight's roster" in missing.text
    assert httpx.get(f"{board.url}/scorecard/{name}").status_code == 200


def test_the_csv_downloads_are_named_after_the_night(
        board: Scoreboard, night: ProgressiveTournament) -> None:
    got = httpx.get(f"{board.url}/results.csv")
    assert got.headers["content-type"].startswith("text/csv")
    assert 'filename="thursday-results.csv"' in got.headers["content-disposition"]
    assert got.text == results_csv(night)
    cards = httpx.get(f"{board.url}/scorecards.csv")
    assert 'filename="thursday-scorecards.csv"' in cards.headers["content-disposition"]
    assert cards.text == scorecards_csv(night)


def test_without_a_night_there_are_no_results(mqtt_broker: BrokerHandle,
                                              topic_prefix: str) -> None:
    b = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix)
    b.start()
    try:
        for path in ("/api/results", "/api/scorecard/Ada", "/results.csv", "/scorecards.csv"):
            got = httpx.get(b.url + path)
            assert got.status_code == 404 and "--night" in got.json()["error"], path
    finally:
        b.stop()


# ---- the pages and their print --------------------------------------------------------------

@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def pdf_pages(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's size in points, from the PDF's page objects."""
    boxes = re.findall(rb"/Type /Page\b.*?/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf, re.S)
    if not boxes:  # the MediaBox may come before /Type
        boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    return [(float(w), float(h)) for w, h in boxes]


@pytest.mark.browser
@needs_chromium
def test_the_results_page_shows_everyone_and_opens_a_scorecard(
        page: Page, board: Scoreboard, night: ProgressiveTournament, shots: Path) -> None:
    page.goto(board.url + "/results")
    rows = page.locator("#results-standings tbody tr")
    expect(rows).to_have_count(120, timeout=WAIT_MS)
    expect(page.locator("#results-status")).to_have_text("Final · 3 games")
    expect(rows.locator("th.player")).to_have_text([r["name"] for r in standing_rows(night)])
    expect(page.locator(".game")).to_have_count(3)
    expect(page.locator('.game[data-game="1"] tbody tr')).to_have_count(30)
    expect(page.locator('.game[data-game="1"] tbody tr th').first).to_have_text("Table 1")
    page.screenshot(path=str(shots / "results.png"))
    name = standing_rows(night)[0]["name"]
    page.locator("th.player a", has_text=name).first.click()
    expect(page.locator("#card-title")).to_have_text(f"Scorecard · {name}", timeout=WAIT_MS)
    lines = scorecards(night)[name]
    expect(page.locator("#card tbody tr")).to_have_count(len(lines))
    first = page.locator("#card tbody tr").first
    expect(first).to_contain_text(f"Table {lines[0].table}")
    expect(first).to_contain_text(" & ".join(lines[0].opponents))
    expect(page.locator("#card-total")).to_have_text(str(sum(c.score for c in lines)))
    page.screenshot(path=str(shots / "scorecard.png"))


@pytest.mark.browser
@needs_chromium
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_results_print_on_a4_and_letter_without_overflow(
        page: Page, board: Scoreboard, paper: str, shots: Path) -> None:
    width_pt, height_pt = PAPER[paper]
    printable = round((width_pt / MM - 24) * 96 / 25.4)  # the paper less 12 mm margins, in px
    page.set_viewport_size({"width": printable, "height": 900})
    page.emulate_media(media="print")
    page.goto(board.url + "/results")
    expect(page.locator("#results-standings tbody tr")).to_have_count(120, timeout=WAIT_MS)
    expect(page.locator("#print")).to_be_hidden()
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the printed results overflow {paper} by {overflow}px"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(255, 255, 255)"
    pdf = page.pdf(format=paper, print_background=True)
    (shots / f"results-{paper}.pdf").write_bytes(pdf)
    sizes = pdf_pages(pdf)
    assert len(sizes) >= 3, "120 players and 3 games of 30 tables take a few pages"
    assert all(abs(w - width_pt) < 2 and abs(h - height_pt) < 2 for w, h in sizes), sizes
    # asked for by name, the paper size comes from the page's own @page rule
    page.goto(board.url + f"/results?paper={paper.lower()}")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes", timeout=WAIT_MS)
    other = "Letter" if paper == "A4" else "A4"
    named = pdf_pages(page.pdf(format=other, prefer_css_page_size=True))
    assert all(abs(w - width_pt) < 2 and abs(h - height_pt) < 2 for w, h in named), named

"""The statistics on the web (docs/stats.md, "On the web"): the leaderboard, a player's page
(statistics, rating over time, recent hands linking to their replay, nights played), the
season page and its printable report, live as the club database changes; hidden players are
Guests. All served by the one scoreboard (``tricktable web --club-db``), its replay page
replaying a night's hands. Checked in Debian's chromium at TV (1920x1080) and phone (390x844)
sizes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browsing import SIZES, needs_chromium
from playwright.sync_api import Browser, Page, expect
from seasoning import VARIANTS, SeasonedClub
from tricktable.mqtt.broker import BrokerHandle
from tricktable.players import GUEST, ClubDB, Players
from tricktable.players.roster import name_key
from tricktable.stats import Stats
from tricktable.stats.seasons import Seasons
from tricktable.web.server import Scoreboard

WAIT_MS = 30_000


@pytest.fixture(scope="module")
def club(seasoned: SeasonedClub, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the seasoned club with a season of its three nights and Hal hidden."""
    db = seasoned.copy_db(tmp_path_factory.mktemp("stats-web"))
    with ClubDB(db) as club_db:
        seasons = Seasons(Stats(club_db))
        seasons.new("Winter", "total")
        seasons.add_night("Winter", *VARIANTS)
        Players(club_db).set_flags("Hal", hidden=True)
    return db


def scoreboard(club: Path, broker: BrokerHandle) -> Scoreboard:
    """The club's one scoreboard with the club database (no table reports: statistics only)."""
    board = Scoreboard(broker.host, broker.port, port=0, prefix="tt-stats-web", club_db=club)
    board.start()
    return board


@pytest.fixture(scope="module")
def server(club: Path, mqtt_broker: BrokerHandle) -> Iterator[Scoreboard]:
    s = scoreboard(club, mqtt_broker)
    yield s
    s.stop()


def player_id(club: Path, name: str) -> str:
    """A player's id on the public pages: their name's key."""
    with ClubDB(club, readonly=True) as db:
        return name_key(Players(db).find(name).name)


def test_public_ids_say_nothing_of_how_many_players_are_hidden(server: Scoreboard,
                                                               club: Path) -> None:
    """Database numbers would: Hal's number missing between the others' is a hidden player."""
    links = httpx.get(f"{server.url}/api/players/names").json()["players"]
    assert links and all(not str(i).isdigit() for i in links.values()), links
    assert set(links.values()) == {"ann", "bob", "cy", "di", "eve", "fay", "gus"}
    with ClubDB(club, readonly=True) as db:
        hal = Players(db).find("Hal").id
    for key in ("hal", str(hal), "Hal"):
        assert httpx.get(f"{server.url}/api/player/{key}").status_code == 404, key
    assert httpx.get(f"{server.url}/api/player/ann").status_code == 200  # the control


def test_the_leaderboard_shows_every_rated_player_with_mu_and_sigma(
        server: Scoreboard) -> None:
    board = httpx.get(f"{server.url}/api/leaderboard").json()
    rows = board["players"]
    assert len(rows) == 8
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    assert all(abs(r["rating"] - (r["mu"] - 3 * r["sigma"])) < 0.05 for r in rows)  # each rounded
    guest = [r for r in rows if r["name"] == GUEST]
    assert len(guest) == 1 and guest[0]["player"] is None, "a hidden player is an unlinked Guest"
    assert "Hal" not in httpx.get(f"{server.url}/api/leaderboard").text


def test_a_hidden_player_has_no_public_page(server: Scoreboard, club: Path) -> None:
    got = httpx.get(f"{server.url}/api/player/{player_id(club, 'Hal')}")
    assert got.status_code == 404
    assert httpx.get(f"{server.url}/api/player/999").status_code == 404


def test_a_players_page_has_their_statistics_rating_and_recent_hands(
        server: Scoreboard, club: Path) -> None:
    view = httpx.get(f"{server.url}/api/player/{player_id(club, 'Ann')}").json()
    assert view["name"] == "Ann"
    assert [f["title"] for f in view["families"]] == ["Bid Euchre family", "Euchre", "Spades"]
    assert [r["name"] for r in view["ratings"]] == list(VARIANTS)
    assert [n["name"] for n in view["nights"]] == list(VARIANTS)
    assert all(n["points"] is not None for n in view["nights"])
    hand = view["recent"][0]
    replayed = httpx.get(f"{server.url}/api/table/{hand['night']}~{hand['table']}/hands/"
                         f"{hand['game']}/{hand['hand']}").json()
    assert replayed["hand"] == hand["hand"] and replayed["result"] == hand["detail"]
    assert all(p["name"] != "Hal" for p in view["partners"])


def test_a_hidden_players_name_is_on_no_public_answer(server: Scoreboard, club: Path) -> None:
    """Hal is hidden: not in anyone's page, the words of a result, nor a replayed hand."""
    for name in ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus"):
        page = httpx.get(f"{server.url}/api/player/{player_id(club, name)}")
        assert page.status_code == 200 and "hal" not in page.text.casefold(), name
        for hand in page.json()["recent"][:4]:
            key = f"{hand['night']}~{hand['table']}"
            replayed = httpx.get(f"{server.url}/api/table/{key}/hands/{hand['game']}/"
                                 f"{hand['hand']}").text
            assert "hal" not in replayed.casefold()
            assert "hal" not in httpx.get(f"{server.url}/api/table/{key}/hands").text.casefold()


def test_the_season_page_and_its_printable_report(server: Scoreboard) -> None:
    season = httpx.get(f"{server.url}/api/season/1").json()
    assert season["name"] == "Winter" and len(season["rows"]) == 8
    assert [n["name"] for n in season["nights"]] == list(VARIANTS)
    report = httpx.get(f"{server.url}/season/1/report").text
    assert "report-ladder" in report and ">Hal<" not in report and GUEST in report
    assert httpx.get(f"{server.url}/api/season/9").status_code == 404



def fits(page: Page) -> None:
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the screen"


@needs_chromium
@pytest.mark.browser
@pytest.mark.parametrize("size", ["tv", "phone"])
def test_the_pages_in_chromium(browser: Browser, server: Scoreboard, club: Path,
                               size: str, shots: Path) -> None:
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.goto(f"{server.url}/leaderboard")
        expect(page.locator("#leaderboard tbody tr")).to_have_count(8, timeout=WAIT_MS)
        expect(page.locator("#leaderboard tbody")).to_contain_text(GUEST)
        expect(page.locator("#live")).to_have_text("live", timeout=WAIT_MS)
        fits(page)
        page.screenshot(path=str(shots / f"leaderboard-{size}.png"))
        page.get_by_role("link", name="Ann", exact=True).click()
        expect(page.locator("#title")).to_have_text("Ann", timeout=WAIT_MS)
        expect(page.locator(".family")).to_have_count(3)
        expect(page.locator("#rating-chart svg circle")).to_have_count(3)
        expect(page.locator("#nights tbody tr")).to_have_count(3)
        fits(page)
        page.screenshot(path=str(shots / f"player-{size}.png"), full_page=True)
        page.locator(".replay-link").first.click()
        expect(page.locator("#step")).to_contain_text("Trick 1 of", timeout=WAIT_MS)
        page.goto(f"{server.url}/season/1")
        expect(page.locator("#ladder tbody tr")).to_have_count(8, timeout=WAIT_MS)
        fits(page)
    finally:
        page.close()


@needs_chromium
@pytest.mark.browser
def test_the_leaderboard_follows_the_database_live(browser: Browser, club: Path,
                                                   mqtt_broker: BrokerHandle) -> None:
    server = scoreboard(club, mqtt_broker)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(f"{server.url}/leaderboard")
        expect(page.locator("#live")).to_have_text("live", timeout=WAIT_MS)
        expect(page.locator("#leaderboard tbody")).to_contain_text("Bob")
        with ClubDB(club) as db:
            Players(db).rename("Bob", "Robert")
        expect(page.locator("#leaderboard tbody")).to_contain_text("Robert", timeout=WAIT_MS)
        with ClubDB(club) as db:
            Players(db).rename("Robert", "Bob")
    finally:
        page.close()
        server.stop()


@needs_chromium
@pytest.mark.browser
def test_the_season_report_prints_on_a4_without_overflow(browser: Browser, server: Scoreboard,
                                                         shots: Path) -> None:
    printable = round((210 - 24) * 96 / 25.4)  # A4 less 12 mm margins, in CSS pixels
    page = browser.new_page(viewport={"width": printable, "height": 900})
    try:
        page.emulate_media(media="print")
        page.goto(f"{server.url}/season/1/report")
        expect(page.locator("#report-ladder tbody tr")).to_have_count(8, timeout=WAIT_MS)
        fits(page)
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == \
            "rgb(255, 255, 255)"
        pdf = page.pdf(format="A4")
        (shots / "season-report.pdf").write_bytes(pdf)
        assert pdf.startswith(b"%PDF")
    finally:
        page.close()


def test_a_players_costliest_decisions_of_a_spades_night_say_why_there_are_none(
        server: Scoreboard) -> None:
    """The latest night is Spades: 52 cards in play, over what single dummy weighs on the
    page (docs/web.md, "The single-dummy estimate on the replay"); a hidden player has no
    such list either."""
    body = httpx.get(f"{server.url}/api/player/ann/decisions", timeout=30).json()
    assert body["night_name"] == "spades"
    assert body["decisions"] == [] and body["estimated"] == 0 and body["pending"] == 0
    assert body["unavailable"] and all(
        why.startswith("analysis not available for this hand size (52 cards in play")
        for why in body["unavailable"]), body["unavailable"]
    assert httpx.get(f"{server.url}/api/player/hal/decisions").status_code == 404

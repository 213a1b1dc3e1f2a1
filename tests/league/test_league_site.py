"""The league site in Chromium: standings across clubs, a club's page, hand records searched by
player and night, a player's page with ratings, all read from the league's PostgreSQL
(docs/league.md, "The site")."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from browsing import chromium, needs_chromium
from leaguekit import synthetic_hand
from tricktable.league.messages import LeagueGame, LeagueNight, LeaguePlayer, TallyLine
from tricktable.league.site import league_app
from tricktable.league.store import LeagueStore
from tricktable.mqtt.broker import free_port
from waiting import eventually


def game(club: str, night: str, date: str, scores: dict[str, tuple[int, bool]]) -> LeagueGame:
    return LeagueGame(club=club, night=night, date=date, round=1, lines=[
        TallyLine(player=p, table=1, seat="NESW"[i], score=s, won=w)
        for i, (p, (s, w)) in enumerate(scores.items())])


@pytest.fixture
def site(league_db: str) -> Iterator[str]:
    store = LeagueStore(league_db)
    store.add_season("autumn", dt.date(2026, 9, 1), dt.date(2026, 12, 31))
    store.store([
        game("ashby", "thu-1", "2026-11-19", {"Ann": (9, True), "Bob": (4, False),
                                              "Cy": (9, True), "Di": (4, False)}),
        game("brook", "thu-1", "2026-11-19", {"Eve": (12, True), "Fay": (1, False),
                                              "Gus": (12, True), "Hal": (1, False)}),
        game("brook", "old", "2026-03-05", {"Eve": (-50, False), "Fay": (50, True),
                                            "Gus": (-50, False), "Hal": (50, True)}),
        *[synthetic_hand("ashby", 1, 1, n) for n in range(1, 4)],
        *[synthetic_hand("brook", 2, 1, n) for n in range(1, 3)],
        # ashby's night is over (its one table's game is rated: seats 0 and 2 won, 3 to -3);
        # the club lets the league show seat 0 as Ivy, and hides seat 1
        LeagueNight(club="ashby", night="ashby-night", date="2026-11-19", games=1,
                    standings=[]),
        LeaguePlayer(club="ashby", player="ashby-p4", name="Ivy"),
        LeaguePlayer(club="ashby", player="ashby-p5", name="Guest")])
    store.rerate()  # as a league service does once what it stored has settled
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(league_app(store), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    eventually(lambda: server.started, "the league site listening")
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    store.close()


@needs_chromium
def test_standings_clubs_and_hand_records_in_chromium(site: str) -> None:
    with chromium() as browser:
        page = browser.new_page()
        page.goto(site + "/")
        rows = page.locator("table[aria-label=standings] tbody tr")
        # the season's games only (the March night is not in "autumn"), across both clubs
        assert rows.count() == 8
        first = rows.nth(0).locator("td").all_inner_texts()
        assert first[:4] == ["1", "Eve", "brook", "12"]  # level with Gus: by name
        assert "Season autumn" in page.inner_text("body")

        page.click("table[aria-label=clubs] >> text=ashby")
        page.wait_for_url("**/club/ashby")
        assert page.locator("table[aria-label=standings] tbody tr").count() == 4
        assert "thu-1" in page.inner_text("table[aria-label=nights]")

        page.goto(site + "/hands")
        page.fill("input[name=player]", "brook-p8")
        page.click("text=Search")
        page.wait_for_url("**/hands?player=brook-p8*")  # and loaded: the address changes first
        hands = page.locator("table[aria-label=hands] tbody tr")
        assert hands.count() == 2
        assert all("brook-p8" in t for t in hands.all_inner_texts())

        page.goto(site + "/hands?night=ashby-night&club=ashby")
        assert page.locator("table[aria-label=hands] tbody tr").count() == 3


def test_an_unknown_season_or_club_is_said_plainly(site: str) -> None:
    season = httpx.get(site + "/?season=spring")
    assert season.status_code == 404 and "no season &#x27;spring&#x27;" in season.text
    assert httpx.get(site + "/api/standings?season=spring").json() == {
        "error": "no season 'spring'"}
    club = httpx.get(site + "/club/zed")
    assert club.status_code == 404 and "The league has nothing from zed." in club.text


@needs_chromium
def test_a_players_page_shows_ratings_with_uncertainty_results_and_hands(site: str) -> None:
    with chromium() as browser:
        page = browser.new_page()
        page.goto(site + "/hands")
        page.fill("input[name=player]", "ivy")  # by the name the club lets the league show
        page.click("text=Search")
        page.wait_for_url("**/hands?player=ivy*")  # and loaded: the address changes first
        hands = page.locator("table[aria-label=hands] tbody tr")
        assert hands.count() == 3
        assert all("Ivy, Guest, ashby-p6, ashby-p7" in t for t in hands.all_inner_texts())

        page.goto(site + "/player/ashby/ashby-p4")
        assert page.inner_text("h1") == "Ivy (ashby)"
        assert page.locator("svg[aria-label='rating chart']").count() == 2  # all, autumn
        for label in ("ratings every game", "ratings autumn"):
            cells = page.locator(f"table[aria-label='{label}'] tbody tr td").all_inner_texts()
            assert cells[:2] == ["ashby-night", "2026-11-19"]
            mu, sigma = (float(x) for x in cells[2].split(" ± "))
            assert mu > 25 and 0 < sigma < 25 / 3  # won its one game: up, and surer
            assert cells[4] == "1"
        assert page.locator("table[aria-label=hands] tbody tr").count() == 3

        page.goto(site + "/")  # from the standings to a player's results by night and club
        page.click("table[aria-label=standings] >> text=Eve")
        page.wait_for_url("**/player/brook/Eve")
        results = page.locator("table[aria-label=results] tbody tr")
        assert results.count() == 2  # her two nights at brook, newest first
        assert results.nth(0).locator("td").all_inner_texts()[:4] == [
            "thu-1", "brook", "2026-11-19", "12"]
        assert "Not rated yet" in page.inner_text("body")


def test_an_unknown_player_is_said_plainly(site: str) -> None:
    missing = httpx.get(site + "/player/ashby/nobody")
    assert missing.status_code == 404 and "no player nobody of ashby" in missing.text
    hands_only = httpx.get(site + "/player/brook/brook-p8")  # in hand records, no tally yet
    assert hands_only.status_code == 200 and "brook-p8 (brook)" in hands_only.text
    ivy = httpx.get(site + "/api/player/ashby/ashby-p4").json()
    assert ivy["name"] == "Ivy" and {r["season"] for r in ivy["ratings"]} == {"", "autumn"}

"""One web for the club (docs/web.md, "The club's statistics"): a live demo night with a club
database serves the leaderboard and the player pages on the scoreboard itself; the TV's
standings and find-your-seat names link to each player's page, and a hidden player is "Guest"
there, unlinked, as on every public answer. Real stack: broker, host service keeping the
night, virtual boards running the firmware, bots, statistics counted as hands score, Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browsing import chromium, needs_chromium
from playwright.sync_api import expect
from tricktable.demo.runner import Demo, DemoConfig
from tricktable.mqtt.broker import BrokerHandle
from tricktable.players import GUEST, ClubDB, Players
from waiting import eventually

WAIT_MS = 30_000


@pytest.fixture
def night(mqtt_broker: BrokerHandle, topic_prefix: str, tmp_path: Path) -> Iterator[Demo]:
    """A demo club night of two euchre tables, its statistics counted in a club database."""
    demo = Demo(DemoConfig(variant="euchre", tables=2, night=True, rounds=2, hands=2, speed=0,
                           web_port=0, seed=5, workdir=tmp_path,
                           broker=f"mqtt://{mqtt_broker.host}:{mqtt_broker.port}",
                           prefix=topic_prefix, club_db=tmp_path / "club.sqlite"))
    demo.start()
    yield demo
    demo.stop()


def public_names(url: str) -> dict[str, int]:
    got = httpx.get(f"{url}/api/players/names")
    assert got.status_code == 200, got.text
    return got.json()["players"]


@needs_chromium
@pytest.mark.browser
def test_from_the_tv_of_a_live_night_to_a_players_page(night: Demo, tmp_path: Path) -> None:
    url = night.web_url
    assert url is not None
    names = eventually(lambda: public_names(url), "the first hand's players counted")
    standings = eventually(lambda: httpx.get(f"{url}/api/standings").json().get("standings"),
                           "the night's standings")
    hidden, shown = standings[0]["name"], standings[1]["name"]
    assert hidden.casefold() in names and shown.casefold() in names
    with ClubDB(tmp_path / "club.sqlite") as db:
        Players(db).set_flags(hidden, hidden=True)
    eventually(lambda: hidden.casefold() not in public_names(url), "the hidden player unlisted")
    eventually(lambda: hidden not in httpx.get(f"{url}/api/standings").text,
               "the hidden player's name gone from the standings")
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(f"{url}/")
        expect(page.locator("#leaderboard-link")).to_be_visible(timeout=WAIT_MS)
        page.goto(f"{url}/tv?rotate=0&screen=standings")
        rows = page.locator(".tv-list .row")
        expect(rows.filter(has_text=GUEST)).to_have_count(1, timeout=WAIT_MS)
        expect(page.locator(".tv-screen")).not_to_contain_text(hidden)
        expect(page.get_by_role("link", name=GUEST)).to_have_count(0)
        eventually(lambda: httpx.get(f"{url}/api/standings").json()["finished"],
                   "the night over, so the standings hold still under the click")
        page.get_by_role("link", name=shown, exact=True).click()
        expect(page.locator("#title")).to_have_text(shown, timeout=WAIT_MS)
        expect(page.locator(".family")).to_have_count(1, timeout=WAIT_MS)

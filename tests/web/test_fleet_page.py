"""The fleet page in a real browser (Debian's chromium): behind the admin token it shows every
board from its retained status with each pad's reads, misreads, retries and resets, flags a
weak reader and a board that restarted, and "Blink" sends the board's pads a blue blink over
MQTT so a director can find it under a table; the director console serves the same fleet API."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import httpx
import paho.mqtt.client as mqtt
import pytest
from browsing import needs_chromium
from playwright.sync_api import Browser, Page, expect
from tricktable.club import ProgressiveOptions, ProgressiveTournament, save_night
from tricktable.mqtt.broker import BrokerHandle
from tricktable.mqtt.url import BrokerURL
from tricktable.web.console import create_console
from tricktable.web.console_link import NightLink
from tricktable.web.pairings import PairingStore
from tricktable.web.server import Scoreboard
from waiting import eventually
from web_fixtures import ADMIN_TOKEN, Publisher

WAIT_MS = 10_000

pytestmark = [pytest.mark.browser, needs_chromium]


def status(boot: int, **extra) -> dict:
    return {"v": 1, "online": True, "boot": boot, "fw": "0.2.0", "heap": 30000, "rssi": -61,
            "readers": 1, "uptime": 600, "faults": [], "reads": [40], "reader_errors": [0],
            "reader_resets": [0], "pending": 0, **extra}


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context.new_page()
    context.close()


@pytest.fixture
def feedback(mqtt_broker: BrokerHandle, topic_prefix: str) -> Iterator[list[dict]]:
    """Every feedback message a board would get."""
    got: list[dict] = []
    ready = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.on_message = lambda c, u, m: got.append({"topic": m.topic, **json.loads(m.payload)})
    client.on_subscribe = lambda *a: ready.set()
    client.connect(mqtt_broker.host, mqtt_broker.port)
    client.loop_start()
    client.subscribe(f"{topic_prefix}/v1/board/+/feedback", qos=1)
    assert ready.wait(10)
    yield got
    client.disconnect()
    client.loop_stop()


def test_the_fleet_page_flags_weak_readers_and_restarts_and_blinks_a_board(
        page: Page, scoreboard: Scoreboard, publisher: Publisher, feedback: list[dict],
        topic_prefix: str) -> None:
    board = f"{topic_prefix}/v1/board"
    publisher.send(f"{board}/t1-n/status", status(7), retain=True)
    publisher.send(f"{board}/t1-e/status", status(8, reads=[30], misses=[9], reader_errors=[2]),
                   retain=True)
    publisher.send(f"{board}/t1-s/status", status(9), retain=True)
    publisher.send(f"{board}/t1-s/status", status(10, uptime=3), retain=True)  # it restarted
    assert httpx.get(scoreboard.url + "/api/fleet").status_code == 403  # no token, no fleet

    page.goto(scoreboard.url + "/fleet")
    page.fill("#token", ADMIN_TOKEN)
    page.click("#signin button")
    rows = page.locator("#boards tbody tr")
    expect(rows).to_have_count(3, timeout=WAIT_MS)
    expect(page.locator('tr[data-board="t1-n"] td.flags')).to_have_text("ok")
    expect(page.locator('tr[data-board="t1-e"] td.flags')).to_contain_text(
        "pad 0: weak reader (9 misses, 2 errors, 0 resets in 30 reads)")
    expect(page.locator('tr[data-board="t1-s"] td.flags')).to_contain_text("restarted 1 time",
                                                                           timeout=WAIT_MS)
    expect(page.locator("tr.flagged")).to_have_count(2)
    expect(page.locator('tr[data-board="t1-e"] td.pads div')).to_have_text(
        ["pad 0: 30 reads, 9 misses, 2 retries, 0 resets"])

    page.locator('tr[data-board="t1-e"] button').click()
    expect(page.locator('tr[data-board="t1-e"] button')).to_have_text("Blinking",
                                                                      timeout=WAIT_MS)
    eventually(lambda: feedback, "the board's feedback message")
    assert feedback[0]["topic"] == f"{board}/t1-e/feedback"
    assert (feedback[0]["pad"], feedback[0]["led"], feedback[0]["pattern"]) == (0, "blue",
                                                                                  "blink")


def test_the_director_console_finds_a_board_by_blinking_it(
        mqtt_broker: BrokerHandle, topic_prefix: str, publisher: Publisher,
        feedback: list[dict], tmp_path) -> None:
    link = NightLink(BrokerURL("127.0.0.1", mqtt_broker.port), topic_prefix)
    console = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                         make_app=lambda feed: create_console(
                             feed, ADMIN_TOKEN, tmp_path / "night.json", None, link))
    console.start()
    try:
        publisher.send(f"{topic_prefix}/v1/board/t2-w/status", status(3), retain=True)
        auth = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        assert httpx.get(f"{console.url}/api/fleet").status_code == 403
        eventually(lambda: httpx.get(f"{console.url}/api/fleet", headers=auth).json()["boards"],
                   "the board on the console's fleet")
        blink = httpx.post(f"{console.url}/api/fleet/t2-w/blink", headers=auth)
        assert blink.status_code == 200 and blink.json()["pads"] == 1
        eventually(lambda: feedback, "the board's feedback message")
        assert feedback[0]["topic"].endswith("/board/t2-w/feedback")
        assert httpx.post(f"{console.url}/api/fleet/nobody/blink", headers=auth).status_code == 404
    finally:
        console.stop()


@pytest.mark.parametrize("phones", [True, False])
def test_the_console_links_its_fleet_and_phones_pages(
        mqtt_broker: BrokerHandle, topic_prefix: str, page: Page, tmp_path, phones: bool) -> None:
    """docs/phones.md sends the director to the console's Phones page: the console links it
    (when it pairs phones) beside the fleet, and the phones page takes the console's sign-in."""
    night = ProgressiveTournament.new(["Ann", "Bob", "Cy", "Di"], 1,
                                      ProgressiveOptions(hands_per_round=1, rounds=1))
    save_night(night, tmp_path / "night.json")
    link = NightLink(BrokerURL("127.0.0.1", mqtt_broker.port), topic_prefix)
    pairings = PairingStore(tmp_path / "phones.sqlite") if phones else None
    console = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                         make_app=lambda feed: create_console(
                             feed, ADMIN_TOKEN, tmp_path / "night.json", None, link,
                             pairings=pairings, pad_url="https://club.example/pad"))
    console.start()
    try:
        page.goto(console.url)
        page.fill("#by", "Dana")
        page.fill("#token", ADMIN_TOKEN)
        page.click("#signin button")
        expect(page.locator("#desk")).to_be_visible(timeout=WAIT_MS)
        expect(page.get_by_role("link", name="Fleet")).to_have_attribute("href", "/fleet")
        phones_link = page.get_by_role("link", name="Phones")
        if not phones:
            expect(phones_link).to_have_count(0)  # no phones page on this console
            return
        phones_link.click(timeout=WAIT_MS)
        expect(page).to_have_url(f"{console.url}/phones")
        expect(page.locator("#signin")).to_be_hidden(timeout=WAIT_MS)
    finally:
        console.stop()

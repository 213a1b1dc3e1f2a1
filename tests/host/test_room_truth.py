"""One truth for the room: after each of the director's corrections on a live night, made on the
director console in Debian's chromium (through the real service on mosquitto), every public
view shows the night's corrected state within a second of the console's answer: the TV, the
club page, a table's page, ``/api/club``, ``/api/table``, the standings, the seat page, the
replay of the hand, and the table's own display (its retained message on the broker). A fix or a
void says so where it matters ("hand 1 voided by the director").
"""

from __future__ import annotations

import json
import re
import time

import httpx
import pytest
from browsing import chromium, needs_chromium
from click.testing import CliRunner
from hostkit import last_action
from playwright.sync_api import Page, expect
from test_console_night import first_hand, open_room  # noqa: F401 (a fixture)
from tricktable.cli import main
from tricktable.club.movement import SEAT_WORDS
from tricktable.club.store import load_night
from tricktable.history import read_text
from tricktable.protocol import Topics
from tricktable.serve.service import BrokerURL
from tricktable.web.console import create_console
from tricktable.web.console_link import NightLink
from tricktable.web.server import Scoreboard
from waiting import eventually

WITHIN_S = 1.0  # "within a second" of the console's answer
WAIT_MS = 30_000
TOKEN = "director-secret"


def truth(tmp_path) -> dict:
    """What the night says of table 1 now: its players (N, E, S, W) and its score (A, B)."""
    night = load_night(tmp_path / "night.json")
    return {"seats": list(night.seating[0]), "score": list(night.table_score(1))}


def side_scores(state: dict) -> list[int]:
    """A published state's scores as team A (N/S), team B (E/W)."""
    by_team = {0 in side["seats"]: score for side, score in
               zip(state["sides"], state["scores"], strict=True)}
    return [by_team[True], by_team[False]]


def page_text(page: Page, path: str, url: str) -> str:
    if page.url != url + path:
        page.goto(url + path)
    return page.locator("body").inner_text()


def display(room, prefix: str) -> dict:
    """The retained display of table 1, as the board gets it."""
    topic = Topics(prefix).display("t1")
    with room.observer.lock:
        last = [p for t, p, _ in room.observer.messages if t == topic]
    return json.loads(last[-1]) if last else {}


def fix(page: Page, before: dict) -> str:
    page.locator('[data-fix="t1/1/1"]').click(timeout=WAIT_MS)
    page.fill("#fix-a", str(before["score"][0] + 7))
    page.fill("#fix-b", str(before["score"][1] - 3))
    return "fix:t1/1/1"


def void(page: Page, before: dict) -> str:
    page.locator('[data-void="t1/1/1"]').click(timeout=WAIT_MS)
    return "void:t1/1/1"


def swap(page: Page, before: dict) -> str:
    page.select_option("#swap-a", "t1/N", timeout=WAIT_MS)
    page.select_option("#swap-b", "t2/E")
    page.click("#swap")
    return "swap"


def substitute(page: Page, before: dict) -> str:
    page.select_option("#sub-out", before["seats"][1], timeout=WAIT_MS)
    page.fill("#sub-in", "Zoe")
    page.click("#substitute")
    return "substitute"


def arrive(page: Page, before: dict) -> str:
    page.fill("#arrive-name", "Zoe", timeout=WAIT_MS)
    page.click("#arrive")
    return "arrive"


def trump(page: Page, before: dict) -> str:
    """A trump token read wrong: the hand's last action, the trump named, put right from the
    picker (the first other suit it offers)."""
    last = before["actions"]
    page.locator('[data-actions="t1"] summary').click(timeout=WAIT_MS)
    page.locator(f'[data-replace="t1/{last}"]').click()
    expect(page.locator("#picker input").first).to_be_checked(timeout=WAIT_MS)
    return f"replace:t1/{last}"


CORRECTIONS = {
    # name: (what the director does on the console, what the room must read after it)
    "fix": (fix, "hand 1 scored N/S"),
    "void": (void, "hand 1 voided by the director"),
    "swap": (swap, "moved by the director"),
    "substitute": (substitute, "Zoe took"),
    "arrive": (arrive, None),
    "trump": (trump, "corrected by the director"),
}


@needs_chromium
@pytest.mark.parametrize("correction", list(CORRECTIONS))
def test_every_public_view_shows_the_night_after_a_correction(
        correction, open_room, shots, mqtt_broker, topic_prefix, tmp_path):  # noqa: F811
    room = open_room(hands_per_round=3)
    first_hand(room, tmp_path)
    room.play_until("t1", lambda s: s.public_state()["phase"] == "play")  # hand 2 in play
    public = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                        night=tmp_path / "night.json", journal=tmp_path / "journal.sqlite")
    public.start()
    link = NightLink(BrokerURL("127.0.0.1", mqtt_broker.port), topic_prefix)
    console = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                         make_app=lambda feed: create_console(
                             feed, TOKEN, tmp_path / "night.json", tmp_path / "journal.sqlite",
                             link))
    console.start()
    act, words = CORRECTIONS[correction]
    try:
        with chromium() as browser:
            pages = {path: browser.new_page(viewport={"width": 1920, "height": 1080})
                     for path in ("/tv?rotate=0&screen=tables&addresses=0", "/", "/table/t1")}
            for path, page in pages.items():
                page.goto(public.url + path)
                eventually(lambda p=page: "live" in p.locator(".live").first.inner_text(),
                           f"{path} live", timeout=30)
            desk = browser.new_page(viewport={"width": 1280, "height": 900})
            desk.goto(console.url)
            desk.fill("#by", "Dana")
            desk.fill("#token", TOKEN)
            desk.click("#signin button")
            before = dict(truth(tmp_path), actions=room.service.state("t1")["actions"])
            key = act(desk, before)
            desk.click("#confirm")
            answer = desk.locator(f'[data-answer-for="{key}"]')
            expect(answer).to_contain_text("Done: ", timeout=WAIT_MS)
            assert answer.is_visible(), "the answer stays where the director looked"
            assert not re.search(r"\bt\d+ [NESW]\b|\btable t\d", answer.inner_text()), \
                f"a code in the answer: {answer.inner_text()}"
            done = time.monotonic()
            night = truth(tmp_path)
            a, b = (str(n) for n in night["score"])
            names = night["seats"]

            def api_club() -> bool:
                [t1] = [t for t in httpx.get(f"{public.url}/api/club").json()["tables"]
                        if t["table"] == "t1"]
                return side_scores(t1) == night["score"] and (
                    words is None or any(words in x["text"] for x in t1["alerts"])) and (
                    correction != "trump"
                    or t1["trump"] == last_action(tmp_path / "journal.sqlite", "t1")["trump"])

            def api_table() -> bool:
                state = httpx.get(f"{public.url}/api/table/t1").json()["state"]
                return state["seats"] == names and side_scores(state) == night["score"]

            def standings() -> bool:
                [t1] = httpx.get(f"{public.url}/api/standings").json()["seating"][:1]
                return list(t1["seats"].values()) == names and t1["score"] == night["score"]

            def tv() -> bool:
                tile = pages["/tv?rotate=0&screen=tables&addresses=0"].locator(
                    'article[data-table="t1"]')
                text = tile.inner_text()
                shown = [int(s.replace("−", "-")) for s in
                         tile.locator(".side-score").all_inner_texts()]
                return sorted(shown) == sorted(night["score"]) and (
                    words is None or words in text or "scored" in text)

            def club_page() -> bool:
                text = pages["/"].locator('[data-table="t1"]').inner_text()
                return a in text and b in text and (words is None or words in text)

            def table_page() -> bool:
                page = pages["/table/t1"]
                felt = page.locator("#felt").inner_text()
                scores = page.locator("#sides .score").all_inner_texts()
                return all(n in felt for n in names) and sorted(scores) == sorted([a, b]) and (
                    words is None or words in page.locator("#alerts").inner_text())

            def board_display() -> bool:
                shown = display(room, topic_prefix)
                lines = " ".join(shown.get("lines", []))
                return f"NS {a}" in lines and f"EW {b}" in lines

            views = {"/api/club": api_club, "/api/table/t1": api_table,
                     "/api/standings": standings, "the TV": tv, "the club page": club_page,
                     "the table page": table_page, "the table's display": board_display}
            for view, agrees in views.items():
                left = WITHIN_S - (time.monotonic() - done)
                eventually(agrees, f"{view} agrees with the night after {correction}",
                           timeout=max(left, 0.05))
            # the seat page of each player of table 1, and the replay of hand 1
            seat = browser.new_page()
            for n, name in enumerate(names):
                seat.goto(f"{public.url}/seat?name={name}")
                eventually(lambda p=seat, n=n: f"Table 1 · {SEAT_WORDS[n]}" in
                           p.locator("#seat-where").inner_text(), f"{name}'s seat")
            hand = httpx.get(f"{public.url}/api/table/t1/hands/"
                             f"{room.service.state('t1')['game']}/1").json()
            assert hand["seats"] == names and hand["night_game"] == 1
            if correction == "void":
                assert hand["corrected"].startswith("voided by the director")
            # the hand history of the night's game 1 at table 1 reads the night the same way
            exported = CliRunner().invoke(main, [
                "export", str(tmp_path / "journal.sqlite"), "--night", str(tmp_path / "night.json"),
                "--table", "t1", "--game", "1"])
            assert exported.exit_code == 0, exported.output
            record = read_text(exported.output)
            assert record.players == names and record.tags["Round"] == "1"
            if correction == "void":
                assert record.tags["Corrected"].startswith("hand 1 voided by the director")
            desk.screenshot(path=str(shots / f"console-{correction}.png"))
    finally:
        public.stop()
        console.stop()

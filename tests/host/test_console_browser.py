"""The director console in Debian's chromium, on a live night through the real service on
mosquitto: behind the admin token, a correction asks for confirmation (cancel sends nothing),
is done by ``serve --night``'s night, and its audit entry appears; the public pages show no
admin buttons; what the director picks stays picked while the console reads the night again.
"""

from __future__ import annotations

import json
import re

import httpx
from browsing import chromium, needs_chromium
from playwright.sync_api import expect
from test_console_night import audit, first_hand, open_room  # noqa: F401 (a fixture)
from test_live_night import live
from tricktable.club.store import load_night
from tricktable.serve.journal import Journal
from tricktable.serve.service import BrokerURL
from tricktable.web.console import create_console
from tricktable.web.console_link import NightLink
from tricktable.web.server import Scoreboard
from waiting import eventually

TOKEN = "director-secret"
WAIT_MS = 30_000


def serve(mqtt_broker, topic_prefix, **options) -> Scoreboard:
    board = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix, **options)
    board.start()
    return board


@needs_chromium
def test_the_console_voids_a_hand_after_confirmation_and_logs_it(
        open_room, mqtt_broker, topic_prefix, tmp_path):  # noqa: F811 (the fixture)
    first_hand(open_room(hands_per_round=2), tmp_path)
    [hand] = load_night(tmp_path / "night.json").hands[0]
    link = NightLink(BrokerURL("127.0.0.1", mqtt_broker.port), topic_prefix)
    console = serve(mqtt_broker, topic_prefix, make_app=lambda feed: create_console(
        feed, TOKEN, tmp_path / "night.json", tmp_path / "journal.sqlite", link))
    public = serve(mqtt_broker, topic_prefix, admin_token=TOKEN, night=tmp_path / "night.json")
    try:
        assert httpx.get(f"{console.url}/api/console").status_code == 403
        refused = httpx.post(f"{console.url}/api/console/command",
                             headers={"Authorization": f"Bearer {TOKEN}"},
                             json={"cmd": "void_hand", "args": {"table": "t9", "hand": 1},
                                   "by": "Dana"})
        assert refused.status_code == 400 and "t1, t2" in refused.json()["error"]
        with chromium() as browser:
            page = browser.new_page()
            for path in ("/", "/table/t1", "/standings"):  # public: nothing to press
                page.goto(public.url + path)
                expect(page.locator(".live")).to_have_class(re.compile(r"\bon\b"), timeout=WAIT_MS)
                assert page.locator("button, input").count() == 0, path
            page.goto(console.url)
            expect(page.locator("#desk")).to_be_hidden()
            page.fill("#by", "Dana")
            page.fill("#token", "wrong")
            page.click("#signin button")
            expect(page.locator("#signin-error")).to_contain_text("token", timeout=WAIT_MS)
            page.fill("#token", TOKEN)
            page.click("#signin button")
            void = page.locator('[data-void="t1/1/1"]')
            void.click(timeout=WAIT_MS)
            expect(page.locator("#confirm-text")).to_contain_text("Void Table 1, game 1, hand 1")
            page.click("#cancel")  # nothing is sent without the confirmation
            expect(page.locator("#confirm-dialog")).to_be_hidden()
            assert audit(tmp_path) == []
            void.click()
            page.click("#confirm")
            # the answer where the director looks: beside the button, and at the top
            expect(page.locator('[data-answer-for="void:t1/1/1"]')).to_contain_text(
                "Done: Table 1, game 1, hand 1", timeout=WAIT_MS)
            expect(page.locator("#result")).to_contain_text("Done")
            assert page.locator("#result").bounding_box()["y"] < 200, "the log strip is on top"
            row = page.locator("#audit tr").first
            expect(row).to_contain_text("Dana", timeout=WAIT_MS)
            when = row.locator("td").first.inner_text()
            assert "T" not in when and "+00:00" not in when, f"not local time: {when}"
            expect(row).to_contain_text("Void: Table 1, game 1, hand 1")
            expect(row).to_contain_text(f"N/S {hand[0]}, E/W {hand[1]}")
            expect(row).to_contain_text("void (N/S 0, E/W 0)")
            # a mis-scan, picked from the cards the seat could have played: in a hand played
            # out, that card was played later by the same seat: refused, and logged as such
            journal = Journal(tmp_path / "journal.sqlite", readonly=True)
            actions = journal.games("t1")[-1].actions
            journal.close()
            at = next(n for n, a in enumerate(actions, 1) if a["type"] == "play")
            page.locator('[data-actions="t1"] summary').click()
            expect(page.locator(f'[data-actions="t1"] li:has([data-replace="t1/{at}"])')
                   ).to_contain_text("played the ")
            # newest first, and no hand scans unless asked for
            expect(page.locator('[data-actions="t1"] li').first.locator("button")
                   ).to_have_attribute("data-replace", f"t1/{len(actions)}")
            assert all(a["type"] != "scan" for a in actions) or "hand scan" in \
                page.locator('[data-actions="t1"] summary').inner_text()
            # the two swap pickers start on two different seats: one press is a real swap
            assert page.locator("#swap-a").input_value() != page.locator("#swap-b").input_value()
            page.locator(f'[data-replace="t1/{at}"]').click()
            expect(page.locator("#picker input").first).to_be_checked(timeout=WAIT_MS)
            assert re.search(r"(North|East|South|West) \(\w+\) played the \w+ of \w+",
                             page.locator("#picker").inner_text())
            page.click("#confirm")
            expect(page.locator(f'[data-answer-for="replace:t1/{at}"]')).to_contain_text(
                "Refused (Correct): Table 1: the correction would not fit", timeout=WAIT_MS)
            expect(page.locator("#result")).to_contain_text("Refused")
            expect(page.locator("#audit tr")).to_have_count(3)  # with the API's refusal
            expect(page.locator("#audit tr").first).to_contain_text("Refused: Correct: correct")
        assert load_night(tmp_path / "night.json").hands[0] == [(0, 0)]
        wrong_table, entry, refusal = json.loads(
            (tmp_path / "night.json").read_text())["director"]["audit"]
        assert wrong_table["refused"].startswith("there is no table 't9' tonight")
        assert entry["by"] == "Dana" and entry["cmd"] == "void_hand"
        assert refusal["cmd"] == "replace_action" and "would not fit" in refusal["refused"]
    finally:
        console.stop()
        public.stop()


@needs_chromium
def test_a_tie_winner_picked_stays_picked_while_the_console_reads_the_night_again(
        open_room, mqtt_broker, topic_prefix, tmp_path):  # noqa: F811 (the fixture)
    room = open_room(hands_per_round=1)
    first_hand(room, tmp_path)  # the head table's one hand; table 2 closes at 0-0: tied
    eventually(lambda: live(tmp_path)["closed"] == {"t1": 1, "t2": 0}, "both tables closed")
    link = NightLink(BrokerURL("127.0.0.1", mqtt_broker.port), topic_prefix)
    console = serve(mqtt_broker, topic_prefix, make_app=lambda feed: create_console(
        feed, TOKEN, tmp_path / "night.json", tmp_path / "journal.sqlite", link))
    try:
        with chromium() as browser:
            page = browser.new_page()
            page.goto(console.url)
            page.fill("#by", "Dana")
            page.fill("#token", TOKEN)
            page.click("#signin button")
            tie = page.locator('[data-tie="t2"]')
            tie.select_option("B", timeout=WAIT_MS)
            reads = int(page.evaluate("document.body.dataset.reads"))
            # read twice more, every 2 s (polled from here: the page's Content-Security-Policy
            # forbids the eval wait_for_function needs)
            eventually(lambda: int(page.evaluate("document.body.dataset.reads")) >= reads + 2,
                       "the console read the night twice more", timeout=WAIT_MS / 1000)
            assert tie.input_value() == "B", "the pick survives the console's redraws"
            page.click("#settle")
            expect(page.locator("#confirm-text")).to_have_text("Settle the ties: Table 2 E/W win")
            page.click("#confirm")
            expect(page.locator("#result")).to_contain_text("Done: ", timeout=WAIT_MS)
        night = eventually(lambda: load_night(tmp_path / "night.json").games and
                           load_night(tmp_path / "night.json"), "the players moving")
        assert night.games[0].decided == {2: "B"}
    finally:
        console.stop()

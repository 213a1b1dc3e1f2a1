"""The pages after the night look finished (docs/club.md, "Afterwards"): a night played on live
tables through the real service on mosquitto and ended early, then served from its files
alone (no broker): no live-only panel stands empty, the badge does not say live, the table
page lists the hands played there in the night's game numbers with scores written as scores,
and its replay says which game of the night it was; the results and the table page say what
the director voided. While the night ends early the TV says
final (screenshots: the TV during and after, the table page after).
"""

from __future__ import annotations

import re

from browsing import needs_chromium
from playwright.sync_api import expect
from test_console_night import director, first_hand, open_room  # noqa: F401 (fixtures)
from tricktable.club.store import load_night
from tricktable.mqtt.broker import free_port
from tricktable.web.server import Scoreboard
from waiting import eventually

WAIT_MS = 30_000
TV = "/tv?rotate=0&screen=tables&addresses=0"


@needs_chromium
def test_a_night_ended_early_reads_final_and_its_pages_look_finished(
        open_room, director, browser, shots, mqtt_broker, topic_prefix, tmp_path):  # noqa: F811
    room = open_room(hands_per_round=2)
    first_hand(room, tmp_path)
    live = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                      night=tmp_path / "night.json", journal=tmp_path / "journal.sqlite")
    live.start()
    tv = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        tv.goto(live.url + TV)
        expect(tv.locator('article[data-table="t1"]')).to_be_visible(timeout=WAIT_MS)
        assert director.send("void_hand", {"table": "t1", "hand": 1}, "Dana").ok
        assert director.send("end", {}, "Dana").ok  # game 1 is the last
        expect(tv.locator("#clock-game")).to_have_text("Game 1 of 1", timeout=WAIT_MS)
        tv.screenshot(path=str(shots / "tv-night-ending-early.png"))
        assert director.send("ring", {}, "Dana").ok
        eventually(lambda: room.night.ties() == [1, 2], "both tables tied after the bell")
        assert director.send("settle", {"winners": {"t1": "B", "t2": "A"}}, "Dana").ok
        eventually(lambda: load_night(tmp_path / "night.json").finished, "the night over")
        expect(tv.locator("#clock-game")).to_have_text("Final results", timeout=WAIT_MS)
        for table in ("t1", "t2"):
            expect(tv.locator(f'article[data-table="{table}"] .tile-phase')).to_have_text(
                "Final", timeout=WAIT_MS)
        assert "Game 2" not in tv.locator("body").inner_text()  # no phantom game
        tv.screenshot(path=str(shots / "tv-night-ended-early.png"))
    finally:
        tv.close()
        live.stop()
    # the morning after: the night's files alone
    files = Scoreboard("127.0.0.1", free_port(), port=0, prefix=topic_prefix,
                       night=tmp_path / "night.json", journal=tmp_path / "journal.sqlite",
                       offline=True)
    assert not files.connect()
    files.start()
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(files.url + "/table/t1")
        hands = page.locator("#night-hands")
        expect(hands).to_contain_text("Game 1", timeout=WAIT_MS)
        expect(hands).to_contain_text(re.compile(r"Hand 1: .* · score −?\d+ to −?\d+"))
        expect(hands).to_contain_text("voided by the director (it had scored N/S")
        assert page.locator("#idle").is_hidden(), "no 'No game at this table now.'"
        for panel in page.locator("[data-live-panel]").all():
            assert panel.is_hidden(), "no empty live panel after the night"
        expect(page.locator("#live")).to_have_text("from the night's files", timeout=WAIT_MS)
        page.screenshot(path=str(shots / "table-after-night-files.png"), full_page=True)
        hands.locator("a").first.click()
        expect(page.locator("#facts")).to_contain_text("game 1 of the night", timeout=WAIT_MS)
        page.goto(files.url + "/results")
        expect(page.locator('#games tr[data-table="1"]')).to_contain_text(
            "hand 1 voided by the director", timeout=WAIT_MS)
        page.goto(files.url + "/")
        expect(page.locator("#standings-body tr").first).to_be_visible(timeout=WAIT_MS)
        assert "No table has reported yet" not in page.locator("body").inner_text()
    finally:
        page.close()
        files.stop()

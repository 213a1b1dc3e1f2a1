"""The single-dummy estimate after a demo night, in a real browser (Debian's chromium through
Playwright): a short Euchre club night played through the real stack (broker, host keeping
the night and counting the statistics, virtual boards, bots), then its scoreboard with the
club database. A player's page lists their costliest decisions of the night, worked out in
the background by ``tricktable.analysis.decisions`` (the page shows them once they are);
each links to its step of the replay, where the decision's choices show ranked with their
expected points and margin, the one played marked; on a phone too; both pages' text meets
WCAG AA contrast. Screenshots to
``$TRICKTABLE_SCREENSHOTS`` when set: docs/img/replay-single-dummy.png,
replay-single-dummy-decision.png and player-costly-decisions.png come from here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsing import SIZES, needs_chromium
from demo_runs import played_to_end
from playwright.sync_api import Browser, Page, expect
from test_contrast import CONTRAST
from tricktable.demo.runner import DemoConfig
from tricktable.mqtt.broker import BrokerHandle
from tricktable.web.server import Scoreboard
from waiting import eventually

WAIT_MS = 300_000  # a liveness bound: the night's estimates are worked out meanwhile

pytestmark = [pytest.mark.browser, needs_chromium]


@pytest.fixture(scope="module")
def club_db(mqtt_broker: BrokerHandle, tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("sd-night")
    db = where / "club.sqlite"
    played_to_end(DemoConfig(
        variant="euchre", tables=2, night=True, rounds=1, hands=2, speed=0, web_port=None,
        seed=7, revoke_rate=0, workdir=where / "night",
        broker=f"mqtt://{mqtt_broker.host}:{mqtt_broker.port}", prefix="tt-sd-night",
        club_db=db, night_name="Euchre night"), 240, "the euchre night")
    return db


@pytest.fixture(scope="module")
def board(club_db: Path, mqtt_broker: BrokerHandle) -> Iterator[Scoreboard]:
    b = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix="tt-sd-night-web",
                   club_db=club_db)
    b.start()
    yield b
    b.stop()


@pytest.fixture(scope="module")
def costly(board: Scoreboard) -> tuple[str, dict[str, Any]]:
    """A player with a costly decision at the night, and their decisions (asking for them
    queues the night's games for their estimate: wait until none is pending)."""
    def estimated() -> dict[str, dict[str, Any]] | None:
        players = httpx.get(f"{board.url}/api/players/names").json()["players"]
        found = {pid: httpx.get(f"{board.url}/api/player/{pid}/decisions", timeout=30).json()
                 for pid in sorted(set(players.values()))}
        return None if any(f["pending"] for f in found.values()) else found
    found = eventually(estimated, "the night's games were estimated", timeout=WAIT_MS / 1000,
                       every=0.5)
    pid = max(found, key=lambda p: sum(d["played_out"] for d in found[p]["decisions"]))
    assert any(d["played_out"] for d in found[pid]["decisions"]), \
        f"nobody made a costly decision in a hand played: {found}"
    return pid, found[pid]


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    yield context.new_page()
    context.close()


def test_a_players_costliest_decisions_link_to_their_choices_on_the_replay(
        page: Page, board: Scoreboard, costly: tuple[str, dict[str, Any]], shots: Path) -> None:
    pid, _ = costly
    page.goto(f"{board.url}/player/{pid}")
    expect(page.locator("body")).to_have_attribute("data-decisions", "ready", timeout=WAIT_MS)
    note = page.locator("#costly-note")
    expect(note).to_contain_text("Euchre night: an estimate")
    expect(note).not_to_contain_text("still being worked out")
    links = page.locator("#costly-decisions a.decision-link")
    expect(links.first).to_be_visible()
    expect(page.locator("#costly-decisions .sd-cost").first).to_contain_text(
        re.compile(r": cost \d+\.\d points"))
    page.locator(".costly-panel").screenshot(path=str(shots / "player-costly-decisions.png"))
    low = [c for c in page.evaluate(CONTRAST) if c["ratio"] < c["need"]]
    assert not low, f"below WCAG AA on the player page: {low[:8]}"
    links.first.click()
    # the replay, at that decision's step: its choices best first with their expected points
    expect(page.locator("#sd")).to_have_attribute("data-state", "ready", timeout=WAIT_MS)
    decision = page.locator('#sd-decisions .sd-decision[aria-current="true"]')
    expect(decision).to_have_count(1)
    rows = decision.locator(".sd-choices tr[data-choice]")
    expect(rows.first.locator("th")).to_contain_text("best: ")
    expect(rows.first.locator("td").first).to_have_text(
        re.compile(r"^[+-]?\d+\.\d points \((±\d+\.\d|exact)\)$"))
    expect(decision.locator("tr.played th")).to_contain_text("(played)")
    expect(decision.locator(".sd-cost")).to_contain_text(re.compile(r"^Cost \d+\.\d points"))
    expect(page.locator("#sd-note")).to_contain_text("An estimate (100 deals of the unseen")
    decision.screenshot(path=str(shots / "replay-single-dummy-decision.png"))
    low = [c for c in page.evaluate(CONTRAST) if c["ratio"] < c["need"]]
    assert not low, f"below WCAG AA on the replay: {low[:8]}"
    page.locator("#sd").screenshot(path=str(shots / "replay-single-dummy.png"))


def test_the_replay_and_the_player_page_fit_a_phone(browser: Browser, board: Scoreboard,
                                                 costly: tuple[str, dict[str, Any]]) -> None:
    width, height = SIZES["phone"]
    phone = browser.new_context(viewport={"width": width, "height": height}).new_page()
    try:
        _, found = costly
        d = next(d for d in found["decisions"] if d["played_out"])
        step = d["trick"] or 1
        phone.goto(f"{board.url}/replay/{found['night']}~{d['table']}?game={d['game']}"
                   f"&hand={d['hand']}&trick={step}&decision={d['decision']}")
        expect(phone.locator("#sd")).to_have_attribute("data-state", "ready", timeout=WAIT_MS)
        overflow = phone.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"the replay is {overflow}px wider than a phone"
        expect(phone.locator('#sd-decisions .sd-decision[aria-current="true"]')).to_be_visible()
        phone.goto(f"{board.url}/player/{costly[0]}")
        expect(phone.locator("body")).to_have_attribute("data-decisions", "ready",
                                                        timeout=WAIT_MS)
        overflow = phone.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"the player page is {overflow}px wider than a phone"
    finally:
        phone.context.close()

"""Text contrast on every page meets WCAG 2 AA, measured in the real browser (Debian's
chromium through Playwright): each visible piece of text, its computed colour against the
backgrounds it sits on (colours composed through transparent layers; a gradient counts by
its worst stop), at least 4.5:1, or 3:1 for large text (24px, or 18.66px bold). The felt's
trick counts and the revoke banner, which failed before, are checked by name, at TV
(1920x1080) and phone (390x844) size.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from browsing import SIZES, needs_chromium
from club_night import club_night, publish_tables, write_night
from playwright.sync_api import Browser, Page
from tricktable.mqtt.broker import BrokerHandle
from tricktable.web.server import Scoreboard
from web_fixtures import Publisher

WAIT_MS = 30_000

pytestmark = [pytest.mark.browser, needs_chromium]

CONTRAST = """() => {
  const parse = (c) => { const p = c.match(/[\\d.]+/g).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m); return (x + 0.05) / (y + 0.05); };
  function grounds(node) {  // the colours the text may sit on, top layer first
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const cs = getComputedStyle(n);
      const stops = (cs.backgroundImage.match(/rgba?\\([^)]+\\)/g) || []).map(parse);
      const color = parse(cs.backgroundColor);
      if (stops.length) layers.push(stops);
      if (color[3] > 0) layers.push([color]);
      if (color[3] === 1) break;
    }
    let under = [[255, 255, 255, 1]];
    for (const layer of layers.reverse()) under = layer.flatMap((top) => under.map((u) => over(top, u)));
    return under;
  }
  const out = [];
  for (const node of document.querySelectorAll("body *")) {
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || !node.getClientRects().length) continue;
    const cs = getComputedStyle(node);
    if (cs.visibility === "hidden") continue;
    const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
    const need = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
    const ink = parse(cs.color);
    const worst = Math.min(...grounds(node).map((g) => ratio(over(ink, g), g)));
    out.push({ what: [node.tagName.toLowerCase(), ...node.classList].join("."),
               text: node.textContent.trim().slice(0, 30), ratio: Math.round(worst * 100) / 100, need });
  }
  return out;
}"""


@pytest.fixture
def games(publisher: Publisher, tmp_path: Path) -> dict[str, list[dict]]:
    """Three tables, one with a revoke; the night file with the bell rung."""
    night = club_night(tables=3)
    write_night(night, tmp_path / "night.json", bell=True, round_started=time.time() - 60)
    games = publish_tables(publisher, night)
    publisher.state(next(s for s in games["t2"] if s["revokes"]))
    return games


@pytest.fixture
def board(mqtt_broker: BrokerHandle, topic_prefix: str, tmp_path: Path,
          games: dict) -> Iterator[Scoreboard]:
    b = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                   night=tmp_path / "night.json")
    b.start()
    yield b
    b.stop()


def measure(browser: Browser, url: str, ready: str, size: tuple[int, int],
            then: Callable[[Page], None] | None = None) -> list[dict]:
    page: Page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    try:
        page.goto(url)
        page.locator(ready).first.wait_for(timeout=WAIT_MS)
        if then is not None:
            then(page)
        return page.evaluate(CONTRAST)
    finally:
        page.context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize(("path", "ready", "named"), [
    ("/", '.table-card[data-table="t2"] .alert.revoke', ["p.alert.revoke"]),
    ("/table/t2", ".seat .meta", ["div.meta", "p.alert.revoke"]),
    ("/tv?rotate=0&screen=tables", ".banner.revoke", ["p.banner.revoke", "p.banner.bell",
                                                      "p.result.hand", "span.clock-time.ringing"]),  # BELL
    ("/tv?rotate=0&screen=seats", ".tv-list .row", ["span.where"]),
    ("/standings", "#standings-body tr", ["span.mark.high"]),
    ("/results", "#results-standings tbody tr", ["a"]),
])
def test_text_contrast_meets_wcag_aa(browser: Browser, board: Scoreboard, games: dict,
                                     publisher: Publisher, path: str, ready: str,
                                     named: list[str], size: str) -> None:
    def hand_scored(page: Page) -> None:  # a table lights up with its result
        publisher.state(next(s for s in games["t3"] if s["phase"] == "hand_over"))
        page.locator(".result").wait_for(timeout=WAIT_MS)

    checked = measure(browser, board.url + path, ready, SIZES[size],
                      hand_scored if path.startswith("/tv?") and "tables" in path else None)
    seen = {c["what"] for c in checked}
    assert all(n in seen for n in named), f"not measured on {path}: {set(named) - seen}"
    low = [c for c in checked if c["ratio"] < c["need"]]
    assert not low, f"below WCAG AA on {path} ({size}): {low[:8]}"

"""A phone as a seat's reader: card read to verdict on the phone's screen, through the whole
stack (issue 35); prints numbers.

Four seat pages (``/pad``) in Debian's Chromium, each in its own context with a phone's
viewport, play Bid Euchre hands (the sim's bots choose; the deal is the engine's) through
the scoreboard's relay, mosquitto, the host service (journal, engine) and back. A play's
time is the page's own: from the ``reading`` event of the Web NFC field
(``tricktable/sim/webnfc_field.js``: Chromium here has no NFC) to the verdict drawn
(``#verdict[data-ms]``, the figure the page reports in its status as ``verdict_ms``, as a
board does). Not in it: the phone's NFC stack (Android reads an NTAG in 10-30 ms before the
page hears of it) and Wi-Fi (here loopback): the figures are the software's, on this shared
machine.

    .venv/bin/python bench/phone_seat.py              # 2 hands
    .venv/bin/python bench/phone_seat.py --hands 1    # quickest
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import tomllib
from pathlib import Path

import tricktable.sim
from playwright.sync_api import sync_playwright
from tricktable.clubfile import parse_club
from tricktable.deckkit.decks import Registry, deck_slots
from tricktable.engine import Engine
from tricktable.engine.actions import Deal
from tricktable.mqtt.broker import start_broker
from tricktable.serve.journal import Journal
from tricktable.serve.service import BrokerURL, Service
from tricktable.sim.bots import Bot
from tricktable.sim.kit import Kit
from tricktable.web.pairings import PairingStore
from tricktable.web.server import Scoreboard

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
FIELD = Path(tricktable.sim.__file__).with_name("webnfc_field.js")
PLAYERS = ["Ann", "Bob", "Cy", "Di"]
CLUB = """[club]
name = "bench"
prefix = "bench"
[tables.t1]
variant = "bid-euchre"
players = ["Ann", "Bob", "Cy", "Di"]
seed = 1
deck = 1
token_decks = [100]
phones = [0, 1, 2, 3]
"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="phone-seat-"))
    registry = Registry(work / "decks.sqlite")
    kit = Kit.enroll(registry, 0, [s.name for s in deck_slots("24")], 1, 100)
    club = parse_club(tomllib.loads(CLUB))
    times: list[int] = []
    with start_broker() as broker:
        journal = Journal(work / "journal.sqlite")
        service = Service(club, journal, registry, BrokerURL("127.0.0.1", broker.port),
                          client_id="bench-host")
        service.start()
        service.connected.wait(10)
        store = PairingStore(work / "phones.sqlite")
        web = Scoreboard("127.0.0.1", broker.port, port=0, prefix="bench",
                         pairings=work / "phones.sqlite")
        web.start()
        shadow = Engine.new("bid-euchre", seed=1, dealer=0, players=PLAYERS)
        rng = random.Random(7)
        bots = [Bot(seat, "bid-euchre", rng) for seat in range(4)]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = []
            for seat in range(4):
                context = browser.new_context(viewport={"width": 390, "height": 844},
                                              is_mobile=True, has_touch=True)
                context.add_init_script(path=str(FIELD))
                page = context.new_page()
                page.goto(f"{web.url}/pad#pair={store.pair('t1', seat, 'bench').credential}")
                page.locator("#start").click()
                page.wait_for_selector("body[data-reading=yes]")
                pages.append(page)
            last: dict[int, bytes] = {}
            while shadow.public_state()["hand_number"] <= args.hands:
                legal = shadow.legal_actions()
                deal = next((a for a in legal if isinstance(a, Deal)), None)
                seat = shadow.to_act
                action = deal or bots[seat].choose(shadow.public_state(),
                                                   shadow.known_hand(seat), legal)
                if not shadow.apply(action).ok:
                    raise SystemExit(f"the shadow engine refused {action}")
                page = pages[action.seat]
                uid = kit.tag_for(action).uid
                if last.get(action.seat) == uid:  # lift it first: read again, it is one play
                    page.wait_for_timeout(3100)
                last[action.seat] = uid
                seq = page.evaluate(
                    "() => JSON.parse(localStorage.getItem('tricktable.pad.v1')).next")
                page.evaluate("s => window.__nfcField.tap(s)", ":".join(f"{b:02x}" for b in uid))
                page.wait_for_selector(f"#verdict[data-seq='{seq}']", state="attached")
                verdict = page.evaluate("() => document.getElementById('verdict').dataset")
                if verdict["kind"] != "accepted":
                    raise SystemExit(f"play {seq} at seat {action.seat}: {verdict}")
                times.append(int(verdict["ms"]))
                if len(times) % 10 == 0:
                    print(f"  {len(times)} plays", file=sys.stderr)
            browser.close()
        web.stop()
        service.stop()
        journal.close()
    print(f"{len(times)} plays over {args.hands} hand(s), one table, four phones "
          f"(Chromium, loopback)")
    print(f"phone seat: card to verdict on screen p50 {percentile(times, 50):.0f} ms, "
          f"p99 {percentile(times, 99):.0f} ms (mean {statistics.fmean(times):.0f}, "
          f"max {max(times)})")


if __name__ == "__main__":
    main()

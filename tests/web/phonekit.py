"""Phones as seat readers, for the tests: a host (real service, journal, broker), the
scoreboard with a pairings file, and seat pages in Chromium over the Web NFC field of
tricktable/sim/webnfc_field.js (the one thing faked: Chromium has no NFC).

``PhoneTable(...)`` starts the host for one table whose four seats are read by phones and the
scoreboard; ``seat_page(browser, seat)`` pairs a phone (the director's QR code, as its URL)
and opens its page in its own context with a phone's viewport; ``place(page, uid)`` lays a
card on it and returns the verdict the page shows. The host's test kit (tests/host/hostkit.py:
enrolled decks, a bot, the host in this process) is reached through here.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

sys.path.insert(0, str(Path(__file__).parents[1] / "host"))
import tricktable.sim  # noqa: E402
from browsing import SIZES  # noqa: E402
from hostkit import (  # noqa: E402  (and for the tests: the host's kit, from here)
    CARD_DECK,
    PLAYERS,
    TOKEN_DECK,
    WAIT,
    Host,
    bot_choice,
    make_registry,
    new_shadow,
    tap_for,
)
from tricktable.clubfile import Club, parse_club  # noqa: E402
from tricktable.web.pairings import PairingStore  # noqa: E402
from tricktable.web.server import Scoreboard  # noqa: E402

FIELD = Path(tricktable.sim.__file__).with_name("webnfc_field.js")
PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/120.0.0.0 Mobile Safari/537.36")


__all__ = ["PLAYERS", "WAIT", "bot_choice", "make_registry", "new_shadow", "tap_for",
           "PhoneTable", "colon_hex", "open_seat", "phone_club", "phone_context", "place",
           "verdict"]


def phone_club(prefix: str, phones: tuple[int, ...] = (0, 1, 2, 3),
               pads: dict[str, int] | None = None) -> Club:
    """One Bid Euchre table, t1, in record mode (a revoke is accepted and flagged); its
    ``phones`` seats read by phones, ``pads`` ("board:pad" -> seat) by boards."""
    lines = ["[club]", 'name = "test club"', f'prefix = "{prefix}"', "[tables.t1]",
             'variant = "bid-euchre"', "players = [" + ", ".join(f'"{p}"' for p in PLAYERS) + "]",
             "seed = 1", f"deck = {CARD_DECK}", f"token_decks = [{TOKEN_DECK}]",
             f"phones = {list(phones)}", 'options = {revoke_mode = "record"}', "[tables.t1.pads]"]
    lines += [f'"{key}" = {seat}' for key, seat in (pads or {}).items()]
    return parse_club(tomllib.loads("\n".join(lines) + "\n"))


def colon_hex(uid: bytes) -> str:
    """A tag's UID as Web NFC's serialNumber gives it: ``04:a1:b2``."""
    return ":".join(f"{b:02x}" for b in uid)


class PhoneTable:
    """The host for t1 and the scoreboard that relays its phones."""

    def __init__(self, port: int, prefix: str, tmp: Path, registry: Path,
                 club: Club | None = None, **web: Any) -> None:
        """``web``: more of the scoreboard's options (``admin_token``, ``https``, ``club_ca``)."""
        self.port, self.prefix = port, prefix
        self.host = Host(port, prefix, tmp / "journal.sqlite", registry,
                         club=club or phone_club(prefix))
        self.store = PairingStore(tmp / "phones.sqlite")
        self.web = Scoreboard("127.0.0.1", port, port=0, prefix=prefix,
                              pairings=tmp / "phones.sqlite", **web)
        self.web.start()

    def pair(self, seat: int) -> str:
        """The seat's QR code as its address: the seat page with a new credential."""
        pairing = self.store.pair("t1", seat, "Dana")
        return f"{self.web.url}/pad#pair={pairing.credential}"

    def close(self) -> None:
        self.web.stop()
        self.host.close()


def phone_context(browser: Browser) -> BrowserContext:
    """A phone: its viewport, an Android Chrome user agent, an NFC field."""
    width, height = SIZES["phone"]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  user_agent=PHONE_UA, is_mobile=True, has_touch=True)
    context.add_init_script(path=str(FIELD))
    return context


def open_seat(context: BrowserContext, url: str, start: bool = True) -> Page:
    """Open a seat page at ``url`` (the QR code's address) and press Start."""
    page = context.new_page()
    page.goto(url)
    if start:
        page.locator("#start").click()
        page.wait_for_selector("body[data-reading=yes]", timeout=WAIT * 1000)
    return page


def place(page: Page, uid: bytes) -> dict[str, Any]:
    """Lay a tag on the phone; the verdict the page then shows for that play:
    ``{"kind", "word", "detail", "seq"}``."""
    seq = page.evaluate("() => JSON.parse(localStorage.getItem('tricktable.pad.v1')).next")
    assert page.evaluate("s => window.__nfcField.tap(s)", colon_hex(uid)) == 1
    return verdict(page, seq)


def verdict(page: Page, seq: int) -> dict[str, Any]:
    """The verdict the page shows for its play number ``seq``, once it shows it."""
    page.wait_for_selector(f"#verdict[data-seq='{seq}']", state="attached",
                           timeout=WAIT * 1000)
    return page.evaluate("""() => { const v = document.getElementById('verdict');
        return {kind: v.dataset.kind, seq: Number(v.dataset.seq),
                word: document.getElementById('verdict-word').textContent,
                detail: document.getElementById('verdict-detail').textContent}; }""")

"""Cases: every deadline of the firmware across a wrap of a board's ticks (issue 22, item 11).

A board's ``time.ticks_ms()`` wraps at 2**30 ms (12.4 days; MicroPython's docs, time.ticks_ms:
"the period is TICKS_PERIOD"), and ``ticks_diff`` is right only within half of that.
``WrapClock`` is such a clock whatever the interpreter (CPython's never wraps, the 64-bit
unix port's in 2**62 ms), set to wrap ``before`` ms from now and moved forward at will with
``skip``; ``install`` puts it in the firmware modules for one case.
"""

import json
import sys
import time

import pn532_emulator as E
from casekit import UID4, LinkBoard, check, tag
from compat import asyncio

PERIOD = 1 << 30
MODULES = ("compat", "app", "outbox", "feedback", "scanner", "pn532", "mqtt")


class WrapClock:
    """ticks_ms/ticks_diff/ticks_add of a 2**30 ms period, wrapping ``before`` ms from now."""

    def __init__(self, before):
        self.start = PERIOD - before
        self.real0 = self._real()
        self.skipped = 0
        self.saved = []

    def _real(self):
        if hasattr(time, "ticks_ms"):
            return time.ticks_ms()
        return time.monotonic_ns() // 1000000

    def ticks_ms(self):
        real = self._real()
        elapsed = time.ticks_diff(real, self.real0) if hasattr(time, "ticks_diff") else real - self.real0
        return (self.start + elapsed + self.skipped) % PERIOD

    def ticks_diff(self, a, b):
        d = (a - b) % PERIOD
        return d - PERIOD if d >= PERIOD // 2 else d

    def ticks_add(self, a, delta):
        return (a + delta) % PERIOD

    def skip(self, ms):
        self.skipped += ms

    def install(self):
        for name in MODULES:
            module = sys.modules.get(name) or __import__(name)
            for fn in ("ticks_ms", "ticks_diff", "ticks_add"):
                if hasattr(module, fn):
                    self.saved.append((module, fn, getattr(module, fn)))
                    setattr(module, fn, getattr(self, fn))
        return self

    def uninstall(self):
        for module, fn, value in self.saved:
            setattr(module, fn, value)


def new_app(tmp, chips, **cfg):
    from app import App
    from config import validate

    config = validate(dict({"board": "north", "pads": len(chips), "broker": {"host": "127.0.0.1"}},
                           **cfg))
    return App(LinkBoard(chips), config, tmp)


async def case_uptime_and_event_times_grow_past_the_wrap(tmp):
    """An event's ``t`` and the status's ``uptime`` count from boot, whatever the ticks do:
    a board up for weeks still reports the time it has been up."""
    clock = WrapClock(before=1000).install()
    try:
        chips = [E.PN532()]
        app = new_app(tmp, chips)
        await app.start_readers()
        ups = []
        for _ in range(6):  # three weeks, the status read every few days as the loops do
            clock.skip(PERIOD // 8)
            ups.append(app.status()["uptime"])
        check(ups == sorted(ups) and ups[0] > 0, f"uptime grows: {ups}")
        check(ups[-1] >= 6 * (PERIOD // 8) // 1000, f"uptime is the time up: {ups[-1]}")
        chips[0].place(tag(UID4))
        for _ in range(3):
            await app.scan_once()
        t = json.loads(app.outbox.payload(app.outbox.pending[0]))["t"]
        check(t >= 6 * (PERIOD // 8), f"the event's t is ms since boot: {t}")
    finally:
        clock.uninstall()


async def case_a_held_event_reaches_flash_on_time_across_the_wrap(tmp):
    """Outbox.settle's hold (publish first, write after) ends on time across the wrap."""
    clock = WrapClock(before=20).install()
    try:
        from outbox import Outbox

        box = Outbox(tmp, "north")
        now = clock.ticks_ms()
        box.add(0, UID4, None, 0, hold_at=now)
        check(box.settle(clock.ticks_add(now, 10), 50) == 40, "held 40 ms more, before the wrap")
        check(box.settle(clock.ticks_add(now, 60), 50) == 0, "written 50 ms on, past the wrap")
    finally:
        clock.uninstall()


async def case_a_light_goes_out_on_time_across_the_wrap(tmp):
    """A verdict's light lasts its ``ms`` when the ticks wrap while it is lit."""
    clock = WrapClock(before=100).install()
    try:
        from feedback import SeatFeedback

        fb = SeatFeedback(1)
        fb.apply({"pad": 0, "led": "green", "ms": 300})
        now = clock.ticks_ms()
        check(fb.level(0, clock.ticks_add(now, 200))[0] == "green", "still lit past the wrap")
        check(fb.level(0, clock.ticks_add(now, 350))[0] == "off", "out after its 300 ms")
    finally:
        clock.uninstall()


async def case_the_watchdog_is_fed_across_the_wrap_and_starved_by_a_hang(tmp):
    """``healthy``: the scan loop's and the link's signs of life are read across the wrap."""
    clock = WrapClock(before=50).install()
    try:
        app = new_app(tmp, [E.PN532()], watchdog_ms=2000)
        now = clock.ticks_ms()
        app.last_scan = app.link.alive = now
        check(app.healthy(clock.ticks_add(now, 500)), "fed 500 ms later, past the wrap")
        check(not app.healthy(clock.ticks_add(now, 1500)), "starved once the loops are silent")
    finally:
        clock.uninstall()


async def case_a_pad_scan_keeps_its_budget_across_the_wrap(tmp):
    """A pad's scan budget (scanner.Pad._left) and the driver's deadlines read the ticks
    across the wrap: a card placed as the ticks wrap is read, once."""
    clock = WrapClock(before=30).install()
    try:
        from casekit import reader
        from scanner import Pad

        chip, pn = reader("spi")
        pad = Pad(0, pn)
        check(await pad.start(), "reader starts")
        chip.place(tag(UID4))
        hits = []
        for _ in range(20):
            hit = await pad.scan()
            if hit is not None:
                hits.append(hit)
            await asyncio.sleep_ms(5) if hasattr(asyncio, "sleep_ms") else await asyncio.sleep(0.005)
        check(hits == [(UID4, bytes(16))], f"one placement across the wrap: {hits!r}")
        check(clock.ticks_ms() < PERIOD // 2, "the ticks did wrap during the case")
    finally:
        clock.uninstall()

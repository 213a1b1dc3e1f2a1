"""Maintenance mode: while the firmware is not running, a timer feeds the watchdog.

Used by the boot loader (main.py and boot.py) and shipped in update bundles too (a board set up
before it had boot.py reaches it through hw.keep_fed); beside hw.py the one module that
touches ``machine``. Once started the watchdog cannot be
stopped (RP2040: 8.3 s at most), and the firmware is not running whenever a person or a tool
has the REPL: stopped by Ctrl-C (main.py), or after the soft reset that mpremote, Thonny and
``tricktable board setup`` make on their first command. A soft reset stops every timer
(ports/rp2/main.c, ``soft_timer_deinit``) but not the watchdog, and then runs boot.py, in the
raw REPL too: so boot.py calls ``begin()``, main.py calls ``end()`` just before the firmware's
own Board takes the watchdog over, and a board at the REPL is never reset under a person's
hands (firmware/README.md, "Maintenance mode").
"""

import sys

import machine

PERIOD_MS = 1000  # the timer's feed; the watchdog's own timeout is TIMEOUT_MS
TIMEOUT_MS = 8000  # within every port's range (RP2040: 8,388 ms at most)
TIMERS: list = []


def begin() -> None:
    """From now on a timer feeds the watchdog (starting it if nothing had: a board powered
    up; a second WDT() takes over the running one on every port)."""
    if TIMERS:
        return
    wdt = machine.WDT(timeout=TIMEOUT_MS)
    wdt.feed()
    timer_id = -1 if sys.platform == "rp2" else 0  # rp2: virtual timers only; ESP32: 0..3
    TIMERS.append(machine.Timer(timer_id, mode=machine.Timer.PERIODIC, period=PERIOD_MS,
                                callback=lambda t: wdt.feed()))


def end() -> None:
    """The firmware takes the watchdog over (hw.Board): the timer stops feeding it."""
    while TIMERS:
        TIMERS.pop().deinit()

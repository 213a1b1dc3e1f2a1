"""Cases: an App that heals by itself (issue 33): a board nothing answers for long enough has
the watchdog reset it, the seat says what is wrong, and an ESP32 counts the heap it can still
grow before holding cards back. The link's side is cases_heal.py."""

import pn532_emulator as E
from app import App
from casekit import UID4, UID7, LinkBoard, check, waiting
from compat import asyncio, sleep_ms, ticks_ms
from config import validate


async def starved_after(app, board, ms):
    """Run the app's watchdog task ``ms``; True if the watchdog went unfed at the end."""
    task = asyncio.create_task(app.watchdog_loop())
    await sleep_ms(ms - 300)
    fed = board.feeds
    await sleep_ms(300)
    task.cancel()
    return board.feeds == fed


def cut_off_app(tmp, heal_s):
    """A one-pad App whose link has never been answered, every play on flash."""
    board = LinkBoard([E.PN532()])
    cfg = validate({"board": "north", "pads": 1, "watchdog_ms": 400, "heal_s": heal_s,
                    "broker": {"host": "127.0.0.1"}})
    app = App(board, cfg, tmp)
    app.outbox.add(0, UID4, None, 0)  # a play waiting for the host, on flash
    return app, board


async def keep_alive(app):
    """The scan loop's and link task's signs of life, as if both ran."""
    while True:
        app.last_scan = app.link.alive = ticks_ms()
        await sleep_ms(20)


async def case_a_board_nothing_answers_for_heal_s_lets_the_watchdog_reset_it(tmp):
    """A board whose link has had no answer at all (no CONNACK, no refusal) for ``heal_s``,
    with its plays on flash, stops feeding the watchdog: the reset brings back a wedged
    radio or a heap TLS can no longer use. Today's board fed it for ever."""
    app, board = cut_off_app(tmp, heal_s=1)
    alive = asyncio.create_task(keep_alive(app))
    check(not await starved_after(app, board, 700), "fed before heal_s")
    check(await starved_after(app, board, 700), "starved once heal_s passed unanswered")
    alive.cancel()


async def case_a_play_not_yet_on_flash_or_an_answer_keeps_the_board_up(tmp):
    """No reset while a play is held in RAM only, nor while the broker's host answers
    (refuses: the broker is down, a reset would not help), nor with ``heal_s`` 0."""
    for why in ("held", "refused", "never"):
        app, board = cut_off_app(tmp, heal_s=0 if why == "never" else 1)
        if why == "held":
            app.outbox.add(0, UID7, None, 0, hold_at=ticks_ms())
        alive = asyncio.create_task(keep_alive(app))
        if why == "refused":
            link = asyncio.create_task(refused(app))
        check(not await starved_after(app, board, 1800), why + ": the watchdog is fed")
        alive.cancel()
        if why == "refused":
            link.cancel()


async def refused(app):
    """The link's every connect refused by the broker's host (ECONNREFUSED)."""
    async def attempt():
        raise OSError(111)

    async def pause(ms):
        await sleep_ms(50)

    app.link._open = attempt
    app.link._pause = pause
    await app.link.run()


def looks(fb, pad=0):
    """What ``pad`` shows over one 2 s period: (the colours lit, how many times the light
    comes on at least half bright)."""
    colours, count, lit = set(), 0, False
    for t in range(0, 2000, 25):
        colour, bright = fb.level(pad, t)
        if bright:
            colours.add(colour)
        if bright >= 0.5 and not lit:
            count += 1
        lit = bright >= 0.5
    return colours, count


async def case_the_seat_says_what_is_wrong_each_in_its_own_pattern(tmp):
    """firmware/README.md, "What the seat says": no Wi-Fi (red, two short flashes every 2 s),
    no host (red, one slow pulse every 2 s), outbox nearly full (amber, a slow pulse), on a
    seat with nothing else to show; nothing while all is well. A player tells them apart."""
    app, board = cut_off_app(tmp, heal_s=0)
    fb = app.feedback
    app.link.connected, app.link.network = False, False
    wifi = looks(fb)
    app.link.network = True
    host = looks(fb)
    app.link.connected = True
    ok = looks(fb)
    while waiting(app.outbox) * 4 < app.cfg["outbox_max"] * 3:
        app.outbox.add(0, UID7, None, 0)
    full = looks(fb)
    check(wifi == ({"red"}, 2), f"no Wi-Fi: {wifi}")
    check(host == ({"red"}, 1), f"no host: {host}")
    check(full == ({"amber"}, 1), f"outbox nearly full: {full}")
    check(ok == (set(), 0), f"all well: the seat is dark, not {ok}")
    fb.apply({"pad": 0, "led": "blue", "ms": 0})
    check(fb.level(0, 100) == ("blue", 1), "the host's own light comes first")


async def case_an_esp32_counts_the_heap_it_can_still_grow_before_holding_cards_back(tmp):
    """ESP32 (py/gc.c with MICROPY_GC_SPLIT_HEAP_AUTO): gc.mem_free() counts only the heap
    areas gained so far, so 9 KB free of the first 56 KB, with 80 KB in the IDF heap, held
    every card back (read again every poll, nothing on the seat). Counted with what the heap
    can still take from the IDF, leaving it its own 28 KB, the card goes; with the IDF heap
    nearly full too it waits."""
    import sys

    import app as module
    import esp32heap
    from split_heap import SplitHeap

    app, board = cut_off_app(tmp, heal_s=0)
    real = (esp32heap.gc, module.heap_free)
    try:
        for idf, spare in ((80 * 1024, True), (30 * 1024, False)):
            heap = SplitHeap(used=47 * 1024, idf_free=(idf, 8 * 1024))
            sys.modules["esp32"] = heap
            esp32heap.gc, module.heap_free = heap, esp32heap.heap_free  # as compat on an ESP32
            check(app.heap_to_spare() is spare,
                  f"9 KB in the heap, {idf // 1024} KB in the IDF: spare {not spare}")
    finally:
        esp32heap.gc, module.heap_free = real
        sys.modules.pop("esp32", None)


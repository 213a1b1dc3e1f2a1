"""Cases: card down to host (issue 16) on a whole board: a late chip, the pads' own signals.

Each rule is docs/cardpath.md's: a late-answering chip on one pad does not stall the other
pads ("Bounded detection"); the seat sees "one card at a time" and "read again" on its pad
("What the seat sees"). The pad-level rules are in cases_stack.py.
"""

import json

import pn532_emulator as E
from app import App
from casekit import UID7, LinkBoard, check, tag
from compat import asyncio, sleep_ms, ticks_us
from config import validate
from pn532_field import FieldPN532


async def case_a_late_chip_on_one_pad_does_not_stall_the_other_pads(tmp):
    """Bounded detection: pad 0's chip answers a minute late; pad 1's card is reported in
    the same scan cycle, before that answer could have come, and other tasks ran meanwhile."""
    chips = [E.PN532(), E.PN532()]
    app = App(LinkBoard(chips), validate({"board": "n", "pads": 2,
                                          "broker": {"host": "127.0.0.1"}}), tmp)
    await app.start_readers()
    chips[0].clock = ticks_us
    chips[0].late_ms = 60000
    chips[1].place(tag(UID7))
    ran = [0]

    async def other():
        while True:
            ran[0] += 1
            await sleep_ms(0)

    task = asyncio.create_task(other())
    await app.scan_once()
    task.cancel()
    check([json.loads(app.outbox.payload(e))["pad"] for e in app.outbox.pending] == [1],
          "pad 1's card reported in the cycle where pad 0 did not answer")
    check(app.pads[0].failures == 1 and not chips[0].ready(),
          "pad 0's poll gave up before its late answer was due")
    check(ran[0] > 0, "the event loop ran another task while pad 0 waited")


async def case_the_pads_own_signals_light_the_seat(tmp):
    """What the seat sees (docs/cardpath.md): "stacked" pulses the pad white, "read_again"
    blinks it white with the error tone."""
    chips = [FieldPN532()]
    app = App(LinkBoard(chips), validate({"board": "n", "pads": 1,
                                          "broker": {"host": "127.0.0.1"}}), tmp)
    await app.start_readers()
    chips[0].place(tag(b"\x04\x10\x22\x33\x44\x55\x66"))  # loses to UID7
    await app.scan_once()
    chips[0].stack(tag(UID7))
    await app.scan_once()
    check(app.feedback.state[0][:2] == ("white", "pulse"), "stacked: white pulse")
    chips[0].remove()
    for _ in range(3):
        await app.scan_once()
    for _ in range(3):
        chips[0].inject("air", [1])
    chips[0].place(tag(UID7))
    for _ in range(3):
        await app.scan_once()
    check(app.feedback.state[0][:2] == ("white", "blink") and app.feedback.tune,
          "read again: white blink and the error tone")


async def case_the_status_carries_card_to_verdict_times(tmp):
    """Measure a real table (docs/cardpath.md): from the scan that saw a card to the seat's
    verdict, once per placement; the turn light (blue) is no verdict."""
    chips = [E.PN532(), E.PN532()]
    app = App(LinkBoard(chips), validate({"board": "n", "pads": 2,
                                          "broker": {"host": "127.0.0.1"}}), tmp)
    await app.start_readers()
    chips[1].place(tag(UID7))
    await app.scan_once()
    feedback = "tricktable/v1/board/n/feedback"
    app.on_message(feedback, b'{"v":1,"pad":1,"led":"blue","ms":0}')
    check(app.status()["verdict_ms"] == [], "the turn light is no verdict")
    app.on_message(feedback, b'{"v":1,"pad":1,"led":"green","buzz":"ok"}')
    app.on_message(feedback, b'{"v":1,"pad":1,"led":"green","buzz":"ok"}')
    times = app.status()["verdict_ms"]
    check(len(times) == 1 and times[0] >= 0, f"one time for one placement: {times!r}")

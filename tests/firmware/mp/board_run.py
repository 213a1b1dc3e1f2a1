"""Run one virtual pad board (the real firmware App) through a list of tricks, then report.

Usage: micropython board_run.py SPEC.json. SPEC: ``config`` (config.json content),
``storage`` (directory for the outbox), ``tricks`` (list of tricks, each a list of
[pad, uid hex]: the cards are placed one by one, each waited for until its pad reported it,
then all taken off), ``power_cut`` (true: stop right after the last play, no DISCONNECT, no
waiting for acks), ``wait_s`` (how long to wait for the host's acks). Prints one
JSON line: boot, seq, pending, published, connects, bad_messages, heap.
"""

import json
import sys

import pn532_emulator as E
from app import App
from compat import asyncio, heap_used, sleep_ms, ticks_diff, ticks_ms, unhexlify
from config import validate
from pn532 import PN532
from pn532_uart import UARTTransport


class LinkBoard:
    """A pad board whose readers hang on emulator UART ports: the lightest wiring, so the
    board-sized heap holds the firmware, not the test harness."""

    def __init__(self, chips):
        self.readers = [PN532(UARTTransport(E.UARTPort(c)), reset=c.set_reset) for c in chips]
        self.pixels = self.leds = self.buzzer = self.display = None

    def network_up(self):
        return True

    def rssi(self):
        return -60

    def feed(self):
        pass


async def until(cond, ms):
    start = ticks_ms()
    while not cond():
        if ticks_diff(ticks_ms(), start) > ms:
            return False
        await sleep_ms(5)
    return True


async def drive(app, chips, spec):
    runner = asyncio.create_task(app.run())
    await until(lambda: all(p.ok for p in app.pads), 5000)
    for trick in spec["tricks"]:
        for pad, uid in trick:
            before = app.pads[pad].placements
            uid = unhexlify(uid)
            chips[pad].place(E.Tag(uid, miss_every=2 if len(uid) == 7 else 0))
            seen = app.pads[pad]
            if not await until(lambda p=seen, n=before: p.placements > n, 5000):
                raise AssertionError(f"pad {pad} never reported its card")
        for pad, _ in trick:
            chips[pad].remove()
        await until(lambda: all(p.present is None for p in app.pads), 5000)
    if not spec.get("power_cut"):
        await until(lambda: not app.outbox.pending, spec.get("wait_s", 20) * 1000)
        await app.link.stop()
    runner.cancel()
    return {"boot": app.outbox.boot, "seq": app.outbox.seq, "pending": len(app.outbox.pending),
            "published": app.link.published, "connects": app.link.connects,
            "bad_messages": app.bad_messages, "heap": heap_used(),
            "rotations": app.outbox.rotations, "writes": app.outbox.writes}


def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    cfg = validate(spec["config"])
    chips = [E.PN532() for _ in range(cfg["pads"])]
    board = LinkBoard(chips)
    app = App(board, cfg, spec["storage"])
    summary = asyncio.run(drive(app, chips, spec))
    print(json.dumps(summary))


main()

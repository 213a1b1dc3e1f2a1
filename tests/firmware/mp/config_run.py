"""A display board (the real firmware App) that the host moves to another table, then reports.

Usage: micropython config_run.py SPEC.json. SPEC: ``config`` (config.json content, a board with
a MAX7219 display on table ``from``), ``storage``, ``to`` (the table the host moves it to).
The board connects, shows the retained display of its table, publishes a status saying so
(the host's cue to move it: a move pushed earlier could reach the board before the first
table's display does), waits for the host's BoardConfig to move it, shows the new table's
retained display, publishes a status naming the new table (the host's cue to send one display
message to each table), waits for the new table's message "NEW" and prints one JSON line:
every display topic that reached the board after the move, the enabled pads, bad messages
and the brightness register last written.
"""

import json
import sys

import pn532_emulator as E
from app import App
from caseboard import config_board
from compat import asyncio, sleep_ms, ticks_diff, ticks_ms
from display import segments


async def until(cond, what, ms=20000):
    start = ticks_ms()
    while not cond():
        if ticks_diff(ticks_ms(), start) > ms:
            raise AssertionError("timed out waiting for " + what)
        await sleep_ms(5)


async def cue(app, key, value):
    """Tell the host where the board is: its retained status with one more field."""
    status = app.status()
    status[key] = value
    await app.link.publish(app.topic_status, json.dumps(status), qos=0, retain=True)


async def drive(app, spi, to):
    seen = []
    handle = app.on_message

    def record(topic, payload):
        if app.table == to and "/display" in topic:
            seen.append(topic)
        handle(topic, payload)

    app.link.on_message = record
    runner = asyncio.create_task(app.run())
    await until(lambda: app.board.display.digits == segments("T1"), "the first table's display")
    await cue(app, "shows", "T1")  # the host may move the board now
    await until(lambda: app.board.display.digits == segments("T2"), "the new table's display")
    await cue(app, "moved_to", app.table)  # the move is done
    await until(lambda: app.board.display.digits == segments("NEW"), "the message after the move")
    await app.link.stop()
    runner.cancel()
    brightness = [t[1] for t in spi.transactions if t[0] == 0x0A]
    return {"seen": seen, "enabled": app.enabled, "table": app.table,
            "bad_messages": app.bad_messages, "brightness": brightness[-1]}


def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    import config

    cfg = config.validate(spec["config"])
    del sys.modules["config"], config
    board, spi = config_board([E.PN532() for _ in range(cfg["pads"])])
    app = App(board, cfg, spec["storage"])
    print(json.dumps(asyncio.run(drive(app, spi, spec["to"]))))


main()

"""Serve one pad board (the real App) whose cards a test places and lifts over MQTT.

Usage: micropython board_serve.py SPEC.json. SPEC: ``config`` (config.json content),
``storage`` (outbox directory), ``control`` (a topic the test publishes hand movements to:
``{"pad": n, "uid": hex}`` puts that tag on pad n - after the pad's previous card is seen
gone - and waits until the board has read it; ``{"pad": n}`` lifts it; ``{"stop": true}``
ends, once the host has acked everything). Prints one JSON summary line.
"""

import json
import sys

import pn532_emulator as E
from app import App
from casekit import LinkBoard
from compat import asyncio, sleep_ms, unhexlify
from mqtt import MQTTClient


async def hand(app, chips, commands):
    while True:
        while not commands:
            await sleep_ms(5)
        cmd = commands.pop(0)
        if cmd.get("stop"):
            return
        pad = app.pads[cmd["pad"]]
        if "uid" not in cmd:
            chips[cmd["pad"]].remove()
            continue
        while pad.present is not None:
            await sleep_ms(5)
        before = pad.placements
        chips[cmd["pad"]].place(E.Tag(unhexlify(cmd["uid"]), kind="ntag213"))
        while pad.placements == before:
            await sleep_ms(5)


async def main(spec, cfg):
    chips = [E.PN532() for _ in range(cfg["pads"])]
    app = App(LinkBoard(chips), cfg, spec["storage"])
    runner = asyncio.create_task(app.run())
    commands = []
    broker = cfg["broker"]
    control = MQTTClient(broker["host"], broker["port"], cfg["board"] + "-hand", clean=True)
    control.on_message = lambda topic, payload: commands.append(json.loads(payload))
    control.subscribe(spec["control"])
    listener = asyncio.create_task(control.run())
    await hand(app, chips, commands)
    for _ in range(2000):
        if not app.outbox.pending:
            break
        await sleep_ms(5)
    summary = {"boot": app.outbox.boot, "seq": app.outbox.seq,
               "pending": len(app.outbox.pending), "bad_messages": app.bad_messages,
               "last_error": app.last_error, "connects": app.link.connects}
    await control.stop()
    await app.link.stop()
    listener.cancel()
    runner.cancel()
    return summary


def run():
    import config

    with open(sys.argv[1]) as f:
        spec = json.load(f)
    cfg = config.validate(spec["config"])
    del sys.modules["config"], config
    print(json.dumps(asyncio.run(main(spec, cfg))))


run()

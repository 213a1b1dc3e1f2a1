"""Cases: the board application on a virtual pad board, without the network (issue 5, items 4, 7)."""

import json

import pn532_emulator as E
from app import App
from casekit import UID4, UID7, LinkBoard, check, tag
from compat import asyncio
from config import validate


async def case_app_scans_to_the_outbox_and_remembers_pads(tmp):
    chips = [E.PN532(), E.PN532()]
    board = LinkBoard(chips)
    cfg = validate({"board": "north", "pads": 2, "broker": {"host": "127.0.0.1"}})
    app = App(board, cfg, tmp)
    await app.start_readers()
    chips[1].place(tag(UID7, miss_every=2))
    for _ in range(5):
        await app.scan_once()
    check([(e.seq, json.loads(e.payload)["pad"]) for e in app.outbox.pending] == [(1, 1)],
          "one event for pad 1")
    check(app.outbox.pads == {1: "04112233445566"}, "the card on pad 1 is remembered")
    status = app.status()
    check(status["readers"] == 2 and status["faults"] == [] and status["pending"] == 1 and status["boot"] == app.outbox.boot,
          "status telemetry")
    check(status["reads"] == [0, 1] and status["misses"] == [0, 0]
          and len(status["reader_errors"]) == len(status["reader_resets"]) == 2,
          "per-pad health: cards read, misreads, frames sent again, resets")


async def case_app_refuses_bad_host_messages_unchanged(tmp):
    board = LinkBoard([E.PN532()])
    cfg = validate({"board": "north", "pads": 1, "broker": {"host": "127.0.0.1"}})
    app = App(board, cfg, tmp)
    app.outbox.add(0, UID4, None, 0)
    base = "tricktable/v1/board/north/"
    for topic, payload in ((base + "ack", b"[1, 2]"), (base + "ack", b"{oops"),
                           (base + "ack", b'{"seq": 1}'), (base + "feedback", b'{"pad": 3}'),
                           (base + "config", b'{"table": "a/b"}')):
        app.on_message(topic, payload)
    check(app.bad_messages == 5 and len(app.outbox.pending) == 1, "five refused, none applied")
    check("table" in app.last_error, "the last error names what was wrong")
    app.on_message(base + "ack", json.dumps({"v": 1, "boot": app.outbox.boot, "seq": 1}))
    check(not app.outbox.pending, "a good ack applies")


async def case_watchdog_is_fed_only_while_the_scan_loop_lives(tmp):
    board = LinkBoard([E.PN532()])
    cfg = validate({"board": "north", "pads": 1, "watchdog_ms": 200,
                    "broker": {"host": "127.0.0.1"}})
    app = App(board, cfg, tmp)
    task = asyncio.create_task(app.watchdog_loop())
    await asyncio.sleep(0.05)
    fed = board.feeds
    check(fed >= 1, "fed while the last scan is recent")
    await asyncio.sleep(0.3)
    check(board.feeds <= fed + 2, "starved once scanning stopped: the board will reset")
    task.cancel()


async def case_a_full_outbox_holds_the_card_back_until_an_ack_makes_room(tmp):
    chips = [E.PN532(), E.PN532()]
    cfg = validate({"board": "north", "pads": 2, "outbox_max": 1,
                    "broker": {"host": "127.0.0.1"}})
    app = App(LinkBoard(chips), cfg, tmp)
    await app.start_readers()
    chips[0].place(tag(UID4))
    chips[1].place(tag(UID7))
    for _ in range(3):
        await app.scan_once()
    check([e.seq for e in app.outbox.pending] == [1], "one event queued, the other card waits")
    check(app.pads[1].placements == 0 and "outbox full" in app.last_error, "held back, said why")
    app.on_message("tricktable/v1/board/north/ack",
                   json.dumps({"v": 1, "boot": app.outbox.boot, "seq": 1}))
    await app.scan_once()
    pending = [json.loads(e.payload) for e in app.outbox.pending]
    check([(e["seq"], e["pad"]) for e in pending] == [(2, 1)], "the waiting card is reported")


async def case_reading_pads_and_lighting_seats_never_wait_on_the_radio(tmp):
    """docs/cardpath.md: a link whose every write hangs (a radio that stopped) holds no pad
    read and no verdict: the scan cycle ends, the card is queued, the verdict is shown."""
    chips = [E.PN532(), E.PN532()]
    cfg = validate({"board": "north", "pads": 2, "broker": {"host": "127.0.0.1"}})
    app = App(LinkBoard(chips), cfg, tmp)
    await app.start_readers()
    async def publish(*args, **kw):
        await asyncio.sleep(3600)  # the radio took the bytes and never came back

    app.link.publish = publish
    app.link.connected = True
    sender = asyncio.create_task(app.send_loop())
    chips[0].place(tag(UID4))
    for _ in range(3):
        await asyncio.wait_for(app.scan_once(), 2)
    check(len(app.outbox.pending) == 1, "the card is queued")
    chips[1].place(tag(UID7))
    for _ in range(3):
        await asyncio.wait_for(app.scan_once(), 2)
    check(len(app.outbox.pending) == 2, "the next card too, while the first one's publish hangs")
    app.on_message("tricktable/v1/board/north/feedback", b'{"pad": 1, "led": "green"}')
    check(app.feedback.state[1][0] == "green", "the verdict is shown")
    sender.cancel()

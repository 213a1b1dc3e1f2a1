"""Cases: the board application on a virtual pad board, without the network (issue 5, items 4, 7)."""

import json

import pn532_emulator as E
from app import App
from casekit import UID4, UID7, LinkBoard, check, tag, waiting
from compat import asyncio, hexlify
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
    check([(e.seq, json.loads(app.outbox.payload(e))["pad"]) for e in app.outbox.pending] == [(1, 1)],
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
    pending = [json.loads(app.outbox.payload(e)) for e in app.outbox.pending]
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



def night_play(i):
    """The night's play ``i``: its pad and card (a UID of its own)."""
    return i % 4, bytes([4, i >> 8, i & 0xFF, 1, 2, 3, 4])


class Host:
    """The host's side of the link for the night case: while up it journals each event by
    its key and acks every copy, as the service does. The board sends in the order played
    and a reboot raises the boot id, so a key not above the last journaled is a copy; each
    new one must be the next play of the night (``night_play``), or one was lost."""

    def __init__(self, app):
        self.up = True
        self.journaled = 0
        self.last = (0, 0)
        self.copies = 0
        self.acks = []
        self.attach(app)

    def attach(self, app):
        async def publish(topic, payload, qos=0, retain=False):
            if not self.up:
                raise OSError("host gone")
            if topic == app.topic_event:
                ev = json.loads(payload)
                key = (ev["boot"], ev["seq"])
                if key > self.last:
                    pad, uid = night_play(self.journaled)
                    check((ev["pad"], ev["uid"]) == (pad, hexlify(uid)),
                          f"play {self.journaled} next, got {ev}")
                    self.last = key
                    self.journaled += 1
                else:
                    self.copies += 1
                self.acks.append(json.dumps({"v": 1, "boot": ev["boot"], "seq": ev["seq"]}))
            return 1

        app.link.publish = publish
        app.link.connected = self.up

    async def answer(self, app):
        """Deliver the acks owed, and send what they let in from flash, until none is owed."""
        while self.acks:
            acks, self.acks = self.acks, []
            for ack in acks:
                app.on_message(app.topic_ack, ack)
            await app.send_due()


async def case_a_host_gone_half_an_hour_gets_every_play_once_in_order_when_back(tmp):
    """Issue 33, item 4: the host down for 30 minutes of a 3-hour night (a play every 7.5 s:
    240 plays), a power cut in the middle of the outage, the board playing on. When the
    host is back every play reaches it once (none lost, none doubled), in the order played,
    with no storm of copies."""
    cfg = validate({"board": "north", "pads": 4, "broker": {"host": "127.0.0.1"}})
    app = App(LinkBoard([E.PN532() for _ in range(4)]), cfg, tmp)
    host = Host(app)
    for i in range(1440):
        if i in (480, 720):  # the host goes at the hour, and is back half an hour later
            host.up = not host.up
            app.link.connected = host.up
            if host.up:
                await app.on_connect()
        if i == 600:  # a power cut in the outage: the board boots from its flash
            app = None
            app = App(LinkBoard([E.PN532() for _ in range(4)]), cfg, tmp)
            host.attach(app)
        pad, uid = night_play(i)
        app.outbox.add(pad, uid, None, i * 7500, 0 if app.link.connected else None)  # scan_once's
        await app.send_due()
        await host.answer(app)
        app.outbox.settle()  # the send loop's, once the verdict is in
        app.outbox.set_pad(pad, uid)
        app.outbox.set_pad(pad, None)
        if i == 719:
            check(waiting(app.outbox) == 240, f"the outage's plays wait: {waiting(app.outbox)}")
    check(host.journaled == 1440 and waiting(app.outbox) == 0, "every play journaled, once")
    check(host.copies <= 16, f"{host.copies} copies sent again")

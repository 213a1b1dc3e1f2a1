"""The board application: pads -> outbox -> MQTT, host messages -> feedback and display.

Imports compat, json and our firmware modules (the App is built by appinit.py, imported by
``App()`` and dropped again), never machine or network: the hardware comes
in as a ``board`` object (see hw.Board; virtual.py builds one for tests and the simulator).
One asyncio task per concern: scanning, sending, status telemetry, watchdog, feedback
animation and the MQTT link. Topics and payloads are docs/architecture.md's "MQTT" table.

Reading the pads and lighting a seat never wait on the radio: a placement is queued and the
send loop woken, and the send loop alone publishes. While the link is down every seat says
so, and says whether the Wi-Fi or the host is missing, or the outbox nearly full
(SeatFeedback.trouble). The watchdog is fed while the scan loop and the link task both
show signs of life, whether or not the link is up: it resets a board whose loops hang,
never one waiting for its network. Times since boot (an event's ``t``, the status's
``uptime``) come from compat.Uptime, right past the 32-bit ticks' wrap.
"""

import json

from compat import (
    asyncio,
    borrowed,
    collect,
    const,
    heap_free,
    sleep_ms,
    ticks_diff,
    ticks_ms,
    wait_for_ms,
)
from outbox import OutboxFull
from scanner import scan_order

FW_VERSION = "0.1.0"
# a published event goes to flash after its verdict, or this long after at most
_WRITE_AFTER_MS = const(50)
HEAP_RESERVE = 12288  # bytes kept free for the link and the readers; below it, cards wait


class App:
    """Everything a pad board or display board does, on an injected ``board``."""

    def __init__(self, board, config, storage):
        borrowed("appinit").init(self, board, config, storage)  # boot only: not kept in RAM

    def trouble(self):
        """What the seats say is wrong ("wifi", "host", "full": feedback.py), and the pads
        that say it: the
        outbox nearly full (three quarters of ``outbox_max`` wait for the host) or its flash
        full (``Outbox.full``), else, with the link down, no Wi-Fi or no host."""
        box = self.outbox
        if box.full or (len(box.pending) + box.queued) * 4 >= self.cfg["outbox_max"] * 3:
            return "full", self.enabled
        if self.link.connected:
            return None, ()
        return ("host" if self.link.network else "wifi"), self.enabled

    # -- pads ----------------------------------------------------------------------------
    async def start_readers(self):
        for pad in self.pads:
            await pad.start()

    async def scan_once(self):
        """Poll every enabled pad once (the pad to play more often: scan_order); queue new
        placements and wake the send loop, which publishes them, then remember what lies
        where; both reach flash after the verdict (send_loop), or at once while the link is
        down: the flash off the card's path, docs/cardpath.md. Nothing here waits on the
        network."""
        for i in scan_order(self.enabled, self.feedback.state):
            pad = self.pads[i]
            seen_at = ticks_ms()
            hit = await pad.scan()
            if hit.__class__ is str:  # the pad's own signal: "stacked", "read_again"
                self.feedback.signal(pad.index, hit)
            elif hit is not None:
                self.feedback.placed = (pad.index, seen_at)
                try:
                    if not self.heap_to_spare():
                        raise OutboxFull("heap below %d bytes" % HEAP_RESERVE)
                    # held back from flash for its verdict; with the link down, on flash now
                    self.outbox.add(pad.index, hit[0], hit[1], self.uptime(),
                                    ticks_ms() if self.link.connected else None)
                except OutboxFull as e:
                    self.last_error = "outbox full: %s" % e
                    pad.hold_back()  # reported once acks make room
                self.wake.set()
            if pad.changed:
                self.outbox.set_pad(pad.index, pad.present)
            await sleep_ms(0)
        self.last_scan = ticks_ms()

    def heap_to_spare(self):
        """True unless the heap is nearly full (always True where it cannot be measured)."""
        free = heap_free()
        if free is not None and free < HEAP_RESERVE:
            collect()
            free = heap_free()
        return free is None or free >= HEAP_RESERVE

    async def scan_loop(self):
        while True:
            try:
                await self.scan_once()
            except MemoryError:  # a short heap this cycle: the pads are polled again next
                collect()
                self.last_error = "heap short while scanning"
            await sleep_ms(self.cfg["scan_ms"])

    # -- link ----------------------------------------------------------------------------
    async def send_due(self):
        """Publish every outbox entry that is due; stop at the first link error."""
        now = ticks_ms()
        for entry in self.outbox.due(now, self.cfg["resend_ms"]):
            if not self.link.connected:
                return
            try:
                entry.pid = await self.link.publish(self.topic_event, self.outbox.payload(entry),
                                                    qos=1)
            except OSError:
                return
            entry.sent_at = now

    async def send_loop(self):
        """Publish what is due, and write held events to flash once settled (Outbox.settle)."""
        while True:
            left = self.outbox.settle(ticks_ms(), _WRITE_AFTER_MS)
            wait = self.cfg["resend_ms"] // 2
            try:
                await wait_for_ms(self.wake.wait(), wait if not left else min(wait, left))
            except asyncio.TimeoutError:
                pass
            self.wake.clear()
            try:
                await self.send_due()
            except MemoryError:  # heap short this round: the entries stay due, try again
                self.last_error = "heap short while sending"
            for item in self.outbox.held:  # held for a verdict but never left: on flash now
                if item.__class__ is not str and item.sent_at is None:
                    self.outbox.settle()
                    break
            collect()  # after the publish: a full collection keeps the small heap whole

    async def on_connect(self):
        await self.publish_status()
        self.outbox.mark_all_due(self.link.inflight)
        self.wake.set()

    def status(self):
        """The retained status: protocol v1 fields, then the board's own details."""
        faults = [pad.index for pad in self.pads if not pad.ok]
        return {"v": 1, "online": True, "boot": self.outbox.boot, "fw": FW_VERSION,
                "heap": heap_free(), "rssi": self.board.rssi(),
                "readers": len(self.pads) - len(faults),
                "uptime": self.uptime() // 1000,
                "faults": faults, "reads": [pad.reads for pad in self.pads],
                "misses": [pad.misreads for pad in self.pads],
                "reader_errors": [pad.reader.errors for pad in self.pads],
                "reader_resets": [pad.reader.resets for pad in self.pads],
                "pending": len(self.outbox.pending) + self.outbox.queued, "taken": self.link.taken,
                "error": self.last_error or self.link.fault,
                "verdict_ms": self.feedback.verdict_ms}

    async def publish_status(self):
        await self.link.publish(self.topic_status, json.dumps(self.status()), qos=0, retain=True)
        self.feedback.verdict_ms = []  # each card-to-verdict time is said once

    async def status_loop(self):
        while True:
            await sleep_ms(self.cfg["status_s"] * 1000)
            if self.link.connected:
                try:
                    await self.publish_status()
                except OSError:
                    pass
                except MemoryError:  # heap short this time (an update's chunks): the next one
                    collect()
                    self.last_error = "heap short for the status"

    def on_message(self, topic, payload):
        """Handle one host message; a bad one is counted and named, and changes nothing."""
        try:
            msg = json.loads(payload)
            if not isinstance(msg, dict):
                raise ValueError("message is not a JSON object")
            if topic == self.topic_ack:
                queued = self.outbox.queued
                self.outbox.ack(msg["boot"], msg["seq"])
                if self.outbox.queued != queued:  # one more came from flash: send it now
                    self.wake.set()
            elif topic == self.topic_feedback:
                self.feedback.apply(msg)
                self.wake.set()  # the verdict is shown: what it settled may go to flash
            elif topic == self.topic_config:
                self.apply_config(msg)
            elif topic == self.topic_display and topic in self.link.subscriptions:
                self.board.display.show(msg)
        except (ValueError, KeyError, TypeError) as e:
            self.bad_messages += 1
            self.last_error = "%s: %s" % (topic, e)

    def apply_config(self, msg):
        """Apply a host-pushed BoardConfig at once (boardconfig.py, loaded on first use)."""
        from boardconfig import apply

        apply(self, msg)

    # -- health --------------------------------------------------------------------------
    def healthy(self, now):
        """True while the scan loop (on a pad board) and the link task show signs of life
        within half a watchdog period; the link being down is no sign of a hang. False too
        once nothing has answered the link (no broker, no refusal from its host) for
        ``heal_s`` with every play safe on flash: a wedged radio, an lwIP pool used up or a
        heap that TLS can no longer use come back only with a reset, which the watchdog then
        gives (firmware/README.md, "Healing"). A broker that is down on a host that answers
        refuses the connection: no reset, which would not help."""
        half = self.cfg["watchdog_ms"] // 2
        if self.pads and ticks_diff(now, self.last_scan) >= half:
            return False
        heal = self.cfg["heal_s"]
        link = self.link
        if heal and not link.connected and not self.outbox.held \
                and ticks_diff(now, link.heard) >= heal * 1000:
            return False
        return ticks_diff(now, link.alive) < half

    async def watchdog_loop(self):
        """Feed the watchdog only while the board's loops live (``healthy``)."""
        period = self.cfg["watchdog_ms"]
        while True:
            if self.healthy(ticks_ms()):
                self.board.feed()
            await sleep_ms(period // 4)

    async def run(self):
        """Start everything and run until cancelled."""
        await self.start_readers()
        tasks = [asyncio.create_task(self.link.run()), asyncio.create_task(self.send_loop()),
                 asyncio.create_task(self.status_loop()), asyncio.create_task(self.feedback.run()),
                 asyncio.create_task(self.watchdog_loop())]
        if self.pads:
            tasks.append(asyncio.create_task(self.scan_loop()))
        try:
            await asyncio.gather(*tasks)
        finally:
            for t in tasks:
                t.cancel()

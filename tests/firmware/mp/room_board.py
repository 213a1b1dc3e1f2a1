"""One board of bench/hostile_room.py: the real firmware App on emulated pads, playing its
list of cards through whatever the room does to it, and surviving power cuts.

Usage: micropython room_board.py SPEC.json. SPEC: ``config`` (config.json content),
``storage`` (the board's flash, kept across power cuts), ``plays`` ([[pad, uid hex]]: each is
placed, waited for until its pad reported it, lifted), ``seed``, ``wifi`` (the Wi-Fi's
unkindness: ``drop_every_s`` mean seconds between access-point drops, ``drop_s`` [min, max]
seconds down, ``dhcp_ms`` [min, max] before an address once it is back, ``reboots``
[[wall ms, ms down]]: the room's access point rebooting under every board at once, and
``wlan``: the board's own join logic (hw.Board) on a virtual CYW43 whose every join says
BADAUTH for a moment (``{"join_ms", "dhcp_ms", "flaky": [status, from ms, for ms]}``,
virtual.wifi_world)), ``dns`` (the port of a DNS server the board asks for the broker's
name, which the config gives by name), ``frames`` (PN532
emulator attributes set on every chip when the emulator has them: ``preamble``,
``postamble``, ``ack_late_ms``: odd frames as chips send them). Its TCP sockets get a
board's few KB of send buffer (casekit.small_buffers).

Progress goes to ``storage``/room.log, one line per step, so the board goes on where it was
after a power cut (the bench kills the process): ``placing I T`` (card I on its pad at wall
time T ms) and ``done I``. A card placed and not done when the power went is still lying on
its pad at the next boot. ``wifi_down T0 T1``: the access point gone (wall ms) till an
address again. Prints one JSON line at the end: plays, silent (episodes of more
than two keepalives connected with the oldest unacked event never acked: a board silent while
it shows online), on_flash (the most events that waited on flash behind the outbox's window
in this boot), connects, pending.
"""

import json
import random
import sys
import time

import pn532_emulator as E
from casekit import LinkBoard, waiting
from compat import asyncio, sleep_ms, ticks_diff, ticks_ms, unhexlify

with open(sys.argv[1]) as f:
    SPEC = json.load(f)
LOG = SPEC["storage"] + "/room.log"


def wall_ms():
    return time.time_ns() // 1000000 if hasattr(time, "time_ns") else int(time.time() * 1000)


def progress():
    """(index of the next card to play, index of a card lying unfinished or None)."""
    nxt, lying = 0, None
    try:
        with open(LOG) as f:
            for line in f:
                words = line.split()
                if len(words) >= 2 and words[0] == "placing":
                    lying = int(words[1])
                elif len(words) == 2 and words[0] == "done":
                    nxt, lying = int(words[1]) + 1, None
    except OSError:
        pass
    return nxt, lying


def log(line):
    with open(LOG, "a") as f:
        f.write(line + "\n")


class RoomWifi:
    """The network_up of a board in a room whose access point drops out now and then, and
    reboots under every board at once (SPEC ``wifi`` ``reboots``), and whose DHCP answers
    late (SPEC ``wifi``); the default of a pluggable model (RoomWlan slots in here)."""

    def __init__(self, spec, rng):
        self.spec, self.rng = spec, rng
        self.down_until = 0
        self.next_drop = ticks_ms() + self._gap()
        self.reboots = [r for r in spec.get("reboots", []) if r[0] + r[1] > wall_ms()]

    def _gap(self):
        every = self.spec.get("drop_every_s", 0)
        return int(self.rng.random() * 2 * every * 1000) if every else 1 << 29

    def network_up(self):
        now = ticks_ms()
        if ticks_diff(now, self.next_drop) >= 0:
            lo, hi = self.spec.get("drop_s", [1, 5])
            dhcp = self.spec.get("dhcp_ms", [300, 3000])
            down = int((lo + self.rng.random() * (hi - lo)) * 1000)
            down += dhcp[0] + int(self.rng.random() * (dhcp[1] - dhcp[0]))
            self.down_until = now + down
            self.next_drop = now + down + self._gap()
            log(f"wifi_down {wall_ms()} {wall_ms() + down}")
        if self.reboots and wall_ms() >= self.reboots[0][0]:
            at, down = self.reboots.pop(0)
            self.down_until = now + at + down - wall_ms()
            log(f"wifi_down {at} {at + down}")
        return ticks_diff(now, self.down_until) >= 0


class RoomWlan:
    """The board's Wi-Fi through the firmware's own join logic (hw.Board.network_up) on a
    virtual WLAN (sim/virtual.py: the CYW43's status sequence, a transient BADAUTH in every
    join, JOIN after a lost link), its access point on the air as RoomWifi says."""

    def __init__(self, spec, rng, boards_json):
        import virtual

        for name in ("machine", "network", "neopixel"):
            sys.modules[name] = virtual
        import hw

        self.air = RoomWifi(spec, rng)
        self.virtual = virtual
        world = spec["wlan"]
        virtual.wifi_world(port="rp2", join_ms=world.get("join_ms", 0),
                           dhcp_ms=world.get("dhcp_ms", 0),
                           flaky=tuple(world["flaky"]) if world.get("flaky") else None)
        cfg = {"pads": 0, "reader_bus": "spi", "feedback": "none", "display": None,
               "wifi": [{"ssid": "cardroom"}], "watchdog_ms": 8000}
        self.board = hw.Board(cfg, hw.load_pins("pico_w", boards_json), watchdog=False)
        self.virtual.NOW["ms"] = ticks_ms()
        self.board.connect_wifi()

    def network_up(self):
        self.virtual.NOW["ms"] = ticks_ms()
        self.virtual.LINK["up"] = self.air.network_up()
        return self.board.network_up()

async def watch(app, out, keepalive_ms):
    """Count episodes of a board connected, with its oldest unacked event never acked, for
    more than two keepalives: silent while online."""
    since = None
    oldest = None
    counted = False
    while True:
        now = ticks_ms()
        pending = app.outbox.pending
        out["on_flash"] = max(out["on_flash"], app.outbox.queued)
        head = (pending[0].boot, pending[0].seq, app.link.connects) if pending else None
        if app.link.connected and head is not None and head == oldest:
            if not counted and ticks_diff(now, since) > 2 * keepalive_ms:
                out["silent"] += 1
                counted = True
        else:
            since, oldest, counted = now, head if app.link.connected else None, False
        await sleep_ms(100)


async def until(cond, ms):
    start = ticks_ms()
    while not cond():
        if ticks_diff(ticks_ms(), start) > ms:
            return False
        await sleep_ms(10)
    return True


def tag(uid):
    uid = unhexlify(uid)
    return E.Tag(uid, kind="ntag213", miss_every=2 if len(uid) == 7 else 0)


async def play(app, chips, plays, start, rng):
    out = {"silent": 0, "on_flash": 0}
    watcher = asyncio.create_task(watch(app, out, app.cfg["broker"]["keepalive"] * 1000))
    runner = asyncio.create_task(app.run())
    await until(lambda: all(p.ok for p in app.pads), 5000)
    for i in range(start, len(plays)):
        pad, uid = plays[i]
        pad_ = app.pads[pad]
        if pad_.present != unhexlify(uid):
            log(f"placing {i} {wall_ms()}")
            before = pad_.placements
            chips[pad].place(tag(uid))
            if not await until(lambda p=pad_, n=before: p.placements > n, 30000):
                raise AssertionError(f"pad {pad} never reported card {i} ({app.last_error})")
        await sleep_ms(rng.randrange(50, 400))
        chips[pad].remove()
        await until(lambda p=pad_: p.present is None, 30000)
        log(f"done {i}")
    await until(lambda: not app.outbox.pending, 120000)
    runner.cancel()
    watcher.cancel()
    return out


def main():
    import config
    from sndbuf import small_buffers

    small_buffers(4096)  # a board's few KB of TCP send buffer
    cfg = config.validate(SPEC["config"])
    del sys.modules["config"]
    nxt, lying = progress()
    rng = random.Random(SPEC["seed"] * 1000 + nxt) if hasattr(random, "Random") else random
    if rng is random:
        random.seed(SPEC["seed"] * 1000 + nxt)
    chips = [E.PN532() for _ in range(cfg["pads"])]
    for name, value in SPEC.get("frames", {}).items():
        if hasattr(E.PN532, name):  # the emulator's odd frames, where it has them
            for chip in chips:
                setattr(chip, name, value)
    board = LinkBoard(chips)
    spec = SPEC.get("wifi", {})
    if spec.get("wlan"):
        from casekit import boards_json

        wifi = RoomWlan(spec, rng, boards_json())
    else:
        wifi = RoomWifi(spec, rng)
    board.network_up = wifi.network_up
    if SPEC.get("dns"):
        board.dns_server = lambda: ("127.0.0.1", SPEC["dns"])
    plays = SPEC["plays"]
    if lying is not None:  # the power went with this card on its pad: it lies there still
        chips[plays[lying][0]].place(tag(plays[lying][1]))
    from app import App

    app = App(board, cfg, SPEC["storage"])
    out = asyncio.run(play(app, chips, plays, lying if lying is not None else nxt, rng))
    out.update({"plays": len(plays), "connects": app.link.connects,
                "pending": waiting(app.outbox), "boot": app.outbox.boot})
    print(json.dumps(out))


main()

"""Run one virtual pad board (the real firmware App) through a list of tricks, then report.

Usage: micropython board_run.py SPEC.json. SPEC: ``config`` (config.json content),
``storage`` (directory for the outbox), ``tricks`` (list of tricks, each a list of
[pad, uid hex]: the cards are placed one by one, each waited for until its pad reported it,
then all taken off, unless ``leave_last`` and it is the last trick), ``pace_ms`` (pause
after each card), ``idle_ms`` (quiet time once connected, before the first card), ``offline`` (do not wait
for the broker before playing), ``lying`` (cards on pads before the board starts), ``end``: "disconnect"
(wait for the host's acks up to ``wait_s``, then DISCONNECT), "cut" (wait, then stop without
DISCONNECT: the broker publishes the last will) or "cut_now" (power cut right after the last
play). Prints one JSON line: boot, seq, pending, published, connects, bad_messages, heap...
``watch`` samples the link and the seats every 20 ms: ``offline_after_ms`` lists, for each
time the link went down, the broker's silence (ms since the last byte from it) when the
seats first showed it (pad 0 red), and ``scan_gap_ms`` is the longest gap between two scan
cycles. For bench/firmware.py, ``readers_port`` puts the readers in tests/firmware/readerhost.py
(not in this heap) and ``heap_sample_ms`` samples the live heap (remote_readers.py).
"""

import gc
import json
import sys

with open(sys.argv[1]) as f:
    SPEC = json.load(f)


def boot_config(raw):
    """The config validated and config.py dropped before the app is imported, as main.py
    boots (its boot_config)."""
    import config

    try:
        return config.validate(raw)
    finally:
        del sys.modules["config"]


CFG = boot_config(SPEC["config"])
if "readers_port" in SPEC:  # the emulator stays out of this heap
    import remote_readers as E
else:
    import pn532_emulator as E
from app import App  # noqa: E402
from compat import asyncio, heap_used, sleep_ms, ticks_diff, ticks_ms, unhexlify  # noqa: E402


async def until(cond, ms):
    start = ticks_ms()
    while not cond():
        if ticks_diff(ticks_ms(), start) > ms:
            return False
        await sleep_ms(5)
    return True


async def watch(app, out):
    """Sample the link and the seats (SPEC ``watch``)."""
    was_up = False
    last_scan = app.last_scan
    seen_scan = ticks_ms()
    while True:
        now = ticks_ms()
        if app.last_scan != last_scan:
            out["scan_gap_ms"] = max(out["scan_gap_ms"], ticks_diff(now, seen_scan))
            last_scan, seen_scan = app.last_scan, now
        up = app.link.connected
        if was_up and not up:
            out["down"] = app.link._last_rx
        if "down" in out and app.feedback.level(0, now)[0] == "red":
            out["offline_after_ms"].append(ticks_diff(now, out.pop("down")))
        was_up = up
        await sleep_ms(20)


async def drive(app, chips, spec):
    runner = asyncio.create_task(app.run())
    watched = {"offline_after_ms": [], "scan_gap_ms": 0}
    watcher = asyncio.create_task(watch(app, watched)) if spec.get("watch") else None
    if spec.get("heap_sample_ms"):
        from remote_readers import HeapMark

        mark = HeapMark(spec["heap_sample_ms"])
    offline = spec.get("offline", False)
    await until(lambda: all(p.ok for p in app.pads) and (offline or app.link.connected), 5000)
    # The cards lying at boot are read (reported, or known from flash) before anything else:
    # else a loaded machine ends the run with a card not yet read, as if it were lost.
    await until(lambda: all(app.pads[pad].present is not None
                            for pad, _ in spec.get("lying", [])), 10000)
    await sleep_ms(spec.get("idle_ms", 0))
    tricks = spec.get("tricks", [])
    for t in range(len(tricks)):
        for pad, uid in tricks[t]:
            before = app.pads[pad].placements
            chips[pad].place(tag(uid))
            seen = app.pads[pad]
            # a board reads a card within a scan or two; here each reader frame is a round
            # trip to another process (readerhost.py), which a loaded machine can keep past the
            # firmware's 15 ms ACK budget again and again (seen once: 5 s with load 15 on 2
            # cores); the pads being read all along is checked by scan_gap_ms, not here
            if not await until(lambda p=seen, n=before: p.placements > n, 15000):
                raise AssertionError(f"pad {pad} never reported its card ({app.last_error})")
            await sleep_ms(spec.get("pace_ms", 0))
        if spec.get("leave_last") and t == len(tricks) - 1:
            break
        for pad, _ in tricks[t]:
            chips[pad].remove()
        await until(lambda: all(p.present is None for p in app.pads), 5000)
    end = spec.get("end", "disconnect")
    if end != "cut_now":
        await until(lambda: not app.outbox.pending, spec.get("wait_s", 20) * 1000)
    if end == "disconnect":
        await app.link.stop()
    await sleep_ms(spec.get("linger_ms", 0))
    runner.cancel()
    if watcher is not None:
        watcher.cancel()
        watched.pop("down", None)
    gc.collect()
    heap = mark.stop() if spec.get("heap_sample_ms") else {}
    return heap | {"boot": app.outbox.boot, "seq": app.outbox.seq,
                   "pending": len(app.outbox.pending), "published": app.link.published, "connects": app.link.connects,
                   "skipped": app.link.skipped, "inflight": len(app.link.inflight),
                   "bad_messages": app.bad_messages, "heap": heap_used(),
                   "rotations": app.outbox.rotations, "writes": app.outbox.writes,
                   "last_error": app.last_error} | (watched if watcher else {})


def tag(uid):
    uid = unhexlify(uid)
    return E.Tag(uid, kind="ntag213", miss_every=2 if len(uid) == 7 else 0)


def main():
    spec = SPEC
    if spec.get("sndbuf"):
        from sndbuf import small_buffers

        small_buffers(spec["sndbuf"])
    cfg = CFG
    if "readers_port" in spec:
        board = E.RemoteBoard(spec["readers_port"], cfg["pads"])
        chips = board.chips
    else:
        from casekit import LinkBoard

        chips = [E.PN532() for _ in range(cfg["pads"])]
        board = LinkBoard(chips)
    for pad, uid in spec.get("lying", []):
        chips[pad].place(tag(uid))
    app = App(board, cfg, spec["storage"])
    summary = asyncio.run(drive(app, chips, spec))
    print(json.dumps(summary))


main()

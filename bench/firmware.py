"""Firmware benchmarks (issue 5, item 9); prints numbers, asserts nothing about time.

1. Heap in use under MicroPython (-X heapsize=96k) after 100, 1,000 and 10,000 scan cycles
   of the real App on 4 emulated pads (one card lying, one flaky 7-byte tag, two empty).
2. Scan-cycle time per pad under the PN532 emulator's timing model (modeled chip time plus
   bytes on the bus) for SPI 1 MHz, I2C 400 kHz and UART 115200, by pad state; plus the
   MicroPython interpreter's own CPU time per cycle on this machine (median of 5 runs).
3. Plays per second from a MicroPython board through mosquitto to a host that acks them
   (flash write, QoS 1 publish, PUBACK, host ack, outbox release), median of 3 runs.
4. Heap during a whole hand (24 plays on 4 pads through mosquitto to an acking host) at
   -X heapsize=96k, the emulated readers outside the board's heap (tests/firmware/
   readerhost.py; a board has no emulator in its RAM): the live heap's high-water mark (a
   full collection every 10 ms), the free heap that leaves (median of 3 runs), and the
   smallest heap that completes the hand (bisection by 1 KB).
5. The deployed bundle (tricktable board setup): bytes of .mpy, of main.py and boards.json.

Run: .venv/bin/python bench/firmware.py
     .venv/bin/python bench/firmware.py --quick   # one run of each, shorter; no 32-bit port, no bisection
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "firmware"), str(ROOT / "tests")]  # fwkit, waiting

from fwkit import (  # noqa: E402
    HEAP,
    MICROPYTHON,
    HostSide,
    MicroPython,
    build_mpy,
    last_json,
    play_hand,
)

SCAN_SCRIPT = """
import gc, sys, json
import config
cfg = config.validate({"board": "bench", "pads": 4, "broker": {"host": "127.0.0.1"}})
del sys.modules["config"], config  # before the app is imported, as main.py boots
import pn532_emulator as E
from app import App
from casekit import LinkBoard, UID4, UID7, tag
from compat import asyncio, ticks_ms, ticks_diff

async def main():
    chips = [E.PN532() for _ in range(4)]
    app = App(LinkBoard(chips), cfg, sys.argv[1])
    await app.start_readers()
    chips[0].place(tag(UID4))
    chips[1].place(tag(UID7, miss_every=2))
    marks = [int(m) for m in sys.argv[2].split(",")]
    out = {"ms_per_cycle": 0, "events": 0}
    done = 0
    start = ticks_ms()
    for mark in marks:
        while done < mark:
            await app.scan_once()
            done += 1
        gc.collect()
        out[str(mark)] = gc.mem_alloc()
    out["ms_per_cycle"] = ticks_diff(ticks_ms(), start) / marks[-1]
    out["events"] = app.outbox.seq
    print(json.dumps(out))

asyncio.run(main())
"""

PUBLISH_SCRIPT = """
import gc, sys, json
import config
cfg = config.validate({"board": "bench", "pads": 0, "prefix": sys.argv[3],
                       "broker": {"host": "127.0.0.1", "port": int(sys.argv[2])}})
del sys.modules["config"], config  # before the app is imported, as main.py boots
from app import App
from casekit import LinkBoard, UID7
from compat import asyncio, sleep_ms, ticks_ms, ticks_diff

async def main():
    app = App(LinkBoard([]), cfg, sys.argv[1])
    runner = asyncio.create_task(app.run())
    while not app.link.connected:
        await sleep_ms(5)
    total, batch = int(sys.argv[4]), 16
    start = ticks_ms()
    for _ in range(total // batch):
        for i in range(batch):
            app.outbox.add(0, UID7, None, i)
        app.wake.set()
        while app.outbox.pending:
            await sleep_ms(1)
    elapsed = ticks_diff(ticks_ms(), start)
    runner.cancel()
    print(json.dumps({"plays": total, "ms": elapsed}))

asyncio.run(main())
"""


CYCLES = (100, 1000, 10000)
"""Section 1 reports the heap after this many scan cycles."""

HARNESS_SCRIPT = """
import gc, json
import compat, pn532, pn532_uart  # firmware: a pad board loads these anyway
gc.collect()
base = gc.mem_alloc()
import pn532_emulator as E
import casekit
chips = [E.PN532() for _ in range(4)]
ports = [E.UARTPort(c) for c in chips]
gc.collect()
print(json.dumps({"harness": gc.mem_alloc() - base}))
"""


def run_script(mp: MicroPython, text: str, *args: str, timeout: float = 600) -> dict:
    """Run ``text`` as a script from a directory of its own (a script's directory comes first
    on MicroPython's path: a stray app.py beside it in a shared /tmp would shadow ours)."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "bench_script.py"
        script.write_text(text)
        cmd = [str(MICROPYTHON), "-X", f"heapsize={HEAP}", str(script), *args]
        proc = subprocess.run(cmd, env=mp.env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode:
        raise SystemExit(f"MicroPython failed:\n{proc.stdout}\n{proc.stderr}")
    return last_json(proc.stdout)


def bench_heap_32bit() -> None:
    """Section 1 on the 32-bit MicroPython (tests/firmware/wasm32.py): a board's word size.
    That VM's heap grows on demand, so only the bytes in use (gc.mem_alloc) mean anything
    there, not a heap limit or the free heap."""
    import wasm32

    why = wasm32.missing()
    if why:
        print(f"1b. 32-bit MicroPython: not run ({why})")
        return
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "bench_script.py"
        script.write_text(SCAN_SCRIPT)
        r = last_json(wasm32.run_script(script, ",".join(map(str, CYCLES))))
    print("1b. the same on the 32-bit MicroPython (WebAssembly port, a board's word size). NOT a")
    print("    board's heap: that VM's heap grows on demand, and its gc.collect() leaves garbage")
    print("    counted (each asyncio sleep keeps ~20 B behind a JS proxy; 10,000 discarded lists")
    print("    stay in gc.mem_alloc), so its figures grow with time and bound nothing:")
    print_cycles(r, CYCLES)


def bench_heap(mp: MicroPython, runs: int, cycles: tuple[int, ...]) -> list[float]:
    cpu = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as flash:
            r = run_script(mp, SCAN_SCRIPT, flash, ",".join(map(str, cycles)))
        cpu.append(r["ms_per_cycle"])
    print("1. heap in use (bytes, after gc) under MicroPython -X heapsize=96k, 4 pads:")
    print_cycles(r, cycles)
    return cpu


def print_cycles(r: dict, cycles: tuple[int, ...]) -> None:
    """Section 1's rows: the heap in use after each count of scan cycles, and its growth."""
    for n in cycles:
        print(f"   after {n:>6,} cycles: {r[str(n)]}")
    first, last = cycles[-2:]
    print(f"   growth {first:,}->{last:,} cycles: {r[str(last)] - r[str(first)]} B;"
          f" events reported: {r['events']}")


async def model_cycle(bus: str, state: str) -> float:
    import pn532_emulator as E
    import virtual
    from scanner import Pad

    virtual.unwire()
    chip = E.PN532()
    board = virtual.pad_board([chip], E, bus=bus)
    pad = Pad(0, board.readers[0])
    await pad.start()
    if state != "empty":
        chip.place(E.Tag(b"\x04\x11\x22\x33\x44\x55\x66"))
        if state == "card lying":
            await pad.scan()
    before = chip.model_us
    await pad.scan()
    return (chip.model_us - before) / 1000


def bench_model(cpu: list[float]) -> None:
    print("2. scan-cycle time per pad, emulator timing model (ms), MaxRetries=1:")
    print(f"   {'':14}" + "".join(f"{b:>10}" for b in ("spi", "i2c", "uart")))
    for state in ("empty", "card lying", "new card"):
        row = [asyncio.run(model_cycle(bus, state)) for bus in ("spi", "i2c", "uart")]
        print(f"   {state:14}" + "".join(f"{v:10.2f}" for v in row))
    print(f"   MicroPython CPU per 4-pad cycle on this machine: median {statistics.median(cpu):.3f}"
          f" ms ({len(cpu)} runs: {', '.join(f'{c:.3f}' for c in cpu)})")


def bench_publish(mp: MicroPython, runs: int, plays: int) -> None:
    from tricktable.mqtt.broker import start_broker

    rates = []
    with start_broker(kind="mosquitto") as broker:
        for run in range(runs):
            prefix = f"bench{run}"
            host = HostSide(broker.host, broker.port, prefix)
            try:
                with tempfile.TemporaryDirectory() as flash:
                    r = run_script(mp, PUBLISH_SCRIPT, flash, str(broker.port), prefix, str(plays))
            finally:
                host.close()
            rates.append(r["plays"] / (r["ms"] / 1000))
    print("3. plays per second, MicroPython board -> mosquitto -> acking host -> outbox release:")
    print(f"   median {statistics.median(rates):.0f}/s ({runs} runs of {plays}: "
          f"{', '.join(f'{x:.0f}' for x in rates)})")


def hand_at(mp: MicroPython, broker, heap: str, run: int, sample_ms: int = 0,
            remote: bool = False) -> dict | None:
    """fwkit.play_hand against the bench's open broker, acked by a HostSide of its own."""
    prefix = f"hand{run}"
    host = HostSide(broker.host, broker.port, prefix)
    try:
        return play_hand(mp, prefix, {"host": broker.host, "port": broker.port}, heap,
                         sample_ms=sample_ms, remote=remote)
    finally:
        host.close()


def smallest_heap(mp: MicroPython, broker, remote: bool) -> int:
    """The smallest -X heapsize (KB) at which the whole hand completes (bisection)."""
    low, high = 32, 128  # fails, completes
    while high - low > 1:
        mid = (low + high) // 2
        if hand_at(mp, broker, f"{mid}k", 1000 + mid, remote=remote):
            high = mid
        else:
            low = mid
    return high


def bench_hand_heap(mp: MicroPython, hands: int, bisect: bool) -> None:
    from tricktable.mqtt.broker import start_broker

    harness = run_script(mp, HARNESS_SCRIPT)["harness"]
    with start_broker(kind="mosquitto") as broker:
        runs = [hand_at(mp, broker, HEAP, run, sample_ms=10, remote=True) for run in range(hands)]
        if None in runs:
            raise SystemExit("the hand did not complete at 96k")
        least = f"{smallest_heap(mp, broker, remote=True)}k" if bisect else "not bisected"
    peaks = [r["heap_peak"] for r in runs]
    peak = statistics.median(peaks)
    total = runs[0]["heap_total"]
    print("4. heap during a whole hand (24 plays, 4 pads, mosquitto, acking host), -X heapsize=96k,"
          " readers outside the heap as on a board:")
    print(f"   live high-water mark: median {peak:.0f} B of the {total} B the GC manages ({hands} runs: "
          f"{', '.join(map(str, peaks))})")
    print(f"   heap free at 96 KB: {total - peak:.0f} B = {100 * (total - peak) / total:.1f}%"
          " (target: at least 20%)")
    print(f"   smallest heap that completes the hand: {least} (cards wait while less than"
          f" app.HEAP_RESERVE is free); the PN532 emulator would add {harness} B")


def bench_bundle() -> None:
    from tricktable.provision.bundle import build_bundle

    bundle = build_bundle()
    mpy = [n for n in bundle.files if n.endswith(".mpy")]
    other = {n: len(d) for n, d in bundle.files.items() if not n.endswith(".mpy")}
    print(f"5. bundle (tricktable board setup): {bundle.mpy_bytes} B of .mpy in {len(mpy)} files;"
          f" {', '.join(f'{n} {b} B' for n, b in sorted(other.items()))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="one run of each part, 1,000 scan cycles, 96 plays; no 32-bit port, "
                        "no bisection")
    quick = parser.parse_args().quick
    with tempfile.TemporaryDirectory() as build:
        mp = MicroPython(build_mpy(Path(build)))
        t0 = time.monotonic()
        cpu = bench_heap(mp, runs=1 if quick else 5, cycles=CYCLES[:2] if quick else CYCLES)
        if not quick:
            bench_heap_32bit()
        bench_model(cpu)
        bench_publish(mp, runs=1 if quick else 3, plays=96 if quick else 400)
        bench_hand_heap(mp, hands=1 if quick else 3, bisect=not quick)
        bench_bundle()
        print(f"(bench took {time.monotonic() - t0:.0f} s)")


if __name__ == "__main__":
    main()

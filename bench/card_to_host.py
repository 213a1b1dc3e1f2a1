"""Card down to verdict back at the seat, per seat, line by line (issue 16); prints numbers.

Three parts, each from the best source this machine has:

* The board (poll wait, detect, read): the real firmware pad scanner and PN532 driver run
  one 4-pad board (pad i = seat i, ``--scan-ms`` between cycles; or, with ``--pads 1``, a
  board per seat), polled in the app's order (``scanner.scan_order``: the seat to play, lit
  blue by the host, after every other pad; ``--plain-order`` polls each pad once a cycle).
  The seat that plays is the seat to play, as in a game (a card out of turn waits up to a
  whole cycle, the longer one printed)
  against ``pn532_field.FieldPN532`` chips on a simulated clock. Time passes as the PN532
  emulator's timing model says (InListPassiveTarget 2.5 ms with a tag, 2 x 1 ms without;
  NTAG READ 1.9 ms on air) plus the bytes on the bus (SPI 1 MHz, I2C 400 kHz, UART 115200,
  the ports' own byte times), the driver's 1 ms waits, and ``--cpu-us`` of MicroPython time
  per command (an estimate for an RP2040, not a measurement). On I2C every command round
  trip takes at least ``--i2c-round-trip-ms`` (12 ms measured on hobby boards). Cards carry
  records (the usual deck); a card goes down at a random moment of the cycle.
* The host (MAC check, broker, host): measured here, through mosquitto and a real
  ``tricktable serve`` process, with four seats tapping a real Bid Euchre game (the load
  generator of bench/latency.py). "broker" is a publish's round trip through mosquitto
  alone; "host" is the rest of publish-to-verdict; "MAC check" is ``Registry.resolve`` of a
  record the host checks by its MAC, timed on its own (it is inside "host" as measured and
  taken out of it here).
* The radio and the board's work around it (publish, verdict, LED), a model, in the
  firmware's order (app.py ``scan_once``, ``send_loop``; "publish first, write after"): the
  event is published at once, with no flash write before it; the send loop's garbage
  collection (``--gc-ms``) runs while the verdict travels; the flash write (the pad's state,
  and the event unless acked, ``--flash-ms``, plus a 4 KB sector erase, ``--erase-ms``,
  W25Q-class flash, the whole RP2040 waiting for it, once every ``--erase-every`` writes)
  comes after the verdict, or ``--write-after-ms`` after the publish if the verdict is
  later: only then does it delay the LED, by what the round trip does not cover (the "no
  erase p99" column leaves the erase out). ``--write-first`` models the firmware before it
  (the event's append, with its erase, before the publish; the pad's state after it).
  Not modelled: a card laid on another pad during a post-verdict erase waits for it (cards
  at a table come seconds apart, the erase lasts 45 ms once in many plays);
  Wi-Fi one way each direction: with power save off 1-2.5 ms (ESP32 pings 2-5 ms, issue 16)
  and 1 % of frames retried (+2-10 ms); with power save on the board's radio sleeps between
  beacons, so the verdict waits for the next wake-up, 0-300 ms, and 5 % of the time 1-4 s
  (ESP32 pings of 100-3,978 ms and Pico W messages 5-8 s late, issue 16). LED: the event
  loop finishing the driver step it is in (0-1 ms) and the pixel write (0.1 ms).

Each seat's plays are the sums of one sample of each line; the table prints each line's p50
and p99 and, per seat and bus, card-to-verdict p50 / p99 with power save off and on, and
"board+radio": the same without the two measured lines (broker, host), whose tails are
this shared machine's load, not the table's. Goal
(issue 16): p50 <= 20 ms and p99 <= 50 ms per seat with power save off.

    .venv/bin/python bench/card_to_host.py                      # SPI, I2C, UART
    .venv/bin/python bench/card_to_host.py --bus spi --plays 5000 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "host" / "tricktable" / "firmware"), str(ROOT / "host" / "tricktable" / "sim"),
                str(ROOT / "bench")]

import paho.mqtt.client as mqtt  # noqa: E402
import pn532  # noqa: E402
import pn532_emulator as E  # noqa: E402
import scanner  # noqa: E402
import virtual  # noqa: E402
from latency import SEATS, BenchTable, Load, write_club  # noqa: E402
from pn532_field import FieldPN532  # noqa: E402
from scanner import Pad, scan_order  # noqa: E402
from tricktable.deckkit.decks import Registry, deck_slots  # noqa: E402
from tricktable.mqtt.broker import start_broker  # noqa: E402
from tricktable.mqtt.client import no_delay  # noqa: E402
from tricktable.sim.kit import Kit  # noqa: E402

SEAT_COUNT = 4


class Clock:
    """Simulated microseconds: they pass with bytes on the bus, the chip's work and sleeps."""

    def __init__(self) -> None:
        self.us = 0

    def ticks_ms(self) -> int:
        return self.us // 1000

    async def sleep_ms(self, ms: int) -> None:
        self.us += ms * 1000
        await asyncio.sleep(0)

    def install(self) -> None:
        for module in (pn532, scanner):
            module.ticks_ms = self.ticks_ms
        pn532.sleep_ms = self.sleep_ms


def timed_port(port: object, clock: Clock, names: tuple[str, ...]) -> None:
    """Make each of the port's bus operations advance the clock by the bytes it moved."""
    chip = port.chip
    for name in names:
        real = getattr(port, name)

        def op(*args: object, _real=real, name=name, **kw: object) -> object:
            before = chip.model_us
            busy = chip.ready_at
            out = _real(*args, **kw)
            moved = chip.model_us - before
            if name == "read" and isinstance(port, E.UARTPort):  # the answer's bytes arrive
                moved += len(out) * port.byte_us
            if chip.ready_at != busy:  # a command was taken: its busy time is not bus time
                moved -= chip.ready_at - clock.us - chip.late_ms * 1000
            clock.us += max(0, moved)
            return out

        setattr(port, name, op)


class BoardModel:
    """One 4-pad board on ``bus`` in simulated time; plays cards and times each stage."""

    def __init__(self, bus: str, cpu_us: int, i2c_ms: float, scan_ms: int, pads: int,
                 rng: random.Random, turn_first: bool) -> None:
        self.scan_ms = scan_ms
        self.turn_first = turn_first
        self.clock = Clock()
        self.clock.install()
        self.rng = rng
        self.chips = [FieldPN532(clock=lambda: self.clock.us) for _ in range(pads)]
        virtual.unwire()
        board = virtual.pad_board(self.chips, E, bus=bus, first_pin=500)
        for devices in virtual.BUSES.values():
            for port in devices.values() if isinstance(devices, dict) else (
                    devices if isinstance(devices, list) else [devices]):
                timed_port(port, self.clock, ("transfer",) if bus == "spi" else ("write", "read"))
        if bus == "i2c":  # a round trip of at least i2c_ms per command, answer included
            for chip in self.chips:
                chip.late_ms = max(0, int(i2c_ms) - 2)
        self.pads = [Pad(i, r, misses_to_remove=3) for i, r in enumerate(board.readers)]
        self.marks: dict[str, int] = {}
        for pad in self.pads:
            self._instrument(pad.reader, cpu_us)
        kit_uid = 0

        def card() -> E.Tag:
            nonlocal kit_uid
            kit_uid += 1
            t = E.Tag(bytes([0x04, 0x20, kit_uid >> 8, kit_uid & 0xFF, 0x10, 0x20, 0x30]),
                      kind="ntag213")
            t.write_user(b"\xfd\x0e\x01\x01\x00\x01\x1e\x00" + bytes(8))  # a record of ours
            return t

        self.card = card

    def _instrument(self, reader: pn532.PN532, cpu_us: int) -> None:
        clock, marks = self.clock, self.marks
        real_call, real_read = reader.call, reader.read16

        async def call(*args: object, **kw: object) -> bytes:
            clock.us += cpu_us
            return await real_call(*args, **kw)

        async def read16(*args: object, **kw: object) -> bytes:
            marks.setdefault("read", clock.us)
            return await real_read(*args, **kw)

        reader.call, reader.read16 = call, read16

    async def start(self) -> None:
        """Start the readers and time an idle scan cycle (cards go down at random in one)."""
        for pad in self.pads:
            assert await pad.start(), "reader starts"
        start = self.clock.us
        for _ in range(5):
            for i in self.order(0):
                await self.pads[i].scan()
            await self.clock.sleep_ms(self.scan_ms)
        self.cycle_us = (self.clock.us - start) // 5

    def order(self, seat: int) -> list[int]:
        """The app's scan order with ``seat`` to play (lit blue by the host), or plain."""
        lights = [("blue" if i == seat and self.turn_first else "off",) for i in
                  range(len(self.pads))]
        return scan_order(list(range(len(self.pads))), lights)

    async def play(self, seat: int) -> tuple[float, float, float]:
        """One card down on ``seat``'s pad at a random moment: (poll wait, detect, read) ms."""
        clock = self.clock
        down_at = None
        due = clock.us + int(self.rng.uniform(0, self.cycle_us))
        order = self.order(seat)
        while True:
            for i in order:
                pad = self.pads[i]
                if down_at is None and clock.us >= due:
                    self.chips[seat].place(self.card())
                    down_at = due
                started = clock.us
                self.marks.clear()
                hit = await pad.scan()
                if i == seat and hit is not None and hit.__class__ is not str:
                    read_at = self.marks["read"]
                    result = ((started - down_at) / 1000, (read_at - started) / 1000,
                              (clock.us - read_at) / 1000)
                    await self._clear(seat)
                    return result
            await clock.sleep_ms(self.scan_ms)

    async def _clear(self, seat: int) -> None:
        self.chips[seat].remove()
        while self.pads[seat].present is not None:
            for i in self.order(seat):
                await self.pads[i].scan()
            await self.clock.sleep_ms(self.scan_ms)


def board_samples(bus: str, plays: int, cpu_us: int, i2c_ms: float, scan_ms: int, pads: int,
                  rng: random.Random, turn_first: bool = True,
                  ) -> tuple[dict[int, list[tuple[float, float, float]]], float]:
    """Per seat, (poll wait, detect, read) of ``plays`` cards: seat i is pad i of one board
    (``pads`` 4), or each seat has a board of its own (``pads`` 1, all alike). With
    ``turn_first`` the seat playing is the one the host lit blue (a game's plays in turn).
    Also the idle scan cycle in ms."""
    model = BoardModel(bus, cpu_us, i2c_ms, scan_ms, pads, rng, turn_first)

    async def run() -> dict[int, list[tuple[float, float, float]]]:
        await model.start()
        out: dict[int, list[tuple[float, float, float]]] = defaultdict(list)
        for n in range(plays):
            seat = n % SEAT_COUNT
            out[seat].append(await model.play(seat % pads))
        return out

    return asyncio.run(run()), model.cycle_us / 1000


class SeatLoad(Load):
    """bench/latency.py's load, keeping each verdict's seat."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)
        self.by_seat: dict[str, list[float]] = defaultdict(list)
        self.seat_lock = threading.Lock()

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        with self.seat_lock:
            before = len(self.latencies)
            super()._on_message(client, userdata, msg)
            if len(self.latencies) > before:
                self.by_seat[msg.topic.split("/")[-2].split("-")[-1]].append(self.latencies[-1])


def broker_round_trips(port: int, n: int = 300) -> list[float]:
    """Seconds for a QoS 1 publish to come back through mosquitto to its own subscriber."""
    got = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-ping")
    client.on_socket_open = no_delay
    client.on_message = lambda *_: got.set()
    client.connect("127.0.0.1", port)
    client.loop_start()
    client.subscribe("bench/ping", qos=1)
    time.sleep(0.3)
    out = []
    for _ in range(n):
        got.clear()
        start = time.perf_counter()
        client.publish("bench/ping", b'{"v":1}', qos=1)
        if got.wait(2):
            out.append(time.perf_counter() - start)
        time.sleep(0.01)
    client.loop_stop()
    client.disconnect()
    return out


def mac_check_seconds(n: int = 2000) -> list[float]:
    """``Registry.resolve`` of a tag the host knows by its record's MAC (a visiting deck)."""
    with tempfile.TemporaryDirectory() as work:
        with Registry(Path(work) / "decks.sqlite") as home:
            kit = Kit.enroll(home, 3, [s.name for s in deck_slots("24")], 1, 2)
            key = (home.club_key(), home.keys()[home.club_key()])
        with Registry(Path(work) / "visitor.sqlite") as visitor:
            visitor.add_key(*key)
            tags = list(kit.cards.values())
            out = []
            for i in range(n):
                tag = tags[i % len(tags)]
                start = time.perf_counter()
                visitor.resolve(tag.uid, tag.record)
                out.append(time.perf_counter() - start)
    return out


def host_samples(seconds: float, think: float) -> tuple[dict[str, list[float]], list[float]]:
    """Publish-to-verdict per seat through a real host, and broker round trips, in seconds."""
    import subprocess

    with tempfile.TemporaryDirectory(prefix="tt-c2h-") as name:
        work = Path(name)
        tables = 2
        registry = Registry(work / "decks.sqlite")
        names = [slot.name for slot in deck_slots("24")]
        kits = [Kit.enroll(registry, i, names, 1 + i, 1000 + i) for i in range(tables)]
        registry.close()
        rng = random.Random(16)
        bench_tables = [BenchTable(i, kits[i], rng) for i in range(tables)]
        write_club(work / "club.toml", tables)
        broker = start_broker("mosquitto")
        host = load = None
        try:
            pings = broker_round_trips(broker.port)
            host = subprocess.Popen(
                [sys.executable, "-c", "from tricktable.cli import main; main()", "serve",
                 "--club", str(work / "club.toml"), "--broker", broker.url,
                 "--journal", str(work / "journal.sqlite"), "--registry",
                 str(work / "decks.sqlite"), "--client-id", "c2h-host"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            load = SeatLoad(broker.port, bench_tables, think)
            load.subscribe()
            threading.Thread(target=load.run, daemon=True).start()
            time.sleep(1.0)
            load.recording = True
            time.sleep(seconds)
            load.recording = False
        finally:
            if load is not None:
                load.close()
            if host is not None:
                host.terminate()
                host.wait(10)
            broker.stop()
    return dict(load.by_seat), pings


def wifi_one_way(rng: random.Random, power_save: bool, downlink: bool) -> float:
    """Milliseconds for one MQTT packet over the board's Wi-Fi (the model in the docstring)."""
    ms = rng.uniform(1.0, 2.5)
    if rng.random() < 0.01:
        ms += rng.uniform(2, 10)
    if power_save and downlink:
        ms += rng.uniform(1000, 4000) if rng.random() < 0.05 else rng.uniform(0, 300)
    elif power_save:
        ms += rng.uniform(0.5, 3)  # the radio wakes to send
    return ms


def board_busy(args: argparse.Namespace, trip: float, erase: float) -> float:
    """How long the verdict, back after ``trip`` ms, waits for the board's own work."""
    if args.write_first:  # the pad's state and the gc after the publish
        return max(0.0, args.flash_ms + args.gc_ms - trip)
    busy = max(0.0, args.gc_ms - trip)  # the send loop's gc while the verdict travels
    if trip > args.write_after_ms:  # a late verdict: the write began at the deadline
        write_end = max(args.gc_ms, args.write_after_ms) + args.flash_ms + erase
        busy = max(busy, write_end - trip)
    return busy


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bus", nargs="*", default=["spi", "i2c", "uart"])
    parser.add_argument("--plays", type=int, default=4000, help="simulated plays per bus")
    parser.add_argument("--seconds", type=float, default=15.0, help="host measured this long")
    parser.add_argument("--think", type=float, default=0.05)
    parser.add_argument("--scan-ms", type=int, default=5,
                        help="the board's pause between scan cycles (config.json scan_ms)")
    parser.add_argument("--pads", type=int, choices=(1, 2, 4), default=4,
                        help="pads per board: 4 = the four seats on one board, in scan order")
    parser.add_argument("--plain-order", action="store_true",
                        help="poll the pads in turn only (not the seat to play more often)")
    parser.add_argument("--cpu-us", type=int, default=300, help="MicroPython time per command")
    parser.add_argument("--i2c-round-trip-ms", type=float, default=12.0)
    parser.add_argument("--flash-ms", type=float, default=1.0,
                        help="one outbox append (the event before the publish, the pad's "
                        "state after it)")
    parser.add_argument("--erase-ms", type=float, default=45.0)
    parser.add_argument("--erase-every", type=int, default=28,
                        help="flash writes per 4 KB sector erase (an event line is about 145 "
                        "bytes; with write after, most plays write only a pad state of 25)")
    parser.add_argument("--write-after-ms", type=float, default=50.0,
                        help="the firmware's app._WRITE_AFTER_MS: a late verdict's deadline")
    parser.add_argument("--write-first", action="store_true",
                        help="the firmware before write after: the event on flash, then published")
    parser.add_argument("--gc-ms", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    print(f"host: mosquitto + tricktable serve, 2 tables x 4 seats, {args.seconds:.0f} s ...",
          flush=True)
    by_seat, pings = host_samples(args.seconds, args.think)
    macs = mac_check_seconds()
    broker_ms = [p * 1000 for p in pings]
    mac_ms = statistics.median(macs) * 1000
    host_ms = {seat: [max(0.0, s * 1000 - rng.choice(broker_ms) - mac_ms) for s in samples]
               for seat, samples in by_seat.items()}
    print(f"  {sum(len(v) for v in by_seat.values())} verdicts, {len(pings)} broker pings, "
          f"MAC check p50 {mac_ms:.3f} ms")

    for bus in args.bus:
        boards, cycle_ms = board_samples(bus, args.plays, args.cpu_us, args.i2c_round_trip_ms,
                               args.scan_ms, args.pads, rng, not args.plain_order)
        shape = "one 4-pad board" if args.pads == 4 else f"a {args.pads}-pad board per seat"
        polls = len(scan_order(list(range(args.pads)), [("blue",)] * args.pads)) \
            if not args.plain_order else args.pads
        print(f"\n{bus.upper()}: {args.plays} simulated plays, {shape} "
              f"(scan_ms {args.scan_ms}, {args.cpu_us} us CPU per command, "
              f"{'plain order' if args.plain_order else 'the seat to play polled more often'})")
        print(f"  idle scan cycle {cycle_ms:.1f} ms: {polls} polls, {1000 * polls / cycle_ms:.0f}"
              f" polls/s, polling {100 * (cycle_ms - args.scan_ms) / cycle_ms:.0f} % of the"
              f" time, {polls * args.cpu_us / cycle_ms / 10:.1f} % CPU in the driver")
        lines: dict[str, list[float]] = defaultdict(list)
        totals: dict[tuple[int, bool | str | None], list[float]] = defaultdict(list)
        for seat, plays in sorted(boards.items()):
            measured = host_ms[SEATS[seat]]
            for wait, detect, read in plays:
                erase = args.erase_ms if rng.randrange(args.erase_every) == 0 else 0.0
                publish = args.flash_ms + erase if args.write_first else 0.0
                broker = rng.choice(broker_ms)
                host = rng.choice(measured)
                parts = {"poll wait": wait, "detect": detect, "read": read, "MAC check": mac_ms,
                         "publish (flash)": publish, "broker": broker, "host": host}
                board_and_host = sum(parts.values())
                for power_save in (False, True):
                    up = wifi_one_way(rng, power_save, downlink=False)
                    down = wifi_one_way(rng, power_save, downlink=True)
                    trip = up + broker + host + down
                    busy = board_busy(args, trip, erase)
                    led = busy + rng.uniform(0, 1) + 0.1
                    total = board_and_host + up + down + led
                    totals[(seat, power_save)].append(total)
                    if not power_save:
                        clean = total - busy + board_busy(args, trip, 0.0)
                        totals[(seat, None)].append(clean - (erase if args.write_first else 0.0))
                        totals[(seat, "board")].append(total - broker - host)
                        totals[(seat, "clean board")].append(totals[(seat, None)][-1] - broker - host)
                        parts["Wi-Fi up"], parts["verdict (Wi-Fi down)"] = up, down
                        parts["LED"] = led
                    else:
                        lines["Wi-Fi up, power save on"].append(up)
                        lines["verdict (Wi-Fi down), power save on"].append(down)
                for key, value in parts.items():
                    lines[key].append(value)
        print(f"  {'line (all seats)':<38} {'p50 ms':>8} {'p99 ms':>8}")
        order = ("poll wait", "detect", "read", "MAC check", "publish (flash)", "Wi-Fi up",
                 "broker", "host", "verdict (Wi-Fi down)", "LED", "Wi-Fi up, power save on",
                 "verdict (Wi-Fi down), power save on")
        for key in order:
            print(f"  {key:<38} {statistics.median(lines[key]):>8.2f} {pct(lines[key], 0.99):>8.2f}")
        print(f"  {'seat':<6} {'PS off p50':>11} {'p99':>8} {'no erase p99':>13}"
              f" {'PS on p50':>11} {'p99':>8}   {'board+radio p50':>15} {'p99':>6}"
              f" {'no erase p99':>13}")
        for seat in range(SEAT_COUNT):
            off, on, clean = totals[(seat, False)], totals[(seat, True)], totals[(seat, None)]
            print(f"  {SEATS[seat]:<6} {statistics.median(off):>11.1f} {pct(off, 0.99):>8.1f}"
                  f" {pct(clean, 0.99):>13.1f} {statistics.median(on):>11.1f}"
                  f" {pct(on, 0.99):>8.1f}   {statistics.median(totals[(seat, 'board')]):>15.1f}"
                  f" {pct(totals[(seat, 'board')], 0.99):>6.1f}"
                  f" {pct(totals[(seat, 'clean board')], 0.99):>13.1f}")


if __name__ == "__main__":
    main()

"""Misreads under injected faults: wrong cards accepted (must be 0), plays retried and refused.

Each play is a card placed on one pad: the real firmware pad scanner and PN532 driver (CPython,
UART transport) read it from ``pn532_field.FieldPN532`` (several tags in the field,
anticollision, faults), and the host's real deck registry (SQLite, club key, MACs) says what
it is, as ``Registry.resolve`` does for the table. Three kinds of tags, a third of the plays
each: enrolled here with a record, enrolled here without one (registry only), and a visiting
deck not enrolled here whose record the club key checks. A seat shown "read again" (the pad's
own light, or the host's ``misread`` / refused record) places the card again, up to three
times. Faults per play, each drawn at random (``--seed``):

* air bit errors: 1-8 flipped bits in a tag's answer + CRC_A (the chip checks CRC_A);
* bus bit errors: 1-4 flipped bits in an answer frame on the wire (the driver checks the
  frame checksums and asks again);
* corruption past the checksums, injected on purpose at a rate far above nature's so the
  last guards are exercised: a flip pattern CRC_A cannot see (an air error pattern that is
  itself a CRC_A codeword), or two flips that cancel in the frame checksum inside the UID of
  the poll's answer;
* the tag leaving the field during the READ; a short READ;
* a stacked card: the card is laid on another card lying on the pad (already played); the
  player then takes the old one away. Any report while both lie there is a phantom play.

Prints the plays, how many were accepted right at once, retried (a read failed and was done
again before the card was reported), refused (the seat was asked to place the card again),
never accepted after three placements, phantom plays and wrong cards accepted (both must be
0), and the plays per second.

    .venv/bin/python bench/misreads.py                      # 100,000 plays
    .venv/bin/python bench/misreads.py --plays 20000 --fault-rate 0.5
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "host" / "tricktable" / "firmware"), str(ROOT / "host" / "tricktable" / "sim")]

import pn532  # noqa: E402
import pn532_emulator as E  # noqa: E402
import scanner  # noqa: E402
from pn532 import PN532  # noqa: E402
from pn532_field import FieldPN532, crc_a  # noqa: E402
from pn532_uart import UARTTransport  # noqa: E402
from scanner import READ_TRIES, Pad  # noqa: E402
from tricktable.cards import format_card  # noqa: E402
from tricktable.deckkit import tags  # noqa: E402
from tricktable.deckkit.decks import BadRecord, Registry, UnknownTag, deck_slots  # noqa: E402
from tricktable.sim.kit import Kit  # noqa: E402

PLACEMENTS = 3  # a seat places a card at most this often before giving up
SCANS = 8  # scans of one placement before the player decides nothing happened
POLL_UID_AT = 13 * 8  # first bit of the UID in the InListPassiveTarget answer frame
VISITING_DECK = 7


class SimulatedClock:
    """Milliseconds that pass only when the firmware sleeps: a wait for a frame that never
    comes (a garbled length on the UART) costs its whole budget without costing the bench
    real time. Put in place of compat's clock in the driver and the scanner."""

    def __init__(self) -> None:
        self.now = 0

    def ticks_ms(self) -> int:
        return self.now

    async def sleep_ms(self, ms: int) -> None:
        self.now += max(1, ms)
        await asyncio.sleep(0)

    def install(self) -> None:
        for module in (pn532, scanner):
            module.ticks_ms = self.ticks_ms
        pn532.sleep_ms = self.sleep_ms


class Card:
    """A physical card: its tag as the emulator holds it, and what it truly is."""

    def __init__(self, uid: bytes, record: bytes | None, name: str) -> None:
        self.uid, self.name = uid, name
        self.tag = E.Tag(uid, kind="ntag213")
        if record is not None:
            self.tag.write_user(record + tags.TERMINATOR_PAGE)


def cards(registry: Registry) -> list[Card]:
    """One 24-card deck three ways: enrolled with records, enrolled without, visiting."""
    names = [slot.name for slot in deck_slots("24")]
    kit = Kit.enroll(registry, 1, names, card_deck=1, token_deck=2)
    key_id = registry.club_key()
    key = registry.keys()[key_id]
    out = []
    for name, tag in kit.cards.items():
        out.append(Card(tag.uid, tag.record, name))
        out.append(Card(tag.uid, None, name))  # the same tags, read for their UID only
        slot = next(s for s in deck_slots("24") if s.name == name)
        uid = bytes([0x04, 0x77, VISITING_DECK, slot.code, slot.copy, 0x5A, 0xA5])
        record = tags.encode(tags.TagRecord(VISITING_DECK, slot.code, slot.copy, key_id), uid, key)
        out.append(Card(uid, record, name))
    return out


def invisible_air_error(rng: random.Random, length: int) -> list[int]:
    """Bit positions of an error on answer + CRC_A that CRC_A cannot see (a codeword)."""
    data = bytes(rng.getrandbits(8) for _ in range(length))
    check = bytes(a ^ b for a, b in zip(crc_a(data), crc_a(bytes(length)), strict=True))
    pattern = data + check
    return [i for i in range(len(pattern) * 8) if pattern[i // 8] >> (i % 8) & 1]


def cancelling_uid_flips(rng: random.Random, uid: bytes) -> list[int] | None:
    """Two flips in the poll answer's UID that leave the frame checksum as it was, or None."""
    for _ in range(20):
        i, j = rng.sample(range(len(uid)), 2)
        bit = rng.randrange(8)
        if (uid[i] >> bit & 1) == 0 and (uid[j] >> bit & 1) == 1:
            return [POLL_UID_AT + 8 * i + bit, POLL_UID_AT + 8 * j + bit]
    return None


class Bench:
    def __init__(self, registry: Registry, deck: list[Card], rng: random.Random,
                 rate: float) -> None:
        self.registry, self.deck, self.rng, self.rate = registry, deck, rng, rate
        self.chip = FieldPN532()
        self.reader = PN532(UARTTransport(E.UARTPort(self.chip)), reset=self.chip.set_reset)
        self.count: Counter[str] = Counter()
        self.faults: Counter[str] = Counter()

    def new_pad(self) -> Pad:
        return Pad(0, self.reader, misses_to_remove=2)

    def inject(self, card: Card) -> None:
        """Draw this placement's faults."""
        rng, chip = self.rng, self.chip
        if rng.random() < self.rate:
            chip.inject("air", rng.sample(range(18 * 8), rng.randint(1, 8)))
            self.faults["air bit errors"] += 1
        if rng.random() < self.rate:
            for _ in range(rng.randint(1, 3)):
                chip.inject("bus", rng.sample(range(20 * 8), rng.randint(1, 4)))
            self.faults["bus bit errors"] += 1
        if rng.random() < self.rate / 10:
            chip.inject("air", invisible_air_error(rng, 16))
            self.faults["air error CRC_A cannot see (injected)"] += 1
        if rng.random() < self.rate / 10:
            flips = cancelling_uid_flips(rng, card.uid)
            if flips:
                chip.inject("bus", flips)
                self.faults["UID flips the frame checksum cannot see (injected)"] += 1
        if rng.random() < self.rate / 4:
            chip.inject("leave")
            self.faults["tag left mid-read"] += 1
        if rng.random() < self.rate / 4:
            chip.inject("short", rng.randrange(16))
            self.faults["short READ"] += 1

    def verdict(self, card: Card, uid: bytes, record: bytes | None) -> str:
        """What the host says: "right", "wrong" or "refused"."""
        try:
            found = self.registry.resolve(uid, record)
        except (UnknownTag, BadRecord) as exc:
            self.count[f"  host refused: {type(exc).__name__}"] += 1
            return "refused"
        if found.card is None:
            return "wrong"
        return "right" if format_card(found.card, found.copy) == card.name else "wrong"

    async def play(self, card: Card) -> None:
        chip, pad = self.chip, self.new_pad()
        chip.remove()
        chip.air_faults.clear()
        chip.bus_faults.clear()
        under = None
        if self.rng.random() < self.rate / 4:  # laid on a card already lying there, played
            under = self.rng.choice([c for c in self.deck if c.uid != card.uid])
            chip.place(under.tag)
            pad.present = under.uid
            self.faults["stacked on a played card"] += 1
        retried = refused = False
        for _ in range(PLACEMENTS):
            self.inject(card)
            chip.stack(card.tag)
            reads = pad.failed_reads
            for scan in range(SCANS):
                if under is not None and scan == 3:
                    chip.lift(under.tag)  # the player takes the old card away
                    under = None
                got = await pad.scan()
                if pad.failed_reads != reads:
                    retried = True
                if got is None or got == "stacked":
                    continue
                if under is not None:
                    self.count["phantom plays"] += 1
                if got == "read_again":
                    self.count["  pad said read again"] += 1
                    refused = True
                    break
                said = self.verdict(card, got[0], got[1])
                if said == "refused":
                    refused = True
                    break
                self.count["wrong cards accepted" if said == "wrong" else "accepted right"] += 1
                self.count["  of which retried"] += retried
                self.count["  of which refused first"] += refused
                self.count["  at once"] += not (retried or refused)
                return
            chip.remove()  # the card is lifted, to be placed again
            under = None
            retried = True
            pad = self.new_pad()
        self.count["never accepted (3 placements)"] += 1


async def run(args: argparse.Namespace) -> None:
    clock = SimulatedClock()
    clock.install()
    registry = Registry(":memory:")
    deck = cards(registry)
    rng = random.Random(args.seed)
    bench = Bench(registry, deck, rng, args.fault_rate)
    await bench.reader.begin()
    start = time.perf_counter()
    for _ in range(args.plays):
        await bench.play(rng.choice(deck))
    took = time.perf_counter() - start
    print(f"{args.plays} plays, fault rate {args.fault_rate} per kind per placement, "
          f"seed {args.seed}, pad gives up after {READ_TRIES} failed reads; {took:.0f} s, "
          f"{args.plays / took:.0f} plays/s; the firmware waited {clock.now / 1000:.0f} s of "
          "simulated time for answers that did not come")
    print("faults injected (placements):")
    for kind, n in sorted(bench.faults.items()):
        print(f"  {kind:<52} {n:>8}")
    c = bench.count
    print("outcome:")
    for key in ("accepted right", "  at once", "  of which retried", "  of which refused first",
                "never accepted (3 placements)", "phantom plays", "wrong cards accepted"):
        print(f"  {key:<52} {c[key]:>8}")
    print("refusals (each a seat asked to place the card again):")
    for key in sorted(k for k in c if k.startswith("  host") or k.startswith("  pad")):
        print(f"  {key:<52} {c[key]:>8}")
    registry.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=100_000)
    parser.add_argument("--fault-rate", type=float, default=0.2,
                        help="chance per placement of each fault kind (rarer kinds a fraction)")
    parser.add_argument("--seed", type=int, default=16)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()

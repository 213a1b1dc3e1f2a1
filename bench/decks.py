"""Deck numbers: how fast a tag resolves, and how fast a deck enrolls at a USB reader.

* ``resolve``: ``Registry.resolve`` per pad event, for an enrolled UID (registry lookup) and
  for an unknown UID carrying a valid record (MAC check), on a registry file holding 40
  enrolled decks; microseconds per call.
* ``enroll``: seconds to enroll a 24-card deck through the PN532 emulator on a
  pseudo-terminal (real pyserial and Adafruit PN532_UART), the tags placed as soon as the
  session asks: the host-side cost of an enrollment, without the human. The emulator
  answers at once, so this is the serial/driver overhead (a real PN532 adds about 6 ms of
  RF time per card for the five page writes).

Prints the median of several runs; the machine is shared, so expect noise.

    .venv/bin/python bench/decks.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from tricktable.deckkit import decks
from tricktable.deckkit.enroll import UsbReader, enroll_deck
from tricktable.sim.pn532_emulator import Tag
from tricktable.sim.pn532_serial import SerialPN532


def _uid(deck: int, i: int) -> bytes:
    return bytes([0x04, deck >> 8, deck & 0xFF, i, 0x00, 0xA5, 0x5A])


def bench_resolve(path: Path, calls: int = 20000) -> tuple[float, float]:
    """(us per registry hit, us per record-only resolve) on a registry of 40 decks."""
    with decks.Registry(path) as reg:
        for deck_id in range(1, 41):
            reg.create_deck(deck_id, "24")
            for i, slot in enumerate(decks.deck_slots("24")):
                reg.enroll(_uid(deck_id, i), deck_id, slot)
        known = [_uid(1 + n % 40, n % 24) for n in range(calls)]
        start = time.perf_counter()
        for uid in known:
            reg.resolve(uid)
        hit = (time.perf_counter() - start) / calls * 1e6
        uid = _uid(7, 3)
        record = reg.record_for(uid)
        reg.unenroll(uid)
        start = time.perf_counter()
        for _ in range(calls):
            reg.resolve(uid, record)
        via_record = (time.perf_counter() - start) / calls * 1e6
    return hit, via_record


class _Hand:
    """Puts the next tag on the reader whenever the session asks for a card."""

    def __init__(self, device: SerialPN532, tags: list[Tag]) -> None:
        self.device, self.tags = device, list(tags)

    def next_card(self, slot: object, done: int, total: int) -> None:
        self.device.place(self.tags.pop(0))

    def done_card(self, slot: object, uid: bytes) -> None:
        pass

    def problem(self, message: str) -> None:
        raise RuntimeError(message)

    def choose(self, question: str, choices: dict[str, str]) -> str:
        raise RuntimeError(question)


def bench_enroll(path: Path, deck_id: int) -> float:
    """Seconds to enroll 24 cards through the emulator on a pty."""
    with SerialPN532() as device, decks.Registry(path) as reg:
        reader = UsbReader.open(device.port)
        hand = _Hand(device, [Tag(_uid(deck_id + 100, i)) for i in range(24)])
        start = time.perf_counter()
        result = enroll_deck(reg, reader, deck_id, "24", hand, tap_timeout=5)
        seconds = time.perf_counter() - start
        reader.close()
    assert result.complete
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        resolves = [bench_resolve(Path(tmp) / f"r{n}.sqlite") for n in range(args.runs)]
        enrolls = [bench_enroll(Path(tmp) / "e.sqlite", 200 + n) for n in range(args.runs)]
    print(f"resolve, enrolled UID:      {statistics.median(r[0] for r in resolves):7.1f} us/call")
    print(f"resolve, by record (MAC):   {statistics.median(r[1] for r in resolves):7.1f} us/call")
    seconds = statistics.median(enrolls)
    print(f"enroll 24 cards via pty:    {seconds:7.2f} s  ({seconds / 24 * 1000:.0f} ms/card)")


if __name__ == "__main__":
    main()

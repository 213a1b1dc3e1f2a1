"""Cases: the pad scanner's presence and debounce rules (issue 5, item 3)."""

import pn532_emulator as E
from casekit import UID4, UID7, check, reader, tag
from scanner import Pad, scan_order


async def pad_on(bus="spi", misses=3):
    chip, pn = reader(bus)
    pad = Pad(0, pn, misses_to_remove=misses)
    check(await pad.start(), "reader starts")
    return chip, pad


async def scans(pad, n):
    hits = []
    for _ in range(n):
        hit = await pad.scan()
        if hit is not None:
            hits.append(hit)
    return hits


async def case_a_card_placed_is_reported_once_while_it_lies(tmp):
    chip, pad = await pad_on()
    t = tag(UID4)
    t.write_user(b"R" * 16)
    chip.place(t)
    hits = await scans(pad, 20)
    check(hits == [(UID4, b"R" * 16)], f"one report, with the 16-byte record: {hits!r}")


async def case_a_7_byte_tag_vanishing_on_alternate_polls_is_not_removed(tmp):
    chip, pad = await pad_on()
    chip.place(tag(UID7, miss_every=2))
    hits = await scans(pad, 30)
    check(len(hits) == 1 and pad.present == UID7, "still one placement after 30 polls")


async def case_removal_needs_n_misses_and_the_same_card_again_is_new(tmp):
    chip, pad = await pad_on(misses=3)
    t = tag(UID7)
    chip.place(t)
    await scans(pad, 2)
    chip.remove()
    await scans(pad, 2)
    check(pad.present == UID7, "two misses are not yet a removal")
    await scans(pad, 1)
    check(pad.present is None and pad.changed, "the third miss in a row is")
    chip.place(t)
    check(len(await scans(pad, 3)) == 1, "the same card placed again is a new placement")


async def case_a_hand_is_scanned_by_tapping_cards_one_by_one(tmp):
    chip, pad = await pad_on(misses=2)
    uids = [bytes([0x04, i, 2, 3, 4, 5, 6]) for i in range(6)]
    seen = []
    for uid in uids:
        chip.place(tag(uid, miss_every=2))
        seen += [hit[0] for hit in await scans(pad, 3)]
        chip.remove()
        await scans(pad, 3)
    check(seen == uids, "each tapped card reported once, in order")


async def case_a_reader_that_keeps_failing_is_reset(tmp):
    chip, pad = await pad_on()
    chip.place(tag(UID4))
    chip.hang()
    await scans(pad, 3)
    check(pad.reader.resets == 1, "3 failed polls, no reset yet")
    await scans(pad, 1)
    check(pad.reader.resets == 2 and not chip.hung, "the scan after 3 failed polls resets it")
    check(await scans(pad, 1) == [(UID4, bytes(16))], "and reading again")


def case_the_seat_to_play_is_polled_after_every_other_pad(tmp):
    # docs/cardpath.md, "The seat to play first": the host lights the seat to play blue.
    lit = [("off", "solid", None)] * 4
    check(scan_order([0, 1, 2, 3], lit) == [0, 1, 2, 3], "nobody to play: each pad once")
    lit[2] = ("blue", "solid", None)
    check(scan_order([0, 1, 2, 3], lit) == [2, 0, 2, 1, 2, 3], "pad 2 between every other pad")
    check(scan_order([0, 1, 3], lit) == [0, 1, 3], "a disabled pad lit blue is not polled")
    check(scan_order([1, 2], lit) == [1, 2], "two pads alternate already")


class Phone(E.Tag):
    """A phone (or any card not an NTAG) on a pad: ISO/IEC 14443-3 random UIDs, a new one
    each time it is selected (first byte 08), and no answer to NTAG commands."""

    def __init__(self):
        super().__init__(b"\x08\x00\x00\x01")
        self.n = 0

    def new_session(self):
        super().new_session()
        self.n += 1
        self.uid = bytes([0x08, self.n >> 16 & 0xFF, self.n >> 8 & 0xFF, self.n & 0xFF])

    def command(self, cmd):
        return self._nak() + (100,)


async def case_a_phone_on_a_pad_is_one_signal_while_it_lies(tmp):
    """docs/cardpath.md, "What the seat sees": a card that cannot be read asks once to be
    read again, however many polls it lies through, even with a new UID at every poll."""
    chip, pad = await pad_on()
    chip.place(Phone())
    signals = []
    changes = 0
    for _ in range(1000):
        hit = await pad.scan()
        if hit is not None:
            signals.append(hit)
        changes += pad.changed
    check(signals == ["read_again"], f"one signal in 1000 polls, got {len(signals)}")
    check(changes == 1, f"the pad's state written once, not {changes} times")
    chip.remove()
    await scans(pad, 3)
    check(pad.present is None, "gone once no card answers")
    chip.place(tag(UID4))
    check(await scans(pad, 3) == [(UID4, bytes(16))], "the next card is played")

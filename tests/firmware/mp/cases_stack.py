"""Cases: one pad with stacked cards and misreads, and its IRQ line (issue 16; docs/cardpath.md).

A card laid on a played card is no play and the seat is asked for one card at a time
("Stacked cards"); a corrupt or partial read is read again or refused with "read again",
never reported as another card ("Misreads"). Cards and faults come from pn532_field's
FieldPN532 (several tags in the field, anticollision, injected faults).
"""

import pn532_emulator as E
from casekit import UID7, check, reader, tag
from compat import ticks_us
from pn532_field import FieldPN532
from scanner import Pad

LOW = b"\x04\x10\x22\x33\x44\x55\x66"  # loses anticollision to UID7 (04 11 ...: bit 0 of byte 1)


def with_record(uid, text=b"RECORD-16-BYTES!"):
    """A tag whose record starts like ours (FD 0E): its MAC is for the host to check."""
    t = tag(uid)
    t.write_user(b"\xfd\x0e" + text[2:])
    return t


def field_pad(misses=2):
    """A pad on a FieldPN532 (several tags in the field) on SPI."""
    chip = FieldPN532()
    _, pn = reader("spi", chip=chip)
    return chip, Pad(0, pn, misses_to_remove=misses)


async def scans(pad, n):
    """What n scans returned, None left out."""
    out = []
    for _ in range(n):
        got = await pad.scan()
        if got is not None:
            out.append(got)
    return out


async def case_anticollision_reports_the_same_one_tag_of_a_stack(tmp):
    """Stacked cards: asked for one target, the PN532 reports the tag whose UID wins the
    bitwise anticollision (the first differing bit sent, 1 wins), every time."""
    chip = FieldPN532()
    _, pn = reader("spi", chip=chip)
    await pn.begin()
    chip.place(tag(LOW))
    chip.stack(tag(UID7))
    seen = []
    for _ in range(3):
        seen.append(await pn.poll())
    check(seen == [UID7] * 3, "UID7 wins over LOW each poll")
    check(await pn.poll(None, LOW) == LOW, "selected by its UID, the other tag still answers")


async def case_a_card_laid_on_the_played_card_is_no_play(tmp):
    """Stacked cards: the new card wins the anticollision: the pad says "stacked" and
    reports nothing; lifted again, the played card is still the one lying there."""
    chip, pad = field_pad()
    check(await pad.start(), "reader starts")
    played, top = with_record(LOW), with_record(UID7)
    chip.place(played)
    check([h[0] for h in await scans(pad, 3)] == [LOW], "the played card, once")
    chip.stack(top)
    check(await scans(pad, 5) == ["stacked"] * 5, "each scan asks for one card at a time")
    chip.lift(top)
    check(await scans(pad, 5) == [] and pad.present == LOW, "no phantom play: LOW lies alone")


async def case_the_card_left_alone_of_a_stack_is_played_once(tmp):
    """Stacked cards: whichever tag wins, the card left when the other is lifted is
    played once, and the one lifted never is."""
    for first, second in ((LOW, UID7), (UID7, LOW)):
        chip, pad = field_pad()
        await pad.start()
        a, b = with_record(first), with_record(second)
        chip.place(a)
        await scans(pad, 2)
        chip.stack(b)
        hidden = await scans(pad, 4)
        check(all(h == "stacked" for h in hidden), f"nothing played while stacked: {hidden!r}")
        chip.lift(a)
        plays = [h[0] for h in await scans(pad, 6) if h.__class__ is not str]
        check(plays == [second], f"{second.hex()} played once after {first.hex()} left: {plays}")


async def case_a_crc_error_or_short_read_is_read_again(tmp):
    """Misreads: a READ that fails its CRC_A (status 02) or comes back short is read again
    at the next scan; the card is reported once, with its true record."""
    for fault, arg in (("air", [3]), ("short", 9), ("bus", [100])):
        chip, pad = field_pad()
        await pad.start()
        t = with_record(UID7)
        chip.inject(fault, arg)
        chip.place(t)
        got = await scans(pad, 4)
        check(got == [(UID7, t.user_bytes()[:16])], f"{fault}: read again, right card: {got!r}")


async def case_a_tag_leaving_mid_read_is_no_card(tmp):
    """Misreads: the tag leaves the field during the READ: nothing is reported; placed
    again it is read as usual."""
    chip, pad = field_pad()
    await pad.start()
    t = with_record(UID7)
    chip.inject("leave")
    chip.place(t)
    check(await scans(pad, 4) == [], "no card from a read cut short")
    chip.place(t)
    check([h[0] for h in await scans(pad, 2)] == [UID7], "placed again: read")


async def case_a_card_that_cannot_be_read_asks_to_be_read_again(tmp):
    """Misreads: after READ_TRIES failed reads the pad says "read_again" once, reads the
    lying card no more, and reads it when it is placed again."""
    from scanner import READ_TRIES

    chip, pad = field_pad()
    await pad.start()
    t = with_record(UID7)
    for _ in range(READ_TRIES):
        chip.inject("air", [5])
    chip.place(t)
    check(await scans(pad, READ_TRIES + 3) == ["read_again"], "refused once, nothing else")
    chip.remove()
    await scans(pad, 3)
    chip.place(t)
    check([h[0] for h in await scans(pad, 2)] == [UID7], "placed again: read")


async def case_a_pad_counts_its_reads_and_misreads_for_its_health(tmp):
    """Health (docs/fleet.md): a pad counts the cards it read and the reads that failed and
    were read again (a weak reader shows many), whatever became of the card."""
    from scanner import READ_TRIES

    chip, pad = field_pad()
    await pad.start()
    t = with_record(UID7)
    chip.inject("air", [3])
    chip.place(t)
    await scans(pad, 4)
    check((pad.reads, pad.misreads) == (1, 1), f"read at the second go: {pad.reads, pad.misreads}")
    chip.remove()
    await scans(pad, 3)
    for _ in range(READ_TRIES):
        chip.inject("air", [5])
    chip.place(t)
    await scans(pad, READ_TRIES + 3)
    check((pad.reads, pad.misreads) == (1, 1 + READ_TRIES),
          f"given up on: {READ_TRIES} more misreads, no read: {pad.reads, pad.misreads}")


async def case_a_uid_garbled_past_the_frame_checksum_is_no_card(tmp):
    """Misreads: two bit errors that cancel in the frame checksum garble a record-less tag's
    UID; the second read (pages 0-3) disagrees, so no card is reported until a clean poll."""
    chip, pad = field_pad()
    await pad.start()
    at = 13 * 8  # the UID's first byte in the InListPassiveTarget answer frame
    # byte 1 (0x11) bit 1 set: +2; byte 2 (0x22) bit 1 cleared: -2: the DCS still adds up
    chip.inject("bus", [at + 8 + 1, at + 16 + 1])
    chip.place(tag(UID7))
    got = await scans(pad, 3)
    check(got == [(UID7, bytes(16))], f"only the true UID is reported: {got!r}")


async def case_with_the_irq_line_wired_a_busy_chip_costs_no_bus_traffic(tmp):
    """Bounded detection: with IRQ wired the driver asks the bus only once the line is low."""
    import virtual

    chip = E.PN532(clock=ticks_us)
    chip.late_ms = 30
    board = virtual.pad_board([chip], E, bus="spi", first_pin=300, irq=True)
    pn = board.readers[0]
    asked = [0]
    ready = pn.t.ready

    def counted():
        asked[0] += 1
        return ready()

    pn.t.ready = counted
    chip.place(tag(UID7))
    check(await pn.poll(200) == UID7, "the answer arrives once the chip is done")
    check(asked[0] == 2, f"one status read for the ACK, one for the answer: {asked[0]}")

"""Cases: a full flash under the outbox and the app (issue 33: ENOSPC from a write, a close or
a rename, on littlefs and on FAT; mp/fullflash.py). Nothing kept is lost or corrupted, the
board is not reset, the card is held back on its pad while the seat says "full", and once
the host acks and a compaction makes room, plays flow again."""

import json
import os

import pn532_emulator as E
from app import App
from casekit import UID4, UID7, LinkBoard, check, tag, waiting
from config import validate
from fullflash import fill, room_back
from outbox import WINDOW, Outbox, OutboxFull
from outboxload import parse


def log_bytes(d):
    try:
        with open(d + "/outbox", "rb") as f:
            return f.read()
    except OSError:
        return b""


def records(d):
    """The log's record bodies, None for one that does not check (a torn tail too)."""
    lines = log_bytes(d).split(b"\n")
    return [parse(line + b"\n") for line in lines[:-1]] + ([parse(lines[-1])] if lines[-1] else [])


def refused(box, pad=0, hold_at=None):
    """True when ``box.add`` raises OutboxFull."""
    try:
        box.add(pad, UID4, None, 9, hold_at)
    except OutboxFull:
        return True
    return False


def seqs(box):
    return [e.seq for e in box.pending]


def case_a_full_flash_refuses_the_play_and_keeps_the_log_as_it_was(tmp):
    """littlefs: the append that finds no room fails (at its write or at its close) and
    leaves the file as of its last close; the play is refused, nothing else changes."""
    for behind in (False, True):  # in the window, or behind a full one (queued on flash)
        d = f"{tmp}/{int(behind)}"
        os.mkdir(d)
        box = Outbox(d, "north")
        for i in range(WINDOW + 2 if behind else 3):
            box.add(i % 4, UID7, b"r" * 16, i)
        box.set_pad(1, UID7)
        before = log_bytes(d)
        state = (seqs(box), box.queued, box.size)
        fill(d, 20)  # room for an ack, not for an event
        try:
            check(refused(box), "no room: the play is refused")
            check(log_bytes(d) == before and box.full, "the log as it was; the outbox full")
            check((seqs(box), box.queued, box.size) == state, "RAM as it was")
            check(refused(box), "and the next one at once, while full")
        finally:
            room_back()
        again = Outbox(d, "north")
        check((seqs(again), again.queued) == state[:2] and again.pads == {1: "04112233445566"},
              "a reboot finds every play kept before")


def case_a_write_torn_by_enospc_at_every_byte_is_cut_off(tmp):
    """FAT: a write keeps what fits, then ENOSPC. Whatever byte the room ends at, the torn
    record is cut off: by the compaction the next write starts with once there is room, or
    on load after a reboot; what was written before is all there, the next append whole."""
    k = 0
    while True:
        for reboot in (False, True):
            d = f"{tmp}/{k}-{int(reboot)}"
            os.mkdir(d)
            box = Outbox(d, "north")
            box.add(0, UID4, None, 1)
            box.set_pad(0, UID4)
            flash = fill(d, k, fat=True)
            try:
                if not refused(box, pad=2):
                    check(k > 30, f"cut at every one of {k} bytes")
                    return
                check(len(log_bytes(d)) == box.size + k and box.full and
                      (k == 0 or records(d)[-1] is None), f"{k} bytes torn")
                if reboot:
                    room_back()
                    box = Outbox(d, "north")
                else:
                    flash.grow(4096)
                    box.set_pad(1, UID7)  # the next write: the log compacted first
                check(not box.full and None not in records(d) and seqs(box) == [1] and
                      box.pads[0] == "deadbeef", f"cut at {k}: the torn bytes gone, the rest kept")
                box.add(1, UID7, None, 2)
            finally:
                room_back()
            check(None not in records(d) and len(seqs(Outbox(d, "north"))) == 2,
                  f"cut at {k}: the next append is whole")
        k += 1


def case_a_flash_filled_by_the_log_drains_when_the_host_acks(tmp):
    """The host gone, the log fills the flash: plays are refused from then on. The host
    back, it acks them all (each ack that finds no room is kept in RAM alone); with none
    left unacked the log is removed first and rewritten, and plays flow again."""
    box = Outbox(tmp, "north", max_bytes=2048)
    flash = fill(tmp, 3000)
    try:
        n = 0
        while not refused(box, pad=n % 4):
            box.set_pad(n % 4, UID7)
            n += 1
        check(n > WINDOW and waiting(box) == n, f"{n} plays kept before the flash was full")
        sent = []
        while box.pending:
            e = box.due(0, 3000)[0]
            sent.append(json.loads(box.payload(e))["seq"])
            box.ack(e.boot, e.seq)
        check(len(sent) == n and sent == sorted(sent), "each sent once, in order")
        check(not box.full and flash.free() > 2500, "all acked: the log compacted, room again")
        check(not refused(box, pad=1), "a play is taken again")
    finally:
        room_back()
    again = Outbox(tmp, "north")
    check([e.seq for e in again.pending] == [box.seq] and again.pads == box.pads,
          "a reboot finds just that play and the pads")


def case_a_refused_card_makes_room_from_acked_records(tmp):
    """Nothing waits for an ack but the log still holds acked plays (not yet half of it, so
    not yet compacted) when an append finds no room: the refused card tries a compaction
    once, which drops them, and is taken. While a compaction would drop nothing more than
    the last that failed, a refused card writes nothing (no flash worn at the scan's pace)."""
    box = Outbox(tmp, "north")
    for i in range(12):
        box.add(i % 4, UID7, b"r" * 16, i)
        box.set_pad(i % 4, UID7)
    for seq in range(1, 13):
        box.ack(box.boot, seq)
    check(box.rotations == 0 and box.dead > 1000, "acked, not compacted")
    flash = fill(tmp, 10)
    try:
        check(refused(box, pad=1) and box.full, "the append finds no room")
        check(not refused(box, pad=1) and not box.full and box.rotations == 1,
              "the card again: the log compacted (removed first: nothing unacked), taken")
        flash.capacity = flash.capacity - flash.free() + 10  # full again
        check(refused(box, pad=2) and refused(box, pad=2) and box.full == box.dead + 1,
              "no room for the next: a compaction would drop nothing more, none is tried")
        opens = flash.opens
        for _ in range(50):
            check(refused(box, pad=2), "refused while full")
        check(flash.opens == opens, "and nothing written meanwhile")
        box.set_pad(3, None)
        check(flash.opens == opens + 1, "a pad's state is more to drop: tried again")
    finally:
        room_back()


def case_a_compaction_without_room_leaves_the_old_log(tmp):
    """Room for the appends, not for the compacted copy (its writes, or its rename, fail):
    the old log stands, outbox.tmp is removed, RAM still points into the old log; once
    there is room, the next write compacts it."""
    for renames in (False, True):
        d = f"{tmp}/{int(renames)}"
        os.mkdir(d)
        box = Outbox(d, "north", max_bytes=800)
        for i in range(8):
            box.add(i % 4, UID7, b"x" * 16, i)
        for seq in range(1, 6):
            box.ack(box.boot, seq)
        flash = fill(d, 300 if renames else 4096, renames=renames)
        try:
            while not box.full:
                box.set_pad(0, UID7 if box.writes % 2 else None)
            check(box.rotations == 0 and "outbox.tmp" not in os.listdir(d), "the copy removed")
            check(flash.free() > 30, "the appends had room: the compaction found none")
            check([json.loads(box.payload(e))["seq"] for e in box.pending] == [6, 7, 8],
                  "RAM still reads the old log")
            flash.renames = True
            flash.grow(4096)
            box.set_pad(1, UID4)
            check(box.rotations == 1 and not box.full, "compacted once there is room")
        finally:
            room_back()
        again = Outbox(d, "north")
        check(seqs(again) == [6, 7, 8] and again.pads[1] == "deadbeef", "kept, and the pads")


def case_a_held_event_stays_held_while_the_flash_is_full(tmp):
    """Published first and held for its verdict: a write that finds no room keeps it held
    (in RAM, still sent, still acked), never half-written; with room it reaches flash."""
    box = Outbox(tmp, "north")
    box.add(0, UID4, None, 1)
    entry = box.add(1, UID7, None, 2, hold_at=1000)
    box.set_pad(1, UID7)
    flash = fill(tmp, 0)
    try:
        check(box.settle(1100, 50) == 0 and box.held and box.full, "no room: still held")
        check(json.loads(box.payload(entry))["seq"] == 2, "and still sent from RAM")
        flash.grow(4096)
        box.settle()
        check(not box.held and not box.full and entry.at.__class__ is int, "on flash now")
    finally:
        room_back()
    again = Outbox(tmp, "north")
    check(seqs(again) == [1, 2] and again.pads == {1: "04112233445566"}, "both kept, and the pad")


def case_a_board_boots_on_a_full_flash(tmp):
    """No room at boot, for the boot counter or for cutting a torn record off: the outbox
    still starts (a board that resets there would reset for ever), with a boot id of its
    own, full until there is room."""
    box = Outbox(tmp, "north")
    box.add(0, UID4, None, 1)
    with open(tmp + "/outbox", "a") as f:
        f.write("1234abcd e 1")  # a torn record
    flash = fill(tmp, 0)
    try:
        again = Outbox(tmp, "north")
        check(again.boot != box.boot + 1 and again.full and seqs(again) == [1],
              "started: a random boot id (the counter could not be written), full")
        check(refused(again), "plays wait")
        flash.grow(4096)
        again.ack(box.boot, 1)
        check(not again.full and None not in records(tmp), "room: compacted, the torn bytes gone")
    finally:
        room_back()


def case_a_torn_log_of_pad_states_on_a_full_flash_is_rewritten_once(tmp):
    """Nothing unacked, a torn record, no room at boot: the first refused card lets the old
    log be removed first and rewritten without the torn bytes; while the play still finds
    no room, the next cards are refused without a write (not at the scan's pace)."""
    box = Outbox(tmp, "north")
    box.set_pad(0, UID4)
    box.set_pad(1, UID7)
    with open(tmp + "/outbox", "a") as f:
        f.write("1234abcd p 2")  # a torn record
    flash = fill(tmp, 0)
    try:
        again = Outbox(tmp, "north")
        check(again.full and again.pads == box.pads, "started full, the pads known")
        check(refused(again) and again.rotations == 1 and len(records(tmp)) == 2 and
              None not in records(tmp), "no room for the play; the log rewritten, whole")
        opens = flash.opens
        for _ in range(50):
            check(refused(again), "refused while full")
        check(flash.opens == opens, "and nothing written meanwhile")
    finally:
        room_back()


async def case_a_full_flash_holds_the_card_back_and_the_seat_says_full(tmp):
    """The link down, no room left: the card stays on its pad (not reported), the status
    names the cause, every seat shows the amber "full" pattern; the host back acks the play
    it had, a compaction makes room, and the card is reported."""
    chips = [E.PN532(), E.PN532()]
    cfg = validate({"board": "north", "pads": 2, "broker": {"host": "127.0.0.1"}})
    app = App(LinkBoard(chips), cfg, tmp)
    await app.start_readers()
    chips[0].place(tag(UID4))
    for _ in range(3):
        await app.scan_once()
    check(seqs(app.outbox) == [1] and app.trouble()[0] != "full", "one play on flash")
    fill(tmp, 30)  # room for a pad's state, not for a play
    try:
        chips[1].place(tag(UID7))
        for _ in range(3):
            await app.scan_once()
        check(seqs(app.outbox) == [1] and app.pads[1].placements == 0, "the card is held back")
        check(app.last_error.startswith("outbox full") and "flash is full" in app.last_error,
              app.last_error)
        check(app.trouble() == ("full", [0, 1]), "the seats say full")
        check(app.feedback.level(1, 500) == ("amber", 0.5), "amber, pulsing")
        app.on_message(app.topic_ack, json.dumps({"v": 1, "boot": app.outbox.boot, "seq": 1}))
        check(not app.outbox.full, "acked: the log rewritten with what is left, room again")
        await app.scan_once()
        pending = [json.loads(app.outbox.payload(e)) for e in app.outbox.pending]
        check([(e["pad"], e["uid"]) for e in pending] == [(1, "04112233445566")],
              "the card held back is reported")
    finally:
        room_back()

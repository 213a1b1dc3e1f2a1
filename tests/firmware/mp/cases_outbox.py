"""Cases: the outbox on flash (issue 5, item 4; issue 33, item 4: a whole night on flash)."""

import json
import os

from casekit import UID4, UID7, check, waiting
from compat import collect, heap_free, hexlify
from outbox import WINDOW, Outbox, OutboxFull
from outboxload import parse
from tornflash import PowerCut, cut_after, power_back


def log_records(tmp):
    """The log's record bodies, ``None`` for a record that does not check."""
    with open(tmp + "/outbox", "rb") as f:
        return [parse(line) for line in f]


def logged(tmp):
    try:
        return log_records(tmp)
    except OSError:
        return []


def case_an_event_is_on_flash_before_it_is_sent(tmp):
    box = Outbox(tmp, "north")
    entry = box.add(2, UID7, b"r" * 16, 1234)
    check(logged(tmp) == [f"e {box.boot} 1 1234 2 04112233445566 {'72' * 16}"],
          "the event's record, checksummed")
    ev = json.loads(box.payload(entry))
    check((ev["board"], ev["boot"], ev["seq"], ev["pad"], ev["kind"], ev["t"]) ==
          ("north", box.boot, 1, 2, "place", 1234), "numbered by board, boot and sequence")
    check(ev["uid"] == "04112233445566" and ev["rec"] == "72" * 16 and ev["v"] == 1, "hex fields")
    check(entry.at == 0, "once written, RAM keeps its offset, not its record")
    check(entry.sent_at is None and box.due(0, 1000) == [entry], "due at once")
    check("rec" not in json.loads(box.payload(box.add(0, UID4, None, 5))), "no record, no rec")


def case_an_ack_forgets_and_a_stray_ack_changes_nothing(tmp):
    box = Outbox(tmp, "north")
    box.add(0, UID4, None, 1)
    box.add(1, UID4, None, 2)
    writes = box.writes
    check(not box.ack(box.boot, 9) and box.writes == writes, "unknown key: nothing written")
    check(box.ack(box.boot, 1) and [e.seq for e in box.pending] == [2], "seq 1 forgotten")
    check(not box.ack(box.boot, 1), "a second ack for the same key is a no-op")


def case_a_reboot_keeps_unacked_events_and_cards_on_pads(tmp):
    box = Outbox(tmp, "north")
    for pad in range(3):
        box.add(pad, bytes([4, pad, 0, 0, 0, 0, 0]), None, pad)
    box.ack(box.boot, 2)
    box.set_pad(0, UID7)
    box.set_pad(1, UID4)
    box.set_pad(1, None)
    again = Outbox(tmp, "north")
    check(again.boot == box.boot + 1 and again.seq == 0, "new boot id, sequence restarts")
    check([(e.boot, e.seq) for e in again.pending] == [(box.boot, 1), (box.boot, 3)], "unacked kept")
    check(json.loads(again.payload(again.pending[1]))["uid"] == "04020000000000",
          "and sent again as they were")
    check(again.pads == {0: "04112233445566"}, "card lying on pad 0 remembered")


def case_flash_wear_is_bounded_by_compaction(tmp):
    """The log is compacted once acked records are most of it, never on every write."""
    box = Outbox(tmp, "north", max_bytes=2048)
    for i in range(300):
        box.add(i % 4, UID7, b"x" * 16, i)
        box.set_pad(i % 4, UID7 if i % 2 else None)
        if i % 10:
            box.ack(box.boot, i + 1)
        elif i >= 100:
            box.ack(box.boot, i - 99)  # every tenth is acked a hundred plays later
    size = os.stat(tmp + "/outbox")[6]
    live = sum(e.size for e in box.pending)
    check(size <= max(2048, 2 * live) + 400, f"log kept small: {size} bytes")
    check(10 < box.rotations < 60, f"compacted now and then, not on every write: {box.rotations}")
    again = Outbox(tmp, "north")
    check([e.seq for e in again.pending] == list(range(201, 301, 10)), "only unacked survive")


def case_a_full_outbox_refuses_and_keeps_what_it_has(tmp):
    box = Outbox(tmp, "north", max_pending=2)
    box.add(0, UID4, None, 1)
    box.add(0, UID4, None, 2)
    try:
        box.add(0, UID4, None, 3)
    except OutboxFull:
        pass
    else:
        raise AssertionError("a third event fits an outbox of 2")
    check(box.seq == 2 and len(box.pending) == 2, "nothing changed")


def case_a_night_with_the_host_gone_waits_on_flash_with_16_keys_in_ram(tmp):
    """Issue 33, item 4: a whole night's plays (1,440: a 4-pad table, a hand of 24 every 3
    minutes for 3 hours) wait for a host that never answers. RAM holds the keys of the
    oldest 16; a reboot keeps every one; once the host is back each is sent in the order it
    was played, and none twice."""
    night = 1440
    box = Outbox(tmp, "north")
    collect()
    free = heap_free()
    for i in range(night):
        box.add(i % 4, bytes([4, i >> 8, i & 0xFF, 0, 0, 0, 0]), None, i * 7500)
        box.set_pad(i % 4, UID7)
        box.set_pad(i % 4, None)
    check(len(box.pending) == WINDOW and waiting(box) == night, "16 in RAM, the rest on flash")
    if free is not None:  # MicroPython: the queue costs flash, not heap
        collect()
        grown = free - heap_free()
        check(grown < 3072, f"1,440 plays waiting took {grown} bytes of heap")
    again = Outbox(tmp, "north")  # a power cut in the night
    check(waiting(again) == night and len(again.pending) == WINDOW, "all of them after a reboot")
    sent = 0
    while again.pending:
        ev = json.loads(again.payload(again.due(0, 3000)[0]))
        check((ev["seq"], ev["pad"], ev["uid"][:6], ev["t"]) ==
              (sent + 1, sent % 4, f"04{sent >> 8:02x}{sent & 0xFF:02x}", sent * 7500),
              f"play {sent + 1} sent as played, in its turn: {ev}")
        again.ack(ev["boot"], ev["seq"])
        sent += 1
    check(sent == night, "each once")
    check(waiting(again) == 0 and waiting(Outbox(tmp, "north")) == 0, "and acked for good")


def case_acks_out_of_order_refill_the_window_from_flash(tmp):
    box = Outbox(tmp, "north")
    for i in range(WINDOW + 3):
        box.add(0, UID4, None, i)
    check([e.seq for e in box.pending] == list(range(1, WINDOW + 1)) and box.queued == 3,
          "the window, three behind it")
    check(not box.ack(box.boot, WINDOW + 3), "one still on flash is not acked (never sent)")
    for seq in (5, 1, 3, 2, 4, 8, 7):
        box.ack(box.boot, seq)
    check(len(box.pending) == WINDOW - 7 and box.queued == 3, "acks take keys out of RAM")
    box.ack(box.boot, 12)
    check([e.seq for e in box.pending] == [6, 9, 10, 11] + list(range(13, WINDOW + 4)) and
          not box.queued, "half the window empty: refilled from flash, in order")
    again = Outbox(tmp, "north")
    check([e.seq for e in again.pending] == [e.seq for e in box.pending] and not again.queued,
          "a reboot rebuilds the same window")


def case_a_record_torn_by_a_power_cut_is_dropped_and_the_rest_kept(tmp):
    """Whatever byte a power cut stops an append at (an event, an ack, a pad's state), the
    records before it load whole, the torn one is dropped, and the next append lands
    clean (the log is rewritten without the torn bytes)."""
    writes = [lambda box: box.add(3, UID7, b"z" * 16, 77),
              lambda box: box.ack(box.boot, 1),
              lambda box: box.set_pad(1, UID4)]
    for n, write in enumerate(writes):
        k = 0
        while True:
            d = f"{tmp}/{n}-{k}"
            os.mkdir(d)
            box = Outbox(d, "north")
            box.add(0, UID4, None, 1)
            box.add(1, UID7, None, 2)
            box.set_pad(0, UID4)
            whole = logged(d)
            cut_after(k)
            try:
                write(box)
            except PowerCut:
                pass
            else:
                power_back()
                break  # the whole record fitted in k bytes: every cut point was tried
            finally:
                power_back()
            again = Outbox(d, "north")
            check(logged(d)[:len(whole)] == whole or None not in logged(d),
                  f"write {n} cut at {k}: the log checks")
            check([e.seq for e in again.pending] == [1, 2] and again.pads == {0: hexlify(UID4)},
                  f"write {n} cut at {k}: what was written before is all there")
            again.add(2, UID4, None, 3)
            third = Outbox(d, "north")
            check([e.seq for e in third.pending] == [1, 2, 1] and None not in logged(d),
                  f"write {n} cut at {k}: the next append is whole")
            k += 1
        check(k > 10, f"write {n}: cut at every one of its {k} bytes")


BOOT_BEFORE = "1234567890"


def case_a_compaction_cut_short_leaves_the_old_log(tmp):
    """A power cut while the compacted log is written (outbox.tmp): the old log stands."""
    for k in (0, 30, 200):
        d = f"{tmp}/{k}"
        os.mkdir(d)
        with open(d + "/boot", "w") as f:  # a boot id of 10 digits, as most random starts are:
            f.write(BOOT_BEFORE)  # the records' lengths, so where each cut falls, fixed
        box = Outbox(d, "north", max_bytes=512)
        for i in range(6):
            box.add(i % 4, UID7, b"x" * 16, i)
        cut_after(40 + k)  # the ack's record, then the compaction's
        try:
            for seq in range(1, 7):
                box.ack(box.boot, seq)
        except PowerCut:
            pass
        finally:
            power_back()
        check(box.rotations == 0, "cut before the rename")
        again = Outbox(d, "north")
        check([e.seq for e in again.pending][-3:] == [4, 5, 6] and
              "outbox.tmp" not in os.listdir(d), f"cut at {k}: unacked kept, the half copy gone")


def case_a_held_event_waits_off_flash_with_the_pad_state_behind_it(tmp):
    """Publish first, write after (docs/cardpath.md): held, then both written in order."""
    box = Outbox(tmp, "north")
    entry = box.add(1, UID7, None, 5, hold_at=1000)
    box.set_pad(1, UID7)
    check(logged(tmp) == [] and box.pending == [entry], "held: queued to send, not on flash")
    check(json.loads(box.payload(entry))["seq"] == 1, "sent from RAM while held")
    check(box.settle(1020, 50) == 30 and logged(tmp) == [], "20 ms later: 30 ms left, still held")
    check(box.settle(1050, 50) == 0, "written once the 50 ms are up")
    check(logged(tmp) == [f"e {box.boot} 1 5 1 04112233445566 -", "p 1 04112233445566"],
          "the event, then the pad's state behind it")
    check(box.settle(1100, 50) is None and box.writes == 1, "in one append, and only once")


def case_an_event_acked_while_held_is_never_written(tmp):
    box = Outbox(tmp, "north")
    box.add(2, UID4, None, 5, hold_at=1000)
    box.set_pad(2, UID4)
    check(box.ack(box.boot, 1) and box.pending == [], "acked: forgotten")
    check(box.settle(1010, 50) == 0, "nothing held waits for an ack: written at once")
    check(logged(tmp) == ["p 2 " + hexlify(UID4)], "only the pad's state: no event, no ack")


def case_an_event_added_unheld_writes_what_was_held_before_it(tmp):
    box = Outbox(tmp, "north")
    box.add(0, UID4, None, 1, hold_at=1000)
    box.set_pad(0, UID4)
    box.add(1, UID7, None, 2)  # not published (link down): on flash at once
    check([r.split(" ")[0] + (r.split(" ")[2] if r[0] == "e" else "") for r in logged(tmp)] ==
          ["e1", "p", "e2"], "in the order they happened")


def case_a_power_cut_while_held_reports_the_card_again_under_a_new_key(tmp):
    """A cut between the publish and the write: neither the event nor the pad's state is
    on flash, so the card still lying on the pad is new to it after the reboot (reported
    again under the new boot's key; the host journals or refuses it as played already)."""
    box = Outbox(tmp, "north")
    box.add(0, UID4, None, 1)
    box.set_pad(0, UID4)
    box.ack(box.boot, 1)
    box.add(3, UID7, None, 2, hold_at=1000)
    box.set_pad(3, UID7)
    again = Outbox(tmp, "north")  # power cut: settle never ran
    check(again.pending == [] and again.pads == {0: hexlify(UID4)},
          "the held event and the pad's state behind it are both gone; the written ones stay")
    check(again.boot == box.boot + 1, "a report after the reboot carries a new key")


def case_a_rotation_while_held_writes_the_held_state_whole(tmp):
    box = Outbox(tmp, "north", max_bytes=512)
    for i in range(6):
        box.add(i % 4, UID7, b"x" * 16, i)
    box.add(3, UID7, b"y" * 16, 9, hold_at=1000)
    box.set_pad(3, UID7)
    seq = 1
    while box.rotations == 0 and seq <= 6:  # acks of written events: appended, the log grows
        box.ack(box.boot, seq)
        seq += 1
    check(box.rotations == 1 and box.held == [], "the rotation wrote everything held")
    again = Outbox(tmp, "north")
    check([e.seq for e in again.pending] == [e.seq for e in box.pending] and 7 in
          [e.seq for e in again.pending] and again.pads == {3: hexlify(UID7)},
          "the held event and its pad state reached flash together")

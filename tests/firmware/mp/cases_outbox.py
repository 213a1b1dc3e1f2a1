"""Cases: the outbox on flash (issue 5, item 4)."""

import json
import os

from casekit import UID4, UID7, check
from compat import hexlify
from outbox import Outbox, OutboxFull


def log_lines(tmp):
    with open(tmp + "/outbox") as f:
        return [json.loads(line) for line in f]


def case_an_event_is_on_flash_before_it_is_sent(tmp):
    box = Outbox(tmp, "north")
    entry = box.add(2, UID7, b"r" * 16, 1234)
    ev = log_lines(tmp)[-1]["e"]
    check(ev == json.loads(entry.payload), "the logged event is the one to send")
    check((ev["board"], ev["boot"], ev["seq"], ev["pad"], ev["kind"]) == ("north", box.boot, 1, 2, "place"),
          "numbered by board, boot and sequence")
    check(ev["uid"] == "04112233445566" and ev["rec"] == "72" * 16 and ev["v"] == 1, "hex fields")
    check(entry.sent_at is None and box.due(0, 1000) == [entry], "due at once")


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
    check(again.pads == {0: "04112233445566"}, "card lying on pad 0 remembered")


def case_flash_wear_is_bounded_by_rotation(tmp):
    box = Outbox(tmp, "north", max_bytes=2048)
    for i in range(300):
        box.add(i % 4, UID7, b"x" * 16, i)
        box.set_pad(i % 4, UID7 if i % 2 else None)
        if i % 10:
            box.ack(box.boot, i + 1)
    size = os.stat(tmp + "/outbox")[6]
    waiting = sum(len(e.payload) + 8 for e in box.pending)
    check(size <= max(2048, 2 * waiting + 200) + 400, f"log kept small: {size} bytes")
    check(10 < box.rotations < 60, f"rotated now and then, not on every write: {box.rotations}")
    again = Outbox(tmp, "north")
    check([e.seq for e in again.pending] == list(range(1, 301, 10)), "only unacked survive")


def case_a_torn_last_line_is_ignored(tmp):
    box = Outbox(tmp, "north")
    box.add(0, UID4, None, 1)
    with open(tmp + "/outbox", "a") as f:
        f.write('{"e": {"board": "north", "bo')
    again = Outbox(tmp, "north")
    check([e.seq for e in again.pending] == [1], "the complete event survives")


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


def logged(tmp):
    try:
        return log_lines(tmp)
    except OSError:
        return []


def case_a_held_event_waits_off_flash_with_the_pad_state_behind_it(tmp):
    """Publish first, write after (docs/cardpath.md): held, then both written in order."""
    box = Outbox(tmp, "north")
    entry = box.add(1, UID7, None, 5, hold_at=1000)
    box.set_pad(1, UID7)
    check(logged(tmp) == [] and box.pending == [entry], "held: queued to send, not on flash")
    check(box.settle(1020, 50) == 30 and logged(tmp) == [], "20 ms later: 30 ms left, still held")
    check(box.settle(1050, 50) == 0, "written once the 50 ms are up")
    check(logged(tmp) == [{"e": json.loads(entry.payload)}, {"p": [1, "04112233445566"]}],
          "the event, then the pad's state behind it")
    check(box.settle(1100, 50) is None and box.writes == 1, "in one append, and only once")


def case_an_event_acked_while_held_is_never_written(tmp):
    box = Outbox(tmp, "north")
    box.add(2, UID4, None, 5, hold_at=1000)
    box.set_pad(2, UID4)
    check(box.ack(box.boot, 1) and box.pending == [], "acked: forgotten")
    check(box.settle(1010, 50) == 0, "nothing held waits for an ack: written at once")
    check(logged(tmp) == [{"p": [2, hexlify(UID4)]}], "only the pad's state: no event, no ack")


def case_an_event_added_unheld_writes_what_was_held_before_it(tmp):
    box = Outbox(tmp, "north")
    box.add(0, UID4, None, 1, hold_at=1000)
    box.set_pad(0, UID4)
    box.add(1, UID7, None, 2)  # not published (link down): on flash at once
    check([("e" in item and item["e"]["seq"]) or "p" for item in logged(tmp)] == [1, "p", 2],
          "in the order they happened")


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
    box = Outbox(tmp, "north", max_bytes=1024)
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

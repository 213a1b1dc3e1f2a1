"""Cases: the outbox on flash (issue 5, item 4)."""

import json
import os

from casekit import UID4, UID7, check
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

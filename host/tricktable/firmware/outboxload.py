"""Reading the outbox back from flash at boot: the next boot id and the log (outbox.py).

Imports json, os and outbox. ``Outbox.__init__`` imports it and drops it again, as main.py
drops config.py: what runs once at boot stays out of a running board's heap (about 0.7 KB
on the 64-bit unix port).
"""

import json
import os

from outbox import BOOT, LOG, TMP, Entry


def load(outbox):
    """Load ``outbox``'s log (the unacked events, the cards lying on pads, the log's size);
    return this boot's id (the boot counter, incremented and written back)."""
    boot = next_boot(outbox)
    try:
        os.remove(outbox._path(TMP))  # a rotation cut short: the old log is intact
    except OSError:
        pass
    try:
        f = open(outbox._path(LOG))
    except OSError:
        return boot
    with f:
        for line in f:
            outbox.size += len(line)
            try:
                item = json.loads(line)
            except ValueError:
                continue  # torn write at power loss
            apply(outbox, item)
    return boot


def next_boot(outbox):
    """The boot counter plus one, written back (a random odd start on a fresh flash)."""
    try:
        with open(outbox._path(BOOT)) as f:
            boot = (int(f.read().strip()) + 1) & 0xFFFFFFFF
    except (OSError, ValueError):
        # First start (or flash erased): a random start, so a board that lost its count
        # never reuses a (board, boot, seq) key the host has already journaled.
        boot = (int.from_bytes(os.urandom(4), "big") & 0x7FFFFFFF) | 1
    with open(outbox._path(BOOT), "w") as f:
        f.write(str(boot))
    return boot


def apply(outbox, item):
    """One line of the log: an event, an ack or what lies on a pad."""
    if "e" in item:
        ev = item["e"]
        outbox.pending.append(Entry(ev["boot"], ev["seq"], json.dumps(ev).encode()))
    elif "a" in item:
        outbox._drop(item["a"][0], item["a"][1])
    elif "p" in item:
        pad, uid = item["p"]
        if uid is None:
            outbox.pads.pop(pad, None)
        else:
            outbox.pads[pad] = uid

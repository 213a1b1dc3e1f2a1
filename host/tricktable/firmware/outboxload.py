"""The outbox's log read back from flash (outbox.py): at boot, to refill the window, to compact.

Imports binascii, os and outbox. ``Outbox`` imports it for the call and drops it again, as main.py drops
config.py: none of this runs in a hand while the host acks (the window never empties into
flash, the log is compacted now and then), so a running board keeps none of it in its heap.
Loading (``load``): the boot counter, then the log's records in order, the window rebuilt as
it was (an event into the window while it has room and nothing waits behind it, an ack
taking one out and refilling it), a record that does not check dropped and the log then
compacted without it. Refilling (``refill``): the oldest events on flash into the window.
Compacting (``compact``): the log rewritten with the pad states and unacked events alone.
"""

import os
from binascii import crc32

from outbox import WINDOW, Entry, record

LOG = "outbox"  # the log (outbox.py opens it by name too)
TMP = "outbox.tmp"  # a compaction's new log, renamed over the old
BOOT = "boot"  # the boot counter


def load(outbox, directory, board, max_bytes, max_pending):
    """Fill in a new Outbox (outbox.py, ``Outbox``): its fields, this boot's id (the boot
    counter, incremented and written back), and what its log holds."""
    outbox.dir = directory
    outbox.board = board
    outbox.max_bytes = max_bytes
    outbox.max_pending = max_pending
    outbox.pending = []  # the window: the oldest unacked events, in the order played
    outbox.queued = 0  # unacked events on flash behind the window
    outbox.cursor = 0  # log offset of the first of them
    outbox.pads = {}  # pad -> UID hex of the card lying there
    outbox.size = 0  # the log's length
    outbox.dead = 0  # bytes of it a compaction would drop
    outbox.writes = 0
    outbox.rotations = 0
    outbox.seq = 0
    outbox.held = []  # what waits for flash, in order: Entry (an event) or a pad-state record
    outbox.held_at = 0  # ticks_ms when the oldest of ``held`` was held
    outbox.full = None  # the flash has room; else 1 + ``dead`` at the last compaction tried
    # (outbox.py, ``_write``)
    outbox.boot = next_boot(outbox)
    read_log(outbox)


def read_log(outbox):
    """The log's records in order (module docstring)."""
    remove(outbox.dir + "/" + TMP)  # a compaction cut short: the old log is intact
    try:
        f = open(outbox.dir + "/" + LOG, "rb")
    except OSError:
        return
    torn = False
    with f:
        for line in f:
            body = parse(line)
            if body is None:
                torn = True  # cut short by a power cut, or from before records had checksums
            else:
                apply(outbox, body, line)
            outbox.size += len(line)
    if torn or (outbox.size > outbox.max_bytes and 2 * outbox.dead > outbox.size):
        compact(outbox)
        if outbox.full:  # no room for it: a refused card tries once more, and the old log
            outbox.full = -1  # may then be removed first (compact)


def next_boot(outbox):
    """The boot counter plus one, written back (a random odd start on a fresh flash)."""
    # a random start, so a board that lost its count never reuses a (board, boot, seq) key
    # the host has already journaled
    fresh = (int.from_bytes(os.urandom(4), "big") & 0x7FFFFFFF) | 1
    try:
        with open(outbox.dir + "/" + BOOT) as f:
            boot = (int(f.read().strip()) + 1) & 0xFFFFFFFF
    except (OSError, ValueError):  # first start (or flash erased)
        boot = fresh
    try:
        with open(outbox.dir + "/" + BOOT, "w") as f:
            f.write(str(boot))
    except OSError:  # no room to count it (a full flash): the next boot counts from the
        return fresh  # old value again, so this one takes a random id, not that one
    return boot


def apply(outbox, body, line):
    """One record of the log (its body, and the record as read at ``outbox.size``)."""
    f = body.split(" ")
    if f[0] == "e":
        if outbox.queued or len(outbox.pending) >= WINDOW:
            if not outbox.queued:
                outbox.cursor = outbox.size
            outbox.queued += 1
        else:
            outbox.pending.append(entry_of(line, outbox.size))
    elif f[0] == "a":
        e = outbox._drop(int(f[1]), int(f[2]))
        outbox.dead += len(line) + (e.size if e else 0)
    elif f[0] == "p":
        outbox.dead += len(line)  # superseded by the next (a compaction writes the pads)
        if f[2] == "-":
            outbox.pads.pop(int(f[1]), None)
        else:
            outbox.pads[int(f[1])] = f[2]


def refill(outbox):
    """Move the oldest events waiting on flash into the window until it is full; the cursor
    to the next one still waiting. Every event record from the cursor on waits (an ack
    only ever names an event of the window)."""
    with open(outbox.dir + "/" + LOG, "rb") as f:
        f.seek(outbox.cursor)
        at = outbox.cursor
        while outbox.queued and len(outbox.pending) < WINDOW:
            line = f.readline()
            if not line:
                break
            if is_event(line):
                outbox.pending.append(entry_of(line, at))
                outbox.queued -= 1
            at += len(line)
        while outbox.queued:  # find the next one
            line = f.readline()
            if not line or is_event(line):
                break
            at += len(line)
        outbox.cursor = at


def compact(outbox):
    """Rewrite the log (``outbox.tmp``, renamed over it) with the pad states and the unacked
    events alone: the window's (those held back from flash too), then the ``queued`` waiting
    from the cursor on (a torn tail behind them is left out). A file system that refuses it
    (ENOSPC: firmware/README.md, "A full flash") leaves the old log as it was, ``outbox.tmp``
    removed, RAM unchanged and ``outbox.full`` 1 + ``dead`` (outbox.py tries no compaction
    before ``dead`` grows); done, ``full`` is cleared.
    While ``full`` with no unacked event on flash, the old log is removed first: its room
    is what the flash lacks, and RAM has all it holds that matters (the pads' states: a
    power cut before the new log stands reports a card lying on a pad again, as a cut
    while a play is held does)."""
    log = outbox.dir + "/" + LOG
    tmp = outbox.dir + "/" + TMP
    keep = outbox.queued or [e for e in outbox.pending if e.at.__class__ is int]
    moved = []  # (Entry, its offset and length in the new log), applied once it stands
    size = 0
    try:
        if outbox.full and not keep:
            remove(log)
        old = open(log, "rb") if keep else None
        try:
            with open(tmp, "w") as f:
                for pad in outbox.pads:
                    line = record("p %d %s" % (pad, outbox.pads[pad]))
                    f.write(line)
                    size += len(line)
                for e in outbox.pending:
                    line = e.at  # its record while held back from flash
                    if line.__class__ is int:
                        old.seek(line)
                        line = old.readline().decode()
                    moved.append((e, size, len(line)))
                    f.write(line)
                    size += len(line)
                cursor = size
                n = outbox.queued
                if n:
                    old.seek(outbox.cursor)
                    for line in old:
                        if n and is_event(line):
                            f.write(line.decode())
                            size += len(line)
                            n -= 1
        finally:
            if old:
                old.close()
        os.rename(tmp, log)
    except OSError:
        remove(tmp)
        outbox.full = outbox.dead + 1
        return False
    for entry, at, length in moved:
        entry.at, entry.size = at, length
    outbox.cursor = cursor
    outbox.held = []  # all of it is in the new log
    outbox.size = size
    outbox.dead = 0
    outbox.full = None
    outbox.rotations += 1
    return True


def remove(path):
    """Remove a file if it is there."""
    try:
        os.remove(path)
    except OSError:
        pass


def parse(line):
    """The body (str) of a whole record read back (bytes), or None: cut short by a power
    cut (no newline), garbled, or of the log before records had checksums."""
    if len(line) < 11 or line[-1] != 10 or line[8] != 32:
        return None
    body = line[9:-1]
    try:
        if int(line[:8], 16) != crc32(body) & 0xFFFFFFFF:
            return None
        return body.decode()
    except ValueError:  # not hex; not text (UnicodeError is a ValueError)
        return None


def is_event(line):
    """True for a whole event record (bytes)."""
    return line[9:11] == b"e " and parse(line) is not None


def entry_of(line, at):
    """The window's Entry for the event record ``line`` (bytes) at log offset ``at``."""
    f = line[9:-1].split(b" ")
    return Entry(int(f[1]), int(f[2]), at, len(line))

"""Outbox: events numbered (board, boot, seq), kept until acked, on flash unless acked first.

An event added with ``hold_at`` is held back from flash ("publish first, write after",
docs/cardpath.md): the app publishes it at once and ``settle`` writes it once nothing held
waits for its ack, or ``hold_ms`` after the first was held, whichever comes first; an event
acked while held is never written. Pad states set while anything is held wait behind it,
so the two reach flash in the order they happened. Without ``hold_at`` an event is written
at once (with everything held before it).

Imports compat, json and os only (and, at boot, outboxload.py, which reads the boot counter
and the log back and is dropped again: a running board keeps none of that code in its heap).
Flash layout in ``directory``:

* ``boot``   - the boot counter, incremented once per start (the boot id); it starts at a
  random value, so an erased or replaced board never repeats a journaled key;
* ``outbox`` - an append-only log, one JSON object a line: ``{"e": event}`` a new event,
  ``{"a": [boot, seq]}`` an acknowledgement, ``{"p": [pad, uid_hex or null]}`` what lies
  on a pad. When it grows past ``max_bytes`` (or twice its last compacted size, when many
  events wait) it is rewritten (to ``outbox.tmp``, then renamed over) with only the unacked
  events and the pad states: each byte appended is rewritten at most about once, so wear
  stays bounded, and a power cut leaves either the old or the new log. A torn last line is
  ignored on load.
"""

import json
import os

from compat import borrowed, hexlify, ticks_diff

LOG = "outbox"
TMP = "outbox.tmp"
BOOT = "boot"


class OutboxFull(Exception):
    """More unacknowledged events than the outbox may hold."""


class Entry:
    """One unacknowledged event: its key, its JSON bytes (shared with the MQTT client's
    in-flight table, never copied) and when it was last sent."""

    def __init__(self, boot, seq, payload):
        self.boot = boot
        self.seq = seq
        self.payload = payload
        self.sent_at = None  # ticks_ms of the last publish, None = due now
        self.pid = 0  # MQTT packet id of the last publish


class Outbox:
    """The board's durable queue of pad events and its memory of what lies on each pad."""

    def __init__(self, directory, board, max_bytes=8192, max_pending=32):
        self.dir = directory
        self.board = board
        self.max_bytes = max_bytes
        self.max_pending = max_pending
        self.pending = []
        self.pads = {}
        self.size = 0
        self.limit = max_bytes
        self.writes = 0
        self.rotations = 0
        self.seq = 0
        self.held = []  # what waits for flash, in order: Entry (an event) or a pad-state line
        self.held_at = 0  # ticks_ms when the oldest of ``held`` was held
        self.boot = borrowed("outboxload").load(self)  # boot-time only: not kept in RAM

    def _path(self, name):
        return self.dir + "/" + name

    def _drop(self, boot, seq):
        for i in range(len(self.pending)):
            e = self.pending[i]
            if e.boot == boot and e.seq == seq:
                self.pending.pop(i)
                return True
        return False

    def _write(self, lines):
        with open(self._path(LOG), "a") as f:
            for line in lines:
                f.write(line)
                self.size += len(line)
        self.writes += 1
        if self.size > self.limit:
            self._rotate()

    def _rotate(self):
        size = 0
        with open(self._path(TMP), "w") as f:
            for pad in self.pads:
                line = json.dumps({"p": [pad, self.pads[pad]]}) + "\n"
                f.write(line)
                size += len(line)
            for e in self.pending:
                line = event_line(e)
                f.write(line)
                size += len(line)
        os.rename(self._path(TMP), self._path(LOG))
        self.held = []  # all of it is in the new log
        self.size = size
        self.limit = max(self.max_bytes, 2 * size)  # many unacked events: rotate less often
        self.rotations += 1

    def add(self, pad, uid, record, t, hold_at=None):
        """Number a placement and queue it; return its Entry. It is written to flash at once,
        or, with ``hold_at`` (ticks_ms), held back until ``settle`` (module docstring)."""
        if len(self.pending) >= self.max_pending:
            raise OutboxFull("%d events wait for the host's ack" % len(self.pending))
        self.seq += 1
        ev = {"v": 1, "board": self.board, "boot": self.boot, "seq": self.seq, "t": t,
              "pad": pad, "kind": "place", "uid": hexlify(uid)}
        if record is not None:
            ev["rec"] = hexlify(record)
        entry = Entry(self.boot, self.seq, json.dumps(ev).encode())
        self.pending.append(entry)
        if not self.held:
            self.held_at = hold_at or 0
        self.held.append(entry)
        if hold_at is None:
            self.settle()
        return entry

    def settle(self, now=None, hold_ms=0):
        """Write what is held back: at once without ``now``; else once no held event waits
        for its ack, or ``hold_ms`` after the oldest was held. Return the ms left before it
        must be written, 0 once written, None when nothing is held."""
        if not self.held:
            return None
        if now is not None and any(isinstance(item, Entry) for item in self.held):
            left = hold_ms - ticks_diff(now, self.held_at)
            if left > 0:
                return left
        lines = [event_line(item) if isinstance(item, Entry) else item for item in self.held]
        self.held = []
        self._write(lines)
        return 0

    def unsent_held(self):
        """True when an event held back from flash has not left the board (sent_at None)."""
        for item in self.held:
            if isinstance(item, Entry) and item.sent_at is None:
                return True
        return False

    def ack(self, boot, seq):
        """The host journaled (boot, seq): forget it (never written if still held). False if
        it was not pending."""
        for item in self.held:
            if isinstance(item, Entry) and item.boot == boot and item.seq == seq:
                self.held.remove(item)
                return self._drop(boot, seq)
        if not self._drop(boot, seq):
            return False
        self._write([json.dumps({"a": [boot, seq]}) + "\n"])
        return True

    def set_pad(self, pad, uid):
        """Remember the card lying on a pad (UID bytes) or that it is empty (None)."""
        value = None if uid is None else hexlify(uid)
        if self.pads.get(pad) == value:
            return
        if value is None:
            self.pads.pop(pad, None)
        else:
            self.pads[pad] = value
        line = json.dumps({"p": [pad, value]}) + "\n"
        if self.held:
            self.held.append(line)  # behind the events held before it
        else:
            self._write([line])

    def due(self, now, resend_ms):
        """Entries to publish now: never sent on this link, or unacked for resend_ms."""
        out = []
        for e in self.pending:
            if e.sent_at is None or ticks_diff(now, e.sent_at) >= resend_ms:
                out.append(e)
        return out

    def mark_all_due(self, keep_pids=()):
        """After a reconnect: everything unacked is due again, except packets still in flight."""
        for e in self.pending:
            if e.pid not in keep_pids:
                e.sent_at = None


def event_line(entry):
    """The log line of an event, from its payload bytes."""
    return '{"e": ' + entry.payload.decode() + "}\n"

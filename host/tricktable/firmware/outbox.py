"""Outbox: events numbered (board, boot, seq), kept on flash until acked; RAM holds a window.

Every unacknowledged event is a record in an append-only log on flash. RAM holds only the
keys and log offsets of the oldest ``WINDOW`` (16) of them, the events the board publishes
and resends; the rest wait on flash behind a cursor (their number and where the first one
starts) and move into the window, oldest first, as acks make room. So a board keeps a whole
night's plays with the host gone (``max_pending``, 2,048 by default: firmware/README.md,
"Outbox") in the RAM of 16, and the host receives them in the order they were played.

An event added with ``hold_at`` is held back from flash ("publish first, write after",
docs/cardpath.md): the app publishes it at once and ``settle`` writes it once nothing held
waits for its ack, or ``hold_ms`` after the first was held, whichever comes first; an event
acked while held is never written. Pad states set while anything is held wait behind it,
so the two reach flash in the order they happened. Without ``hold_at``, or behind a full
window, an event is written at once (with everything held before it).

Imports binascii and compat only (and outboxload.py, which reads the boot counter and the
log back at boot, refills the window from flash and compacts the log, each time for the call:
a running board keeps none of that code in its heap). Flash layout in ``directory``:

* ``boot``   - the boot counter, incremented once per start (the boot id); it starts at a
  random value, so an erased or replaced board never repeats a journaled key;
* ``outbox`` - the log, one record a line: 8 hex digits of the body's CRC-32, a space, the
  body, a newline. Bodies: ``e BOOT SEQ T PAD UID REC`` an event (REC ``-`` when there is
  none; its JSON payload is rebuilt from these fields, ``event_json``), ``a BOOT SEQ`` an
  acknowledgement, ``p PAD UID`` what lies on a pad (UID ``-``: nothing). A record cut short
  by a power cut (no newline, or a checksum that does not match) is dropped on load and the
  log rewritten without it. Once it is past ``max_bytes`` and more than half of it is dead
  (acked events, acks, old pad states) it is compacted: rewritten to ``outbox.tmp`` with the
  pad states and the unacked events only, then renamed over; a power cut leaves either the
  old or the new log, and each byte appended is rewritten about once at most.

A write the file system refuses (ENOSPC: no room left; firmware/README.md, "A full flash")
changes nothing in RAM and sets ``full``: plays are refused (OutboxFull) until a compaction
stands, which later writes try instead of appending (a torn tail cut off).
"""

from binascii import crc32

from compat import borrowed, hexlify, ticks_diff

WINDOW = 16  # unacked events whose keys RAM holds; the others wait on flash


class OutboxFull(Exception):
    """As many unacknowledged events as the outbox may hold."""


class Entry:
    """One unacknowledged event in the window: its key, where its record is on flash (or
    the record itself while held back from flash), and when it was last sent."""

    def __init__(self, boot, seq, at, size=0):
        self.boot = boot
        self.seq = seq
        self.at = at  # offset of its record in the log; the record itself (str) while held
        self.size = size  # its record's length on flash
        self.sent_at = None  # ticks_ms of the last publish, None = due now
        self.pid = 0  # MQTT packet id of the last publish


class Outbox:
    """The board's durable queue of pad events and its memory of what lies on each pad."""

    def __init__(self, directory, board, max_bytes=8192, max_pending=2048):
        # its fields (outboxload.load) and the log read back: boot-time code, not kept in RAM
        borrowed("outboxload").load(self, directory, board, max_bytes, max_pending)

    def _drop(self, boot, seq):
        """Take (boot, seq) out of the window, refilled from flash; its Entry, or None."""
        for i in range(len(self.pending)):
            e = self.pending[i]
            if e.boot == boot and e.seq == seq:
                self.pending.pop(i)
                if self.queued and len(self.pending) <= WINDOW // 2:
                    borrowed("outboxload").refill(self)  # half the window from flash
                return e
        return None

    def _write(self, items):
        """Append records (an Entry held back: its record, and from now on its offset). False,
        RAM unchanged, when the file system refuses them (ENOSPC: firmware/README.md, "A
        full flash"): ``full`` is then set, and a later write compacts the log instead
        (outboxload.compact: what ``items`` say is then in it, a torn tail cut off), once
        there is more for it to drop than at the last compaction (``full`` is 1 + ``dead``
        then: one field for both, the Outbox's 17th, which costs no heap; an 18th would)."""
        if self.full:
            return self.dead + 1 != self.full and borrowed("outboxload").compact(self)
        try:
            with open(self.dir + "/outbox", "a") as f:
                for item in items:
                    f.write(item.at if item.__class__ is Entry else item)
        except OSError:
            self.full = 1  # a compaction tried once there is something to drop
            return False
        for item in items:
            line = item
            if item.__class__ is Entry:
                line = item.at
                item.at = self.size
                item.size = len(line)
            self.size += len(line)
        self.writes += 1
        if self.size > self.max_bytes and 2 * self.dead > self.size:
            borrowed("outboxload").compact(self)
        return True

    def add(self, pad, uid, rec, t, hold_at=None):
        """Number a placement and queue it. In the window: return its Entry, written to flash
        at once or, with ``hold_at`` (ticks_ms), held back until ``settle`` (module
        docstring). Behind a full window: written at once, return None. OutboxFull when
        ``max_pending`` events wait, or when the flash has no room (``full``: a compaction
        tried first if it could drop more; the play is not kept, its seq left unused)."""
        if self.full and not self._write([]) or len(self.pending) + self.queued >= self.max_pending:
            raise OutboxFull("%d events wait for the host's ack, or the flash is full"
                             % self.max_pending)
        self.seq += 1
        body = "e %d %d %d %d %s %s" % (self.boot, self.seq, t, pad, hexlify(uid),
                                        "-" if rec is None else hexlify(rec))
        if self.queued or len(self.pending) >= WINDOW:
            self.settle()  # what is held goes first: the log keeps the order of play
            if not self.queued:
                self.cursor = self.size
            self.queued += 1
            if self.full or not self._write([record(body)]):  # refused (or what was held)
                self.queued -= 1
                raise OutboxFull  # no room (the next card's refusal says so)
            return None
        entry = Entry(self.boot, self.seq, record(body))
        self.pending.append(entry)
        if not self.held:
            self.held_at = hold_at or 0
        self.held.append(entry)
        if hold_at is None:
            self.settle()
            if self.held:  # refused: nothing of it kept, the card stays on its pad
                self.pending.pop()
                self.held.pop()
                raise OutboxFull  # no room (the next card's refusal says so)
        return entry

    def payload(self, entry):
        """The event's JSON bytes as published, rebuilt from its record (read back from flash
        once written: only the window's keys and offsets stay in RAM)."""
        line = entry.at
        if line.__class__ is int:
            with open(self.dir + "/outbox", "rb") as f:
                f.seek(entry.at)
                line = f.readline().decode()
        return event_json(self.board, line[9:-1])

    def settle(self, now=None, hold_ms=0):
        """Write what is held back: at once without ``now``; else once no held event waits
        for its ack, or ``hold_ms`` after the oldest was held. Return the ms left before it
        must be written, 0 once written, None when nothing is held."""
        if not self.held:
            return None
        if now is not None:
            for item in self.held:
                if item.__class__ is Entry:  # an event waits for its verdict's ack
                    left = hold_ms - ticks_diff(now, self.held_at)
                    if left > 0:
                        return left
                    break
        if self._write(self.held):  # else held until a write succeeds
            self.held = []
        return 0

    def ack(self, boot, seq):
        """The host journaled (boot, seq): forget it (never written if still held). False if
        it is not in the window (not pending, or not yet sent: it is sent again later)."""
        e = self._drop(boot, seq)
        if e is None:
            return False
        if e.at.__class__ is str:  # held back: never written
            self.held.remove(e)
            return True
        line = record("a %d %d" % (boot, seq))
        self.dead += e.size + len(line)
        self._write([line])
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
        line = record("p %d %s" % (pad, value or "-"))
        self.dead += len(line)  # superseded by the next state (a compaction writes the pads)
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


def record(body):
    """A log record (str): the body's CRC-32 in 8 hex digits, a space, the body, a newline."""
    return "%08x %s\n" % (crc32(body.encode()) & 0xFFFFFFFF, body)


def event_json(board, body):
    """An event record's body (``e BOOT SEQ T PAD UID REC``) as the JSON the host decodes
    (docs/protocol.md, "PadEvent")."""
    f = body.split(" ")
    return ('{"v": 1, "board": "%s", "boot": %s, "seq": %s, "t": %s, "pad": %s, "kind": "place", '
            '"uid": "%s"%s}' % (board, f[1], f[2], f[3], f[4], f[5],
                                "" if f[6] == "-" else ', "rec": "%s"' % f[6])).encode()

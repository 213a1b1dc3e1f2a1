"""Pad scanner: presence, debounce, stacked cards and misreads for one reader, in a budget.

Imports compat and pn532 (for its exceptions) only. A card placed is reported once with its
UID and the 16 bytes from page 4 (the tag record); a card left lying is not reported again;
removal is declared only after ``misses_to_remove`` polls in a row that do not see it
(7-byte-UID tags vanish on alternate polls); the same card placed again after removal is a
new placement (the host's rules refuse a card played twice: docs/cardpath.md). A reader that keeps failing
is reset through its reset pin, in the scan after its last failure.

One pad's scan (its poll, and the reads of a new card) ends within the driver's
``TIMEOUT_MS`` (one pad's scan budget): every driver call gets what is left of it, so a chip
that answers late delays the other pads of the board by at most one budget per cycle,
never by its own lateness.

A second card laid on a card that lies on the pad is not a play. The reader reports one tag
of a stack (the anticollision winner); when that is not the card lying there, the pad
selects that card by its UID: if it answers, the new card lies on top of it, and ``scan``
returns "stacked" (at each such scan) and reports nothing until one of the two is lifted;
the card left alone is then played if it was not yet. When the card lying there wins the
anticollision, the one on top is not seen at all until it is lifted: no play either.

A misread never becomes a card: the reader's CRC_A and frame checksums catch what they can,
and a failed or short READ is read again at the next scan; a record that is not ours (no MAC
the host could check) has its UID confirmed by a second READ (pages 0-3 hold the UID).
After ``READ_TRIES`` failed reads in a row the pad gives up on the card: ``scan`` returns
"read_again" (lift the card and place it again) and the card counts as lying, unplayed,
until it has left the pad: until ``misses_to_remove`` polls in a row find no card at all.
Whatever answers the polls till then is taken for that card, so a foreign card is one
signal per placement: a phone (ISO/IEC 14443-3 random UIDs, a new one each time it is
selected: UIDs starting 08) or a card of another kind on a pad would otherwise be a new
card at every poll, read, refused and given up on again and again.

Health counters, small ints that only grow: ``reads`` (records read, a card reported) and
``misreads`` (reads of a new card that failed or did not confirm, read again); the reader's
own ``errors`` (frames sent again) and ``resets`` complete a pad's health (BoardStatus).
"""

from compat import const, ticks_diff, ticks_ms
from pn532 import PN532Error

_RECORD_PAGE = const(4)
READ_TRIES = 3


def scan_order(enabled, lights):
    """The pads to poll in one scan cycle: each enabled pad once, and the pad whose seat is
    to play (its light, in ``lights``: SeatFeedback.state, is the host's blue) again after
    every other pad, so the card the table waits for is seen within about two pad polls
    instead of a whole cycle."""
    for turn in enabled:
        if lights[turn][0] == "blue" and len(enabled) > 2:
            order = []
            for i in enabled:
                if i != turn:
                    order += (turn, i)
            return order
    return enabled


class Pad:
    """One play pad: a reader and what lies on it."""

    FAILURES_TO_RESET = 3

    def __init__(self, index, reader, misses_to_remove=3, present=None):
        if misses_to_remove < 1:
            raise ValueError("misses_to_remove must be at least 1")
        self.index = index
        self.reader = reader
        self.misses_to_remove = misses_to_remove
        self.present = present  # UID of the card lying on the pad (played or given up on)
        self.given_up = False  # ``present`` could not be read: any card answering is it
        self.misses = 0  # polls in a row that did not see the card lying
        self.failures = 0
        self.failed_reads = 0  # reads in a row that failed
        self.ok = False
        self.placements = 0
        self.changed = False
        self.reads = 0
        self.misreads = 0

    async def start(self):
        """Configure the reader; False (and not ok) if it does not answer."""
        try:
            await self.reader.begin()
            self.ok = True
        except PN532Error:
            self.ok = False
        return self.ok

    async def scan(self):
        """Poll once. Return (uid, record or None) for a new placement, a signal for the
        seat's light ("stacked", "read_again"), or None.

        ``changed`` is set when ``present`` changed (placement or removal), so the caller
        can persist it.
        """
        self.changed = False
        start = ticks_ms()
        reader = self.reader
        if self.failures >= self.FAILURES_TO_RESET:  # this scan resets the reader
            self.ok = False
            self.failures = 0
            try:
                await reader.recover()
                self.ok = True
            except PN532Error:
                pass
            return None
        try:
            uid = await reader.poll(self._left(start))
            self.failures = 0
            self.ok = True
            if uid is None:
                self.failed_reads = 0
                self._unseen()
                return None
            if uid == self.present or (self.given_up and self.present is not None):
                self.misses = 0
                return None
            if self.present is not None:
                if await reader.poll(self._left(start), self.present) is not None:
                    self.misses = 0  # the played card answers: uid lies on top of it
                    return "stacked"
                self._unseen()
                if self.present is not None:
                    return None  # the played card not yet gone for sure: nothing new yet
            record = await self._read_record(uid, start)
        except PN532Error:
            self.failures += 1
            return None
        if record is None:
            self.misreads += 1
            self.failed_reads += 1
            if self.failed_reads >= READ_TRIES:
                self.failed_reads = 0
                self.present = uid  # lying, not played: read again once it has left
                self.given_up = True
                self.changed = True
                return "read_again"
            return None
        self.failed_reads = 0
        self.present = uid
        self.given_up = False
        self.misses = 0
        self.changed = True
        self.placements += 1
        self.reads += 1
        return uid, record

    def hold_back(self):
        """Undo the placement just reported (it could not be queued): it is seen again."""
        self.present = None
        self.changed = False
        self.placements -= 1

    def _left(self, start):
        return max(1, self.reader.TIMEOUT_MS - ticks_diff(ticks_ms(), start))

    def _unseen(self):
        """The card lying was not seen by this poll."""
        if self.present is None:
            return
        self.misses += 1
        if self.misses >= self.misses_to_remove:
            self.misses = 0
            self.present = None
            self.given_up = False
            self.changed = True

    async def _read_record(self, uid, start):
        """The 16-byte record of the tag with this UID, or None if it could not be read
        surely: a record not ours (FD 0E: a MAC the host checks) needs pages 0-3 to hold
        this UID too (a second, independent read of it)."""
        try:
            record = await self.reader.read16(_RECORD_PAGE, self._left(start))
            if record[0] == 0xFD and record[1] == 0x0E:
                return record
            p = await self.reader.read16(0, self._left(start))
        except PN532Error:
            return None
        return record if (p[0:3] + p[4:8] if len(uid) == 7 else p[0:4]) == uid else None

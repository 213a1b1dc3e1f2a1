"""Pad scanner: presence and debounce for one reader.

Imports pn532 (for its exceptions) only. A card placed is reported once with its UID and
the 16 bytes from page 4 (the tag record); a card left lying is not reported again;
removal is declared only after ``misses_to_remove`` empty polls in a row (7-byte-UID tags
vanish on alternate polls); the same card placed again after removal is a new placement.
A reader that keeps failing is reset through its reset pin.
"""

from pn532 import PN532Error

RECORD_PAGE = 4


class Pad:
    """One play pad: a reader and what lies on it."""

    def __init__(self, index, reader, misses_to_remove=3, failures_to_reset=3, present=None):
        if misses_to_remove < 1:
            raise ValueError("misses_to_remove must be at least 1")
        self.index = index
        self.reader = reader
        self.misses_to_remove = misses_to_remove
        self.failures_to_reset = failures_to_reset
        self.present = present  # UID bytes of the card lying on the pad, or None
        self.misses = 0
        self.failures = 0
        self.record_failures = 0
        self.ok = False
        self.placements = 0
        self.changed = False

    async def start(self):
        """Configure the reader; False (and not ok) if it does not answer."""
        try:
            await self.reader.begin()
            self.ok = True
        except PN532Error:
            self.ok = False
        return self.ok

    async def scan(self):
        """Poll once. Return (uid, record or None) for a new placement, else None.

        ``changed`` is set when ``present`` changed (placement or removal), so the caller
        can persist it.
        """
        self.changed = False
        try:
            uid = await self.reader.poll()
        except PN532Error:
            await self._failed()
            return None
        self.failures = 0
        self.ok = True
        if uid is None:
            self.misses += 1
            if self.present is not None and self.misses >= self.misses_to_remove:
                self.present = None
                self.changed = True
            return None
        self.misses = 0
        if uid == self.present:
            return None
        record = await self._read_record()
        if record is None and self.record_failures < 3:
            return None  # try the read again on the next poll
        self.record_failures = 0
        self.present = uid
        self.changed = True
        self.placements += 1
        return uid, record

    def hold_back(self):
        """Undo the placement just reported (it could not be queued): it is seen again."""
        self.present = None
        self.changed = False
        self.placements -= 1

    async def _read_record(self):
        try:
            return await self.reader.read16(RECORD_PAGE)
        except PN532Error:
            self.record_failures += 1
            return None

    async def _failed(self):
        self.failures += 1
        if self.failures < self.failures_to_reset:
            return
        self.ok = False
        self.failures = 0
        try:
            await self.reader.recover()
            self.ok = True
        except PN532Error:
            pass

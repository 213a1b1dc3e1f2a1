"""The service's health: failing storage, handling faults, poison messages, flooding boards.

Bookkeeping only, no I/O: the service tells :class:`Health` what happened and publishes
``status()`` (a ``HostStatus``, retained on ``{p}/v1/host/status``) whenever a call says the
status changed. Three rules live here:

- **Storage.** ``storage_failed(why)`` while the journal cannot store; ``storage_back()`` once
  it can. While failing, the tables show :data:`STORAGE_DISPLAY`.
- **Poison.** A message whose handling fails ``POISON_AFTER`` times (counted across restarts
  by the journal) is refused for good: journaled as refused, acknowledged, shown.
- **Flooding.** At most ``REFUSED_PER_MINUTE`` refused messages per source (a board, or a
  table's control topic) are journaled and announced in one minute; the rest are counted, and
  the source is named in ``flooding`` until a minute passes within the cap.
"""

from __future__ import annotations

from tricktable.protocol import Display, HostStatus

POISON_AFTER = 3
REFUSED_PER_MINUTE = 30
WINDOW_S = 60.0

STORAGE_DISPLAY = Display(text8="DISK ERR",
                          lines=["HOST CANNOT SAVE", "PLAYS ON HOLD", "PLEASE WAIT"])


class Health:
    """What the status topic says; each method returns True when that changed."""

    def __init__(self) -> None:
        self.failing: str | None = None  # why storage fails, or None
        self.faults = 0
        self.poisoned = 0
        self.last_fault = ""
        self._windows: dict[str, tuple[float, int]] = {}  # source -> (window start, refusals)
        self.dropped: dict[str, int] = {}  # refusals not journaled, per source

    def status(self) -> HostStatus:
        return HostStatus(online=True, storage="failing" if self.failing else "ok",
                          detail=(self.failing or "")[:300], faults=self.faults,
                          poisoned=self.poisoned, last_fault=self.last_fault[:300],
                          flooding=sorted(self._flooding()))

    def storage_failed(self, why: str) -> bool:
        changed = self.failing is None
        self.failing = why
        return changed

    def storage_back(self) -> bool:
        changed = self.failing is not None
        self.failing = None
        return changed

    def fault(self, where: str, error: BaseException) -> None:
        self.faults += 1
        self.last_fault = f"{where}: {type(error).__name__}: {error}"

    def poison(self) -> None:
        self.poisoned += 1

    def refusal(self, source: str, now: float) -> tuple[bool, bool]:
        """One more refused message from ``source``: (journal and announce it?, status changed?)."""
        before = self._flooding()
        start, count = self._windows.get(source, (now, 0))
        if now - start >= WINDOW_S:
            start, count = now, 0
            self.dropped.pop(source, None)
        self._windows[source] = (start, count + 1)
        within = count < REFUSED_PER_MINUTE
        if not within:
            self.dropped[source] = self.dropped.get(source, 0) + 1
        return within, self._flooding() != before

    def calm(self, now: float) -> bool:
        """Forget sources whose minute has passed; True if ``flooding`` changed."""
        before = self._flooding()
        for source, (start, _count) in list(self._windows.items()):
            if now - start >= WINDOW_S:
                del self._windows[source]
                self.dropped.pop(source, None)
        return self._flooding() != before

    def _flooding(self) -> set[str]:
        return set(self.dropped)

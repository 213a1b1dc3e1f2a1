"""What the boards' statuses say about their health: one row per board, with its flags.

``FleetHealth.seen(board, status)`` takes every ``BoardStatus`` as it comes; ``rows()`` gives
the fleet page's rows. A board is flagged when it is offline, when a pad's reader is down,
when a reader is weak (reads of a card that failed and were read again, PN532 frames failed
and sent again, or reader resets, for many of its tries: a pad that needs a second go at a
card), when it restarted while watched (its boot id changed: power, the watchdog, a crash,
an update), when it refused part of its config.json, when a phone's battery runs low, when an
update was refused or rolled back, or when two boards answer to its id (a config.json copied by
hand: their statuses take turns under two boot ids, where a board that restarts never goes back
to a boot id it left; or a status saying its session was taken again and again, which the
doctor sees at once). No I/O.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tricktable.protocol import BoardStatus

WEAK_MISS_RATE = 0.2  # misreads per card read or misread above which a reader is weak
WEAK_ERRORS_PER_TRY = 0.2  # failed frames per card read or misread above which a reader is weak
WEAK_MIN_READS = 10  # ... judged only once the pad has read (or misread) this many cards
WEAK_RESETS = 3  # resets of one reader that flag it whatever its reads
WEAK_ERRORS = 25  # failed frames that flag a reader when the board does not send its reads
LOW_BATTERY = 20  # percent: a phone reader below this, off its charger, is flagged


def _at(counts: list[int], pad: int) -> int:
    return counts[pad] if pad < len(counts) else 0


def weak_reader(status: BoardStatus, pad: int) -> str | None:
    """Why this pad's reader is weak, or None: misreads above ``WEAK_MISS_RATE`` of its
    tries, failed frames above ``WEAK_ERRORS_PER_TRY`` of them, or ``WEAK_RESETS``
    resets; a board that sends no read counts is judged by its failed frames alone."""
    misses, errors = _at(status.misses, pad), _at(status.reader_errors, pad)
    resets = _at(status.reader_resets, pad)
    if pad >= len(status.reads):
        weak = errors >= WEAK_ERRORS
        counts = f"{errors} errors, {resets} resets"
    else:
        reads = status.reads[pad]
        tries = reads + misses
        weak = tries >= WEAK_MIN_READS and (misses > WEAK_MISS_RATE * tries
                                            or errors > WEAK_ERRORS_PER_TRY * tries)
        counts = f"{misses} misses, {errors} errors, {resets} resets in {reads} reads"
    return counts if weak or resets >= WEAK_RESETS else None


TWIN_BOOTS_KEPT = 8  # boot ids remembered per board to tell twins from restarts
TWIN_TAKEN = 3  # sessions taken from a board since its boot that name a twin


def twins(boots: list[int]) -> bool:
    """True when the online statuses' boot ids (oldest first) went back to one they had left:
    two boards answer to one id (a restart always brings a new boot id)."""
    return any(boots[i] in boots[:i - 1] for i in range(2, len(boots)))


def twin_flag(status: BoardStatus, boots: list[int] | None) -> str | None:
    """The twin flag, or None: boot ids taking turns (``twins``), or a board whose session
    was taken ``TWIN_TAKEN`` times since it booted (its status's ``taken``)."""
    fix = "give each its own (`tricktable board setup`)"
    if boots is not None and twins(boots):
        seen = ", ".join(map(str, sorted(set(boots))))
        return f"two boards answer to this id (boots {seen} take turns): {fix}"
    if status.taken is not None and status.taken >= TWIN_TAKEN:
        return (f"two boards answer to this id (its session was taken {status.taken} times "
                f"since it booted): {fix}")
    return None


def flags(status: BoardStatus, restarts: int, boots: list[int] | None = None) -> list[str]:
    """The flags of one board, plain words for the fleet page; ``boots``: the boot ids of its
    online statuses, oldest first (``twins``)."""
    out = []
    twin = twin_flag(status, boots)
    if twin is not None:
        out.append(twin)
    if not status.online:
        out.append("offline")
    out += [f"pad {pad}: reader down" for pad in status.faults]
    pads = max(len(status.reads), len(status.misses), len(status.reader_errors),
               len(status.reader_resets))
    for pad in range(pads):
        if (why := weak_reader(status, pad)) is not None:
            out.append(f"pad {pad}: weak reader ({why})")
    if status.battery is not None and status.battery < LOW_BATTERY and not status.charging:
        out.append(f"battery {status.battery} %: plug the phone in")
    if status.config:
        out.append(f"config.json: {status.config}")
    if restarts and twin is None:  # a twin's first turn looked like a restart
        out.append(f"restarted {restarts} time{'s' if restarts > 1 else ''}")
    update = status.update
    if update is not None and update.state in ("refused", "rolled_back"):
        out.append(f"update {update.version} {update.state.replace('_', ' ')}: "
                   f"{update.reason or ''}".rstrip(": "))
    return out


class FleetHealth:
    """Every board's latest status and the restarts seen since this started watching."""

    def __init__(self) -> None:
        self._status: dict[str, BoardStatus] = {}
        self._boots: dict[str, list[int]] = {}  # boot ids of online statuses, changes only
        self._restarts: dict[str, int] = {}

    def seen(self, board: str, status: BoardStatus) -> None:
        if status.online and status.boot is not None:
            boots = self._boots.setdefault(board, [])
            if boots and boots[-1] != status.boot:
                if status.boot not in boots:  # a twin's boot going back is no restart
                    self._restarts[board] = self._restarts.get(board, 0) + 1
            if not boots or boots[-1] != status.boot:
                boots.append(status.boot)
                del boots[:-TWIN_BOOTS_KEPT]
        self._status[board] = status

    def forget(self, board: str) -> None:
        self._status.pop(board, None)

    def rows(self) -> list[dict[str, Any]]:
        """One row per board, by name: its status as sent, ``restarts`` and ``flags``."""
        out = []
        for board, status in sorted(self._status.items()):
            restarts = self._restarts.get(board, 0)
            row = msgspec.to_builtins(status)
            row.update(board=board, restarts=restarts,
                       flags=flags(status, restarts, self._boots.get(board)))
            out.append(row)
        return out

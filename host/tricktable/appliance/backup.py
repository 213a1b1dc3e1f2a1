"""Backups of a night: the night file, the journal and the players (club) database, copied
consistently after every game and at the night's end, and brought back by ``restore``.

``take(settings, reason)`` writes one folder ``BACKUPS/YYYYmmdd-HHMMSS-REASON`` holding
``night.json``, ``journal.sqlite`` and ``club.sqlite`` (those that exist), the databases
copied with SQLite's online backup API (a consistent copy of a database in use, never a
file copy of a live one), then keeps the last ``keep`` folders. ``Watcher`` reads the night
file every second and takes one each time a game is finished (the night's games grow) and
when the night is over. ``restore(settings, folder)`` writes a backup's files back in place
(the databases again through the backup API) and is refused while ``up`` runs.
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tricktable.appliance.settings import Settings
from tricktable.club.errors import ClubError
from tricktable.club.store import load_night, write_atomically

log = logging.getLogger(__name__)
NIGHT, JOURNAL, PLAYERS = "night.json", "journal.sqlite", "club.sqlite"
POLL_S = 1.0


class BackupError(RuntimeError):
    """A backup that cannot be taken or restored; the message says which file and why."""


def _copy_db(source: Path, target: Path) -> None:
    """``source`` into ``target`` through SQLite's online backup API (pages copied under a
    read transaction, so a writer in another process leaves a consistent copy)."""
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
        try:
            dst = sqlite3.connect(target, timeout=30)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.Error as exc:
        raise BackupError(f"cannot copy {source} to {target}: {exc}") from None


def sources(settings: Settings) -> dict[str, Path]:
    """What a backup holds, by its name in the backup: the files that exist."""
    named = {NIGHT: settings.night, JOURNAL: settings.journal, PLAYERS: settings.club_db}
    return {name: path for name, path in named.items() if path is not None and path.exists()}


def take(settings: Settings, reason: str) -> Path:
    """One backup now; the folder it is in. Older ones beyond ``settings.keep`` go."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = settings.backups / f"{stamp}-{reason}"
    number = 1
    while folder.exists():
        number += 1
        folder = settings.backups / f"{stamp}-{reason}-{number}"
    temp = folder.with_name(folder.name + ".partial")
    try:
        temp.mkdir(parents=True)
        for name, path in sources(settings).items():
            if name == NIGHT:
                write_atomically(temp / name, path.read_text(encoding="utf-8"))
            else:
                _copy_db(path, temp / name)
        temp.rename(folder)
    except OSError as exc:
        shutil.rmtree(temp, ignore_errors=True)
        raise BackupError(f"cannot back up to {settings.backups}: {exc}") from None
    for old in listing(settings)[:-settings.keep]:
        shutil.rmtree(old, ignore_errors=True)
    return folder


def listing(settings: Settings) -> list[Path]:
    """The backups, oldest first."""
    if not settings.backups.is_dir():
        return []
    return sorted(p for p in settings.backups.iterdir()
                  if p.is_dir() and not p.name.endswith(".partial"))


def restore(settings: Settings, folder: Path) -> list[str]:
    """Put a backup's files back where the settings say; the names restored."""
    if not folder.is_dir():
        raise BackupError(f"no backup at {folder}")
    targets = {NIGHT: settings.night, JOURNAL: settings.journal, PLAYERS: settings.club_db}
    done = []
    for name, target in targets.items():
        source = folder / name
        if not source.exists():
            continue
        if target is None:
            raise BackupError(f"the backup has {name} but the club file names no place for it")
        target.parent.mkdir(parents=True, exist_ok=True)
        if name == NIGHT:
            write_atomically(target, source.read_text(encoding="utf-8"))
        else:
            _copy_db(source, target)
        done.append(name)
    return done


def _progress(night: Path | None) -> tuple[int, bool] | None:
    """(games finished, the night is over), or None when the night cannot be read now."""
    if night is None:
        return None
    try:
        tournament = load_night(night)
    except (ClubError, OSError, json.JSONDecodeError):
        return None
    return len(tournament.games), tournament.finished


class Watcher:
    """Takes a backup each time the night's finished games grow, and when it is over."""

    def __init__(self, settings: Settings, say: Callable[[str], None]) -> None:
        self.settings, self.say = settings, say
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="backups", daemon=True)
        self._seen = _progress(settings.night)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        while not self._stop.wait(POLL_S):
            now = _progress(self.settings.night)
            if now is None or now == self._seen:
                continue
            if self._seen is not None and now[0] < self._seen[0]:
                self._seen = now  # a bell taken back: nothing new to keep
                continue
            self._seen = now
            reason = "night-over" if now[1] else f"game-{now[0]}"
            try:
                self.say(f"backup after {reason.replace('-', ' ')}: {take(self.settings, reason)}")
            except BackupError as exc:
                self.say(f"BACKUP FAILED: {exc}")

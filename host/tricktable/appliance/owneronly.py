"""The club's data readable by its owner only: what ``up`` keeps (the journal, the club
database with its hidden players and member tags, the night file, the backups, the log, the
broker's files and the secrets) is 0600 in folders of 0700, so another user of the club's
machine reads none of it.

``make_owner_only(paths, folders)`` is called by ``up`` before any part starts: it sets the
process's umask to 0077 (every file up and its parts make from then on is the owner's alone)
and takes the group's and others' bits off the files and folders that exist already (an older
club's 0644 journal, say), with an SQLite file's ``-wal`` and ``-shm`` beside it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

UMASK = 0o077


def _private(path: Path) -> None:
    try:
        info = path.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode) or info.st_uid != os.getuid():
        return  # a link, or not ours: left as it is
    if info.st_mode & 0o077:
        os.chmod(path, stat.S_IMODE(info.st_mode) & 0o700)


def make_owner_only(files: Iterable[Path], folders: Iterable[Path]) -> None:
    """Umask 0077 from now on; ``files`` (and their SQLite side files) and ``folders`` (with
    everything in them) made the owner's alone."""
    os.umask(UMASK)
    for path in files:
        for one in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            _private(one)
    for folder in folders:
        _private(folder)
        if folder.is_dir():
            for inside in folder.rglob("*"):
                _private(inside)

"""Files that hold secrets (passwords, keys, tokens, the club key's registry): made readable by
their owner only from the first byte, replaced in one rename, and read with a clear error.

``write_private(path, data)`` writes through a temporary file created 0600 (never readable by
others for an instant, whatever the umask) and renames it over ``path``; with
``keep_mode=True`` a file that exists keeps its mode and owner (Debian's mosquitto password
file is root:mosquitto 0640). ``keep_private(database)`` makes an SQLite file (and its -wal
and -shm) owner-only.
``read_secret(path, what)`` returns a secret file's first line.
"""

from __future__ import annotations

import os
from pathlib import Path

PRIVATE = 0o600


class SecretFileError(RuntimeError):
    """A secret file that cannot be read or is empty; the message names it."""


def write_private(path: Path, data: bytes | str, keep_mode: bool = False) -> None:
    """Replace ``path`` with ``data``, owner-only (or as the old file was, ``keep_mode``)."""
    raw = data.encode() if isinstance(data, str) else data
    temp = path.with_name(path.name + ".new")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
    with os.fdopen(fd, "wb") as out:
        out.write(raw)
    if keep_mode and path.exists():
        old = path.stat()
        os.chmod(temp, old.st_mode & 0o777)
        try:
            os.chown(temp, old.st_uid, old.st_gid)
        except PermissionError:
            pass  # not root: the file stays ours, as it was
    else:
        os.chmod(temp, PRIVATE)  # a .new left by a crash kept its own mode
    os.replace(temp, path)


def keep_private(database: Path) -> None:
    """Make an SQLite database that holds secrets owner-only before it is opened: created
    empty 0600 when missing (SQLite then gives its -wal and -shm files the same mode), and an
    older one readable by others, with its side files, made 0600 (when it is ours)."""
    try:
        os.close(os.open(database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
        return
    except FileExistsError:
        pass
    for path in (database, database.with_name(database.name + "-wal"),
                 database.with_name(database.name + "-shm")):
        try:
            mode = path.stat().st_mode & 0o777
            if mode & 0o077:
                os.chmod(path, mode & 0o700)
        except (FileNotFoundError, PermissionError):
            pass  # no side file, or not ours: left as it is


def read_secret(path: Path, what: str) -> str:
    """The first line of the secret file ``path``; SecretFileError when unreadable or empty."""
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SecretFileError(f"cannot read the {what} {path}: {exc}") from None
    if not lines or not lines[0].strip():
        raise SecretFileError(f"the {what} {path} is empty")
    return lines[0].strip()

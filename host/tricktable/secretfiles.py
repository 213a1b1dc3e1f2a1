"""Files that hold secrets (passwords, keys, tokens, the club key's registry): made readable by
their owner only from the first byte, replaced in one rename, and read with a clear error.

``write_private(path, data)`` writes through a temporary file of a random name in ``path``'s
own folder, created with ``O_CREAT|O_EXCL|O_NOFOLLOW`` and mode 0600 (never readable by others
for an instant, whatever the umask; never a file or a link someone else made there), and
renames it over ``path``. The folder must be one only its owner (this user, or root) can
write: a folder that is missing is made 0700, one that others may write is refused
(:class:`SecretFileError`), since whoever can write it could swap the file. With
``keep_mode=True`` a file that exists keeps its mode and owner (Debian's mosquitto password
file is root:mosquitto 0640). ``keep_private(database)`` makes an SQLite file (and its -wal
and -shm) owner-only. ``read_secret(path, what)`` returns a secret file's first line.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

PRIVATE = 0o600
PRIVATE_DIR = 0o700
CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class SecretFileError(OSError):
    """A secret file that cannot be read, written safely or is empty; the message names it."""


def private_folder(folder: Path) -> None:
    """Make ``folder`` 0700 when missing; refuse one that another user could write (its owner
    is not this user or root, or group or others may write it)."""
    try:
        folder.mkdir(mode=PRIVATE_DIR, parents=True)
    except FileExistsError:
        pass
    info = folder.lstat()
    if not stat.S_ISDIR(info.st_mode):
        raise SecretFileError(f"{folder} is not a folder (a link or a file): a secret is "
                              f"written only into a folder of its own owner")
    if info.st_uid not in (os.getuid(), 0) or info.st_mode & 0o022:
        raise SecretFileError(
            f"{folder} may be written by others ({stat.filemode(info.st_mode)}, owner uid "
            f"{info.st_uid}): they could read or swap a secret written there; keep secrets in "
            f"a folder only you can write (chmod go-w {folder})")


def write_private(path: Path, data: bytes | str, keep_mode: bool = False) -> None:
    """Replace ``path`` with ``data``, owner-only (or as the old file was, ``keep_mode``)."""
    raw = data.encode() if isinstance(data, str) else data
    private_folder(path.parent)
    temp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.new")
    fd = os.open(temp, CREATE, PRIVATE)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
            if keep_mode and path.exists():
                old = path.stat()
                os.fchmod(out.fileno(), old.st_mode & 0o777)
                try:
                    os.fchown(out.fileno(), old.st_uid, old.st_gid)
                except PermissionError:
                    pass  # not root: the file stays ours, as it was
            else:
                os.fchmod(out.fileno(), PRIVATE)  # the umask may have taken bits from 0600
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def keep_private(database: Path) -> None:
    """Make an SQLite database that holds secrets owner-only before it is opened: created
    empty 0600 when missing (SQLite then gives its -wal and -shm files the same mode), and an
    older one readable by others, with its side files, made 0600 (when it is ours). A link
    in its place is refused."""
    try:
        os.close(os.open(database, CREATE, PRIVATE))
        return
    except FileExistsError:
        pass
    for path in (database, database.with_name(database.name + "-wal"),
                 database.with_name(database.name + "-shm")):
        try:
            info = path.lstat()
        except FileNotFoundError:
            continue  # no side file
        if stat.S_ISLNK(info.st_mode):
            raise SecretFileError(f"{path} is a link: a secret database is opened only as a "
                                  f"file of its own")
        if info.st_mode & 0o077 and info.st_uid == os.getuid():
            os.chmod(path, info.st_mode & 0o700)


def read_secret(path: Path, what: str) -> str:
    """The first line of the secret file ``path``; SecretFileError when unreadable or empty."""
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SecretFileError(f"cannot read the {what} {path}: {exc}") from None
    if not lines or not lines[0].strip():
        raise SecretFileError(f"the {what} {path} is empty")
    return lines[0].strip()

"""The broker's users: lines of the mosquitto password file.

``add_board_user(path, board, password)`` adds or replaces the board's line in a mosquitto
password file (``add_user`` does it for a program's user), hashed as ``mosquitto_passwd``
hashes (PBKDF2-SHA512, ``$7$``), written to a temporary name and renamed, so the broker never
reads a half-written file; a new file is readable by its owner only. A board id that is a
program's user name is refused. The ACL is provision/acl.py's.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from pathlib import Path

from tricktable.provision.acl import BrokerFileError, check_board_id
from tricktable.secretfiles import write_private

ITERATIONS = 101  # mosquitto_passwd's default for $7$ (PBKDF2-SHA512)
SALT_BYTES = 12


def password_hash(password: str, salt: bytes | None = None) -> str:
    """A mosquitto 2.x password-file hash: ``$7$iterations$salt$hash`` (base64)."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, ITERATIONS)
    return (f"$7${ITERATIONS}${base64.b64encode(salt).decode()}"
            f"${base64.b64encode(digest).decode()}")


def new_password() -> str:
    """A fresh per-board broker password (144 random bits, URL-safe)."""
    return secrets.token_urlsafe(18)


def check_writable(path: Path) -> None:
    """Refuse early (before a board is touched) a password file that cannot be rewritten."""
    folder = path.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise BrokerFileError(f"password file {path}: cannot write in {folder}")
    if path.exists() and not os.access(path, os.R_OK):
        raise BrokerFileError(f"password file {path}: cannot read it")


def add_user(path: Path, user: str, password: str) -> None:
    """Add (or replace) ``user``'s line in the password file, atomically; a new file is
    readable by its owner only, an old one keeps its mode and owner."""
    lines = path.read_text().splitlines() if path.exists() else []
    kept = [line for line in lines if line.split(":", 1)[0] != user]
    kept.append(f"{user}:{password_hash(password)}")
    write_private(path, "\n".join(kept) + "\n", keep_mode=True)


def add_board_user(path: Path, board: str, password: str) -> None:
    """Add (or replace) ``board``'s line; a program's user name is refused (BrokerFileError)."""
    check_board_id(board)
    add_user(path, board, password)

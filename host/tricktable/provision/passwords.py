"""The broker side of a board: its user in the mosquitto password file, and the ACL.

``add_board_user(path, board, password)`` adds or replaces the board's line in a mosquitto
password file, hashed as ``mosquitto_passwd`` hashes (PBKDF2-SHA512, ``$7$``), written to a
temporary name and renamed, so the broker never reads a half-written file. ``ensure_acl``
writes the project's ACL (hardware/mosquitto/acl.template, for the club's topic prefix) when
there is none, and otherwise checks that it lets every board publish its own topics: its
``pattern`` lines name the board by ``%u`` (the user name is the board id), so a new board
needs no line of its own. Imports nothing of ours.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from pathlib import Path

ACL_TEMPLATE = Path(__file__).resolve().parents[3] / "hardware" / "mosquitto" / "acl.template"
ITERATIONS = 101  # mosquitto_passwd's default for $7$ (PBKDF2-SHA512)
SALT_BYTES = 12


class BrokerFileError(RuntimeError):
    """A password or ACL file that cannot be used; the message names the file and why."""


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


def add_board_user(path: Path, board: str, password: str) -> None:
    """Add (or replace) ``board``'s line in the password file, atomically."""
    lines = path.read_text().splitlines() if path.exists() else []
    kept = [line for line in lines if line.split(":", 1)[0] != board]
    kept.append(f"{board}:{password_hash(password)}")
    temp = path.with_name(path.name + ".new")
    temp.write_text("\n".join(kept) + "\n")
    if path.exists():  # keep who may read it (Debian: root:mosquitto 0640)
        old = path.stat()
        os.chmod(temp, old.st_mode & 0o777)
        try:
            os.chown(temp, old.st_uid, old.st_gid)
        except PermissionError:
            pass  # not root: the file stays ours, as it was
    else:
        os.chmod(temp, 0o600)
    os.replace(temp, path)


def acl_text(prefix: str, template: Path = ACL_TEMPLATE) -> str:
    """The project's ACL for a club whose topics start with ``prefix``."""
    return template.read_text().replace("tricktable/v1/", f"{prefix}/v1/")


def ensure_acl(path: Path, prefix: str, template: Path = ACL_TEMPLATE) -> bool:
    """Write the ACL if there is none (True); else check it serves boards under ``prefix``."""
    needed = f"pattern write {prefix}/v1/board/%u/event"
    if not path.exists():
        temp = path.with_name(path.name + ".new")
        temp.write_text(acl_text(prefix, template))
        os.replace(temp, path)
        return True
    if needed not in path.read_text().splitlines():
        raise BrokerFileError(f"ACL {path} has no line '{needed}': boards of prefix {prefix!r} "
                              f"could not publish (see {template.name})")
    return False

"""The user the club's broker runs as: never root. Run by a user of its own (the unit's
``tricktable``, or whoever starts ``up``), the broker runs as that user. Run by root, it drops
to Debian's ``mosquitto`` user (mosquitto's ``user`` option), which must then read what the
broker reads after it drops root (its password file, ACL and certificates) and write its
persistence folder, and nothing else of the club's.

``broker_user(data)`` names the user; a root up whose machine has no ``mosquitto`` user, or
whose data directory lies where that user cannot enter (under /root), keeps a root broker, and
``why_root(data)`` says so for the log. ``let_broker_read(data, folders, readable, persistence)`` (as root only) gives the
``mosquitto`` group the right to pass through ``data`` (0710) and read ``broker`` (0750) and
its files (0640: the password file, the ACL, the certificates and the broker's key; the CA's
key stays root's alone), and the ``mosquitto`` user its persistence folder (0700).
"""

from __future__ import annotations

import getpass
import os
import pwd
import stat
from pathlib import Path

from tricktable.appliance.listeners import BROKER_USER

DROP_TO = BROKER_USER


def reachable(data: Path) -> bool:
    """True when another user may pass through every folder above ``data`` (not /root)."""
    return all(folder.stat().st_mode & stat.S_IXOTH for folder in data.absolute().parents)


def broker_user(data: Path) -> str:
    """The user the broker runs as (see the module): root only where it cannot drop root
    (``why_root`` says why)."""
    if os.getuid() != 0:
        return getpass.getuser()
    return "root" if why_root(data) else DROP_TO


def why_root(data: Path) -> str | None:
    """Why a root up's broker keeps root, for the log; None when it drops it."""
    if os.getuid() != 0:
        return None
    try:
        pwd.getpwnam(DROP_TO)
    except KeyError:
        return (f"the broker runs as root: this machine has no user {DROP_TO!r} to drop to "
                f"(install Debian's mosquitto, or run up as a user of its own)")
    if not reachable(data):
        return (f"the broker runs as root: {DROP_TO!r} cannot enter a folder above {data}; put "
                f"the data directory where it can (/var/lib/tricktable), or run up as a user of "
                f"its own (tricktable service install does)")
    return None


def let_broker_read(data: Path, folders: list[Path], readable: list[Path],
                    persistence: Path) -> None:
    """As root, with a broker that drops root: the group of ``DROP_TO`` passes through
    ``data``, reads ``folders`` and the files ``readable``; its user owns ``persistence``.
    Otherwise nothing changes."""
    if broker_user(data) != DROP_TO:
        return
    user = pwd.getpwnam(DROP_TO)
    for folder, mode in ((data, 0o710), *((f, 0o750) for f in folders if f.exists())):
        os.chown(folder, 0, user.pw_gid)
        os.chmod(folder, mode)
    for path in readable:
        if path.exists():
            os.chown(path, 0, user.pw_gid)
            os.chmod(path, 0o640)
    os.chown(persistence, user.pw_uid, user.pw_gid)
    os.chmod(persistence, 0o700)
    for inside in persistence.iterdir():
        os.chown(inside, user.pw_uid, user.pw_gid)

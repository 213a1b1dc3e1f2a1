"""Who listens on a TCP port of this machine, read from Linux's own tables, so that ``up``
gives a password or a token only to a listener it can vouch for.

``listening(port, host)`` is every listening socket (``/proc/net/tcp`` and ``tcp6``, state
LISTEN) on ``port`` that takes connections made to ``host`` (its own address, or every
address), each with its owner's uid and its inode. ``held_by(inode)`` is the processes that
hold a socket (``/proc/PID/fd``: root sees every process, a user their own).
``vouched(listener)``: its owner is this user, root (who could read our secrets anyway) or
the system's broker user, ``mosquitto``.
``owner_name(uid)`` is a user's name for a message.
"""

from __future__ import annotations

import ipaddress
import os
import pwd
from dataclasses import dataclass
from pathlib import Path

LISTEN = "0A"  # the kernel's TCP_LISTEN, as /proc/net/tcp writes it
PROC = Path("/proc")
WILDCARD = ("0.0.0.0", "::", "")
BROKER_USER = "mosquitto"


@dataclass(frozen=True)
class Listener:
    """One listening socket: its address, port, owner and inode."""

    address: str
    port: int
    uid: int
    inode: int


def _address(hex_address: str) -> str:
    """/proc/net/tcp's address: IPv4 as one little-endian word, IPv6 as four."""
    raw = bytes.fromhex(hex_address)
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    return str(ipaddress.ip_address(words))


def all_listening() -> list[Listener]:
    """Every listening TCP socket of this machine's network namespace."""
    found = []
    for table in ("tcp", "tcp6"):
        try:
            lines = (PROC / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) < 10 or fields[3] != LISTEN:
                continue
            address, port = fields[1].split(":")
            found.append(Listener(_address(address), int(port, 16), int(fields[7]),
                                  int(fields[9])))
    return found


def _reaches(listener: Listener, host: str) -> bool:
    """True when a connection to ``host`` would reach ``listener``'s address (for a wildcard
    ``host``, every address: a listener on any of them stands in the way)."""
    if listener.address in WILDCARD or host in WILDCARD:
        return True
    try:
        wanted = ipaddress.ip_address("127.0.0.1" if host == "localhost" else host)
    except ValueError:
        return True  # a name: assume it may be this address
    mine = ipaddress.ip_address(listener.address)
    if isinstance(mine, ipaddress.IPv6Address) and mine.ipv4_mapped is not None:
        mine = mine.ipv4_mapped
    return mine == wanted


def listening(port: int, host: str) -> list[Listener]:
    """The listening sockets on ``port`` that take connections made to ``host``."""
    return [s for s in all_listening() if s.port == port and _reaches(s, host)]


def held_by(inode: int) -> set[int]:
    """The processes (that this user may look at) holding the socket ``inode``."""
    wanted = f"socket:[{inode}]"
    pids = set()
    for proc in PROC.iterdir():
        if not proc.name.isdigit():
            continue
        try:
            for fd in (proc / "fd").iterdir():
                if os.readlink(fd) == wanted:
                    pids.add(int(proc.name))
                    break
        except OSError:
            continue  # gone, or not ours to look at
    return pids


def vouched(listener: Listener) -> bool:
    """Its owner is this user, root, or the system's own broker user (Debian's ``mosquitto``,
    which only root can act as; the broker a root ``up`` starts runs as it too)."""
    return listener.uid in (os.getuid(), 0, _uid_of(BROKER_USER))


def _uid_of(user: str) -> int | None:
    try:
        return pwd.getpwnam(user).pw_uid
    except KeyError:
        return None


def owner_name(uid: int) -> str:
    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"

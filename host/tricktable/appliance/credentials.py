"""The secrets ``tricktable up`` keeps in its data directory, made once and kept.

One broker user per part, each allowed the least it needs (mqtt/mosquitto/acl.template):
``tricktable-host`` for ``serve``, ``tricktable-web`` for the read-only scoreboard,
``tricktable-director`` for the console, ``tricktable-watch`` for ``doctor`` (it only reads,
so it never takes a running part's session: the broker binds client ids to users). Each
password, and the console's admin token, is a file of its own under ``DATA/secrets`` (0700),
readable by its owner only (0600) and handed to the parts as a file, never on a command
line. ``ensure(data)`` makes the missing ones. The console's token is never printed: ``up``
says which file holds it.
"""

from __future__ import annotations

import os
import secrets as random_secrets
from dataclasses import dataclass
from pathlib import Path

from tricktable.provision.passwords import new_password
from tricktable.secretfiles import write_private

HOST_USER = "tricktable-host"  # serve
WEB_USER = "tricktable-web"  # the public scoreboard (reads only)
DIRECTOR_USER = "tricktable-director"  # the director's console
WATCH_USER = "tricktable-watch"  # doctor (reads only)
USERS = (HOST_USER, WEB_USER, DIRECTOR_USER, WATCH_USER)
CONSOLE_TOKEN = "console-token"


@dataclass(frozen=True)
class Credentials:
    """Where each secret is."""

    folder: Path

    def file(self, name: str) -> Path:
        """The file of a user's password (by user name) or of the console's token."""
        return self.folder / name

    def read(self, name: str) -> str:
        return self.file(name).read_text().strip()

    @property
    def console_token_file(self) -> Path:
        return self.file(CONSOLE_TOKEN)

    @property
    def console_token(self) -> str:
        return self.read(CONSOLE_TOKEN)


def ensure(data: Path) -> Credentials:
    """Make the secrets that are missing under ``data/secrets`` (0700, files 0600)."""
    folder = data / "secrets"
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    makers = [(user, new_password) for user in USERS]
    makers.append((CONSOLE_TOKEN, lambda: random_secrets.token_hex(16)))
    for name, make in makers:
        if not (folder / name).exists():
            write_private(folder / name, make() + "\n")
    return Credentials(folder)

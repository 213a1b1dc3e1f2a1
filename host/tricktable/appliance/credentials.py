"""The secrets ``tricktable up`` keeps in its data directory, made once and kept.

The broker passwords of the host (``tricktable-host``) and of the web programs
(``tricktable-web``, the scoreboard and the console), and the console's admin token, each in a
file of its own under ``DATA/secrets`` readable by its owner only. ``ensure(data)`` makes the
missing ones and says which it made, so ``up`` prints the console's token only the first time.
Imports ``provision.passwords`` (the password generator boards get too).
"""

from __future__ import annotations

import os
import secrets as random_secrets
from dataclasses import dataclass
from pathlib import Path

from tricktable.provision.passwords import new_password

HOST_USER = "tricktable-host"
WEB_USER = "tricktable-web"  # the ACL's user for the web page and admin tools


@dataclass(frozen=True)
class Credentials:
    """Where each secret is; ``made``: the names of those this call created."""

    folder: Path
    made: tuple[str, ...] = ()

    def file(self, name: str) -> Path:
        return self.folder / name

    def read(self, name: str) -> str:
        return self.file(name).read_text().strip()

    @property
    def host_password(self) -> Path:
        return self.file(HOST_USER)

    @property
    def web_password(self) -> Path:
        return self.file(WEB_USER)

    @property
    def console_token(self) -> str:
        return self.read("console-token")


def _write_new(path: Path, value: str) -> None:
    temp = path.with_name(path.name + ".new")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(value + "\n")
    os.replace(temp, path)


def ensure(data: Path) -> Credentials:
    """Make the secrets that are missing under ``data/secrets`` (0700, files 0600)."""
    folder = data / "secrets"
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    made = []
    for name, make in ((HOST_USER, new_password), (WEB_USER, new_password),
                       ("console-token", lambda: random_secrets.token_hex(16))):
        if not (folder / name).exists():
            _write_new(folder / name, make())
            made.append(name)
    return Credentials(folder, tuple(made))

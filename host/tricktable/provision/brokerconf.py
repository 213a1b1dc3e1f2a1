"""The club broker's whole mosquitto configuration, made from the shipped file
(mqtt/mosquitto/mosquitto.conf) with this machine's paths and ports: one place for the
tests, the bench and a club broker tricktable starts itself.

``club_config(files, ...)`` returns the text: TLS on ``tls_port`` (every interface unless
``tls_host``), plain MQTT on 127.0.0.1 ``plain_port`` for the programs beside the broker,
client ids bound to users, the club's password file and ACL (provision/acl.py and
passwords.py write them) and persistence in ``files.data``. ``tls_port=None`` drops the TLS
listener and serves plain MQTT on ``plain_host`` instead: a club without TLS
(docs/operations.md, "Security", says what it gives up).
"""

from __future__ import annotations

import getpass
from dataclasses import dataclass
from pathlib import Path

from tricktable.packaged import mosquitto_dir

SHIPPED = mosquitto_dir() / "mosquitto.conf"


@dataclass(frozen=True)
class ClubBrokerFiles:
    """The files a club broker reads: passwords, ACL, its certificates' folder
    (ca.crt, server.crt, server.key: provision/certs.py) and its persistence folder."""

    passwd: Path
    acl: Path
    certs: Path
    data: Path


def club_config(files: ClubBrokerFiles, *, plain_port: int = 1883, tls_port: int | None = 8883,
                tls_host: str | None = None, plain_host: str = "127.0.0.1",
                user: str | None = None, shipped: Path = SHIPPED) -> str:
    """The shipped configuration with these files and ports (and ``user`` to run as, for a
    broker started by someone else than root)."""
    text = (shipped.read_text()
            .replace("/etc/mosquitto/tricktable.passwd", str(files.passwd))
            .replace("/etc/mosquitto/tricktable.acl", str(files.acl))
            .replace("/etc/mosquitto/certs/", f"{files.certs}/")
            .replace("/var/lib/mosquitto/", f"{files.data}/"))
    lines = text.splitlines()
    if tls_port is None:  # the TLS listener's block: from its line to the next blank one
        start = lines.index("listener 8883")
        end = lines.index("", start)
        lines = lines[:start] + lines[end:]
    else:
        where = f" {tls_host}" if tls_host else ""
        lines = [f"listener {tls_port}{where}" if line.startswith("listener 8883") else line
                 for line in lines]
    plain = f"listener {plain_port} {plain_host}".rstrip()
    lines = [plain if line.startswith("listener 1883") else line for line in lines]
    lines = [line for line in lines if not line.startswith("user ")]  # this one's, below
    head = [f"user {user or getpass.getuser()}"]
    return "\n".join(head + lines) + "\n"

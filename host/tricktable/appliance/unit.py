"""``tricktable service install``: a systemd unit that runs ``tricktable up`` at boot.

``unit_text(...)`` is the unit: ``up`` with the club file and data directory (absolute),
``Restart=on-failure``, ``KillMode=mixed`` (systemd's SIGTERM goes to ``up``, which stops its
parts itself; whatever is left after ``TimeoutStopSec`` is killed), started once the network
is up. A system unit runs as a user of its own (``tricktable``, made by ``ensure_user`` with
the club's data given to it) in systemd's sandbox (``SANDBOX``: read-only everywhere but the
club's data, no capabilities, no devices, a umask of 0077; ``systemd-analyze security`` rates
it 1.2 "OK"); a user unit (``--user``) needs ``loginctl enable-linger USER`` to start before
anyone logs in.
``install``/``uninstall`` write or remove ``tricktable.service`` in the unit folder and,
unless told not to, run ``systemctl daemon-reload`` and ``enable --now`` (``disable
--now``).
"""

from __future__ import annotations

import pwd
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

UNIT = "tricktable.service"
SYSTEM_DIR = Path("/etc/systemd/system")
USER_DIR = Path.home() / ".config" / "systemd" / "user"


class UnitError(RuntimeError):
    """The unit cannot be installed or removed; the message says why."""


def tricktable_command() -> str:
    """The absolute path of the ``tricktable`` command of this installation."""
    beside = Path(sys.executable).parent / "tricktable"
    found = str(beside) if beside.exists() else shutil.which("tricktable")
    if found is None:
        raise UnitError("cannot find the tricktable command: install the package first")
    return str(Path(found).absolute())


SERVICE_USER = "tricktable"  # the system unit's own user (made by `service install`)
# What the system unit may not do (systemd.exec(5)); `systemd-analyze security` rates it. The
# broker, serve, the scoreboard and the console need only TCP sockets, their files and their
# own processes' /proc (ports are checked through /proc/net: no ProcSubset=pid).
SANDBOX = [
    "UMask=0077", "NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes",
    "PrivateDevices=yes", "PrivateUsers=yes", "PrivateIPC=yes", "ProtectKernelTunables=yes",
    "ProtectKernelModules=yes", "ProtectKernelLogs=yes", "ProtectControlGroups=yes",
    "ProtectClock=yes", "ProtectHostname=yes", "ProtectProc=invisible",
    "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX", "RestrictNamespaces=yes",
    "LockPersonality=yes", "MemoryDenyWriteExecute=yes", "RestrictRealtime=yes",
    "RestrictSUIDSGID=yes", "RemoveIPC=yes", "SystemCallArchitectures=native",
    "SystemCallFilter=@system-service", "SystemCallFilter=~@privileged @resources",
    "SystemCallErrorNumber=EPERM", "CapabilityBoundingSet=", "AmbientCapabilities=",
    "KeyringMode=private", "DevicePolicy=closed",
]
HOMES = (Path("/home"), Path("/root"), Path("/run/user"))


def sandbox(writable: list[Path]) -> list[str]:
    """The system unit's sandbox: everything read-only but ``writable`` (the data directory
    and the folders of the journal, the night, the club database and the backups); the
    homes hidden unless one of those lies in one (then read-only)."""
    folders = sorted({str(p.absolute()) for p in writable})
    in_home = any(Path(f).is_relative_to(home) for f in folders for home in HOMES)
    return [*SANDBOX, f"ReadWritePaths={' '.join(shlex.quote(f) for f in folders)}",
            f"ProtectHome={'read-only' if in_home else 'yes'}"]


def unit_text(club: Path, data: Path, night: Path | None, user_unit: bool,
              command: str | None = None, user: str | None = None,
              writable: list[Path] | None = None) -> str:
    """The unit file's text: a system unit runs as ``user`` (default ``SERVICE_USER``) in
    systemd's sandbox; a user unit as its user."""
    argv = [command or tricktable_command(), "up", "--club", str(club.absolute()),
            "--data", str(data.absolute())]
    if night is not None:
        argv += ["--night", str(night.absolute())]
    system = [] if user_unit else [f"User={user or SERVICE_USER}",
                                   *sandbox([data, *(writable or [])])]
    lines = [
        "[Unit]",
        "Description=tricktable: the club night's broker, tables, scoreboard and console",
        "After=network-online.target",
        "Wants=network-online.target",
        "",
        "[Service]",
        "Type=simple",
        f"ExecStart={shlex.join(argv)}",
        f"WorkingDirectory={data.absolute()}",
        "Environment=PYTHONUNBUFFERED=1",
        "Restart=on-failure",
        "RestartSec=5",
        "KillMode=mixed",
        "TimeoutStopSec=30",
        *system,
        "",
        "[Install]",
        f"WantedBy={'default.target' if user_unit else 'multi-user.target'}",
    ]
    return "\n".join(lines) + "\n"


def ensure_user(name: str, owned: list[Path]) -> None:
    """As root: make the system user ``name`` when missing (no login, no home of its own) and
    give it ``owned`` (the data directory and the club's data folders)."""
    try:
        pwd.getpwnam(name)
    except KeyError:
        argv = ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise UnitError(f"{shlex.join(argv)} failed: {done.stderr.strip()}") from None
    for folder in owned:
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(["chown", "-R", f"{name}:", str(folder)], check=False, timeout=120)


def _systemctl(user_unit: bool, *args: str) -> None:
    argv = ["systemctl", *(["--user"] if user_unit else []), *args]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UnitError(f"{shlex.join(argv)}: {exc}") from None
    if done.returncode != 0:
        raise UnitError(f"{shlex.join(argv)} failed: {(done.stderr or done.stdout).strip()} "
                        "(is systemd running on this machine? in a container it usually is "
                        "not: run `tricktable up` there instead)")


def install(text: str, folder: Path, user_unit: bool, enable: bool) -> Path:
    """Write the unit; with ``enable``, reload systemd and start it now and at every boot."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / UNIT
    temp = path.with_name(UNIT + ".new")
    temp.write_text(text)
    temp.replace(path)
    if enable:
        _systemctl(user_unit, "daemon-reload")
        _systemctl(user_unit, "enable", "--now", UNIT)
    return path


def uninstall(folder: Path, user_unit: bool, enable: bool) -> Path:
    """Stop and disable the unit (with ``enable``) and remove its file."""
    path = folder / UNIT
    if not path.exists():
        raise UnitError(f"no {UNIT} in {folder}")
    if enable:
        _systemctl(user_unit, "disable", "--now", UNIT)
    path.unlink()
    if enable:
        _systemctl(user_unit, "daemon-reload")
    return path

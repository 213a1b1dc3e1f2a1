"""A throwaway PostgreSQL for the league tests and bench: Debian's postgresql, ``initdb`` into a
temporary directory and ``pg_ctl`` on a free port on 127.0.0.1, like the suite's mosquitto.

PostgreSQL refuses to run as root: as root the server runs as the ``postgres`` user (Debian's
package creates it) through ``runuser``, in a directory given to that user. ``available()``
says why it cannot run here (no binaries, root without a ``postgres`` user), for a clear skip.
Each test takes a database of its own (``PostgresServer.new_database``).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

from tricktable.mqtt.broker import free_port


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parts[4]) if Path(p).parts[4].isdigit() else 0)
    return Path(found[-1]).parent if found else None


def _run_as() -> str | None:
    """The user the server runs as when we are root (None: ourselves)."""
    return "postgres" if os.geteuid() == 0 else None


def unavailable() -> str | None:
    """Why PostgreSQL cannot be started here, or None when it can."""
    if _bindir() is None:
        return "PostgreSQL is not installed (/usr/lib/postgresql/*/bin/pg_ctl)"
    user = _run_as()
    if user is not None:
        try:
            pwd.getpwnam(user)
        except KeyError:
            return "running as root and there is no 'postgres' user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root without runuser to run PostgreSQL as 'postgres'"
    return None


class PostgresServer:
    """A PostgreSQL server in a temporary directory; ``stop()`` removes it.

    ``durable=False`` (the tests) turns off fsync and synchronous commit: nothing the tests
    check depends on surviving a power cut, and the suite stays fast. The bench keeps
    PostgreSQL's defaults (durable), so its figures are a real commit's."""

    def __init__(self, durable: bool = False) -> None:
        why = unavailable()
        if why is not None:
            raise RuntimeError(why)
        self.bindir = _bindir()
        self.user = _run_as()
        self.workdir = Path(tempfile.mkdtemp(prefix="tricktable-pg-"))
        self.data = self.workdir / "data"
        self.port = free_port()
        if self.user is not None:
            record = pwd.getpwnam(self.user)
            os.chown(self.workdir, record.pw_uid, record.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "league", "--auth=trust",
                  "-E", "UTF8", *([] if durable else ["--no-sync"]))
        fast = "" if durable else (" -c fsync=off -c synchronous_commit=off"
                                   " -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.workdir / "log"), "-w", "-t",
                  "60", "-o", f"-p {self.port} -k {self.workdir} -c listen_addresses=127.0.0.1"
                  f" -c max_connections=200{fast}", "start")

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, cwd=self.workdir)
        if result.returncode != 0:
            log = self.workdir / "log"
            raise RuntimeError(f"{tool} failed ({result.returncode}): {result.stdout}"
                               f"{result.stderr}{log.read_text() if log.exists() else ''}")

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://league@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database; its DSN."""
        import psycopg

        name = f"league_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.dsn(name)

    def stop(self) -> None:
        if self.data.exists():
            try:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            except RuntimeError:
                pass  # already gone; remove what is left
        shutil.rmtree(self.workdir, ignore_errors=True)

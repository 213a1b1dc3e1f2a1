"""Storage that fails on demand, for real: a small tmpfs in a private user and mount namespace.

``unshare --user --map-root-user --mount`` gives a process its own mount table without root,
so a test can put a journal on a tmpfs of a few hundred kilobytes, fill it to the last byte
(SQLite then really answers "database or disk is full"), free it again, or remount it
read-only. Nothing outside the namespace sees the mount.

``run_in_tmpfs(code)`` runs a Python snippet in such a namespace (the mount point is
``MOUNT``, a variable of the snippet). ``Sandbox`` keeps one running and takes commands
(``fill``, ``free``, ``ro``, ``rw``) while a process it started (``start``) uses the mount:
the harness (tests/storage_harness.py) is the parent of that process inside the namespace.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HARNESS = Path(__file__).with_name("storage_harness.py")
UNSHARE = ["unshare", "--user", "--map-root-user", "--mount"]


@functools.cache
def namespaces_work() -> bool:
    """True when this machine lets an unprivileged process mount a tmpfs of its own."""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run([*UNSHARE, "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True)
    return probe.returncode == 0


needs_namespaces = pytest.mark.skipif(not namespaces_work(),
                                      reason="no user and mount namespaces here")


def run_in_tmpfs(code: str, mount: Path, size: str = "1m",
                 timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``code`` with Python inside a namespace where ``mount`` is a fresh tmpfs of ``size``."""
    mount.mkdir(parents=True, exist_ok=True)
    script = (f"import subprocess\nMOUNT = {str(mount)!r}\n"
              f"subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size={size}', 'tmpfs', MOUNT],"
              " check=True)\n" + code)
    return subprocess.run([*UNSHARE, sys.executable, "-c", script], capture_output=True,
                          text=True, timeout=timeout)


class Sandbox:
    """A tmpfs at ``mount`` of ``size`` in its own namespace, driven command by command."""

    def __init__(self, mount: Path, size: str, log: Path) -> None:
        mount.mkdir(parents=True, exist_ok=True)
        self.log = log
        self.proc = subprocess.Popen(
            [*UNSHARE, sys.executable, str(HARNESS), str(mount), size, str(log)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.command("ready")

    def command(self, *words: str) -> str:
        """Send one command, return its answer; fail with the harness's and child's output."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(words) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if not answer.startswith("ok"):
            raise AssertionError(f"storage harness: {words} -> {answer!r}\n{self.output()}")
        return answer[2:].strip()

    def start(self, argv: list[str]) -> None:
        """Start ``argv`` inside the namespace (its output goes to the log file)."""
        self.command("start", json.dumps(argv))

    def output(self) -> str:
        """What the harness and its child have written so far (for failure messages)."""
        child = self.log.read_text(errors="replace") if self.log.exists() else ""
        return f"--- child output ---\n{child[-6000:]}"

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.command("stop")
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(15)
            except (AssertionError, OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(5)

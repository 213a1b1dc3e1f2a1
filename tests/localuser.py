"""Another user on the club's machine, for the tests of what a local user can do: ``nobody``,
reached from root with ``setpriv`` (util-linux), running Debian's own ``/usr/bin/python3``
(stdlib only: the test's virtual environment lives under /root, which nobody cannot enter).

``needs_nobody`` skips a test where the suite does not run as root or setpriv is missing.
``as_nobody(argv)`` runs a command as nobody; ``nobody_python(code)`` runs a Python snippet as
nobody. ``Squatter`` is nobody listening first on a port of this machine (or taking it the moment its
holder lets it go) and keeping every byte a client sends it (in a file nobody owns), as a
squatter waiting for a password or a token does.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

NOBODY = pwd.getpwnam("nobody")
PYTHON = "/usr/bin/python3"
SETPRIV = shutil.which("setpriv")
needs_nobody = pytest.mark.skipif(
    os.getuid() != 0 or SETPRIV is None or not os.path.exists(PYTHON),
    reason="needs root, setpriv and /usr/bin/python3 to act as the user nobody")


def nobody_argv(argv: list[str]) -> list[str]:
    assert SETPRIV is not None
    return [SETPRIV, f"--reuid={NOBODY.pw_uid}", f"--regid={NOBODY.pw_gid}", "--clear-groups",
            "--", *argv]


def as_nobody(argv: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(nobody_argv(argv), capture_output=True, text=True, timeout=timeout,
                          cwd="/")


def nobody_python(code: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return as_nobody([PYTHON, "-c", code], timeout)


SQUAT = r"""
import socket, sys, threading, time
host, port, keep = sys.argv[1], int(sys.argv[2]), sys.argv[3]
server = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
while True:  # "wait": until whoever holds the port lets it go
    try:
        server.bind((host, port))
        break
    except OSError:
        if sys.argv[4] != "wait":
            raise
        time.sleep(0.01)
server.listen(16)
print("listening", flush=True)
def take(conn):
    conn.settimeout(5)
    with conn, open(keep, "ab") as out:
        try:
            while chunk := conn.recv(65536):
                out.write(chunk)
                out.flush()
        except OSError:
            pass
while True:
    conn, _ = server.accept()
    threading.Thread(target=take, args=(conn,), daemon=True).start()
"""


class Squatter:
    """nobody listening on ``host:port`` before anyone else, keeping what it is sent."""

    def __init__(self, host: str, port: int, wait: bool = False) -> None:
        """``wait``: the port is held now; take it the moment it is let go."""
        self.folder = Path(tempfile.mkdtemp(prefix="squatter-"))
        os.chown(self.folder, NOBODY.pw_uid, NOBODY.pw_gid)
        self.keep = self.folder / "got"
        self.proc = subprocess.Popen(nobody_argv([PYTHON, "-c", SQUAT, host, str(port),
                                                  str(self.keep), "wait" if wait else "now"]),
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.host, self.port = host, port
        if not wait:
            self.listening()

    def listening(self) -> None:
        """Wait until the squatter has the port."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.strip() == "listening", line + self.proc.stdout.read()

    def got(self) -> bytes:
        return self.keep.read_bytes() if self.keep.exists() else b""

    def answers(self) -> bool:
        try:
            with socket.create_connection((self.host, self.port), timeout=1):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Squatter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

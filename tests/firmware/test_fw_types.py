"""The firmware type-checked against the boards' own APIs: mypy with MicroPython's stubs of each
port (``micropython-rp2-rpi_pico_w-stubs`` for the Pico W, ``micropython-esp32-stubs``; their
``machine``, ``network``, ``rp2`` ... and standard library as the port has it), which
./scripts/run-tests installs into the venv's ``board-stubs/PORT`` from
tests/firmware/board-stubs/PORT.txt. A call, argument or status constant the real module does
not have (``network.STAT_NOIP``, ``machine.Timer.REPEAT``) fails here, not on a board. hw.py,
the one module that touches the hardware, is annotated so that all of its calls are checked.
The stubs' own complaints about themselves are not the firmware's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fwkit import FIRMWARE


@pytest.mark.parametrize("port", ["pico_w", "esp32"])
def test_the_firmware_type_checks_against_the_ports_stubs(port: str, tmp_path: Path) -> None:
    stubs = Path(sys.prefix) / "board-stubs" / port
    assert (stubs / "machine.pyi").is_file(), (
        f"no {port} stubs in {stubs}: ./scripts/run-tests installs them "
        f"(tests/firmware/board-stubs/{port}.txt)")
    # checked as a board's flash holds the modules, at the top level (in the package's folder,
    # mypy would find each twice: as ``compat`` and as ``tricktable.firmware.compat``)
    for source in FIRMWARE.glob("*.py"):
        shutil.copy(source, tmp_path / source.name)
    sources = sorted(p.name for p in tmp_path.glob("*.py"))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--custom-typeshed-dir", str(stubs), "--no-incremental",
         "--cache-dir", os.devnull, "--follow-imports=silent", "--python-version", "3.11",
         "--no-error-summary", *sources],
        cwd=tmp_path, env={**os.environ, "MYPYPATH": str(stubs)}, capture_output=True,
        text=True, timeout=240)
    ours = [line for line in proc.stdout.splitlines() if line.split(":")[0] in sources]
    assert not ours, f"{port}:\n" + "\n".join(ours)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr  # 2: mypy itself failed

"""Every firmware file compiles with mpy-cross (issue 5, item 8), and only the hardware layer
touches the hardware (DESIGN.md, "firmware/ mirrors this": only the hardware layer touches
``machine``; main.py resets the board through ``hw.reset``).
"""

from __future__ import annotations

import re

import pytest
from fwkit import FIRMWARE, mpy_cross

SOURCES = sorted(FIRMWARE.glob("*.py"))
HARDWARE_IMPORT = re.compile(r"^\s*(import|from)\s+(machine|network|neopixel)\b", re.M)


@pytest.mark.parametrize("source", SOURCES, ids=[p.name for p in SOURCES])
def test_compiles_with_mpy_cross(source, tmp_path) -> None:
    proc = mpy_cross(source, tmp_path / (source.stem + ".mpy"))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / (source.stem + ".mpy")).stat().st_size > 0


def test_only_the_hardware_layer_imports_machine_or_network() -> None:
    """hw.py, and the boot loader's maintenance.py (the watchdog fed from a timer while the
    firmware is not running; it cannot import the bundle's hw.py before main.py has chosen
    the bundle)."""
    touching = {p.name for p in SOURCES if HARDWARE_IMPORT.search(p.read_text())}
    assert touching == {"hw.py", "maintenance.py"}

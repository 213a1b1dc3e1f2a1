"""Fixtures for the firmware tests (helpers live in fwkit.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fwkit import CPython, MicroPython, build_mpy
from readerhost import ReaderHost


@pytest.fixture(scope="session")
def mpy_build(tmp_path_factory) -> Path:
    """The firmware and the emulator compiled to .mpy once per session."""
    return build_mpy(tmp_path_factory.mktemp("mpy"))


@pytest.fixture
def micropython(mpy_build) -> MicroPython:
    return MicroPython(mpy_build)


@pytest.fixture(params=["micropython", "cpython"])
def interpreter(request, mpy_build) -> MicroPython:
    """Each firmware script once under MicroPython, once under CPython."""
    return MicroPython(mpy_build) if request.param == "micropython" else CPython()


@pytest.fixture
def reader_host():
    """Four emulated PN532s a board reaches over TCP (outside its heap; readerhost.py)."""
    with ReaderHost(4) as host:
        yield host

"""Fixtures for the deck tests: a registry file, and a PN532 emulator on a pseudo-terminal
driven through the real pyserial and Adafruit ``PN532_UART`` code (``tricktable.deckkit.enroll``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tricktable.deckkit import decks
from tricktable.deckkit.enroll import UsbReader
from tricktable.sim.pn532_serial import SerialPN532


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[decks.Registry]:
    with decks.Registry(tmp_path / "decks.sqlite") as reg:
        yield reg


@pytest.fixture
def emulator() -> Iterator[SerialPN532]:
    with SerialPN532() as device:
        yield device


@pytest.fixture
def usb_reader(emulator: SerialPN532) -> Iterator[UsbReader]:
    reader = UsbReader.open(emulator.port)
    reader.answer_s = 5.0  # the emulator's thread on a loaded machine answers late, a chip never
    yield reader
    reader.close()

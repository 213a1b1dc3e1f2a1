"""Fixtures for the scoreboard tests: a scoreboard on a free port (``board``: one following a
club night, given the module's ``night_path``), a state publisher, a chromium per test module
and the folder screenshots go to."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from browsing import chromium
from playwright.sync_api import Browser
from tricktable.broker import BrokerHandle
from tricktable.web.server import Scoreboard
from web_fixtures import ADMIN_TOKEN, Publisher


@pytest.fixture
def publisher(mqtt_broker: BrokerHandle, topic_prefix: str) -> Iterator[Publisher]:
    pub = Publisher(mqtt_broker, topic_prefix)
    yield pub
    pub.close()


@pytest.fixture
def scoreboard(mqtt_broker: BrokerHandle, topic_prefix: str) -> Iterator[Scoreboard]:
    board = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                       admin_token=ADMIN_TOKEN)
    board.start()
    yield board
    board.stop()


@pytest.fixture
def board(mqtt_broker: BrokerHandle, topic_prefix: str, night_path: Path) -> Iterator[Scoreboard]:
    """A scoreboard following the night file of the test module's ``night_path`` fixture."""
    b = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                   night=night_path)
    b.start()
    yield b
    b.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $TRICKTABLE_SCREENSHOTS to keep them, else the test's tmp dir."""
    where = os.environ.get("TRICKTABLE_SCREENSHOTS")
    out = Path(where) if where else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    return out

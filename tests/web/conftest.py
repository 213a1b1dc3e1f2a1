"""Fixtures for the scoreboard tests: a scoreboard on a free port (``board``: one following a
club night, given the module's ``night_path``), a state publisher, a chromium per test module
and the folder screenshots go to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from phonekit import make_registry
from tricktable.mqtt.broker import BrokerHandle
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
def registry_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A deck registry with the demo's decks, for a module's phone tables."""
    path = tmp_path_factory.mktemp("registry") / "decks.sqlite"
    make_registry(path).close()
    return path

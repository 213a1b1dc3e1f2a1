"""Fixtures for the scoreboard tests: a scoreboard on a free port and a state publisher."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
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

"""Shared pytest fixtures: MQTT brokers started by the suite itself.

``mqtt_broker`` is one broker for the whole session (mosquitto on a free port where it is
installed, else embedded amqtt); tests that share it must use their own topic prefix.
``fresh_broker`` is a broker of the same kind for one test alone, for tests that stop or
restart it. Both are bound to 127.0.0.1 and stopped (temp files removed) afterwards.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from tricktable.broker import BrokerHandle, start_broker


@pytest.fixture(scope="session")
def mqtt_broker() -> Iterator[BrokerHandle]:
    """One broker for the session; do not stop or restart it (use ``fresh_broker``)."""
    handle = start_broker()
    yield handle
    handle.stop()


@pytest.fixture
def fresh_broker() -> Iterator[BrokerHandle]:
    """A broker for this test alone: it may be stopped and restarted."""
    handle = start_broker()
    yield handle
    handle.stop()


@pytest.fixture
def topic_prefix() -> str:
    """A topic prefix no other test uses, so tests can share ``mqtt_broker``."""
    return f"tt-test-{uuid.uuid4().hex[:8]}"

"""The host tests' shared fixtures: a deck registry and a host service on the test broker.

``registry_file`` is one registry of the club's decks a module (a module that needs members
enrolled overrides it); ``host`` is a ``hostkit.Host`` on it with a journal of its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hostkit import Host, make_registry


@pytest.fixture(scope="module")
def registry_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("registry") / "decks.sqlite"
    make_registry(path).close()
    return path


@pytest.fixture
def host(mqtt_broker, topic_prefix, tmp_path, registry_file) -> Iterator[Host]:
    h = Host(mqtt_broker.port, topic_prefix, tmp_path / "journal.sqlite", registry_file)
    yield h
    h.close()

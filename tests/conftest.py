"""Shared pytest fixtures: MQTT brokers started by the suite itself.

``mqtt_broker`` is one broker for the whole session (mosquitto on a free port where it is
installed, else embedded amqtt); tests that share it must use their own topic prefix.
``fresh_broker`` is a broker of the same kind for one test alone, for tests that stop or
restart it. Both are bound to 127.0.0.1 and stopped (temp files removed) afterwards.

Before any test runs, the suite refuses a stale build: a compiled module (the engine and the
rules, the search's C; built by ``pip install -e .``) older than the source beside it would
test the old code.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from tricktable.mqtt.broker import BrokerHandle, start_broker

pytest_plugins = ["browsing"]  # the browser and shots fixtures
PACKAGE = Path(__file__).resolve().parents[1] / "host" / "tricktable"


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to test an install that is not this checkout: an editable install whose compiled
    modules are older than their source, or an installed wheel whose files differ from it."""
    import tricktable

    installed = Path(tricktable.__file__).resolve().parent
    if installed == PACKAGE.resolve():
        stale = sorted(str(source.relative_to(PACKAGE)) for built in PACKAGE.rglob("*.so")
                       for suffix in (".py", ".c")
                       if (source := built.with_name(built.name.split(".")[0] + suffix)).exists()
                       and source.stat().st_mtime > built.stat().st_mtime)
    else:
        stale = sorted(str(source.relative_to(PACKAGE)) for source in PACKAGE.rglob("*.py")
                       if not (installed / source.relative_to(PACKAGE)).is_file()
                       or (installed / source.relative_to(PACKAGE)).read_bytes()
                       != source.read_bytes())
    if stale:
        raise pytest.UsageError(
            f"the installed tricktable ({installed}) is older than this checkout's "
            f"{', '.join(stale[:5])}: ./scripts/run-tests builds and installs it again "
            "(or `.venv/bin/python -m pip install -e .` for an editable install)")


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

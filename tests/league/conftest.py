"""Fixtures of the league tests: a PostgreSQL for the session (a database per test), and the
league's broker (TLS, a user per club and an ACL, as docs/league.md sets it up)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent))

from leaguekit import LeagueBroker, start_league_broker  # noqa: E402
from pgkit import PostgresServer, unavailable  # noqa: E402
from tlskit import make_certificates  # noqa: E402
from tricktable.mqtt.broker import mosquitto_available  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip, saying why, what needs PostgreSQL or mosquitto where they are not installed."""
    no_postgres = unavailable()
    no_broker = None if mosquitto_available() and shutil.which("openssl") \
        else "needs mosquitto and openssl"
    for item in items:
        needs = set(getattr(item, "fixturenames", ()))
        if no_postgres and "postgres" in needs:
            item.add_marker(pytest.mark.skip(reason=no_postgres))
        elif no_broker and "league_broker" in needs:
            item.add_marker(pytest.mark.skip(reason=no_broker))


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture
def league_db(postgres: PostgresServer) -> str:
    """A new empty database of the session's PostgreSQL: its DSN."""
    return postgres.new_database()


@pytest.fixture(scope="session")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return make_certificates(tmp_path_factory.mktemp("league-tls"))


@pytest.fixture
def league_broker(certificates: tuple[Path, Path, Path]) -> Iterator[LeagueBroker]:
    broker = start_league_broker(certificates, clubs=("ashby", "brook", "crane"),
                                 extra="autosave_interval 1\n")
    yield broker
    broker.handle.stop()

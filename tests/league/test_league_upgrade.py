"""A league database written by an older tricktable opens in this one (docs/appliance.md,
"Upgrades"; ``league.migrations``): the migrations it lacks are applied once, and its hands,
games, nights, standings and ratings read back as that release stored them; one from a newer
release is refused, unchanged (docs/storage.md).

The database is tests/data/upgrade-7c73ea1/league.sql: commit 7c73ea1's league store, fed that
commit's demo night of the same folder (its journal, night file and players database) through
its ``ClubFeed``, a season added and rated, then dumped with ``pg_dump``; league.json is what
that commit's store answered (see the folder's README).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import psycopg
import pytest
from pgkit import PostgresServer
from tricktable.league.migrations import MIGRATIONS, LeagueStoreError
from tricktable.league.store import LeagueStore

OLD = Path(__file__).resolve().parents[1] / "data" / "upgrade-7c73ea1"


def restored(postgres: PostgresServer) -> str:
    """A new database holding the old release's dump; its DSN."""
    dsn = postgres.new_database()
    load = subprocess.run([str(postgres.bindir / "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-f",
                           str(OLD / "league.sql"), dsn], capture_output=True, text=True)
    assert load.returncode == 0, load.stdout + load.stderr
    return dsn


def test_the_old_releases_league_opens_with_its_standings_and_ratings(postgres) -> None:
    dsn = restored(postgres)
    then = json.loads((OLD / "league.json").read_text())
    with LeagueStore(dsn) as store:
        assert store.counts() == then["counts"]
        season = store.season(then["season"])
        assert season is not None
        now = [{"rank": r.rank, "club": r.club, "player": r.player, "total": r.total,
                "won": r.won, "played": r.played, "nights": r.nights, "name": r.name,
                "mu": r.mu, "sigma": r.sigma} for r in store.standings(season)]
        assert now == then["standings"]
    with psycopg.connect(dsn) as conn:
        versions = [v for (v,) in conn.execute("SELECT version FROM schema_version ORDER BY 1")]
    assert versions == list(range(1, len(MIGRATIONS) + 1)), "each migration applied once"


def test_opening_it_again_changes_nothing(postgres) -> None:
    dsn = restored(postgres)
    with LeagueStore(dsn) as store:
        first = store.counts(), store.standings(store.season("autumn-2026"))
    with LeagueStore(dsn) as store:
        assert (store.counts(), store.standings(store.season("autumn-2026"))) == first


def test_a_league_database_from_a_newer_release_is_refused_unchanged(postgres) -> None:
    dsn = restored(postgres)
    newer = len(MIGRATIONS) + 1
    with psycopg.connect(dsn) as conn:
        conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (newer,))
    with pytest.raises(LeagueStoreError, match=f"league database version {newer}; this "
                                               f"tricktable knows up to {len(MIGRATIONS)}"):
        LeagueStore(dsn)
    with psycopg.connect(dsn) as conn:
        versions = [v for (v,) in conn.execute("SELECT version FROM schema_version ORDER BY 1")]
        tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
                              ).fetchone()
    assert versions == [*range(1, len(MIGRATIONS) + 1), newer]
    assert tables == (9,), "no table added or dropped"  # schema_version and the 8 of 1..2

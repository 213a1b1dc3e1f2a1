"""The statistics of a seasoned club, counted live as the tables scored, are what an
independent recount of the raw journal actions gives (tests/stats/recount.py), for Bid
Euchre, Euchre and Spades: hands played, tricks taken, contracts won at auction by level and
made or set, sets (euchres) suffered and inflicted, trump called by suit, nil made or set,
revokes by whom."""

from __future__ import annotations

from collections import Counter

import pytest
from recount import recount
from seasoning import VARIANTS, SeasonedClub
from tricktable.players import ClubDB
from tricktable.serve.journal import Journal
from tricktable.stats import family_of

RECOUNTED = ("hands", "tricks", "revokes", "declared", "declared:", "bid:", "trump:",
             "set_suffered", "set_inflicted", "nil:", "blind_nil:")


def counted(seasoned: SeasonedClub, family: str) -> dict[str, Counter[str]]:
    with ClubDB(seasoned.db, readonly=True) as db:
        rows = db.query("SELECT name, stat, value FROM counts WHERE partner = '' AND family = ?",
                        (family,))
    out: dict[str, Counter[str]] = {}
    for name, stat, value in rows:
        if stat.startswith(RECOUNTED) and not (stat.startswith("bid:") and stat.count(":") == 1):
            out.setdefault(name, Counter())[stat] = value
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_live_statistics_are_a_recount_of_the_raw_journal_actions(
        seasoned: SeasonedClub, variant: str) -> None:
    family = family_of(variant)
    journal_path, _night = seasoned.nights[variant]
    with Journal(journal_path, readonly=True) as journal:
        games = [(g.setup["players"], g.actions) for table in journal.tables()
                 for g in journal.games(table) if g.actions]
    expected = {name: Counter({k: v for k, v in c.items() if v})
                for name, c in recount(family, games).items()}
    got = counted(seasoned, family)
    assert sum(c["hands"] for c in expected.values()) >= 4 * 2 * 2 * 2, \
        "the nights played fewer hands than asked"
    assert got == expected

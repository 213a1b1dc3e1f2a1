"""Whole progressive nights (“Bid Euchre”, section “Bid euchre variations”, "Progressive": "After 10 games,
players total their tally sheets, to determine the high score and low score") for 8, 12 and
16 players, with simulated scores: every player's tally adds up to the scores entered."""

from __future__ import annotations

import pytest
from club_sim import play_night
from tricktable.club import standings


@pytest.mark.parametrize("players", [8, 12, 16])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_night_every_tally_adds_up(players, seed):
    night, ledger = play_night(players, seed)
    tallies = night.tallies()
    assert night.finished and len(night.games) == 10
    for name in night.players:
        sheet = tallies[name]
        assert [e.round for e in sheet] == list(range(1, 11))
        assert sum(e.score for e in sheet) == ledger[name]
    rows = standings(tallies)
    assert {r.name: r.total for r in rows} == ledger
    assert sum(r.won for r in rows) == 10 * players // 2   # half the room wins each game
    assert [r.total for r in rows] == sorted(ledger.values(), reverse=True)
    assert rows[0].high and rows[-1].low
    assert {r.name for r in rows if r.high} == {n for n, t in ledger.items()
                                                if t == max(ledger.values())}


@pytest.mark.parametrize("players", [8, 12, 16])
def test_a_whole_night_nobody_keeps_a_partner(players):
    # "partners in one game are opponents in the next game"
    night, _ = play_night(players, 7)
    tallies = night.tallies()
    for sheet in tallies.values():
        partners = [e.partner for e in sheet]
        assert all(a != b for a, b in zip(partners, partners[1:], strict=False))


def test_the_same_scores_give_the_same_night():
    first, _ = play_night(12, 3)
    second, _ = play_night(12, 3)
    assert first.tallies() == second.tallies() and first.games == second.games


def test_standings_share_ranks_on_equal_totals():
    from tricktable.club.tournament import TallyEntry

    def sheet(score):
        return [TallyEntry(1, 1, "N", "x", score, 0, score > 0)]

    rows = standings({"Di": sheet(5), "Ann": sheet(5), "Bob": sheet(2), "Cy": sheet(-1)})
    assert [(r.rank, r.name, r.high, r.low) for r in rows] == [
        (1, "Ann", True, False), (1, "Di", True, False), (3, "Bob", False, False),
        (4, "Cy", False, True)]
    level = standings({"Ann": sheet(0), "Bob": sheet(0)})
    assert [(r.rank, r.high, r.low) for r in level] == [(1, True, False), (1, True, False)]

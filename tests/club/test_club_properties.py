"""Properties of the movement (“Bid Euchre”, section “Bid euchre variations”, "Progressive"), for any number
of tables and any results: the seating is always a permutation of the roster (nobody sits
twice, nobody is left out) and nobody keeps a partner."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tricktable.club import ProgressiveOptions, ProgressiveTournament, move


def partners(seating):
    return {frozenset((t[i], t[i + 2])) for t in seating for i in (0, 1)}


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.lists(st.sampled_from("AB"), min_size=n, max_size=n),
                         min_size=1, max_size=12))))
def test_seating_is_always_a_permutation_of_the_roster(case):
    tables, rounds = case
    roster = [f"P{i}" for i in range(4 * tables)]
    seating = [tuple(roster[i:i + 4]) for i in range(0, len(roster), 4)]
    for winners in rounds:
        after = move(seating, winners)
        flat = [name for table in after for name in table]
        assert len(after) == tables and all(len(t) == 4 for t in after)
        assert sorted(flat) == sorted(roster) and len(set(flat)) == len(flat)
        assert not partners(after) & partners(seating)
        seating = after


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 5), st.integers(0, 2**32), st.lists(
    st.tuples(st.integers(-10, 10), st.integers(-10, 10)), min_size=12, max_size=12))
def test_a_night_seats_everyone_once_every_game(tables, seed, scores):
    night = ProgressiveTournament.new([f"P{i}" for i in range(4 * tables)], tables,
                                      ProgressiveOptions(hands_per_round=1, rounds=4),
                                      shuffle_seed=seed)
    for game in range(4):
        flat = [name for table in night.seating for name in table]
        assert sorted(flat) == sorted(night.players)
        for number in range(1, tables + 1):
            night.record_hand(number, *scores[(game * 3 + number) % len(scores)])
        night.bell({n: "A" for n in range(1, tables + 1)
                    if len(set(night.table_score(n))) == 1})
    assert all(len(sheet) == 4 for sheet in night.tallies().values())

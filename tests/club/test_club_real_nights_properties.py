"""Properties of a real night (docs/club.md, "What real nights need"; judgement calls where
“Bid Euchre”, section “Progressive” is silent): whatever the director does — arrivals,
substitutions, swaps, bells, bells taken back, an early end — everyone present is in exactly
one place, every table seats four, a refused operation changes nothing, and the night file
gives back the same night."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tricktable.club import ClubError, ProgressiveOptions, ProgressiveTournament
from tricktable.club.store import night_from_json, night_to_json

NAMES = [f"N{i}" for i in range(30)]
STEP = st.one_of(
    st.tuples(st.just("hand"), st.integers(1, 3), st.integers(-3, 6), st.integers(-3, 6)),
    st.tuples(st.just("bell")),
    st.tuples(st.just("unbell")),
    st.tuples(st.just("end")),
    st.tuples(st.just("arrive"), st.sampled_from(NAMES)),
    st.tuples(st.just("substitute"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("swap"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
)


def apply(night: ProgressiveTournament, step: tuple) -> None:
    kind, *args = step
    if kind == "hand":
        night.record_hand(*args)
    elif kind == "bell":  # the head table plays its hand first if it has not
        if night.hands_left():
            night.record_hand(1, 1, 0)
        night.bell({n: "A" for n in range(1, night.tables + 1)
                    if night.table_score(n)[0] == night.table_score(n)[1]})
    else:
        getattr(night, kind)(*args)


@settings(max_examples=200, deadline=None)
@given(st.integers(4, 14), st.lists(STEP, max_size=40))
def test_any_sequence_of_operations_keeps_the_night_whole(players, steps):
    night = ProgressiveTournament.new(NAMES[:players],
                                      options=ProgressiveOptions(hands_per_round=1, rounds=4))
    for step in steps:
        before = night_to_json(night)
        try:
            apply(night, step)
        except ClubError:
            assert night_to_json(night) == before
            continue
        present = night.present()
        assert len(present) == len(set(present))
        assert not set(present) & set(night.left)
        assert all(len(table) == 4 for table in night.seating)
        again = night_from_json(night_to_json(night))
        assert night_to_json(again) == night_to_json(night)
        assert again.tallies() == night.tallies()
        if not night.finished:
            assert again.seating == night.seating and again.bench == night.bench
            assert again.arriving == night.arriving and again.left == night.left

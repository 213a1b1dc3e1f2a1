"""A club night survives a restart: JSON save/load round-trips, at every point of a night,
and a damaged or hand-edited file is refused with the reason; two writers at once each
replace the file whole."""

from __future__ import annotations

import json
import random
import threading

import pytest
from club_sim import play_game, play_night
from hypothesis import given, settings
from hypothesis import strategies as st
from tricktable.club import (
    ClubError,
    ProgressiveOptions,
    ProgressiveTournament,
    load_night,
    night_from_json,
    night_to_json,
    save_night,
)
from tricktable.club.store import write_atomically


def same(a: ProgressiveTournament, b: ProgressiveTournament) -> None:
    assert (a.players, a.options, a.seating, a.hands, a.games) == \
        (b.players, b.options, b.seating, b.hands, b.games)
    assert a.tallies() == b.tallies()


def test_round_trip_at_every_bell(tmp_path):
    night = ProgressiveTournament.new([f"P{i}" for i in range(12)], shuffle_seed=5,
                                      options=ProgressiveOptions(hands_per_round=4, rounds=6))
    rng = random.Random(1)
    ledger = dict.fromkeys(night.players, 0)
    path = tmp_path / "night.json"
    while not night.finished:
        night.record_hand(2, 1, 2)
        save_night(night, path)
        same(load_night(path), night)
        night.set_hands(2, [])
        play_game(night, rng, ledger)
        save_night(night, path)
        same(load_night(path), night)
    assert not (tmp_path / "night.json.tmp").exists()


def test_a_finished_night_with_settled_ties_round_trips():
    night, _ = play_night(16, 11)
    assert any(game.decided for game in night.games)
    data = json.loads(json.dumps(night_to_json(night)))
    same(night_from_json(data), night)


def test_missing_and_broken_files_are_refused(tmp_path):
    with pytest.raises(ClubError, match="no club night at"):
        load_night(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ClubError, match="not valid JSON"):
        load_night(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text('{"format": "something else"}')
    with pytest.raises(ClubError, match="not a club night file"):
        load_night(tmp_path / "other.json")


def test_a_hand_edited_file_that_breaks_a_rule_is_refused_naming_the_game():
    night, _ = play_night(8, 4)
    data = night_to_json(night)
    data["games"][2]["hands"][0] = data["games"][2]["hands"][0][:5]
    with pytest.raises(ClubError, match="game 3: the head table has played 5 of its 8"):
        night_from_json(data)
    data = night_to_json(night)
    data["first_seating"][1][0] = data["first_seating"][0][0]
    with pytest.raises(ClubError, match="on the roster twice"):
        night_from_json(data)
    data = night_to_json(night)
    data["games"][0]["hands"][1] = [4, 2]
    with pytest.raises(ClubError, match="game 1: table 2, hand 1: .* not 4$"):
        night_from_json(data)
    data = night_to_json(night)
    data["first_seating"][1] = "abcd"
    with pytest.raises(ClubError, match="table 2 must be a list of four names"):
        night_from_json(data)
    data = night_to_json(night)
    data["options"]["colour"] = "red"
    with pytest.raises(ClubError, match="unknown night options: colour"):
        night_from_json(data)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=8)


def paths(data, prefix=()):
    """Every place in a JSON tree, as a key path."""
    yield prefix
    items = data.items() if isinstance(data, dict) else enumerate(data) \
        if isinstance(data, list) else ()
    for key, value in items:
        yield from paths(value, (*prefix, key))


BASE = night_to_json(play_night(8, 9)[0])
PLACES = [p for p in paths(BASE) if p]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PLACES), JSON)
def test_a_damaged_night_file_gives_a_club_error_or_loads(place, value):
    data = json.loads(json.dumps(BASE))
    target = data
    for key in place[:-1]:
        target = target[key]
    target[place[-1]] = value
    try:
        night_from_json(data)
    except ClubError:
        pass


def test_two_writers_at_once_each_replace_the_night_whole(tmp_path):
    """The tables' host and a command beside it may save in the same instant: each save
    replaces the file whole (no writer renames the other's half-written copy or fails for
    want of it), and no temporary file is left."""
    path = tmp_path / "night.json"
    texts = [json.dumps({"writer": n, "pad": "x" * 20000}) for n in range(4)]
    failures: list[BaseException] = []

    def write(text: str) -> None:
        try:
            for _ in range(200):
                write_atomically(path, text)
        except BaseException as exc:  # the test reports it
            failures.append(exc)

    writers = [threading.Thread(target=write, args=(text,)) for text in texts]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert failures == []
    assert path.read_text(encoding="utf-8") in texts
    assert [p.name for p in tmp_path.iterdir()] == ["night.json"]

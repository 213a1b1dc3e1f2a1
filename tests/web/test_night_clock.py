"""What the TV's round clock and bell banner read from the night file: the ``live`` section
that ``tricktable serve --night`` keeps (``bell``, ``round_started``), and for a night kept by
hand, the moment the scoreboard saw the game change."""

from __future__ import annotations

import time
from pathlib import Path

from club_night import club_night, write_night
from tricktable.club import save_night
from tricktable.web.night import NightFile


def test_the_view_carries_the_bell_and_the_start_of_the_game_from_the_live_tables(
        tmp_path: Path) -> None:
    path = tmp_path / "night.json"
    night = club_night(tables=2)
    write_night(night, path, bell=True, round_started=1234.5)
    before = time.time()
    view = NightFile(path).view()
    assert view["bell"] is True and view["round_started"] == 1234.5
    assert before <= view["now"] <= time.time()  # the scoreboard's clock, for the TV's offset


def test_a_night_kept_by_hand_starts_the_clock_when_the_scoreboard_sees_a_new_game(
        tmp_path: Path) -> None:
    path = tmp_path / "night.json"
    night = club_night(tables=2)
    save_night(night, path)
    watched = NightFile(path)
    assert watched.view()["round_started"] is None and watched.view()["bell"] is False
    for hand in range(6):
        night.record_hand(1, hand, 1)
    night.record_hand(2, 3, 1)
    night.bell()
    before = time.time()
    save_night(night, path)
    assert watched.refresh()
    assert watched.view()["round"] == 3 and watched.view()["round_started"] >= before

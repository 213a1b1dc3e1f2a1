"""``tricktable doctor`` names two boards with one id from one retained status (its ``taken``:
the sessions the broker took from it since it booted), and stops the night on it: acks and
verdicts would reach the wrong board."""

from __future__ import annotations

from types import SimpleNamespace

from tricktable.appliance.doctor import _board
from tricktable.protocol import BoardStatus, encode


def lines(status: BoardStatus) -> list[str]:
    return [check.line() for check in _board(SimpleNamespace(firmware=None), "t1-n",
                                             encode(status))]


def test_a_board_taken_over_again_and_again_stops_the_night():
    assert lines(BoardStatus(online=True, boot=3, taken=4)) == [
        "✗ board t1-n: two boards answer to this id (its session was taken 4 times since it "
        "booted): acks and verdicts reach the wrong board: give each board its own id "
        "(`tricktable board setup`)"]


def test_one_takeover_in_a_night_is_no_twin():
    [line] = lines(BoardStatus(online=True, boot=3, taken=1, fw="1.4"))
    assert line.startswith("✓ board t1-n online"), line

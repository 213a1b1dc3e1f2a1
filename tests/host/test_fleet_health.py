"""The fleet page's flags (tricktable.fleet.health): a reader down, a weak reader (its miss
rate per pad, or without the board's read counts its failed frames), a board that restarted
while watched, an update that failed."""

from __future__ import annotations

from tricktable.fleet.health import FleetHealth
from tricktable.protocol import BoardStatus, UpdateProgress


def test_flags_name_what_a_director_should_look_at():
    health = FleetHealth()
    health.seen("ok", BoardStatus(online=True, boot=1, reader_errors=[3], reader_resets=[0],
                                  reads=[50]))
    health.seen("down", BoardStatus(online=True, boot=2, faults=[1], reader_errors=[0, 0]))
    health.seen("weak", BoardStatus(online=True, boot=3, reader_errors=[30], reader_resets=[1]))
    health.seen("resets", BoardStatus(online=True, boot=4, reader_errors=[0],
                                      reader_resets=[3]))
    health.seen("misses", BoardStatus(online=True, boot=7, reads=[40, 40], misses=[8, 11],
                                      reader_errors=[0, 0], reader_resets=[0, 0]))
    health.seen("early", BoardStatus(online=True, boot=8, reads=[5], misses=[4],
                                     reader_errors=[0], reader_resets=[0]))
    health.seen("again", BoardStatus(online=True, boot=5))
    health.seen("again", BoardStatus(online=False))  # the last will: not a restart yet
    health.seen("again", BoardStatus(online=True, boot=6, update=UpdateProgress(
        state="rolled_back", version="0.3.0", reason="it did not come online")))
    flags = {row["board"]: row["flags"] for row in health.rows()}
    assert flags["ok"] == []
    assert flags["down"] == ["pad 1: reader down"]
    assert flags["weak"] == ["pad 0: weak reader (30 errors, 1 resets)"]
    # a miss rate per pad: 8 of 48 tries is a pad's ordinary luck, 11 of 51 is not; and 4
    # misses in 9 tries are too few tries to judge
    assert flags["misses"] == ["pad 1: weak reader (11 misses, 0 errors, 0 resets in 40 reads)"]
    assert flags["early"] == []
    assert flags["resets"] == ["pad 0: weak reader (0 errors, 3 resets)"]
    assert flags["again"] == ["restarted 1 time",
                              "update 0.3.0 rolled back: it did not come online"]


def test_a_board_that_refused_part_of_its_config_is_flagged_with_why():
    """docs/protocol.md, the status's ``config``: a config.json asking for pads the board's
    pin map does not wire runs the wired ones, and the fleet page says so."""
    health = FleetHealth()
    health.seen("north", BoardStatus(online=True, boot=1, config="pads 3 refused: the pico_w "
                                     "map wires 2 i2c readers"))
    assert health.rows()[0]["flags"] == [
        "config.json: pads 3 refused: the pico_w map wires 2 i2c readers"]


def test_two_boards_with_one_id_are_named_not_counted_as_restarts():
    """A config.json copied by hand: two boards take the session from each other, and their
    statuses take turns under two boot ids. A board that restarts never goes back to a boot
    id it left, so the turns name the twins; restarts alone are no twins."""
    health = FleetHealth()
    for boot in (11, 22, 11, 22, 11):
        health.seen("north", BoardStatus(online=True, boot=boot))
    for boot in (1, 2, 3):
        health.seen("south", BoardStatus(online=True, boot=boot))
    rows = {row["board"]: row for row in health.rows()}
    assert rows["north"]["flags"] == [
        "two boards answer to this id (boots 11, 22 take turns): give each its own "
        "(`tricktable board setup`)"]
    assert rows["north"]["restarts"] == 1, "only the first change could have been a restart"
    assert rows["south"]["flags"] == ["restarted 2 times"], "restarts are no twins"


def test_a_board_whose_session_is_taken_again_and_again_says_so_in_one_status():
    """The board counts the links the broker ended within a keepalive of connecting (another
    client with its id: MQTT-3.1.4-2): the doctor sees a twin in one retained status."""
    health = FleetHealth()
    health.seen("east", BoardStatus(online=True, boot=5, taken=4))
    health.seen("west", BoardStatus(online=True, boot=6, taken=1))  # the room's one blip
    rows = {row["board"]: row["flags"] for row in health.rows()}
    assert rows["east"] == ["two boards answer to this id (its session was taken 4 times "
                            "since it booted): give each its own (`tricktable board setup`)"]
    assert rows["west"] == []

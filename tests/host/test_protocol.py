"""Protocol v1: topics under a prefix, schemas with limits, errors that name the field."""

from __future__ import annotations

import pytest
from tricktable.protocol import (
    MAX_BOARD_MESSAGE,
    Ack,
    BoardConfig,
    BoardStatus,
    Control,
    Display,
    Feedback,
    PadEvent,
    PadSeat,
    ProtocolError,
    Topics,
    decode,
    encode,
    natural_key,
)

EVENT = b'{"v":1,"board":"n1","boot":7,"seq":3,"t":1200,"pad":0,"kind":"place","uid":"04a1b2c3d4e5f6"}'


def test_topics_follow_the_architecture_table():
    t = Topics("club")
    assert t.board_event("n1") == "club/v1/board/n1/event"
    assert t.ack("n1") == "club/v1/board/n1/ack"
    assert t.state("t1") == "club/v1/table/t1/state"
    assert t.control("t1") == "club/v1/table/t1/control"
    assert t.host_subscriptions() == [
        "club/v1/board/+/event", "club/v1/board/+/status", "club/v1/table/+/control"]
    assert t.parse("club/v1/board/n1/event") == ("board", "n1", "event")


@pytest.mark.parametrize("topic", ["club/v2/board/n1/event", "club/v1/board/n1", "other/v1/board/a/event",
                                   "club/v1/seat/n1/event", "club/v1/board/bad id/event"])
def test_foreign_topics_are_refused(topic):
    with pytest.raises(ProtocolError, match="not a club/v1 topic"):
        Topics("club").parse(topic)


def test_prefix_may_not_hold_wildcards():
    with pytest.raises(ProtocolError, match="bad topic prefix"):
        Topics("a/#")


def test_pad_event_round_trip():
    ev = decode(PadEvent, EVENT)
    assert (ev.board, ev.boot, ev.seq, ev.pad) == ("n1", 7, 3, 0)
    assert ev.uid_bytes == bytes.fromhex("04a1b2c3d4e5f6") and ev.rec_bytes is None
    assert decode(PadEvent, encode(ev)) == ev


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        (EVENT.replace(b'"seq":3', b'"seq":"3"'), "$.seq"),
        (EVENT.replace(b'"pad":0', b'"pad":16'), "$.pad"),
        (EVENT.replace(b'"uid":"04a1b2c3d4e5f6"', b'"uid":"zz"'), "$.uid"),
        (EVENT.replace(b'"v":1', b'"v":2'), "$.v"),
        (EVENT.replace(b',"boot":7', b""), "$"),
        (EVENT.replace(b'}', b',"rec":"00"}'), "$.rec"),
        (b"{not json", "$"),
    ],
)
def test_bad_pad_events_name_the_field(payload, field):
    with pytest.raises(ProtocolError) as err:
        decode(PadEvent, payload)
    assert err.value.field == field
    assert "PadEvent" in str(err.value)


def test_missing_field_is_named():
    with pytest.raises(ProtocolError, match="boot"):
        decode(PadEvent, EVENT.replace(b',"boot":7', b""))


def test_oversized_message_is_refused_before_parsing():
    big = EVENT[:-1] + b',"pad_note":"' + b"x" * MAX_BOARD_MESSAGE + b'"}'
    with pytest.raises(ProtocolError, match=r"PadEvent too large: \d+ bytes \(limit 512\)"):
        decode(PadEvent, big)


def test_other_messages_round_trip():
    for msg in (
        BoardStatus(online=False),
        Ack(boot=7, seq=3),
        Feedback(pad=1, led="red", pattern="blink", ms=2000, buzz="error"),
        BoardConfig(table="t1", pads=[PadSeat(pad=0, seat=0), PadSeat(pad=1, seat=1)], display=True),
        Display(text8="NS 3 EW5", lines=["Bid Euchre", "N: 4 hearts"]),
        Control(cmd="undo", id="r1"),
    ):
        assert decode(type(msg), encode(msg), limit=10_000) == msg
    assert encode(BoardStatus(online=False)).startswith(b'{"v":1,"online":false')


def test_display_lines_are_bounded():
    with pytest.raises(ProtocolError, match=r"\$.lines\[0\]"):
        decode(Display, b'{"v":1,"text8":"x","lines":["' + b"y" * 17 + b'"]}')


def test_unknown_control_command_is_named():
    with pytest.raises(ProtocolError, match=r"field \$.cmd"):
        decode(Control, b'{"v":1,"cmd":"explode"}')


def test_table_ids_sort_as_people_count():
    ids = ["t10", "t2", "t1", "t11", "head", "3", "12"]
    assert sorted(ids, key=natural_key) == ["3", "12", "head", "t1", "t2", "t10", "t11"]

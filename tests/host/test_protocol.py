"""Protocol v1: topics under a prefix, schemas with limits, errors that name the field."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

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


RACE = textwrap.dedent("""
    import sys, threading
    from typing import Annotated, Literal
    from msgspec import Meta, Struct
    from tricktable import protocol
    sys.setswitchinterval(1e-6)  # threads change hands as often as they can
    payload = b'{"v":1,"online":true,"boot":7,"update":{"state":"current"},"pads":[1,2]}'
    for _ in range(300):
        class Inner(Struct, kw_only=True):
            state: Literal["current", "refused"]
            version: Annotated[str, Meta(max_length=64)] | None = None
        class Status(Struct, kw_only=True):  # a new type: its decoding info not built yet
            v: Literal[1] = 1
            online: bool
            boot: Annotated[int, Meta(ge=0)] | None = None
            update: Inner | None = None
            pads: Annotated[list[Annotated[int, Meta(ge=0)]], Meta(max_length=16)] | None = None
        start = threading.Barrier(6)
        def first_use():
            start.wait()
            assert protocol.decode(Status, payload, 2048).update.state == "current"
        threads = [threading.Thread(target=first_use) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    print("decoded")
""")


def test_threads_meeting_a_type_for_the_first_time_decode_it_without_crashing():
    """Six threads decoding a type none has decoded before, 300 times over: msgspec builds a
    type's decoding information on first use, and two threads building it at once crashed the
    process (a segmentation fault: the service's and the scoreboard's MQTT threads meeting
    their first BoardStatus together); protocol.decode builds one at a time."""
    host = str(Path(__file__).resolve().parents[2] / "host")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (host, os.environ.get("PYTHONPATH", "")) if p))
    done = subprocess.run([sys.executable, "-X", "faulthandler", "-c", RACE], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "decoded", (
        f"exit {done.returncode}\n{done.stdout}\n{done.stderr[-3000:]}")

"""Whatever bytes arrive on a topic the service reads, decoding raises ProtocolError or nothing.

The service hands every board event, board status and control command straight to
``protocol.decode``; anything else escaping it would stop the message handler. Checked over
arbitrary bytes and over byte-level mutations of a valid message of each kind, including the
poison message that once stopped the service (invalid UTF-8 inside a JSON string).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tricktable.protocol import (
    MAX_BOARD_MESSAGE,
    MAX_CONTROL_MESSAGE,
    BoardStatus,
    Control,
    PadEvent,
    ProtocolError,
    Topics,
    decode,
)

VALID = {
    PadEvent: b'{"v":1,"board":"t1-n","boot":7,"seq":3,"t":1200,"pad":0,"kind":"place",'
              b'"uid":"04a1b2c3d4e5f6","rec":null}',
    BoardStatus: b'{"v":1,"online":true,"boot":7,"fw":"1.0","heap":40000,"rssi":-60,'
                 b'"readers":1,"uptime":99}',
    Control: b'{"v":1,"cmd":"action","args":{"action":{"type":"pass","seat":1}},"id":"r1"}',
}
LIMIT = {PadEvent: MAX_BOARD_MESSAGE, BoardStatus: MAX_BOARD_MESSAGE, Control: MAX_CONTROL_MESSAGE}
KINDS = list(VALID)
POISON = b'{"v":1,"board":"t1-n","boot":1,"seq":1,"t":5,"pad":0,"uid":"\xed\xa0\x80"}'


def decodes_or_refuses(kind: type, payload: bytes) -> None:
    try:
        decode(kind, payload, LIMIT[kind])
    except ProtocolError:
        pass


def test_the_poison_message_is_refused_as_not_utf8():
    with pytest.raises(ProtocolError, match="not UTF-8"):
        decode(PadEvent, POISON)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
def test_each_valid_message_decodes(kind):
    decode(kind, VALID[kind], LIMIT[kind])


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(KINDS), payload=st.binary(max_size=600))
def test_arbitrary_bytes_never_raise_anything_but_protocol_error(kind, payload):
    decodes_or_refuses(kind, payload)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[type, bytes]:
    """A valid message of some kind with bytes replaced, inserted, deleted or duplicated."""
    kind = draw(st.sampled_from(KINDS))
    data = bytearray(VALID[kind])
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(["replace", "insert", "delete", "repeat"]))
        chunk = draw(st.binary(min_size=1, max_size=4))
        if how == "replace":
            data[at:at + len(chunk)] = chunk
        elif how == "insert":
            data[at:at] = chunk
        elif how == "delete":
            del data[at:at + len(chunk)]
        else:
            data[at:at] = data[at:at + draw(st.integers(1, 40))] * draw(st.integers(1, 30))
    return kind, bytes(data)


@settings(max_examples=600, deadline=None)
@given(case=mutated())
def test_mutated_valid_messages_never_raise_anything_but_protocol_error(case):
    kind, payload = case
    decodes_or_refuses(kind, payload)


@settings(max_examples=300, deadline=None)
@given(topic=st.text(max_size=80))
def test_any_topic_parses_or_is_refused(topic):
    try:
        Topics("club").parse(topic)
    except ProtocolError:
        pass

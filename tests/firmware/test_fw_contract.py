"""The board's messages are the host's protocol v1 (docs/architecture.md, "MQTT"): what the
firmware publishes decodes with ``tricktable.protocol``, and what the host sends the board
(ack, feedback, config, display) is what the firmware accepts.
"""

from __future__ import annotations

import json

import pn532_emulator as E
from app import App
from casekit import UID7, LinkBoard, tag
from compat import asyncio
from config import validate
from tricktable import protocol


def board_app(tmp_path) -> tuple[App, list]:
    chips = [E.PN532(), E.PN532()]
    cfg = validate({"board": "north-1", "pads": 2, "display": None,
                    "broker": {"host": "127.0.0.1"}})
    return App(LinkBoard(chips), cfg, str(tmp_path)), chips


def test_board_event_and_status_decode_as_protocol_v1(tmp_path) -> None:
    app, chips = board_app(tmp_path)

    async def scan() -> None:
        await app.start_readers()
        t = tag(UID7)
        t.write_user(bytes(range(16)))
        chips[1].place(t)
        await app.scan_once()

    asyncio.run(scan())
    event = protocol.decode(protocol.PadEvent, app.outbox.payload(app.outbox.pending[0]))
    assert (event.board, event.pad, event.uid_bytes, event.rec_bytes) == (
        "north-1", 1, UID7, bytes(range(16)))
    status = protocol.decode(protocol.BoardStatus, json.dumps(app.status()).encode())
    assert status.online and status.readers == 2 and status.boot == app.outbox.boot
    will = app.link.will
    assert will[0].endswith("/v1/board/north-1/status") and will[2] is True
    assert protocol.decode(protocol.BoardStatus, will[1].encode()).online is False


def test_host_messages_are_accepted_by_the_board(tmp_path) -> None:
    app, _ = board_app(tmp_path)
    entry = app.outbox.add(0, UID7, None, 5)
    base = "tricktable/v1/board/north-1/"
    app.on_message(base + "feedback", protocol.encode(
        protocol.Feedback(pad=0, led="red", pattern="blink", ms=1500, buzz="error")))
    app.on_message(base + "config", protocol.encode(
        protocol.BoardConfig(table="t2", pads=[protocol.PadSeat(pad=0, seat=2)])))
    app.on_message(base + "ack", protocol.encode(protocol.Ack(boot=entry.boot, seq=entry.seq)))
    assert app.bad_messages == 0, app.last_error
    assert app.outbox.pending == [] and app.table == "t2" and app.enabled == [0]
    assert app.feedback.state[0][:2] == ("red", "blink")


def test_the_table_display_summary_shows_on_the_7_segment() -> None:
    import virtual
    from display import MAX7219

    virtual.unwire()
    dev = virtual.SPIRecorder()
    virtual.wire_spi(1, 13, dev)
    max7219 = MAX7219(virtual.SPI(1), virtual.Pin(13, virtual.Pin.OUT, value=1))
    for text8 in ("NO GAME", "-12   30", "  8  -4"):
        msg = json.loads(protocol.encode(protocol.Display(text8=text8, lines=["t1 g1 h3"])))
        max7219.show(msg)

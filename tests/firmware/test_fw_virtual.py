"""The virtual pad board the simulator builds (firmware/README.md, "A virtual board"): the
real App on ``virtual.pad_board`` reads emulated cards on every bus, and lights a pad when
the host says so. CPython only: the simulator runs there (MicroPython runs the same modules
in test_fw_logic.py).
"""

from __future__ import annotations

import asyncio
import json

import pn532_emulator as E
import pytest
import virtual
from app import App
from casekit import UID4, UID7, tag
from config import validate
from feedback import COLOURS


@pytest.mark.parametrize("bus", ["spi", "i2c", "uart"])
def test_a_virtual_board_reports_cards_on_every_bus(bus: str, tmp_path) -> None:
    virtual.unwire()
    chips = [E.PN532() for _ in range(4)]
    board = virtual.pad_board(chips, E, bus=bus, first_pin=200)
    app = App(board, validate({"board": "west", "pads": 4, "broker": {"host": "127.0.0.1"}}),
              str(tmp_path))

    async def play() -> None:
        await app.start_readers()
        chips[3].place(tag(UID7, miss_every=2))
        chips[0].place(tag(UID4))
        for _ in range(5):
            await app.scan_once()

    asyncio.run(play())
    events = [json.loads(app.outbox.payload(e)) for e in app.outbox.pending]
    assert [(e["seq"], e["pad"], e["uid"]) for e in events] == [(1, 0, UID4.hex()),
                                                               (2, 3, UID7.hex())]
    app.on_message("tricktable/v1/board/west/feedback",
                   b'{"v": 1, "pad": 3, "led": "blue", "pattern": "solid", "ms": 0}')
    assert board.pixels.shown[3] == COLOURS["blue"]


def test_a_display_board_shows_the_tables_display_topic(tmp_path) -> None:
    from display import MAX7219, segments

    virtual.unwire()
    dev = virtual.SPIRecorder()
    virtual.wire_spi(1, 13, dev)
    board = virtual.VirtualBoard([], display=MAX7219(virtual.SPI(1), virtual.Pin(13, value=1)))
    cfg = validate({"board": "t1-score", "pads": 0, "table": "t1", "display": "max7219",
                    "broker": {"host": "127.0.0.1"}})
    app = App(board, cfg, str(tmp_path))
    assert "tricktable/v1/table/t1/display" in app.link.subscriptions
    app.on_message("tricktable/v1/table/t1/display",
                   b'{"v": 1, "text8": " 12   8", "lines": ["t1 g1 h3"]}')
    assert board.display.digits == segments(" 12   8") and app.bad_messages == 0

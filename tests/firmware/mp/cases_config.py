"""Cases: the board applies the configuration the host pushes (issue 5, item 7; docs/protocol.md,
BoardConfig): the display follows the table, disabled pads go dark and are not polled, the
display takes its settings, unknown fields are ignored, a malformed config changes nothing.
"""

import json

import pn532_emulator as E
from app import App
from caseboard import config_board
from casekit import UID4, check, tag
from config import validate
from display import segments


async def case_a_pushed_config_applies_at_once(tmp):
    """docs/protocol.md, BoardConfig: the table, which pads are seats, the display."""
    chips = [E.PN532(), E.PN532()]
    board, spi = config_board(chips)
    cfg = validate({"board": "north", "pads": 2, "display": "max7219",
                    "broker": {"host": "127.0.0.1"}})
    app = App(board, cfg, tmp)
    await app.start_readers()
    app.feedback.apply({"pad": 1, "led": "green", "ms": 0})
    check(board.pixels.shown[1] != (0, 0, 0), "pad 1 lit before the config")
    base = "tricktable/v1/"
    app.on_message(base + "board/north/config", json.dumps(
        {"v": 1, "table": "t2", "pads": [{"pad": 0, "seat": 2}], "display": True,
         "brightness": 15, "colour": "ignored: a field this board does not know"}))
    check(app.bad_messages == 0, "an unknown field is ignored")
    check(base + "table/t2/display" in app.link.subscriptions
          and base + "table/t1/display" not in app.link.subscriptions,
          "the display follows the new table: the old topic is dropped, the new one taken")
    check(spi.transactions[-1] == b"\x0a\x0f", "brightness 15 set on the MAX7219")
    check(board.pixels.shown[1] == (0, 0, 0) and app.enabled == [0],
          "the disabled pad's LED is off")
    chips[1].place(tag(UID4))
    commands = chips[1].commands
    for _ in range(3):
        await app.scan_once()
    check(not app.outbox.pending and chips[1].commands == commands, "a disabled pad is not polled")
    app.on_message(base + "table/t2/display", json.dumps({"v": 1, "text8": "NS 3"}))
    app.on_message(base + "table/t1/display", json.dumps({"v": 1, "text8": "OLD"}))
    check(board.display.digits == segments("NS 3"), "the new table's display, not the old one's")
    app.on_message(base + "board/north/config", json.dumps(
        {"v": 1, "table": "t2", "pads": [{"pad": 0, "seat": 2}, {"pad": 1, "seat": 3}],
         "display": False}))
    check(app.enabled == [0, 1] and app.link.subscriptions.count(base + "table/t2/display") == 0,
          "pad 1 back on; the display topic dropped")
    check(board.display.digits == bytes(8), "a display told to show nothing is blanked")
    for _ in range(3):
        await app.scan_once()
    check([json.loads(app.outbox.payload(e))["pad"] for e in app.outbox.pending] == [1],
          "the re-enabled pad reports its card")


def case_a_malformed_config_is_refused_and_changes_nothing(tmp):
    """docs/protocol.md, Messages: a wrong type or value is refused with an error naming it."""
    board, spi = config_board([E.PN532(), E.PN532()])
    cfg = validate({"board": "north", "pads": 2, "display": "max7219",
                    "broker": {"host": "127.0.0.1"}})
    app = App(board, cfg, tmp)
    topic = "tricktable/v1/board/north/config"
    subs = list(app.link.subscriptions)
    writes = len(spi.transactions)
    bad = (("pads", {"table": "t2", "pads": [{"pad": 2, "seat": 0}]}),
           ("pads", {"table": "t2", "pads": [{"pad": 0}, {"pad": 0}]}),
           ("pads", {"table": "t2", "pads": {"pad": 0}}), ("pads", {"table": "t2", "pads": [0]}),
           ("display", {"table": "t2", "display": "yes"}),
           ("brightness", {"table": "t2", "brightness": 16}),
           ("brightness", {"table": "t2", "brightness": True}),
           ("table", {"table": "t2/x"}), ("table", {"table": ""}))
    for field, msg in bad:
        app.on_message(topic, json.dumps(msg))
        check(app.last_error.startswith(topic + ": " + field), "the error names " + field)
    check(app.bad_messages == len(bad), "every malformed config refused")
    check(app.table == "t1" and app.enabled == [0, 1] and "tricktable/v1/table/t1/display" in subs
          and app.link.subscriptions == subs
          and len(spi.transactions) == writes, "nothing changed")


def case_wifi_is_a_list_of_networks_and_a_bad_one_is_named(tmp):
    """config.json ``wifi``: networks tried in order; one object is a list of one."""
    base = {"board": "north", "broker": {"host": "127.0.0.1"}}
    two = [{"ssid": "cardroom", "password": "x"}, {"ssid": "bar"}]
    check(validate(dict(base, wifi=two))["wifi"] == two, "a list kept in order")
    check(validate(dict(base, wifi={"ssid": "cardroom"}))["wifi"] == [{"ssid": "cardroom"}],
          "one network is a list of one")
    for bad in ([], [{"password": "x"}], [{"ssid": ""}], [{"ssid": "a", "password": 5}], "cardroom"):
        try:
            validate(dict(base, wifi=bad))
        except ValueError as e:
            check("'wifi'" in str(e), f"the error names the key: {e}")
        else:
            raise AssertionError(f"wifi {bad!r} accepted")

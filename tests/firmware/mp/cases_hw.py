"""Cases: the hardware layer on virtual machine/network/neopixel modules (issue 5, items 1, 7)."""

import sys

import pn532_emulator as E
import virtual
from casekit import UID4, UID7, boards_json, check, tag

for name in ("machine", "network", "neopixel"):
    sys.modules[name] = virtual
import hw  # noqa: E402  (after the virtual machine is in place, as on a test bench)
from config import validate  # noqa: E402


async def wired_board(name, pads=4, bus="spi", irq=False):
    """hw.Board for a pin map, with emulated PN532s wired to exactly the pins it names (IRQ
    lines too, with ``irq``: config.json "irq": true)."""
    virtual.unwire()
    p = hw.load_pins(name, path=boards_json())
    chips = [E.PN532() for _ in range(pads)]
    for i in range(pads):
        if bus == "spi":
            virtual.wire_spi(p["spi"]["id"], p["cs"][i], E.SPIPort(chips[i]))
        else:
            virtual.wire_i2c(p["i2c"][i]["id"], 0x24, E.I2CPort(chips[i]))
        virtual.wire_reset(p["reset"][i], chips[i])
        if irq:
            virtual.wire_irq(p["irq"][bus][i], chips[i])
    cfg = validate({"board": "north", "pins": name, "pads": pads, "reader_bus": bus, "irq": irq,
                    "wifi": {"ssid": "cardroom"}, "broker": {"host": "127.0.0.1"}})
    board = hw.Board(cfg, p)
    for r in board.readers:
        await r.begin()
    return chips, board, cfg


async def case_pico_w_pin_map_reaches_each_reader_by_its_chip_select(tmp):
    chips, board, _ = await wired_board("pico_w")
    chips[2].place(tag(UID7))
    got = []
    for r in board.readers:
        got.append(await r.poll())
    check(got == [None, None, UID7, None], f"only the reader behind GP21 sees the card: {got!r}")
    check(board.readers[0].t.flip, "RP2040 SPI shifts MSB first: bytes flipped by table")


async def case_esp32_shifts_lsb_first_in_hardware(tmp):
    chips, board, _ = await wired_board("esp32")
    chips[3].place(tag(UID4))
    check(await board.readers[3].poll() == UID4, "reader 3 on GPIO4")
    check(not board.readers[0].t.flip, "ESP32 SPI does LSB first itself")


async def case_wifi_power_save_is_off_before_joining(tmp):
    for name, pm in (("pico_w", 0xA11140), ("esp32", virtual.WLAN.PM_NONE)):
        _, board, _ = await wired_board(name)
        board.connect_wifi()
        wlan = virtual.WLAN.last
        check(wlan.joined == "cardroom", name + ": joined")
        check(wlan.joined_with.get("pm") == pm,
              f"{name}: joined with {wlan.joined_with!r}, not pm={pm!r}")


async def case_irq_lines_are_used_only_when_the_config_says_they_are_wired(tmp):
    """hardware/pins.md, irq: an unwired line may float, so the map's pins wait for "irq"."""
    for name in ("pico_w", "esp32"):
        chips, board, _ = await wired_board(name, irq=True)
        chips[1].place(tag(UID7))
        lines = [r.irq.id for r in board.readers]
        check(lines == hw.load_pins(name, boards_json())["irq"]["spi"], f"{name}: {lines}")
        check(await board.readers[1].poll() == UID7, f"{name}: read with IRQ")
    _, board, _ = await wired_board("pico_w")
    check(all(r.irq is None for r in board.readers), "no IRQ unless the config says so")


async def case_i2c_readers_one_per_bus(tmp):
    chips, board, _ = await wired_board("pico_w", pads=2, bus="i2c")
    chips[1].place(tag(UID4))
    check(await board.readers[0].poll() is None, "first I2C bus: empty pad")
    check(await board.readers[1].poll() == UID4, "second I2C bus: the card")


async def case_board_feeds_watchdog_reports_wifi_and_feedback_pins(tmp):
    chips, board, _ = await wired_board("pico_w", pads=2)
    board.feed()
    check(virtual.WDT.last.feeds == 1 and virtual.WDT.last.timeout == 8000, "watchdog fed")
    check(board.network_up() is False, "Wi-Fi not joined before connect_wifi()")
    board.connect_wifi()
    check(board.network_up() is True and board.rssi() == -58, "joined; signal reported")
    virtual.LINK["up"] = False
    check(board.network_up() is False, "Wi-Fi lost")
    check(board.pixels.n == 2 and board.buzzer is not None, "NeoPixels and buzzer")


async def case_wifi_networks_are_tried_in_order_and_the_first_again_after_a_loss(tmp):
    """config.json ``wifi``: a list of networks; the board joins the first one in range (a
    network not found is given up once that has held ``hw.FAIL_HOLD_MS``)."""
    try:
        board = await wifi_board("pico_w", [{"ssid": "upstairs", "password": "a"},
                                            {"ssid": "cardroom", "password": "b"},
                                            {"ssid": "car park"}],
                                 ssids=("cardroom", "car park"))
        board.connect_wifi()
        wlan = virtual.WLAN.last
        check(board.network_up() is False, "upstairs is not in range")
        check(online_within(board, hw.FAIL_HOLD_MS + 1000) and wlan.joined == "cardroom",
              "the second network joined")
        check(wlan.tried == ["upstairs", "cardroom"], f"tried in order: {wlan.tried!r}")
        virtual.LINK["up"] = False
        check(board.network_up() is False, "link lost")
        virtual.LINK["up"] = True
        check(wlan.tried[-1] == "upstairs", "after a loss the first network is tried again")
        check(online_within(board, hw.FAIL_HOLD_MS + 1000) and wlan.tried[-1] == "cardroom",
              "and then the next")
    finally:
        real_clock()


async def case_the_reboot_cause_is_named_for_the_status(tmp):
    for cause, word in ((virtual.PWRON_RESET, "power"), (virtual.WDT_RESET, "watchdog"),
                        (99, "unknown")):
        virtual.CAUSE["now"] = cause
        check(hw.reset_cause() == word, f"cause {cause} is {word}")


async def wifi_board(pins, networks, **world):
    """hw.Board on pin map ``pins`` joining ``networks`` in the Wi-Fi world ``world``
    (virtual.wifi_world), its join clock the virtual one; restore with ``real_clock()``."""
    _, board, _ = await wired_board(pins, pads=1)
    virtual.wifi_world(**world)
    board.wifi = networks
    hw.ticks_ms = virtual.ticks_ms
    return board


def real_clock():
    hw.ticks_ms = hw_ticks_ms


hw_ticks_ms = hw.ticks_ms


def online_within(board, ms, poll_ms=250):
    """Poll network_up() every ``poll_ms`` of the virtual clock, as mqtt.run does between
    tries; True once it says up within ``ms``. Never raises what the board would not."""
    for _ in range(ms // poll_ms):
        if board.network_up():
            return True
        virtual.tick(poll_ms)
    return board.network_up()


async def case_a_pico_w_gets_online_however_long_dhcp_takes(tmp):
    """CYW43 status: JOIN (1), then NOIP (2) until DHCP answers, then UP (3). "Joined, no
    address yet" is not a failure: the one join runs on until the address comes."""
    try:
        for dhcp_ms in (100, 249, 400, 1000, 3000):
            board = await wifi_board("pico_w", [{"ssid": "cardroom"}], port="rp2", join_ms=300,
                                     dhcp_ms=dhcp_ms)
            board.connect_wifi()
            check(online_within(board, 60000), f"DHCP {dhcp_ms} ms: online within 60 s")
            tried = virtual.WLAN.last.tried
            check(tried == ["cardroom"], f"DHCP {dhcp_ms} ms: one join, not {len(tried)}")
    finally:
        real_clock()


async def case_a_wrong_password_or_a_missing_network_moves_on_to_the_next(tmp):
    """Pico W BADAUTH (-3) and NONET (-2), ESP32 STAT_WRONG_PASSWORD and STAT_NO_AP_FOUND:
    failures, so the next configured network is tried."""
    nets = [{"ssid": "upstairs", "password": "guess"}, {"ssid": "annex"},
            {"ssid": "cardroom", "password": "right"}]
    try:
        for port, pins in (("rp2", "pico_w"), ("esp32", "esp32")):
            board = await wifi_board(pins, nets, port=port, join_ms=500, dhcp_ms=800,
                                     ssids=("upstairs", "cardroom"),
                                     passwords={"upstairs": "secret", "cardroom": "right"})
            board.connect_wifi()
            check(online_within(board, 20000), port + ": online on the third network")
            wlan = virtual.WLAN.last
            check(wlan.tried == ["upstairs", "annex", "cardroom"], f"{port}: {wlan.tried!r}")
    finally:
        real_clock()


async def case_a_bad_auth_event_in_a_crowded_room_is_not_a_wrong_password(tmp):
    """cyw43-driver (cyw43_ctrl.c, AUTH and PSK_SUP events): any auth event with a bad status
    says BADAUTH, and a good one that follows puts the join back to JOIN; a SET_SSID failure
    says FAIL for a moment the same way. 120 Pico Ws powering up in one 2.4 GHz room see a
    300 ms window of it in a join that then succeeds: the board rides it out with the one
    join (a failure is final once it has held ``hw.FAIL_HOLD_MS``), where asking again at
    the next poll restarted the join into the same window, for ever."""
    try:
        for port, pins in (("rp2", "pico_w"), ("esp32", "esp32")):
            for status in ("STAT_WRONG_PASSWORD", "STAT_CONNECT_FAIL"):
                board = await wifi_board(pins, [{"ssid": "cardroom"}, {"ssid": "annex"}],
                                         port=port, join_ms=600, dhcp_ms=800,
                                         flaky=(status, 150, 300))
                board.connect_wifi()
                check(online_within(board, 5000), f"{port} {status}: online within 5 s")
                tried = virtual.WLAN.last.tried
                check(tried == ["cardroom"], f"{port} {status}: one join, not {tried!r}")
    finally:
        real_clock()


async def case_a_pico_w_that_lost_its_link_says_join_or_down_and_is_rejoined(tmp):
    """After a lost link the CYW43 leaves its join state (JOIN) or a deauth clears it (DOWN):
    never NONET. Either way the board joins again once the access point is back."""
    try:
        for lost in ("JOIN", "STAT_IDLE"):
            board = await wifi_board("pico_w", [{"ssid": "cardroom"}], port="rp2", join_ms=300,
                                     dhcp_ms=300, lost=lost)
            board.connect_wifi()
            check(online_within(board, 5000), lost + ": online at first")
            virtual.LINK["up"] = False
            check(not online_within(board, 20000), lost + ": offline while the AP is away")
            virtual.LINK["up"] = True
            check(online_within(board, hw.JOIN_MS + 5000), lost + ": online again")
    finally:
        real_clock()


async def case_an_esp32_that_is_still_connecting_is_stopped_before_it_is_asked_again(tmp):
    """The ESP32 port raises OSError("Wifi Internal Error") for connect() while it connects
    (and while it rejoins a lost link by itself): the board neither lets it escape (main.py
    would reset it, again and again) nor stays off the air."""
    try:
        board = await wifi_board("esp32", [{"ssid": "cardroom"}], port="esp32", join_ms=400,
                                 dhcp_ms=600)
        board.connect_wifi()
        check(online_within(board, 5000), "online at first")
        virtual.LINK["up"] = False  # the access point goes off the air
        check(not online_within(board, 30000), "offline while the access point is away")
        virtual.LINK["up"] = True
        check(online_within(board, 20000), "online again once it is back")
        # association slower than hw.JOIN_MS: given up for the next network, still connecting
        board = await wifi_board("esp32", [{"ssid": "slow"}, {"ssid": "cardroom"}],
                                 port="esp32", join_ms=hw.JOIN_MS + 5000)
        board.connect_wifi()
        online_within(board, 2 * hw.JOIN_MS)
        tried = virtual.WLAN.last.tried
        check(tried[:2] == ["slow", "cardroom"], f"moved on to the next network: {tried!r}")
    finally:
        real_clock()


async def case_more_pads_than_the_bus_wires_are_refused_and_said_not_raised(tmp):
    """One PN532 per I2C bus or UART, and the pin maps wire two: a config.json asking for
    more (written by hand: the host refuses it at setup) runs the two and names what it
    refused (main.py puts it in the status's ``config``), instead of an IndexError at
    every boot."""
    for bus in ("i2c", "uart"):
        virtual.unwire()
        pins = hw.load_pins("pico_w", path=boards_json())
        cfg = validate({"board": "north", "pads": 4, "reader_bus": bus,
                        "broker": {"host": "127.0.0.1"}})
        board = hw.Board(cfg, pins)
        check(len(board.readers) == 2 and board.pixels.n == 2, bus + ": the two wired pads")
        check(board.problem == f"pads 4 refused: the pico_w map wires 2 {bus} readers",
              f"{bus}: {board.problem!r}")
    _, board, _ = await wired_board("pico_w", pads=4)
    check(board.problem is None, "four SPI pads: nothing refused")

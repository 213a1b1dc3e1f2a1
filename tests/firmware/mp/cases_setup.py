"""Cases: setup mode (firmware/README.md, "Setup mode"): a board with no usable config.json
says so on its lights and display. In a module of its own because a board in setup mode has
loaded nothing else: the case's heap holds what the board's would, the OLED's 1 KB frame too."""

import sys

import virtual

for name in ("machine", "network", "neopixel"):
    sys.modules[name] = virtual
import hw  # noqa: E402  (after the virtual machine is in place, as on a test bench)
from casekit import boards_json, check  # noqa: E402


async def case_a_board_without_config_says_setup_on_its_display_and_lights(tmp):
    """firmware/README.md, "Setup mode": no config.json, so blue lights and SETUP shown."""
    import gc

    gc.collect()  # the OLED's 1 KB frame in one piece (a board in setup mode runs nothing else)
    virtual.unwire()
    seven = virtual.SPIRecorder()
    virtual.wire_spi(1, 13, seven)  # pico_w map: the MAX7219 on SPI1, chip select GP13
    oled = virtual.I2CRecorder()
    virtual.wire_i2c(0, 60, oled)
    signal = hw.SetupSignal("no config file", path=boards_json())
    from display import segments

    digits = bytes(t[1] for t in seven.transactions[-8:])
    check(digits == segments("SETUP"), f"the 7-segment says SETUP: {digits!r}")
    check(signal.pixels.shown == [hw.SETUP_BLUE] * 4, "every NeoPixel blue")
    try:
        import framebuf  # noqa: F401
    except ImportError:
        return "skip: the OLED needs framebuf, MicroPython's"
    check(len(signal.displays) == 2 and oled.writes, "the OLED was drawn too")
    virtual.unwire()
    signal = hw.SetupSignal("no config file", path=boards_json())
    check(len(signal.displays) == 1, "an OLED that does not answer is skipped, not fatal")

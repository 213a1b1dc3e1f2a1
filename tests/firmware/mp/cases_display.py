"""Cases: the score display drivers, MAX7219 and SSD1306 (issue 5, item 6)."""

import virtual
from casekit import check
from display import MAX7219, SSD1306, segments


def case_max7219_shows_the_table_summary(tmp):
    virtual.unwire()
    dev = virtual.SPIRecorder()
    virtual.wire_spi(1, 13, dev)
    d = MAX7219(virtual.SPI(1), virtual.Pin(13, virtual.Pin.OUT, value=1))
    dev.transactions.clear()
    d.show({"v": 1, "text8": "NS 12-8"})
    check([bytes(t) for t in dev.transactions[:2]] == [b"\x08\x15", b"\x07\x5b"], "N, S leftmost")
    check(d.digits == segments("NS 12-8") and len(dev.transactions) == 8, "eight digits")
    check(segments("1.2")[0] == 0x30 | 0x80, "a point lights the previous digit")
    for bad in ({"text8": "123456789"}, {"text8": "&"}, {"lines": []}):
        try:
            d.show(bad)
        except ValueError:
            continue
        raise AssertionError(f"accepted {bad!r}")
    check(d.digits == segments("NS 12-8"), "a bad message leaves the display as it was")


def case_ssd1306_draws_four_lines(tmp):
    try:
        import framebuf  # noqa: F401
    except ImportError:
        return "skip: framebuf is MicroPython's"
    virtual.unwire()
    dev = virtual.I2CRecorder()
    virtual.wire_i2c(0, 0x3C, dev)
    oled = SSD1306(virtual.I2C(0))
    oled.show({"lines": ["NS 12  EW 8", "Trump: hearts"]})
    data = dev.writes[-1]
    check(data[0] == 0x40 and len(data) == 1 + 1024 and any(data[1:]), "a full frame written")
    try:
        oled.show({"lines": ["x" * 17]})
    except ValueError:
        return None
    raise AssertionError("a 17-character line accepted")

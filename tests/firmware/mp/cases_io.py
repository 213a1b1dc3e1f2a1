"""Cases: config.json, seat feedback and MQTT packets (issue 5, items 5-7)."""

import virtual
from casekit import check
from config import validate
from feedback import COLOURS, SeatFeedback
from mqtt import _varint, publish_head
from mqttconnect import connect_packet

GOOD = {"board": "north", "broker": {"host": "10.0.0.2"}}


def refused(raw, words):
    try:
        validate(raw)
    except ValueError as e:
        for w in words:
            check(w in str(e), f"error names {w!r}: {e}")
        return
    raise AssertionError(f"accepted {raw!r}")


def case_config_fills_defaults_and_names_the_bad_key(tmp):
    cfg = validate(GOOD)
    check(cfg["broker"]["port"] == 1883 and cfg["prefix"] == "tricktable", "defaults")
    check(cfg["misses_to_remove"] == 3 and cfg["reader_bus"] == "spi", "scanner defaults")
    refused({"broker": {"host": "h"}}, ["board"])
    refused({"board": "a/b", "broker": {"host": "h"}}, ["board"])
    refused({"board": "n"}, ["broker"])
    refused(dict(GOOD, reader_bus="can"), ["reader_bus", "can"])
    refused(dict(GOOD, pads=7), ["pads"])
    refused(dict(GOOD, scan_ms=0), ["scan_ms"])
    refused(dict(GOOD, backoff_ms=[500, 100]), ["backoff_ms"])
    refused({"board": "n", "broker": {"host": "h", "port": 0}}, ["port"])


def case_feedback_lights_a_pad_and_refuses_bad_messages_unchanged(tmp):
    px = virtual.NeoPixel(None, 4)
    fb = SeatFeedback(4, pixels=px)
    fb.apply({"pad": 2, "led": "green", "pattern": "solid", "ms": 0, "buzz": "none"})
    check(px.shown[2] == COLOURS["green"] and px.shown[0] == (0, 0, 0), "pad 2 green")
    for bad in ({"pad": 4, "led": "red"}, {"pad": 1, "led": "pink"},
                {"pad": 1, "pattern": "strobe"}, {"pad": 1, "ms": -5}, {"pad": 1, "buzz": "moo"}):
        writes = px.writes
        try:
            fb.apply(bad)
        except ValueError:
            pass
        else:
            raise AssertionError(f"accepted {bad!r}")
        check(px.writes == writes and px.shown[2] == COLOURS["green"], f"unchanged by {bad!r}")


def case_feedback_blinks_and_times_out(tmp):
    leds = [(virtual.Pin(1), virtual.Pin(2))]
    fb = SeatFeedback(1, leds=leds)
    fb.apply({"pad": 0, "led": "red", "pattern": "blink", "ms": 60000})
    on = fb.level(0, 1000)[1]
    off = fb.level(0, 1250)[1]
    check(on != off, "blink alternates every 250 ms")
    fb.state[0] = ("amber", "solid", 5000)
    check(fb.level(0, 4999) == ("amber", 1) and fb.level(0, 5000) == ("off", 0), "ms elapses")
    fb.state[0] = ("amber", "solid", None)
    fb.render(0)
    check(leds[0][0]() == 1 and leds[0][1]() == 1, "amber on plain LEDs: red and green")


async def case_the_buzzer_plays_the_refusal_tune(tmp):
    from compat import asyncio

    pwm = virtual.PWM(None)
    fb = SeatFeedback(1, buzzer=pwm)
    fb.apply({"pad": 0, "led": "red", "buzz": "error"})
    task = asyncio.create_task(fb.run())
    for _ in range(1000):  # until the tune has ended (its last note off), 10 s at most
        if len(pwm.history) >= 4:
            break
        await asyncio.sleep(0.01)
    task.cancel()
    check(pwm.history == [(400, 32768), (400, 0), (400, 32768), (400, 0)], f"{pwm.history!r}")


def case_mqtt_packets_are_encoded_per_the_spec(tmp):
    check(_varint(0) == b"\x00" and _varint(321) == b"\xc1\x02", "remaining length varint")
    check(_varint(2097152) == b"\x80\x80\x80\x01", "four-byte varint")
    pkt = connect_packet("b1", 30, False, ("s", b"x", True), "u", "p")
    check(pkt[0] == 0x10 and pkt[1] == len(pkt) - 2, "CONNECT header")
    check(pkt[2:12] == b"\x00\x04MQTT\x04\xec\x00\x1e", "v3.1.1, user+pw+will retain qos1")
    head = publish_head("t/x", 5, 1, True, 258, dup=True)
    check(head == b"\x3b\x0c\x00\x03t/x\x01\x02", "PUBLISH DUP QoS1 retain with pid")

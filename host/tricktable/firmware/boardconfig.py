"""The host's BoardConfig (docs/protocol.md) applied to a running app.App, at once.

Imports mqtt (its packet helpers and the client's packet writer: kept out of mqtt.py so
the RAM is spent only on a board that gets a config) and compat; app.py imports it on the first config message, so a board that is never
configured keeps the RAM. The table moves the display subscription (UNSUBSCRIBE the old
topic, SUBSCRIBE the new, through the app's MQTT client), ``pads`` picks the pads polled
(the others go dark), ``display`` false drops the display topic and blanks the display,
``brightness`` 0..15 goes to the display driver.
"""

from compat import asyncio
from mqtt import _packet, _str

BLANK = {"text8": "", "lines": []}  # what a display shows once the host says it shows nothing


def apply(app, msg):
    """Apply a host-pushed BoardConfig to ``app`` at once: table, pads, display, brightness.

    A key left out keeps its setting, unknown keys are ignored, and everything is checked
    before anything changes, so a bad config changes nothing.
    """
    table = msg.get("table", app.table)
    enabled = msg.get("pads")
    was = app.topic_display in app.link.subscriptions  # showing the table's display
    showing = msg.get("display", was)
    level = msg.get("brightness")
    if not isinstance(table, str) or not table or "/" in table or "+" in table \
            or "#" in table:
        raise ValueError("table must be a plain name, got %r" % table)
    if enabled is None:
        enabled = app.enabled
    elif isinstance(enabled, list):
        enabled = [p.get("pad") if isinstance(p, dict) else -1 for p in enabled]
    if not isinstance(enabled, list) or [i for i in enabled if i not in range(len(app.pads))] \
            or len(set(enabled)) < len(enabled):
        raise ValueError("pads must list this board's pads once each, got %r" % msg["pads"])
    enabled = sorted(enabled)
    if not isinstance(showing, bool):
        raise ValueError("display must be true or false")
    if level is not None and (isinstance(level, bool) or not isinstance(level, int)
                              or not 0 <= level <= 15):
        raise ValueError("brightness must be 0..15")
    display = app.board.display
    showing = showing and display is not None
    topic = app.cfg["prefix"] + "/v1/table/" + table + "/display"
    if was and (topic != app.topic_display or not showing):
        resubscribe(app.link, app.topic_display, False)
        if not showing:
            display.show(BLANK)
    if showing and (topic != app.topic_display or not was):
        resubscribe(app.link, topic, True)
    if level is not None and display is not None:
        display.brightness(level)
    app.table, app.topic_display = table, topic
    was_enabled, app.enabled = app.enabled, enabled
    for i in was_enabled:
        if i not in enabled:
            app.feedback.apply({"pad": i, "ms": 0})  # lights off (and no offline light)


def resubscribe(link, topic, subscribe):
    """Take or drop a subscription: the list for the next connect, the packet now if connected.

    A topic dropped while the link is down may live on in the broker's persistent session;
    the app ignores what comes on it.
    """
    if subscribe:
        link.subscriptions.append(topic)
    else:
        link.subscriptions.remove(topic)
    if link.connected:
        pid = link._next_pid()
        body = bytes([pid >> 8, pid & 0xFF]) + _str(topic)
        packet = _packet(0x82, body + b"\x01") if subscribe else _packet(0xA2, body)
        asyncio.create_task(send(link, packet))


async def send(link, packet):
    try:
        await link._send(packet)
    except OSError:
        pass  # the link died: run() reconnects and subscribes from the list

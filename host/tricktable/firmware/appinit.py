"""Building the App at boot: its topics, outbox, pads, seat feedback and MQTT link (app.py).

Imports compat, feedback, mqtt, outbox and scanner. ``App()`` imports it and drops it again,
as ``Outbox()`` drops outboxload.py: code that runs once at boot stays out of a running
board's heap.
"""

from compat import Uptime, asyncio, ticks_ms, unhexlify
from feedback import SeatFeedback
from mqtt import MQTTClient
from outbox import Outbox
from scanner import Pad

# the retained status the broker publishes for a board whose link dies (its last will)
OFFLINE = '{"v": 1, "online": false}'


def init(app, board, config, storage):
    """Everything ``App(board, config, storage)`` holds (app.py)."""
    app.board = board
    app.cfg = config
    app.id = config["board"]
    base = config["prefix"] + "/v1/board/" + app.id
    app.topic_event = base + "/event"
    app.topic_status = base + "/status"
    app.topic_ack = base + "/ack"
    app.topic_feedback = base + "/feedback"
    app.topic_config = base + "/config"
    app.table = config["table"]
    app.topic_display = config["prefix"] + "/v1/table/" + app.table + "/display"
    app.outbox = Outbox(storage, app.id, max_bytes=config["outbox_bytes"],
                        max_pending=config["outbox_max"])
    app.pads = []
    for i in range(len(board.readers)):
        lying = app.outbox.pads.get(i)
        app.pads.append(Pad(i, board.readers[i], config["misses_to_remove"],
                            present=unhexlify(lying) if lying else None))
    app.enabled = list(range(len(app.pads)))  # pads polled; the host's config may narrow
    app.feedback = SeatFeedback(len(app.pads), board.pixels, board.leds, board.buzzer)
    broker = config["broker"]
    app.link = MQTTClient(broker["host"], broker["port"], app.id,
                          keepalive=broker["keepalive"], user=broker.get("user"),
                          password=broker.get("password"),
                          will=(app.topic_status, OFFLINE, True),
                          backoff_ms=tuple(config["backoff_ms"]),
                          ssl=broker["ca"])
    app.link.network_up = board.network_up
    app.link.dns = getattr(board, "dns_server", None)
    app.link.watchdog = app  # fed across a TLS handshake's long steps (tlsfed.Fed)
    app.feedback.trouble = app.trouble
    app.link.on_message = app.on_message
    app.link.on_connect = app.on_connect
    for topic in (app.topic_ack, app.topic_feedback, app.topic_config):
        app.link.subscribe(topic)
    if board.display is not None:
        app.link.subscribe(app.topic_display)
    app.wake = asyncio.Event()
    app.uptime = Uptime()
    app.last_scan = ticks_ms()
    app.bad_messages = 0
    app.last_error = None

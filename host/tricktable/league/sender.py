"""``tricktable league send``: publish a club's league messages to the club's own broker.

Every ``every`` seconds the sender asks its ``ClubFeed`` for what is due and publishes it at
QoS 1 on ``league/v1/{club}/...``; a message counts as sent once the club's broker has
acknowledged it (PUBACK). From there the club broker's bridge to the league (``league.bridge``)
carries it on, queued on the club's disk while the league is out of reach. The league's
receipts come back over the bridge on ``league/v1/{club}/receipt``; a message not receipted is
sent again later (``ClubFeed``), but not while the bridge says it is down
(``$SYS/broker/connection/league-{club}/state`` "0": the queue holds it already). A sender
that stops, or a broker that drops something, loses nothing: a restarted sender publishes
everything again, and the league stores each id once.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from typing import Any

import paho.mqtt.client as mqtt

from tricktable.league.club_feed import ClubFeed, stamped
from tricktable.league.messages import (
    LeagueMessage,
    decode_receipt,
    encode,
    receipt_topic,
    topic_for,
)
from tricktable.mqtt.client import new_client, start_client, stop_client
from tricktable.mqtt.url import BrokerURL
from tricktable.protocol import ProtocolError

log = logging.getLogger("tricktable.league.send")

BATCH = 500  # messages in flight at once before the sender waits for their PUBACKs


class Sender:
    """Publishes a club feed to the club's broker (see the module docstring)."""

    def __init__(self, feed: ClubFeed, broker: BrokerURL, ca_file: str | None = None,
                 every: float = 1.0) -> None:
        self.feed, self.every = feed, every
        self.url = broker
        self.client = new_client(self.url, ca_file=ca_file, reconnect=(1, 5), max_queued=0,
                                 client_id=f"league-send-{feed.club}-{uuid.uuid4().hex[:6]}")
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.bridge_state = f"$SYS/broker/connection/league-{feed.club}/state"
        self.bridge_up = True  # until the club broker says otherwise (or if it cannot say)
        self.published = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        start_client(self.client, self.url, background=True)
        self._thread = threading.Thread(target=self._run, name="league-send", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        stop_client(self.client)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if not reason.is_failure:
            client.subscribe([(receipt_topic(self.feed.club), 1), (self.bridge_state, 0)])

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == self.bridge_state:
            self.bridge_up = msg.payload != b"0"
            return
        try:
            receipt = decode_receipt(msg.payload)
        except ProtocolError as exc:
            log.warning("a bad receipt from the league: %s", exc)
            return
        if receipt.club == self.feed.club:
            self.feed.receipted(receipt.ids)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.send_pending()
            except Exception:  # the records or the broker: try again at the next round
                log.exception("sending to the league failed; trying again")
            self._stop.wait(self.every)

    def send_pending(self) -> int:
        """Publish what is pending, in batches, each waited for; how many the broker took."""
        if not self.client.is_connected():
            return 0
        pending = self.feed.pending(time.time(), resend=self.bridge_up)
        done = 0
        for start in range(0, len(pending), BATCH):
            done += self._publish(pending[start:start + BATCH])
        self.published += done
        return done

    def _publish(self, batch: list[LeagueMessage]) -> int:
        sent = []
        for message in batch:
            info = self.client.publish(topic_for(message),
                                       encode(stamped(message, time.time())), qos=1)
            sent.append((message.id, info))
        done = 0
        for message_id, info in sent:
            try:
                info.wait_for_publish(timeout=10)
            except (RuntimeError, ValueError):
                continue  # not sent: still pending, published again next round
            if info.is_published():
                self.feed.sent(message_id, time.time())
                done += 1
        return done

"""``fleet update`` against a board whose heap is short just then (docs/fleet.md, "Memory"): one
with no piece of heap for a message drops it, so an offer no status follows is made again
(``OFFER_AGAIN_S``), and the board's answer to the second is the verdict; one whose heap was
short for the download refuses it, and is offered it again (``HEAP_OFFERS`` times in all)."""

from __future__ import annotations

import json
import threading

import paho.mqtt.client as mqtt
import pytest
from tricktable.fleet import bundle, signing, updater
from tricktable.fleet.updater import Updater
from tricktable.mqtt.url import BrokerURL


class ForgetfulBoard:
    """Board ``north`` on the broker: online, running 0.1.0; it reads the first ``lose``
    offers past, refuses the next ``short`` for want of heap (as firmware/fwupdate.py words
    it), and answers the next by running the offered version (a status with ``fw``)."""

    def __init__(self, host: str, port: int, prefix: str, lose: int, short: int = 0) -> None:
        self.status_topic = f"{prefix}/v1/board/north/status"
        self.offers: list[dict] = []
        self.lose = lose
        self.short = short
        self.subscribed = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{prefix}-north")
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *args: self.subscribed.set()
        self.client.connect(host, port)
        self.client.subscribe(f"{prefix}/v1/board/north/update", qos=1)
        self.client.loop_start()
        assert self.subscribed.wait(10), "the board's subscription was never granted"
        self.say({"v": 1, "online": True, "fw": "0.1.0"})

    def say(self, status: dict) -> None:
        self.client.publish(self.status_topic, json.dumps(status), qos=1, retain=True)

    def _on_message(self, client, userdata, msg) -> None:
        self.offers.append(json.loads(msg.payload))
        version = self.offers[-1]["version"]
        if len(self.offers) > self.lose + self.short:
            self.say({"v": 1, "online": True, "fw": version})
        elif len(self.offers) > self.lose:
            self.say({"v": 1, "online": True, "fw": "0.1.0", "update": {
                "state": "refused", "version": version,
                "reason": "not enough heap free to take an update"}})

    def close(self) -> None:
        self.client.publish(self.status_topic, b"", retain=True)
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture
def made_bundle(tmp_path) -> bundle.Bundle:
    signing.generate(tmp_path / "fleet-signing.key")
    return bundle.write(tmp_path, "0.2.0", tmp_path / "fleet-signing.key",
                        {"app.mpy": b"\x4d\x06"})


@pytest.mark.parametrize("lose", [0, 1], ids=["answered", "one-lost"])
def test_an_offer_read_past_is_made_again_until_the_board_answers_once(
        mqtt_broker, topic_prefix, made_bundle, monkeypatch, lose):
    monkeypatch.setattr(updater, "OFFER_AGAIN_S", 3.0)  # a board's answer takes milliseconds
    board = ForgetfulBoard(mqtt_broker.host, mqtt_broker.port, topic_prefix, lose=lose)
    fleet = Updater(made_bundle, BrokerURL(mqtt_broker.host, mqtt_broker.port), topic_prefix)
    fleet.start()
    try:
        (result,) = fleet.update_boards(["north"], timeout=30)
        assert result.ok, result.why
        assert [o["version"] for o in board.offers] == ["0.2.0"] * (lose + 1)
    finally:
        fleet.stop()
        board.close()


@pytest.mark.parametrize("short", [1, updater.HEAP_OFFERS], ids=["short-once", "short-always"])
def test_a_board_short_of_heap_is_offered_the_bundle_again_a_few_times(
        mqtt_broker, topic_prefix, made_bundle, monkeypatch, short):
    monkeypatch.setattr(updater, "RETRY_BUSY_S", 0.2)
    board = ForgetfulBoard(mqtt_broker.host, mqtt_broker.port, topic_prefix, lose=0, short=short)
    fleet = Updater(made_bundle, BrokerURL(mqtt_broker.host, mqtt_broker.port), topic_prefix)
    fleet.start()
    try:
        (result,) = fleet.update_boards(["north"], timeout=30)
        offers = min(short + 1, updater.HEAP_OFFERS)
        assert [o["version"] for o in board.offers] == ["0.2.0"] * offers
        if short < updater.HEAP_OFFERS:
            assert result.ok, result.why
        else:
            assert not result.ok and "not enough heap free" in result.why, result.why
    finally:
        fleet.stop()
        board.close()

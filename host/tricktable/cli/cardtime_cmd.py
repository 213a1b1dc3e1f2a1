"""``tricktable cardtime``: a real table's card-to-verdict figure, from its boards' statuses.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import click
import paho.mqtt.client as mqtt

from tricktable.cardtime import CardTimes
from tricktable.cli.brokeropts import broker_options, broker_url
from tricktable.mqtt.client import new_client, start_client, stop_client
from tricktable.mqtt.url import BrokerConfigError
from tricktable.protocol import Topics


@click.command("cardtime")
@broker_options
@click.option("--plays", default=200, show_default=True, type=click.IntRange(1),
              help="stop once this many cards have had their verdict")
@click.option("--seconds", default=1800.0, show_default=True, type=click.FloatRange(1),
              help="stop after this long whatever the count")
def cardtime(broker: str, ca_file: str | None, prefix: str, plays: int, seconds: float,
             username: str | None, password_file: Path | None) -> None:
    """Measure card down to verdict at the seats of a live table: play cards, then read the
    boards' own times (each board reports them in its status, every status_s seconds)."""
    try:
        url = broker_url(broker, username, password_file)
    except BrokerConfigError as exc:
        raise click.ClickException(str(exc)) from None
    times = CardTimes()
    enough = threading.Event()
    topic = Topics(prefix).board_status("+")

    def on_message(client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        board = msg.topic.split("/")[-2]
        if times.status(board, msg.payload, bool(msg.retain)):
            click.echo(f"{board}: {times.count()} of {plays}")
        if times.count() >= plays:
            enough.set()

    try:
        client = new_client(url, client_id=f"cardtime-{time.time_ns()}", ca_file=ca_file)
    except BrokerConfigError as exc:
        raise click.ClickException(str(exc)) from None
    client.on_message = on_message
    client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
    try:
        start_client(client, url)
    except OSError as exc:
        raise click.ClickException(f"cannot reach the broker at {url.host}:{url.port}: {exc}"
                                   ) from None
    click.echo(f"listening on {topic}: play cards on the table's pads (Ctrl-C to stop early)")
    try:
        enough.wait(seconds)
    except KeyboardInterrupt:
        pass
    finally:
        stop_client(client)
    for line in times.lines():
        click.echo(line)

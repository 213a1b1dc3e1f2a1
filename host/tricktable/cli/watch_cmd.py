"""``tricktable watch``: the live table view in a terminal, against any broker.
"""

from __future__ import annotations

import threading
from pathlib import Path

import click

from tricktable import protocol
from tricktable.cli.brokeropts import broker_options, broker_url
from tricktable.mqtt.url import BrokerConfigError
from tricktable.web.feed import Feed
from tricktable.web.termview import watch as watch_view


@click.command("watch")
@click.argument("tables", nargs=-1)
@broker_options
@click.option("--wait", default=5.0, show_default=True, type=click.FloatRange(0.1),
              help="seconds to wait for the named tables to appear on the broker")
def watch(tables: tuple[str, ...], broker: str, ca_file: str | None, prefix: str,
          wait: float, username: str | None, password_file: Path | None) -> None:
    """Watch TABLES (default: every table) live: seats, trick, bids, contract, trump, score."""
    for table in tables:
        if not protocol.valid_id(table):
            raise click.BadParameter(f"{table!r} is not a table id", param_hint="TABLES")
    try:
        url = broker_url(broker, username, password_file)
        feed = Feed(url.host, url.port, prefix, username=url.username, password=url.password,
                    tls=url.tls, ca_file=ca_file)
        feed.start()
    except (BrokerConfigError, ConnectionError) as exc:
        raise click.ClickException(str(exc)) from None
    missing = _missing(feed, tables, wait)
    if missing:
        with feed.lock:
            seen = ", ".join(sorted(feed.club.tables, key=protocol.natural_key)) or "none"
        feed.stop()
        raise click.ClickException(
            f"no table {', '.join(missing)} on the broker at {url.host}:{url.port} under "
            f"prefix {prefix!r} after {wait:g} s (tables there: {seen})")
    try:
        watch_view(feed, list(tables) or None, threading.Event())
    except KeyboardInterrupt:
        pass
    finally:
        feed.stop()


def _missing(feed: Feed, tables: tuple[str, ...], wait: float) -> list[str]:
    """The named tables whose retained state has not come within ``wait`` seconds."""
    arrived = threading.Event()

    def check(_table: str | None = None) -> None:
        with feed.lock:
            if all(t in feed.club.tables for t in tables):
                arrived.set()

    feed.add_listener(check)
    try:
        check()
        arrived.wait(wait)
    finally:
        feed.remove_listener(check)
    with feed.lock:
        return [t for t in tables if t not in feed.club.tables]

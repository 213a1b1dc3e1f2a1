"""``tricktable console``: the director console for a night run by ``serve --night``.

Its own address (default 127.0.0.1:8081), apart from the public scoreboard, and always behind
the admin token.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click

from tricktable.cli.brokeropts import broker_options, broker_url
from tricktable.cli.secretopts import secret_option, secret_value
from tricktable.mqtt.url import BrokerConfigError
from tricktable.serve.journal import Journal, JournalError
from tricktable.web.console import create_console
from tricktable.web.console_link import NightLink
from tricktable.web.pairings import PairingStore
from tricktable.web.server import Scoreboard


@click.command("console")
@click.option("--night", required=True, type=click.Path(exists=True, dir_okay=False,
                                                        path_type=Path),
              help="the club night file that `tricktable serve --night` keeps")
@click.option("--journal", default=None, type=click.Path(exists=True, dir_okay=False,
                                                         path_type=Path),
              help="the host's journal (read-only): each table's actions, to correct a mis-scan")
@broker_options
@click.option("--host", default="127.0.0.1", show_default=True, help="address to serve on")
@click.option("--port", default=8081, show_default=True, type=click.IntRange(0, 65535))
@click.option("--phones", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="the phones' pairings file the scoreboard's `web --phones` reads: pair a "
                   "phone to a seat by QR code at /phones")
@click.option("--pad-url", default=None,
              help="the seat page's address on the public scoreboard, for the QR codes "
                   "(e.g. https://192.168.1.20:8443/pad); needed with --phones")
@secret_option("admin-token", "TRICKTABLE_ADMIN_TOKEN", "the bearer token the console asks for")
def console(night: Path, journal: Path | None, broker: str, ca_file: str | None, prefix: str,
            host: str, port: int, username: str | None, password_file: Path | None,
            phones: Path | None, pad_url: str | None, admin_token: str | None,
            admin_token_file: Path | None) -> None:
    """Serve the director console: corrections to the night, with an audit log."""
    token = secret_value("admin-token", admin_token, admin_token_file, "TRICKTABLE_ADMIN_TOKEN")
    if token is None:
        raise click.UsageError("the console needs its admin token: TRICKTABLE_ADMIN_TOKEN in "
                               "the environment, or --admin-token-file")
    if phones is not None and not (pad_url or "").startswith(("https://", "http://")):
        raise click.UsageError("--phones needs --pad-url: the seat page's address on the "
                               "public scoreboard (https://HOST:PORT/pad)")
    try:
        store = PairingStore(phones) if phones is not None else None
        if journal is not None:
            Journal(journal, readonly=True).close()  # a journal, not any file
        url = broker_url(broker, username, password_file)
        server = Scoreboard(url.host, url.port, host=host, port=port, prefix=prefix,
                            username=url.username, password=url.password, tls=url.tls,
                            ca_file=ca_file, make_app=lambda feed: create_console(
                                feed, token, night, journal,
                                NightLink(url, prefix, ca_file, feed=feed), store, pad_url))
    except (BrokerConfigError, JournalError, OSError, ValueError, sqlite3.Error) as exc:
        raise click.ClickException(str(exc)) from None
    try:
        click.echo(f"director console on {server.url} (broker {url.host}:{url.port}); "
                   "Ctrl-C stops it")
        server.run()
    except ConnectionError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:  # Ctrl-C is how it is stopped: not an error
        pass

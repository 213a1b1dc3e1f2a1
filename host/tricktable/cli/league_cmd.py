"""``tricktable league``: a club's link to the league, and the league's own service and site.

- ``bridge``: print (or write) the mosquitto bridge section for a club (``league.bridge``).
- ``send``: publish a club's results (journal, night file) to the club's broker (``league.sender``).
- ``serve``: one league service instance, broker to PostgreSQL (``league.consumer``).
- ``season``: define a league season (a named date range) in the league database.
- ``rate``: rate every season again from the stored games (the services do it as they store).
- ``site``: the league site (``league.site``).
"""

from __future__ import annotations

import datetime as dt
import logging
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType

import click

from tricktable.cli.brokeropts import broker_url, credential_options
from tricktable.mqtt.url import BrokerConfigError

DB_HELP = "the league database: postgresql://user@host:port/dbname (libpq URL or DSN)"


@click.group("league")
def league() -> None:
    """Many clubs, one standings table: bridges, the league service and its site."""


@league.command("bridge")
@click.option("--league", "league_url", required=True, metavar="URL",
              help="the league's broker: mqtts://[club:password@]host[:port]")
@click.option("--club", required=True, help="this club's id in the league (its MQTT user name)")
@click.option("--ca-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="the league's CA certificate (default: the system CAs)")
@click.option("--certfile", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="the club's client certificate, when the league gives one")
@click.option("--keyfile", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="the key of --certfile")
@click.option("--password-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="a file holding the club's league password (its first line)")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="write here (e.g. /etc/mosquitto/conf.d/league.conf) instead of stdout")
def bridge(league_url: str, club: str, ca_file: Path | None, certfile: Path | None,
           keyfile: Path | None, password_file: Path | None, out: Path | None) -> None:
    """The mosquitto bridge section that carries this club's results to the league."""
    from tricktable.league.bridge import bridge_config

    try:
        password = None
        if password_file is not None:
            password = password_file.read_text(encoding="utf-8").splitlines()[0]
        text = bridge_config(club, league_url, ca_file, certfile, keyfile, password)
    except (BrokerConfigError, OSError, IndexError) as exc:
        raise click.ClickException(f"cannot make the bridge: {exc}") from None
    if out is None:
        click.echo(text, nl=False)
        return
    out.write_text(text, encoding="utf-8")
    out.chmod(0o600)  # it may hold the club's password
    click.echo(f"wrote {out}; include it in the club broker's configuration and restart it")


@league.command("send")
@click.option("--club", required=True, help="this club's id in the league")
@click.option("--journal", required=True, type=click.Path(exists=True, dir_okay=False,
                                                           path_type=Path),
              help="the host's journal (tricktable serve --journal)")
@click.option("--night", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="the club night file, for its games and standings")
@click.option("--night-id", default=None, help="the night's id in the league [default: the "
                                               "night file's name]")
@click.option("--date", default=None, help="the night's date, YYYY-MM-DD [default: the day of "
                                           "the journal's first entry]")
@click.option("--broker", default="mqtt://127.0.0.1:1883", show_default=True,
              help="the club's own broker (its bridge carries the messages to the league)")
@click.option("--ca-file", type=click.Path(exists=True, dir_okay=False), default=None)
@credential_options
@click.option("--every", default=1.0, show_default=True, type=click.FloatRange(min=0.05),
              help="seconds between looks at the journal")
@click.option("--resend-after", default=30.0, show_default=True,
              type=click.FloatRange(min=0.1),
              help="seconds before a message the league has not receipted is sent again "
                   "(then twice as long each time, up to half an hour)")
@click.option("--club-db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="the club players database: players go by league id, hidden ones as "
                   "Guest [default: $TRICKTABLE_CLUB_DB or ./club.sqlite when it exists; "
                   "without one, the names the night seats go]")
def send(club: str, journal: Path, night: Path | None, night_id: str | None, date: str | None,
         broker: str, ca_file: str | None, username: str | None, password_file: Path | None,
         every: float, resend_after: float, club_db: Path | None) -> None:
    """Publish this club's scored hands, games and nights for the league, until stopped."""
    from tricktable.league.club_feed import ClubFeed
    from tricktable.league.club_players import ClubPlayers
    from tricktable.league.sender import Sender
    from tricktable.players.db import ClubDB, PlayersError, default_db_path
    from tricktable.protocol import ProtocolError
    from tricktable.serve.journal import Journal, JournalError

    if date is not None:
        try:
            dt.date.fromisoformat(date)
        except ValueError:
            raise click.BadParameter(f"{date!r} is not a date YYYY-MM-DD",
                                     param_hint="--date") from None
    try:
        url = broker_url(broker, username, password_file)
        if club_db is None and default_db_path().exists():
            club_db = default_db_path()
        players = ClubPlayers(club, ClubDB(club_db)) if club_db is not None else None
        feed = ClubFeed(club, Journal(journal, readonly=True), night, night_id, date,
                        resend_after, players)
    except (BrokerConfigError, JournalError, ProtocolError, PlayersError) as exc:
        raise click.ClickException(str(exc)) from None
    sender = Sender(feed, url, ca_file, every)
    _run_until_stopped(sender.start, sender.stop,
                       f"sending club {club}'s results to {url.host}:{url.port}")


@league.command("serve")
@click.option("--db", required=True, help=DB_HELP)
@click.option("--broker", required=True, help="the league's broker: mqtts://user@host[:port]")
@click.option("--ca-file", type=click.Path(exists=True, dir_okay=False), default=None)
@credential_options
@click.option("--name", default=None, help="this instance's name, unique among the instances "
                                           "(its broker session) [default: the host name]")
@click.option("--batch", default=500, show_default=True, type=click.IntRange(1, 10_000),
              help="messages per transaction at most")
def serve(db: str, broker: str, ca_file: str | None, username: str | None,
          password_file: Path | None, name: str | None, batch: int) -> None:
    """Store the clubs' messages in PostgreSQL (run several, under different names)."""
    from tricktable.league.consumer import LeagueService
    from tricktable.league.store import LeagueStore, LeagueStoreError

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    try:
        url = broker_url(broker, username, password_file)
        store = LeagueStore(db)
    except (BrokerConfigError, LeagueStoreError) as exc:
        raise click.ClickException(str(exc)) from None
    service = LeagueService(store, url, name or socket.gethostname(), ca_file, batch=batch)

    def start() -> None:
        service.start()
        if not service.subscribed.wait(60):
            click.echo("the league broker has not taken the subscription yet; still trying",
                       err=True)

    def stop() -> None:
        service.stop()
        store.close()

    _run_until_stopped(start, stop, f"league service {service.name}: "
                                            f"{url.host}:{url.port} -> PostgreSQL")


@league.command("season")
@click.option("--db", required=True, help=DB_HELP)
@click.argument("name")
@click.argument("starts", type=click.DateTime(["%Y-%m-%d"]))
@click.argument("ends", type=click.DateTime(["%Y-%m-%d"]))
def season(db: str, name: str, starts: dt.datetime, ends: dt.datetime) -> None:
    """Define (or move) season NAME: the nights from STARTS to ENDS (inclusive)."""
    from tricktable.league.store import LeagueStore, LeagueStoreError

    try:
        with LeagueStore(db) as store:
            store.add_season(name, starts.date(), ends.date())
    except LeagueStoreError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"season {name}: {starts.date()} to {ends.date()}")


@league.command("rate")
@click.option("--db", required=True, help=DB_HELP)
def rate(db: str) -> None:
    """Rate every season again from the games stored (openskill, as the clubs rate)."""
    from tricktable.league.store import LeagueStore, LeagueStoreError

    try:
        with LeagueStore(db) as store:
            count = store.rerate()
    except LeagueStoreError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{count} ratings (a player after a night, per season)")


@league.command("site")
@click.option("--db", required=True, help=DB_HELP)
@click.option("--host", default="127.0.0.1", show_default=True, help="address to serve on")
@click.option("--port", default=8090, show_default=True, type=click.IntRange(0, 65535))
def site(db: str, host: str, port: int) -> None:
    """Serve the league site: standings across clubs, club pages, hand records."""
    import uvicorn

    from tricktable.league.site import league_app
    from tricktable.league.store import LeagueStore, LeagueStoreError

    try:
        store = LeagueStore(db)
    except LeagueStoreError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        uvicorn.run(league_app(store), host=host, port=port, log_level="warning")
    finally:
        store.close()


def _interrupt(signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _run_until_stopped(start: Callable[[], None], stop: Callable[[], None], banner: str) -> None:
    """Start, say so, wait for Ctrl-C or SIGTERM, stop."""
    signal.signal(signal.SIGTERM, _interrupt)
    start()
    click.echo(f"{banner}; Ctrl-C stops it", err=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        stop()

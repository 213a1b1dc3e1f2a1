"""``tricktable serve``: run the host service for a club's tables (see docs/operations.md).

Thin: reads the options, opens the club file, journal and deck registry, starts an embedded
broker when no ``--broker`` is given, runs :class:`tricktable.serve.service.Service` until Ctrl-C
or SIGTERM; with ``--night``, a club night kept by the tables (``club.live``), and with
``--club-db`` too, its statistics counted as hands score (``stats.follow``).
"""

from __future__ import annotations

import gc
import logging
import signal
import threading
import time
from pathlib import Path

import click

from tricktable.cli.brokeropts import broker_url as complete_url
from tricktable.cli.brokeropts import credential_options
from tricktable.club.errors import ClubError
from tricktable.club.live import LiveNight
from tricktable.clubfile import Club, ClubFileError, load_club, parse_club
from tricktable.deckkit.decks import Registry, RegistryError
from tricktable.deckkit.decks import default_path as default_registry_path
from tricktable.mqtt.broker import BrokerError, start_broker
from tricktable.players import PlayersError
from tricktable.serve.journal import Journal, JournalError
from tricktable.serve.service import Service, ServiceError
from tricktable.stats.follow import StatsFollower

DEFAULT_CLUB = {
    "club": {"name": "tricktable"},
    "tables": {"t1": {"variant": "bid-euchre",
                      "pads": {"t1-north:0": 0, "t1-east:0": 1, "t1-south:0": 2, "t1-west:0": 3}}},
}


@click.command("serve")
@click.option("--club", "club_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Club file (TOML). Default: one Bid Euchre table 't1', boards t1-north..t1-west.")
@click.option("--broker", "broker_url", metavar="URL",
              help="mqtt://[user:pass@]host[:port] or mqtts://...; default: an embedded broker.")
@click.option("--ca-file", type=click.Path(exists=True, dir_okay=False),
              help="CA certificate for mqtts://.")
@click.option("--journal", "journal_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Journal file (default: the club file's, else ./tricktable-journal.sqlite).")
@click.option("--registry", "registry_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Deck registry file (default: the club file's, else the one "
                   "`tricktable enroll` uses, if it exists).")
@click.option("--port", default=1883, show_default=True,
              help="Port of the embedded broker (only without --broker).")
@click.option("--client-id", default="tricktable-host", show_default=True,
              help="MQTT client id (the persistent session's name).")
@click.option("--sync", type=click.Choice(["normal", "full"]), default="normal", show_default=True,
              help="SQLite synchronous mode: full also survives a power cut, slower.")
@click.option("--night", "night_path", type=click.Path(dir_okay=False, path_type=Path),
              help="A club night file (tricktable club new): the tables keep its tallies, ring "
                   "its bell and seat its players (docs/club.md).")
@click.option("--club-db", "club_db", type=click.Path(dir_okay=False, path_type=Path),
              default=None, envvar="TRICKTABLE_CLUB_DB",
              help="With --night: count the night's statistics in this club database as hands "
                   "score (docs/stats.md) [env TRICKTABLE_CLUB_DB].")
@click.option("--connect-timeout", default=10.0, show_default=True, type=click.FloatRange(0.1),
              help="Seconds to wait for the broker at start; exit if it does not answer.")
@credential_options
@click.option("-v", "--verbose", count=True,
              help="-v: log the host's connection changes; -vv: the embedded broker's too.")
def serve(club_file: Path | None, broker_url: str | None, ca_file: str | None,
          journal_path: Path | None, registry_path: Path | None, port: int, client_id: str,
          sync: str, night_path: Path | None, club_db: Path | None, connect_timeout: float,
          username: str | None,
          password_file: Path | None, verbose: int) -> None:
    """Run the tables: MQTT in, journal, rules, MQTT out."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if verbose < 2:  # the embedded broker's chatter drowns the host's own lines
        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.WARNING)
    try:
        club: Club = load_club(club_file) if club_file else parse_club(DEFAULT_CLUB)
    except ClubFileError as exc:
        raise click.ClickException(str(exc)) from None
    enrolled = default_registry_path()
    registry_file = registry_path or club.registry or (enrolled if enrolled.exists() else None)
    journal_file = journal_path or club.journal or Path("tricktable-journal.sqlite")
    broker = None
    try:
        if broker_url is None:
            try:
                broker = start_broker("amqtt", port=port)
            except BrokerError as exc:
                raise BrokerError(f"{exc}\n(another broker there? use it with --broker "
                                  f"mqtt://127.0.0.1:{port}, or pick another --port)") from None
            broker_url = broker.url
        url = complete_url(broker_url, username, password_file)
        journal = Journal(journal_file, sync=sync, degraded_ok=True)  # type: ignore[arg-type]
        registry = Registry(registry_file, readonly=True) if registry_file else None
        service = Service(club, journal, registry, url, client_id=client_id, ca_file=ca_file)
        night = LiveNight(night_path, club, journal) if night_path is not None else None
        stats = StatsFollower(club_db, f"{night_path.stem} {time.strftime('%Y-%m-%d')}",
                              journal, night_path) \
            if club_db is not None and night_path is not None else None
    except (BrokerError, ServiceError, JournalError, RegistryError, ClubError,
            PlayersError) as exc:
        if broker is not None:
            broker.stop()
        raise click.ClickException(str(exc)) from None
    gc.freeze()  # the rebuilt tables live for ever: keep them out of full collections' way
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    service.start()
    try:
        service.wait_connected(connect_timeout)
        if night is not None:
            night.start(service)
        if stats is not None:
            stats.start(service)
        click.echo(f"tricktable serving {len(club.tables)} table(s) of {club.name} on "
                   f"{url.host}:{url.port}, journal {journal_file}")
        done.wait()
    except (ServiceError, ClubError) as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        pass
    finally:
        if night is not None:
            night.stop()
        if stats is not None:
            stats.stop()
        service.stop()
        journal.close()
        if registry is not None:
            registry.close()
        if broker is not None:
            broker.stop()

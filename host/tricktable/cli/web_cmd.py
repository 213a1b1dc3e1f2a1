"""``tricktable web``: serve the scoreboard for any broker (club, table and replay pages;
with ``--club-db``, the club's leaderboard, player and season pages too).
"""

from __future__ import annotations

from pathlib import Path

import click

from tricktable.cli.brokeropts import broker_options, broker_url
from tricktable.cli.secretopts import secret_option, secret_value
from tricktable.history import HistoryError
from tricktable.mqtt.url import BrokerConfigError
from tricktable.players import PlayersError
from tricktable.serve.journal import Journal, JournalError
from tricktable.web.server import Scoreboard


@click.command("web")
@broker_options
@click.option("--host", default="127.0.0.1", show_default=True, help="address to serve on")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535))
@click.option("--journal", default=None, type=click.Path(exists=True, dir_okay=False,
                                                         path_type=Path),
              help="the host's journal: the replay page then offers every recorded hand")
@click.option("--night", default=None, type=click.Path(exists=True, dir_okay=False,
                                                       path_type=Path),
              help="a club night file (tricktable club): the standings on / and /standings, "
                   "re-read when it changes")
@click.option("--history", "histories", multiple=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="a hand-history or EGN file to replay at /replay/NAME (NAME: the file name "
                   "without its extension); repeatable")
@click.option("--club-db", "club_db", default=None, envvar="TRICKTABLE_CLUB_DB",
              type=click.Path(dir_okay=False, path_type=Path),
              help="the club database (tricktable players, docs/stats.md): the leaderboard, "
                   "player and season pages on the same scoreboard, names linked to them, "
                   "hidden players as Guest [env TRICKTABLE_CLUB_DB]")
@click.option("--addresses", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="the addresses file `tricktable up` writes: the TV shows them with QR codes")
@click.option("--phones", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="the phones' pairings file (made if missing): phones read the seats the "
                   "club file gives them (/pad; pairing at /phones with the admin token)")
@click.option("--registry", default=None, type=click.Path(exists=True, dir_okay=False,
                                                          path_type=Path),
              help="the host's deck registry: with the admin token, tag a deck card by card "
                   "with a phone at /enroll")
@click.option("--tls-cert", default=None, type=click.Path(exists=True, dir_okay=False,
                                                          path_type=Path),
              help="serve HTTPS with this certificate (PEM; Web NFC needs it): the one "
                   "`tricktable broker certs` makes from the club CA, or the club's own "
                   "domain's")
@click.option("--tls-key", default=None, type=click.Path(exists=True, dir_okay=False,
                                                         path_type=Path),
              help="the certificate's private key (PEM)")
@click.option("--club-ca", default=None, type=click.Path(exists=True, dir_okay=False,
                                                         path_type=Path),
              help="the club CA's certificate, offered to phones at /ca with the steps to "
                   "trust it (not needed with a certificate of a real domain)")
@secret_option("admin-token", "TRICKTABLE_ADMIN_TOKEN",
               "the bearer token that enables admin actions (new game, undo, void hand); off "
               "when not given")
def web(broker: str, ca_file: str | None, prefix: str, host: str, port: int,
        journal: Path | None, night: Path | None, histories: tuple[Path, ...],
        club_db: Path | None, username: str | None,
        password_file: Path | None, addresses: Path | None, phones: Path | None,
        registry: Path | None,
        tls_cert: Path | None, tls_key: Path | None, club_ca: Path | None,
        admin_token: str | None, admin_token_file: Path | None) -> None:
    """Serve the live scoreboard: every table, one table, and hand replays."""
    admin_token = secret_value("admin-token", admin_token, admin_token_file,
                               "TRICKTABLE_ADMIN_TOKEN")
    if (tls_cert is None) != (tls_key is None):
        raise click.UsageError("--tls-cert and --tls-key go together")
    try:
        if journal is not None:
            Journal(journal, readonly=True).close()  # a journal, not any file
        url = broker_url(broker, username, password_file)
        board = Scoreboard(url.host, url.port, host=host, port=port, prefix=prefix,
                           admin_token=admin_token or None, username=url.username,
                           password=url.password, tls=url.tls, ca_file=ca_file,
                           journal=journal, night=night, histories=list(histories),
                           club_db=club_db, addresses=addresses,
                           offline=night is not None or bool(histories),
                           pairings=phones, https=(tls_cert, tls_key) if tls_cert and tls_key
                           else None, club_ca=club_ca, registry=registry)
    except (BrokerConfigError, JournalError, HistoryError, PlayersError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    try:
        if board.connect():
            click.echo(f"scoreboard on {board.url} (broker {url.host}:{url.port}); "
                       "Ctrl-C stops it")
        else:  # a night over, or hand histories to replay: their pages need no broker
            served = ("the night's standings, results, TV and hands from its files"
                      if night is not None else "the hand histories' replays")
            click.echo(f"scoreboard on {board.url}, without a broker (none answered at "
                       f"{url.host}:{url.port}): {served}; Ctrl-C stops it")
        for path in histories:
            click.echo(f"replay of {path}: {board.url}/replay/{path.stem}")
        if phones is not None:
            click.echo(f"phones as seat readers: {board.url}/pad (pairing: {board.url}/phones)")
        if club_db is not None:
            click.echo(f"club statistics ({club_db}): {board.url}/leaderboard")
        board.run()
    except ConnectionError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:  # Ctrl-C is how it is stopped: not an error
        pass

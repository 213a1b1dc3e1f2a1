"""``tricktable broker``: the club broker's TLS and users (mqtt/mosquitto/README.md).

``broker certs`` makes the club's CA (once; every board holds it) and the broker's certificate
for its host names and addresses, keys 0600 (provision/certs.py). ``broker user`` adds a
program's user to the mosquitto password file with a fresh password, written to a file of
its own readable by its owner only (for ``--password-file``).
"""

from __future__ import annotations

from pathlib import Path

import click

from tricktable.provision.acl import SERVICE_USERS, BrokerFileError
from tricktable.provision.certs import make_club_certs
from tricktable.provision.passwords import add_user, check_writable, new_password
from tricktable.secretfiles import write_private


@click.group("broker")
def broker_group() -> None:
    """The club broker's TLS certificates and program users."""


@broker_group.command("certs")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="the folder (mosquitto's: /etc/mosquitto/certs)")
@click.option("--name", "names", multiple=True, required=True,
              help="a host name or address boards and programs reach the broker by (repeatable)")
@click.option("--club", default="tricktable club", show_default=True, help="the CA's name")
def certs_command(out: Path, names: tuple[str, ...], club: str) -> None:
    """Make the club's CA (kept if OUT has one) and the broker's certificate."""
    try:
        made = make_club_certs(out, list(names), club)
    except (ValueError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"CA {made.ca} (boards: {made.ca_der}); broker certificate {made.server} for "
               f"{', '.join(names)}, key {made.server_key} (readable by its owner only: give "
               "it to the mosquitto user). Keep ca.key off the broker if you can.")


@broker_group.command("user")
@click.argument("user", type=click.Choice(sorted(SERVICE_USERS)))
@click.option("--passwd-file", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="the mosquitto password file")
@click.option("--password-out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="where the program's password goes (0600), for its --password-file")
def user_command(user: str, passwd_file: Path, password_out: Path) -> None:
    """Give a program's USER a fresh password in the mosquitto password file."""
    password = new_password()
    try:
        check_writable(passwd_file)
        write_private(password_out, password + "\n")
        add_user(passwd_file, user, password)
    except (BrokerFileError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"user {user} ({SERVICE_USERS[user]}) in {passwd_file}; its password in "
               f"{password_out}. Reload mosquitto (systemctl reload mosquitto).")

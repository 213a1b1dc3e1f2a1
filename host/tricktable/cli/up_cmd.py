"""``tricktable up``, ``log`` and ``restore``: the club's host as one command (docs/appliance.md).

Thin: reads the club file's ``[host]`` section (``appliance.settings``), makes the secrets,
prints the addresses with their QR codes and where the console's token is (never the
token: stdout goes to the system journal under systemd), and runs
``appliance.up`` until Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import getpass
import signal
import subprocess
import sys
import threading
from pathlib import Path

import click

from tricktable.appliance import backup, credentials
from tricktable.appliance.settings import (
    DATA_ENV,
    Settings,
    SettingsError,
    default_data_dir,
    load_settings,
)
from tricktable.appliance.up import (
    UpError,
    addresses,
    boards_entry,
    check,
    existing_broker,
    run,
    running,
)

CLUB_ENV = "TRICKTABLE_CLUB"


def club_options(command):  # type: ignore[no-untyped-def]
    """``--club``, ``--data`` and ``--night``, shared by up, doctor, restore and service."""
    command = click.option("--night", type=click.Path(dir_okay=False, path_type=Path),
                           help="the night file (default: the club file's host.night)")(command)
    command = click.option("--data", type=click.Path(file_okay=False, path_type=Path),
                           envvar=DATA_ENV,
                           help=f"the host's data directory: secrets, log, broker, backups "
                                f"[env {DATA_ENV}; default ~/.local/share/tricktable/host]")(command)
    return click.option("--club", "club_file", required=True, envvar=CLUB_ENV,
                        type=click.Path(exists=True, dir_okay=False, path_type=Path),
                        help=f"the club file (TOML) [env {CLUB_ENV}]")(command)


def settings_of(club_file: Path, data: Path | None, night: Path | None) -> Settings:
    try:
        return load_settings(club_file.resolve(), data.resolve() if data else None,
                             night.resolve() if night else None)
    except SettingsError as exc:
        raise click.ClickException(str(exc)) from None


@click.command("up")
@club_options
def up(club_file: Path, data: Path | None, night: Path | None) -> None:
    """Run the whole night: broker, tables, scoreboard, console; restarted if one dies."""
    settings = settings_of(club_file, data, night)
    try:
        check(settings)
        found = existing_broker(settings)
    except UpError as exc:
        raise click.ClickException(str(exc)) from None
    creds = credentials.ensure(settings.data)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: stop.set())
    for place in addresses(settings):
        click.echo(f"{place.what}: {place.url}")
        click.echo(place.terminal())
    if found:  # not the club's broker up makes: its users, ACL and TLS are its own
        click.echo(f"boards: a broker was running at {settings.broker.host}:"
                   f"{settings.broker.port} before up and up uses it as it is, not with the "
                   "club's users and the boards' TLS: set the boards up for that broker, or stop "
                   "it (a distribution's mosquitto: `systemctl disable --now mosquitto`) and up "
                   "starts the club's own")
    else:
        entry = boards_entry(settings)
        click.echo(f"boards: tricktable board setup --broker {entry.url}"
                   + (f" --ca-file {entry.ca}" if entry.ca else "  (plain MQTT: host.tls = false)"))
    if settings.night is not None:  # the token itself is never printed: stdout is kept in
        # the system journal, which others may read
        click.echo(f"the console's token is in {creds.console_token_file} (readable by "
                   f"{getpass.getuser()} only): sign in with it on the console's page")
    click.echo(f"one log for everything: tricktable log --data {settings.data}", nl=True)
    try:
        run(settings, creds, stop, sys.stdout)
    except UpError as exc:
        raise click.ClickException(str(exc)) from None


@click.command("doctor")
@club_options
def doctor(club_file: Path, data: Path | None, night: Path | None) -> None:
    """Check the club before a night: broker, boards, decks, disk, pages. One line each."""
    from tricktable.appliance.doctor import examine

    settings = settings_of(club_file, data, night)
    checks = examine(settings, credentials.Credentials(settings.data / "secrets"))
    for line in checks:
        click.echo(line.line())
    stopping = [c for c in checks if not c.ok and c.stops]
    if stopping:
        click.echo(f"{len(stopping)} problem(s) would stop the night (✗); ! is a warning")
        raise SystemExit(1)
    click.echo("ready for the night")


@click.command("log")
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), envvar=DATA_ENV,
              help=f"the host's data directory [env {DATA_ENV}]")
@click.option("-f", "--follow", is_flag=True, help="keep printing new lines")
@click.option("-n", "--lines", default=50, show_default=True, help="how many last lines")
def log_command(data: Path | None, follow: bool, lines: int) -> None:
    """Print the log of `tricktable up`: every part's lines and every restart."""
    path = (data or default_data_dir()) / "up.log"
    if not path.exists():
        raise click.ClickException(f"no log at {path}: has `tricktable up` run with this --data?")
    argv = ["tail", "-n", str(lines), *(["-F"] if follow else []), str(path)]
    try:
        subprocess.run(argv, check=False)
    except KeyboardInterrupt:
        pass


@click.command("restore")
@club_options
@click.argument("which", required=False)
@click.option("--list", "list_only", is_flag=True, help="list the backups and stop")
def restore(club_file: Path, data: Path | None, night: Path | None, which: str | None,
            list_only: bool) -> None:
    """Bring back a backup (the newest, or WHICH: its folder name) while `up` is stopped."""
    settings = settings_of(club_file, data, night)
    kept = backup.listing(settings)
    if list_only or not kept:
        for folder in kept:
            click.echo(folder.name)
        if not kept:
            raise click.ClickException(f"no backup in {settings.backups}")
        return
    chosen = kept[-1] if which is None else settings.backups / which
    if running(settings.data):
        raise click.ClickException("tricktable up is running on this data directory: stop it "
                                   "first (Ctrl-C, or `systemctl stop tricktable`)")
    try:
        names = backup.restore(settings, chosen)
    except backup.BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"restored {', '.join(names)} from {chosen}; start `tricktable up` to carry on")


@click.group("service")
def service_group() -> None:
    """Start `tricktable up` at boot with systemd (docs/appliance.md)."""


def _unit_options(command):  # type: ignore[no-untyped-def]
    command = click.option("--no-enable", is_flag=True,
                           help="only write (remove) the file; do not run systemctl")(command)
    command = click.option("--unit-dir", type=click.Path(file_okay=False, path_type=Path),
                           help="where the unit goes (default: /etc/systemd/system, or "
                                "~/.config/systemd/user with --user)")(command)
    return click.option("--user", "user_unit", is_flag=True,
                        help="a user unit (needs `loginctl enable-linger` to start at "
                             "boot) instead of a system unit")(command)


@service_group.command("install")
@club_options
@_unit_options
def service_install(club_file: Path, data: Path | None, night: Path | None, user_unit: bool,
                    unit_dir: Path | None, no_enable: bool) -> None:
    """Write tricktable.service for `up` with this club and data, enable and start it."""
    from tricktable.appliance import unit

    settings = settings_of(club_file, data, night)
    settings.data.mkdir(parents=True, exist_ok=True)
    folder = unit_dir or (unit.USER_DIR if user_unit else unit.SYSTEM_DIR)
    night_file = night.resolve() if night else settings.night
    owned = [settings.data, settings.backups,
             *{p.parent for p in (settings.journal, night_file, settings.club_db) if p}]
    try:
        text = unit.unit_text(settings.club_file, settings.data,
                              night.resolve() if night else None, user_unit, writable=owned)
        if not user_unit and not no_enable:
            unit.ensure_user(unit.SERVICE_USER, owned)
        path = unit.install(text, folder, user_unit, not no_enable)
    except (unit.UnitError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"wrote {path}" + ("" if no_enable else "; enabled and started"))
    if not user_unit and no_enable:
        click.echo(f"it runs as the user {unit.SERVICE_USER}: make it (useradd --system "
                   f"{unit.SERVICE_USER}) and give it {settings.data} before you enable it")
    if user_unit:
        click.echo("a user unit starts at boot only with: loginctl enable-linger $USER")
    click.echo("check the night with: tricktable doctor --club "
               f"{settings.club_file} --data {settings.data}")


@service_group.command("uninstall")
@_unit_options
def service_uninstall(user_unit: bool, unit_dir: Path | None, no_enable: bool) -> None:
    """Stop and disable tricktable.service and remove it."""
    from tricktable.appliance import unit

    folder = unit_dir or (unit.USER_DIR if user_unit else unit.SYSTEM_DIR)
    try:
        path = unit.uninstall(folder, user_unit, not no_enable)
    except (unit.UnitError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"removed {path}")

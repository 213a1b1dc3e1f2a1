"""``tricktable board setup PORT``: set up one table-side board over USB serial;
``tricktable board acl``: the club's broker ACL from the club file.

A thin shell over tricktable.provision: the board's config is built and checked before the
port is opened (a bad one, or a board id that is a program's user name, is refused with
nothing written), the broker's ACL is written or checked (with the board's block for its
table) and the password file checked before the board is touched, then the firmware, the
club's CA (for ``mqtts://``) and config go on the board (temporary names, verified, renamed,
read back), and only then is the board's new password added to the mosquitto password file.
"""

from __future__ import annotations

from pathlib import Path

import click

from tricktable.clubfile import ClubFileError, load_club
from tricktable.mqtt.url import BrokerConfigError, BrokerURL
from tricktable.provision.acl import BrokerFileError, acl_text, check_board_id, ensure_acl
from tricktable.provision.boardfile import (
    CA_FILE,
    BoardSpec,
    ConfigError,
    board_config,
    ca_der,
    read_wifi_file,
)
from tricktable.provision.bundle import FIRMWARE_DIR, BundleError, build_bundle
from tricktable.provision.passwords import add_board_user, check_writable, new_password
from tricktable.provision.rawrepl import BoardError, RawREPL
from tricktable.provision.setup import setup_board, write_board_files
from tricktable.secretfiles import write_private


@click.group("board")
def board_group() -> None:
    """Set up table-side boards over USB."""


@board_group.command("setup")
@click.argument("port", required=False)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write the board's files to this folder instead of a board on PORT (to copy "
                   "them with mpremote, Thonny or the board's drive).")
@click.option("--board", "board_id", required=True, help="Board id (MQTT client id and broker user).")
@click.option("--broker", required=True,
              help="Broker the board joins: mqtts://host[:port] (TLS, with --ca-file), or "
                   "mqtt://host[:port] for a club that keeps plain MQTT.")
@click.option("--ca-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="The club's CA (ca.crt of `tricktable broker certs`), for "
                                 "mqtts://: copied to the board as ca.der.")
@click.option("--wifi-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              required=True, help='JSON list of {"ssid", "password"}, tried in this order.')
@click.option("--passwd-file", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The mosquitto password file the board's user is added to.")
@click.option("--acl-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The mosquitto ACL: written from the project's template if missing, else checked.")
@click.option("--table", default="t1", show_default=True, help="Table id for the display topic.")
@click.option("--prefix", default="tricktable", show_default=True, help="MQTT topic prefix.")
@click.option("--pins", default="pico_w", show_default=True, help="Pin map in boards.json.")
@click.option("--pads", type=int, default=1, show_default=True, help="Readers on the board (0..4).")
@click.option("--reader-bus", type=click.Choice(["spi", "i2c", "uart"]), default="spi",
              show_default=True)
@click.option("--feedback", type=click.Choice(["neopixel", "leds", "none"]), default="neopixel",
              show_default=True)
@click.option("--display", type=click.Choice(["none", "max7219", "ssd1306"]), default="none",
              show_default=True)
@click.option("--firmware", type=click.Path(file_okay=False, path_type=Path),
              default=FIRMWARE_DIR, show_default=True,
              help="The firmware's sources (default: the ones this install of tricktable ships).")
@click.option("--mpy-cross", "mpy_cross", default=None, help="mpy-cross to compile with.")
@click.option("--update-pub", default=None,
              help="the host's firmware signing public key (`tricktable fleet key`, not "
                   "secret): the board then takes signed firmware updates over the network; "
                   "without it, it takes none")
@click.option("--baudrate", type=int, default=115200, show_default=True)
@click.option("--no-reset", is_flag=True, help="Leave the board at its REPL (no soft reset).")
def setup(port: str | None, out: Path | None, board_id: str, broker: str, ca_file: Path | None, wifi_file: Path,
          passwd_file: Path, acl_file: Path | None, table: str, prefix: str, pins: str, pads: int,
          reader_bus: str, feedback: str, display: str, firmware: Path, mpy_cross: str | None,
          update_pub: str | None, baudrate: int,
          no_reset: bool) -> None:
    """Copy the compiled firmware and this board's config.json to the board on PORT (or, with
    --out, to a folder)."""
    if (port is None) == (out is None):
        raise click.UsageError("give the board's serial PORT, or --out FOLDER for its files")
    try:
        url = BrokerURL.parse(broker)
        if url.tls and ca_file is None:
            raise ConfigError("broker: mqtts:// needs --ca-file, the club's CA (ca.crt of "
                              "`tricktable broker certs`): the board checks the broker with it")
        extra = {CA_FILE: ca_der(ca_file)} if url.tls and ca_file is not None else {}
        if not url.tls:
            click.echo("warning: this board will speak plain MQTT: anyone on the club's "
                       "network can read its password and plays (docs/operations.md, "
                       "\"Security\"); use mqtts:// and --ca-file", err=True)
        check_board_id(board_id)
        password = new_password()
        spec = BoardSpec(board=board_id, broker_host=url.host, broker_port=url.port,
                         password=password, wifi=read_wifi_file(wifi_file), table=table,
                         prefix=prefix, pins=pins, pads=pads, reader_bus=reader_bus,
                         feedback=feedback, display=None if display == "none" else display,
                         update_pub=update_pub, tls=url.tls)
        config = board_config(spec, firmware)
        check_writable(passwd_file)
        if acl_file is not None and ensure_acl(acl_file, prefix, board_id, table):
            click.echo(f"wrote the ACL {acl_file}")
        bundle = build_bundle(firmware, mpy_cross)
        if out is not None:
            written = write_board_files(out, bundle, config, extra)
            done = f"{written} files written to {out} (copy them all to the board's flash)"
        else:
            with RawREPL(port, baudrate) as repl:
                result = setup_board(repl, bundle, config, progress=click.echo, extra=extra)
                repl.close(soft_reset=not no_reset)
            done = f"{len(result.hashes)} files verified"
        add_board_user(passwd_file, board_id, password)
    except (BrokerConfigError, ConfigError, BrokerFileError, BundleError, BoardError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"board {board_id}: {done}; user {board_id} added "
               f"to {passwd_file}. Reload mosquitto (systemctl reload mosquitto) so it reads it.")


@board_group.command("acl")
@click.option("--club", "club_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              required=True, help="the club file: its prefix, tables and their boards")
@click.option("--acl-file", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="the mosquitto ACL to (re)write")
def acl_command(club_file: Path, acl_file: Path) -> None:
    """Write the club's ACL: the programs' users, and each board of the club file reading only
    its own table's display. Run it again when boards move between tables."""
    try:
        club = load_club(club_file)
        boards = club.board_tables()
        write_private(acl_file, acl_text(club.prefix, boards), keep_mode=True)
    except (ClubFileError, BrokerFileError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"wrote the ACL {acl_file} ({len(boards)} boards). Reload mosquitto "
               "(systemctl reload mosquitto) so it reads it.")

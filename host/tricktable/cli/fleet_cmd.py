"""``tricktable fleet``: firmware bundles for the boards, and updating them table by table.

``fleet keygen`` makes the firmware signing key (HSS/LMS, the host's alone), ``fleet key``
prints its public key (config.json ``update_pub``), ``fleet bundle`` compiles and signs a
bundle (``--migrate``: signed the old way too, for boards of the old scheme), ``fleet update``
offers one to every board of the club file,
table by table, between hands (docs/fleet.md). Boards refuse a bundle older than theirs:
``fleet rollback`` signs an older bundle again with a fresh counter, the director's explicit
way back, and records who did it, when and why in the audit log.
"""

from __future__ import annotations

import getpass
import json
import time
from pathlib import Path

import click

from tricktable.cli.brokeropts import broker_options, broker_url
from tricktable.cli.deck_cmds import registry_option
from tricktable.clubfile import ClubFileError, load_club
from tricktable.deckkit import decks
from tricktable.fleet import bundle, signing
from tricktable.fleet.updater import BoardResult, UpdateError, Updater
from tricktable.mqtt.url import BrokerConfigError


def _club_key(registry: Path | None) -> bytes:
    try:
        with decks.Registry(registry or decks.default_path(), readonly=True) as reg:
            keys = reg.keys()
    except decks.RegistryError as exc:
        raise click.ClickException(str(exc)) from None
    if not keys:
        raise click.ClickException("the registry holds no club key: `tricktable deck key` "
                                   "makes one")
    return keys[max(keys)]


def signing_key(registry: Path | None) -> Path:
    """The firmware signing key's file: beside the deck registry, owner-only."""
    return (registry or decks.default_path()).parent / "fleet-signing.key"


def _public(registry: Path | None) -> str:
    try:
        return signing.public_key(signing_key(registry))
    except signing.SigningError as exc:
        raise click.ClickException(str(exc)) from None


@click.group("fleet")
def fleet() -> None:
    """Firmware bundles for the boards, and updates table by table."""


@fleet.command("keygen")
@registry_option
def keygen_command(registry: Path | None) -> None:
    """Make the firmware signing key (once; the host alone holds it) and print its public key."""
    try:
        public = signing.generate(signing_key(registry))
    except signing.SigningError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(public)


@fleet.command("key")
@registry_option
def key_command(registry: Path | None) -> None:
    """Print the firmware signing public key (`board setup --update-pub`): it checks
    signatures and makes none."""
    click.echo(_public(registry))


@fleet.command("bundle")
@click.option("--version", "version", required=True, help="the bundle's version, e.g. 0.2.0")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="directory to write the bundle into (new or empty)")
@click.option("--migrate", is_flag=True,
              help="also sign it the old way (HMAC under the club key's update key), for "
                   "boards set up before public keys: they take it once and then check "
                   "public-key signatures only")
@registry_option
def bundle_command(version: str, out: Path, migrate: bool, registry: Path | None) -> None:
    """Compile the firmware with mpy-cross into a bundle signed with the firmware signing key."""
    try:
        made = bundle.build(out, version, signing_key(registry),
                            migrate_from=_club_key(registry) if migrate else None)
    except (bundle.BundleError, signing.SigningError) as exc:
        raise click.ClickException(str(exc)) from None
    size = sum(len(d) for d in made.files.values())
    click.echo(f"bundle {made.version}: {len(made.files)} files, {size} bytes in {out}")


@fleet.command("update")
@click.argument("bundle_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--club", "club_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              required=True, help="the club file: its tables and their boards")
@click.option("--table", "only", multiple=True, help="only this table (repeatable)")
@click.option("--timeout", default=300.0, show_default=True,
              help="seconds a table may take (waiting between hands, then each board)")
@registry_option
@broker_options
def update_command(bundle_dir: Path, club_file: Path, only: tuple[str, ...], timeout: float,
                   registry: Path | None, broker: str, ca_file: str | None, prefix: str,
                   username: str | None, password_file: Path | None) -> None:
    """Offer BUNDLE_DIR to every board, table by table, between hands; stop at the first
    table where a board refuses it or rolls back."""
    try:
        club = load_club(club_file)
        loaded = bundle.load(bundle_dir, _public(registry))
        url = broker_url(broker, username, password_file)
    except (ClubFileError, bundle.BundleError, BrokerConfigError) as exc:
        raise click.ClickException(str(exc)) from None
    unknown = [t for t in only if t not in club.tables]
    if unknown:
        raise click.ClickException(f"no table {', '.join(unknown)} in {club_file}")
    tables = {t: cfg.boards for t, cfg in club.tables.items() if not only or t in only}
    updater = Updater(loaded, url, prefix, ca_file=ca_file)
    try:
        updater.start()
    except UpdateError as exc:
        raise click.ClickException(str(exc)) from None

    def report(table: str, results: list[BoardResult]) -> None:
        for r in results:
            click.echo(f"{table} {r.board}: " + ("runs " + loaded.version if r.ok else r.why))

    try:
        done = updater.update_tables(tables, timeout, report)
    finally:
        updater.stop()
    failed = [r for results in done.values() for r in results if not r.ok]
    if failed or len(done) < len(tables):
        raise click.ClickException(f"stopped after table {list(done)[-1] if done else '-'}: "
                                   f"{len(failed)} board(s) did not take {loaded.version}; "
                                   f"{len(tables) - len(done)} table(s) not offered it")
    click.echo(f"every board of {len(tables)} table(s) runs {loaded.version}")


def audit_path(registry: Path | None) -> Path:
    """The fleet's audit log: beside the deck registry (it holds the key that signs)."""
    return (registry or decks.default_path()).parent / "fleet-audit.jsonl"


@fleet.command("rollback")
@click.argument("old_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--replaces", required=True, help="the (newer) version the boards run now")
@click.option("--reason", required=True, help="why: kept in the audit log")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="directory to write the rollback bundle into (new or empty)")
@registry_option
def rollback_command(old_dir: Path, replaces: str, reason: str, out: Path,
                     registry: Path | None) -> None:
    """Sign OLD_DIR's bundle again with a fresh counter, so boards running REPLACES take it
    (they refuse an older bundle as it was); then `fleet update OUT`. Audited."""
    if not reason.strip():
        raise click.ClickException("--reason: say why (it goes in the audit log)")
    try:
        old = bundle.load(old_dir, _public(registry))
        made = bundle.rollback(old, out, signing_key(registry), replaces)
    except (bundle.BundleError, signing.SigningError) as exc:
        raise click.ClickException(str(exc)) from None
    log = audit_path(registry)
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a") as f:
        f.write(json.dumps({"t": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "by": getpass.getuser(),
                            "action": "rollback", "version": made.version,
                            "replaces": replaces, "counter": made.counter,
                            "reason": reason, "out": str(out)}) + "\n")
    click.echo(f"rollback bundle {made.version} (counter {made.counter}, replaces {replaces}) "
               f"in {out}; logged in {log}. Offer it with `tricktable fleet update {out}`.")

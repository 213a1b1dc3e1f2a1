"""``tricktable enroll`` and ``tricktable deck ...``: tag decks at a USB PN532 and check them.

Thin: the sessions live in ``tricktable.deckkit.enroll``, the registry in ``tricktable.deckkit.decks``; this
module parses options and shows the session to the person at the reader with rich (a
progress bar, the card to tap next, problems in red, questions read from stdin).
``enroll --kind members --members FILE`` tags the members' own tags (their names from FILE,
read like a club night's players file).
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.prompt import Prompt
from rich.table import Table

from tricktable.cli.secretopts import warn_on_command_line
from tricktable.club.errors import ClubError
from tricktable.club.roster import read_roster
from tricktable.deckkit import decks, enroll

registry_option = click.option(
    "--registry",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Registry file (default $TRICKTABLE_REGISTRY or ~/.local/share/tricktable/decks.sqlite).",
)
port_option = click.option(
    "--port", required=True, help="Serial port of the PN532 (e.g. /dev/ttyUSB0)."
)
baud_option = click.option(
    "--baud", default=115200, show_default=True, help="PN532 UART baud rate."
)
genuine_option = click.option(
    "--genuine-only",
    is_flag=True,
    help="Refuse (enroll) or flag (check) tags whose NXP originality signature does not verify.",
)


class RichUI:
    """The session shown on a terminal: progress bar, next card, problems, questions."""

    def __init__(self, console: Console, title: str, total: int) -> None:
        self.console = console
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=console,
            transient=False,
        )
        self.task = self.progress.add_task(title, total=total)
        self.title = title

    def __enter__(self) -> RichUI:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def next_card(self, slot: decks.Slot | None, done: int, total: int) -> None:
        what = f"tap [bold cyan]{slot.name}[/]" if slot else "tap any card"
        if slot is not None and slot.copy:
            what += " (from the second deck)"
        self.progress.update(self.task, completed=done, total=total,
                             description=f"{self.title}: {what}")

    def done_card(self, slot: decks.Slot, uid: bytes) -> None:
        self.progress.advance(self.task)
        if self.progress.tasks[0].finished:
            self.progress.update(self.task, description=f"{self.title}: done")
        self.progress.console.print(f"[green]ok[/] {slot.name}  {uid.hex()}")

    def problem(self, message: str) -> None:
        self.progress.console.print(f"[red]{message}[/]")

    def choose(self, question: str, choices: dict[str, str]) -> str:
        self.progress.stop()
        self.console.print(f"[yellow]{question}[/]")
        for key, meaning in choices.items():
            self.console.print(f"  [bold]{key}[/]  {meaning}")
        answer = Prompt.ask("choice", choices=list(choices), console=self.console)
        self.progress.start()
        return answer


def _open(registry: Path | None, readonly: bool = False) -> decks.Registry:
    try:
        return decks.Registry(registry or decks.default_path(), readonly=readonly)
    except decks.RegistryError as exc:
        raise click.ClickException(str(exc)) from None


def _reader(port: str, baud: int) -> enroll.UsbReader:
    try:
        return enroll.UsbReader.open(port, baudrate=baud)
    except enroll.ReaderError as exc:
        raise click.ClickException(str(exc)) from None


def _reader_lost(port: str, exc: enroll.ReaderError) -> click.ClickException:
    """A reader that stopped answering mid-session: one line; what was stored is kept."""
    return click.ClickException(f"the reader on {port} stopped answering ({exc}); what was "
                                f"stored is kept: run the same command again")


@click.command("enroll")
@click.option("--deck", "deck_id", type=click.IntRange(1, 65535), required=True, help="Deck id.")
@click.option(
    "--kind", type=click.Choice(decks.DECK_KINDS), required=True, help="Deck kind or token set."
)
@click.option("--name", default="", help="A name for a new deck (e.g. 'blue backs').")
@click.option("--redo", multiple=True, help="Enroll this card again (AS, AS', PASS); repeatable.")
@click.option("--members", "members_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="With --kind members: the members' names, one a line (# "
                                 "comments allowed); names new to the deck are added.")
@click.option(
    "--timeout", default=120.0, show_default=True, help="Stop after this many idle seconds."
)
@genuine_option
@click.option(
    "--protect",
    is_flag=True,
    help="Set each tag's write password (derived from the club key and its UID); reads stay open.",
)
@port_option
@baud_option
@registry_option
def enroll_command(
    deck_id: int,
    kind: str,
    name: str,
    redo: tuple[str, ...],
    members_file: Path | None,
    timeout: float,
    genuine_only: bool,
    protect: bool,
    port: str,
    baud: int,
    registry: Path | None,
) -> None:
    """Tag a deck card by card (a token set, or members' own tags) at a PN532 on a serial
    port."""
    console = Console()
    members: tuple[str, ...] = ()
    if members_file is not None:
        try:
            members = read_roster(members_file)
        except ClubError as exc:
            raise click.ClickException(str(exc)) from None
    reader = _reader(port, baud)
    try:
        with _open(registry) as reg:
            with RichUI(console, f"deck {deck_id}", 0) as ui:
                result = enroll.enroll_deck(
                    reg,
                    reader,
                    deck_id,
                    kind,
                    ui,
                    name=name,
                    redo=redo,
                    tap_timeout=timeout,
                    genuine_only=genuine_only,
                    protect=protect,
                    members=members,
                )
    except (enroll.EnrollError, decks.RegistryError) as exc:
        raise click.ClickException(str(exc)) from None
    except enroll.ReaderError as exc:
        raise _reader_lost(port, exc) from None
    finally:
        reader.close()
    if not result.complete:
        left = ", ".join(slot.name for slot in result.remaining)
        raise click.ClickException(
            f"deck {deck_id}: {len(result.remaining)} not enrolled yet ({left})"
        )
    console.print(f"deck {deck_id} ({kind}) complete: {len(result.enrolled)} enrolled this time")


@click.group("deck")
def deck_group() -> None:
    """List and check enrolled decks; share the club key."""


@deck_group.command("list")
@registry_option
def list_command(registry: Path | None) -> None:
    """The enrolled decks, with how many of their cards have a tag."""
    console = Console()
    table = Table("deck", "kind", "name", "enrolled", "key")
    with _open(registry, readonly=True) as reg:
        for deck in reg.decks():
            size = len(reg.slots(deck.deck_id))
            have = len(reg.enrolled(deck.deck_id))
            table.add_row(
                str(deck.deck_id), deck.kind, deck.name, f"{have}/{size}", str(deck.key_id)
            )
    console.print(table)


@deck_group.command("check")
@click.option("--deck", "deck_id", type=click.IntRange(1, 65535), required=True, help="Deck id.")
@click.option(
    "--idle", default=15.0, show_default=True, help="Finish after this many idle seconds."
)
@genuine_option
@port_option
@baud_option
@registry_option
def check_command(
    deck_id: int, idle: float, genuine_only: bool, port: str, baud: int, registry: Path | None
) -> None:
    """Scan a deck in any order; list missing, extra and foreign cards. Exit 1 if not clean."""
    console = Console()
    reader = _reader(port, baud)
    try:
        with _open(registry, readonly=True) as reg:
            deck = reg.deck(deck_id)
            total = len(reg.slots(deck_id)) if deck else 0
            with RichUI(console, f"check deck {deck_id}", total) as ui:
                report = enroll.check_deck(
                    reg, reader, deck_id, ui, idle_timeout=idle, genuine_only=genuine_only
                )
    except enroll.EnrollError as exc:
        raise click.ClickException(str(exc)) from None
    except enroll.ReaderError as exc:
        raise _reader_lost(port, exc) from None
    finally:
        reader.close()
    with _open(registry) as reg:  # when, for `tricktable doctor`
        reg.record_check(deck_id, report.ok)
    console.print(f"seen {len(report.seen)}/{total}")
    if report.seen:
        locked = sum(report.protected.values())
        console.print(f"password-protected: {locked}/{len(report.seen)}")
        open_ = [slot.name for slot in report.seen if not report.protected.get(slot)]
        if locked and open_:
            console.print("not protected: " + " ".join(open_))
    if report.missing:
        console.print("missing: " + " ".join(slot.name for slot in report.missing))
    for title, rows in (
        ("extra", report.extra),
        ("foreign", report.foreign),
        ("warning", report.warnings),
    ):
        for uid, why in rows:
            console.print(f"{title}: {uid.hex()} {why}")
    if not report.ok:
        raise SystemExit(1)
    console.print(f"deck {deck_id} is complete and clean")


@deck_group.command("key")
@click.option(
    "--import",
    "import_",
    nargs=2,
    type=(int, str),
    default=None,
    metavar="ID HEX",
    help="Add a club key shared by another host (shows in `ps`: prefer --import-file).",
)
@click.option(
    "--import-file",
    type=click.File("r"),
    default=None,
    metavar="FILE",
    help="Add a club key shared by another host from FILE ('-': stdin) holding the line "
    "`ID HEX` that `deck key` prints.",
)
@registry_option
def key_command(import_: tuple[int, str] | None, import_file: TextIO | None,
                registry: Path | None) -> None:
    """Show the club key (id and hex) to share with another host, or import one."""
    if import_ is not None and import_file is not None:
        raise click.UsageError("give --import or --import-file, not both")
    if import_ is not None:
        warn_on_command_line("the club key (--import)", "--import-file FILE, or - for stdin")
    elif import_file is not None:
        import_ = _key_line(import_file.readline(), import_file.name)
    with _open(registry) as reg:
        if import_ is not None:
            key_id, text = import_
            try:
                reg.add_key(key_id, bytes.fromhex(text))
            except (ValueError, decks.RegistryError) as exc:
                raise click.ClickException(f"cannot import key {key_id}: {exc}") from None
            click.echo(f"club key {key_id} imported")
            return
        key_id = reg.club_key()
        click.echo(f"{key_id} {reg.keys()[key_id].hex()}")


def _key_line(line: str, source: str) -> tuple[int, str]:
    """``ID HEX`` as `deck key` prints it; a clear error for anything else."""
    words = line.split()
    if len(words) != 2 or not words[0].isdigit():
        raise click.ClickException(f"{source}: expected one line `ID HEX` (as `tricktable deck "
                                   f"key` prints it), got {len(words)} word(s)")
    return int(words[0]), words[1]

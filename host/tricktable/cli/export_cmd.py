"""``tricktable export``: write the games of a journal as hand histories (text, JSON or EGN).

Thin: reads the journal (docs/journal.md), asks it for each game's record and writes it with
``tricktable.history`` (``write_text`` / ``write_json`` / ``egn.write_egn``, Euchre games
only). Imports ``history`` and ``journal``.
"""

from __future__ import annotations

from pathlib import Path

import click

from tricktable.history import HistoryError, write_json, write_text
from tricktable.history.egn import write_egn
from tricktable.journal import Journal, JournalError


@click.command("export")
@click.argument("journal_path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--table", "tables", multiple=True, help="Only this table (repeatable).")
@click.option("--game", type=int, help="Only this game number.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "egn"]), default="text",
              show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Write one file per game here ({table}-game{n}.txt|json|egn) instead of stdout.")
def export(journal_path: Path, tables: tuple[str, ...], game: int | None, fmt: str,
           out: Path | None) -> None:
    """Export the games of JOURNAL_PATH as hand histories."""
    try:
        journal = Journal(journal_path, readonly=True)
    except JournalError as exc:
        raise click.ClickException(str(exc)) from None
    with journal:
        chosen = [(t, g.game) for t in (tables or journal.tables()) for g in journal.games(t)
                  if game is None or g.game == game]
        if not chosen:
            raise click.ClickException(f"no game matches in {journal_path}")
        write = {"text": write_text, "json": write_json, "egn": write_egn}[fmt]
        for table, number in chosen:
            try:
                text = write(journal.history(table, number))
            except HistoryError as exc:
                raise click.ClickException(f"table {table} game {number}: {exc}") from None
            if out is None:
                click.echo(text)
                continue
            out.mkdir(parents=True, exist_ok=True)
            target = out / f"{table}-game{number}.{'txt' if fmt == 'text' else fmt}"
            target.write_text(text)
            click.echo(f"wrote {target}")

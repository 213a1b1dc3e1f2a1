"""``tricktable export``: write the games of a journal as hand histories (text, JSON or EGN),
or a Euchre club night as one EMN match.

Thin: reads the journal (docs/journal.md), asks it for each game's record and writes it with
``tricktable.history`` (``write_text`` / ``write_json`` / ``egn.write_egn``, Euchre games
only); ``--format emn --night NIGHT`` writes the night kept by the live tables with
``club.emn`` (its tables, head first, from the night file's ``live`` section, else the
journal's in natural order).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from tricktable.club import ClubError, load_night_data
from tricktable.club.emn import night_to_emn
from tricktable.history import HistoryError, write_json, write_text
from tricktable.history.egn import write_egn
from tricktable.players import ClubDB, Players, PlayersError
from tricktable.protocol import natural_key
from tricktable.serve.journal import Journal, JournalError


@click.command("export")
@click.argument("journal_path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--table", "tables", multiple=True, help="Only this table (repeatable).")
@click.option("--game", type=int, help="Only this game number.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "egn", "emn"]),
              default="text", show_default=True,
              help="emn: the club night given by --night, as one Euchre Match Notation file.")
@click.option("--night", "night_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="With --format emn: the club night file the live tables kept.")
@click.option("--club-db", "club_db", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="With --format emn: the club database (tricktable players); each player "
                   "found there gets their club number in playerIds.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Write one file per game here ({table}-game{n}.txt|json|egn) instead of stdout.")
def export(journal_path: Path, tables: tuple[str, ...], game: int | None, fmt: str,
           night_path: Path | None, club_db: Path | None, out: Path | None) -> None:
    """Export the games of JOURNAL_PATH as hand histories (or a club night as EMN)."""
    if (fmt == "emn") != (night_path is not None):
        raise click.UsageError("--format emn and --night go together")
    try:
        journal = Journal(journal_path, readonly=True)
    except JournalError as exc:
        raise click.ClickException(str(exc)) from None
    with journal:
        if night_path is not None:
            _export_night(journal, night_path, club_db, out)
            return
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


def _export_night(journal: Journal, night_path: Path, club_db: Path | None,
                  out: Path | None) -> None:
    """The night as EMN, on stdout or as ``{night}.emn`` in ``out``."""
    try:
        night, data = load_night_data(night_path)
        tables = (data.get("live") or {}).get("tables") or sorted(journal.tables(),
                                                                  key=natural_key)
        doc = night_to_emn(night, journal, tables, title=night_path.stem,
                           club_ids=_club_ids(club_db, night.players) if club_db else None)
    except (ClubError, PlayersError) as exc:
        raise click.ClickException(str(exc)) from None
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if out is None:
        click.echo(text, nl=False)
        return
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{night_path.stem}.emn"
    target.write_text(text)
    click.echo(f"wrote {target}")


def _club_ids(path: Path, names: tuple[str, ...]) -> dict[str, str]:
    """name -> the club database's number for each of ``names`` it knows."""
    with ClubDB(path, readonly=True) as db:
        players = Players(db)
        found = {}
        for name in names:
            try:
                found[name] = str(players.find(name).id)
            except PlayersError:
                continue  # a guest the club does not keep
        return found

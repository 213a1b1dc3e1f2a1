"""``tricktable export``: write the games of a journal as hand histories (text, JSON or EGN),
or a Euchre club night as one EMN match.

Thin: reads the journal (docs/journal.md), asks it for each game's record and writes it with
``tricktable.history`` (``write_text`` / ``write_json`` / ``egn.write_egn``, Euchre games
only). A game in which nothing was played (no bid, no card: the club file's game a night
replaces before anyone plays) is no game and is not written. A night's games are numbered
as the night numbers them (the round its ``new_game`` journaled); with ``--night NIGHT``
each game of that night is read as every view reads it (``NightFile.game_of``): the night's
players after the director's swaps and substitutes, its game number, what the director
corrected (``[Corrected]``), and no other game. ``--format emn --night NIGHT`` writes the night kept by the live tables with
``club.emn`` (its tables, head first, from the night file's ``live`` section, else the
journal's in natural order).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from tricktable.club import ClubError, load_night_data
from tricktable.club.emn import night_to_emn
from tricktable.history import GameRecord, HistoryError, write_json, write_text
from tricktable.history.egn import write_egn
from tricktable.players import ClubDB, Players, PlayersError
from tricktable.protocol import natural_key
from tricktable.serve.journal import Journal, JournalError
from tricktable.web.night import NightFile


@click.command("export")
@click.argument("journal_path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--table", "tables", multiple=True, help="Only this table (repeatable).")
@click.option("--game", type=int, help="Only this game number (a night's: its game of the night).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "egn", "emn"]),
              default="text", show_default=True,
              help="emn: the club night given by --night, as one Euchre Match Notation file.")
@click.option("--night", "night_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The club night file the live tables kept: only that night's games, with "
                   "its players, its game numbers and the director's corrections (with "
                   "--format emn: the night as one match).")
@click.option("--club-db", "club_db", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="With --format emn: the club database (tricktable players); each player "
                   "found there gets their club number in playerIds.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Write one file per game here ({table}-game{n}.txt|json|egn) instead of stdout.")
def export(journal_path: Path, tables: tuple[str, ...], game: int | None, fmt: str,
           night_path: Path | None, club_db: Path | None, out: Path | None) -> None:
    """Export the games of JOURNAL_PATH as hand histories (or a club night as EMN)."""
    if fmt == "emn" and night_path is None:
        raise click.UsageError("--format emn needs --night")
    try:
        journal = Journal(journal_path, readonly=True)
    except JournalError as exc:
        raise click.ClickException(str(exc)) from None
    with journal:
        if fmt == "emn" and night_path is not None:
            _export_night(journal, night_path, club_db, out)
            return
        night = NightFile(night_path) if night_path is not None else None
        if night is not None and night.tournament() is None:
            raise click.ClickException(f"{night_path}: {night.view().get('error')}")
        chosen = [c for c in _games(journal, list(tables) or journal.tables(), night)
                  if game is None or c[2] == game]
        if not chosen:
            raise click.ClickException(f"no game matches in {journal_path}")
        write = {"text": write_text, "json": write_json, "egn": write_egn}[fmt]
        names: dict[str, int] = {}
        for table, played, number, of in chosen:
            try:
                text = write(_record(journal, table, played, number, of))
            except HistoryError as exc:
                raise click.ClickException(f"table {table} game {number}: {exc}") from None
            if out is None:
                click.echo(text)
                continue
            out.mkdir(parents=True, exist_ok=True)
            name = f"{table}-game{number}"  # a fresh game in the same game of the night: -2
            names[name] = names.get(name, 0) + 1
            suffix = f"-{names[name]}" if names[name] > 1 else ""
            target = out / f"{name}{suffix}.{'txt' if fmt == 'text' else fmt}"
            target.write_text(text)
            click.echo(f"wrote {target}")


Chosen = tuple[str, int, int, "dict[str, Any] | None"]
"""A game to write: its table, its number in the journal, its number as exported, and what
the night says of it (``NightFile.game_of``; None without ``--night``)."""


def _games(journal: Journal, tables: list[str], night: NightFile | None) -> list[Chosen]:
    """The games of ``tables`` in which something was played, numbered as their night numbers
    them (else as the host did); with ``night``, only that night's games."""
    chosen: list[Chosen] = []
    for table in tables:
        for record in journal.games(table):
            if not record.actions:  # started, then replaced before a bid or a card
                continue
            of = night.game_of(table, record.game) if night is not None else None
            if night is not None and of is None:  # not a game of this night
                continue
            number = of["round"] if of is not None else record.setup.get("round", record.game)
            chosen.append((table, record.game, int(number), of))
    return chosen


def _record(journal: Journal, table: str, played: int, number: int,
            of: dict[str, Any] | None) -> GameRecord:
    """The journal's game ``played`` of ``table`` as game ``number``, as the night has it."""
    record = journal.history(table, played, of["players"] if of is not None else None)
    record.tags["Round"] = str(number)
    if of is not None and of["corrected"]:
        record.tags["Corrected"] = "; ".join(f"hand {hand} {what}" for hand, what
                                             in sorted(of["corrected"].items()))
    return record


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

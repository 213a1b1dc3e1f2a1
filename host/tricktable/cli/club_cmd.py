"""``tricktable club``: run a progressive night (“Bid Euchre”, "Progressive") from the terminal.

``club --night PATH new --players FILE --tables N`` starts a night; ``seating`` shows who sits
where this game; ``record TABLE --scores A B`` puts one hand's scores (team A = N/S, team B =
E/W) on the table's sheet, or ``record TABLE --journal FILE`` takes them from that table's
host journal, and ``undo TABLE`` takes the last one back; ``bell`` closes the game and moves
everyone; ``tally [NAME...]`` prints the players' tally sheets and ``standings`` the totals
(rich, or ``--format text|csv`` for printing). ``arrive NAME`` (a late arrival, from the next
game), ``substitute OUT IN``, ``swap A B`` (two players change places), ``end`` (the game in play is the last) and ``unbell`` (take the
last bell back) are what real nights need; byes are automatic when the players do not fill
the tables. The night is a JSON file, saved after every
command that changes it, so a restart loses nothing. Bad input changes nothing and exits non-zero
with the reason. docs/club.md is the organiser's guide.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from tricktable.club import (
    BYE_SCORES,
    SEATS,
    ClubError,
    ProgressiveOptions,
    ProgressiveTournament,
    load_night_data,
    read_roster,
    save_night,
    standings,
)
from tricktable.club.journal_hands import hands_from_game
from tricktable.club.standings import unranked
from tricktable.engine.actions import action_from_json
from tricktable.serve.journal import Journal, JournalError

__all__ = ["club"]

FORMATS = click.Choice(["rich", "text", "csv"])


def _fail(exc: Exception) -> click.ClickException:
    return click.ClickException(str(exc))


class _Night:
    """The night file the group was given."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self.kept_live = False  # the file loaded holds the live tables' sections

    @property
    def path(self) -> Path:
        if self._path is None:
            raise click.UsageError("Missing option '--night' (or TRICKTABLE_NIGHT): the "
                                   "night's JSON file")
        return self._path

    def load(self) -> ProgressiveTournament:
        try:
            night, data = load_night_data(self.path)
        except ClubError as exc:
            raise _fail(exc) from None
        self.kept_live = "live" in data
        return night

    def save(self, night: ProgressiveTournament) -> None:
        """Save ``night``; refused (nothing written) for a night the live tables keep, whose
        file holds their ``live`` and ``director`` sections beside the night."""
        if self.kept_live:
            raise click.ClickException(
                f"{self.path} is kept by the live tables (tricktable serve --night): "
                f"change it from the director console (tricktable console), not here")
        try:
            save_night(night, self.path)
        except OSError as exc:
            raise click.ClickException(f"cannot save the night to {self.path}: "
                                       f"{exc.strerror}") from None


pass_night = click.make_pass_decorator(_Night)


@click.group()
@click.option("--night", "night_path", type=click.Path(dir_okay=False, path_type=Path),
              envvar="TRICKTABLE_NIGHT", show_envvar=True,
              help="The night's JSON file (every command needs it).")
@click.pass_context
def club(ctx: click.Context, night_path: Path | None) -> None:
    """A progressive club night: seating, hand scores, the bell and the standings."""
    ctx.obj = _Night(night_path)  # checked when a command reads it: `club new --help` answers


@club.command()
@click.option("--players", "players_file", required=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="One player's name a line (# comments allowed).")
@click.option("--tables", type=click.IntRange(min=1), default=None,
              help="Tables of four: the players divided by four (checked); the rest sit "
                   "out a game in turn.")
@click.option("--hands", type=click.IntRange(min=1), default=ProgressiveOptions.hands_per_round,
              show_default=True, help="Hands the head table plays before the bell.")
@click.option("--rounds", type=click.IntRange(min=1), default=ProgressiveOptions.rounds,
              show_default=True, help="Games in the night.")
@click.option("--shuffle", "shuffle_seed", type=int, default=None,
              help="Seat the players by this seed instead of in roster order.")
@click.option("--bye-score", type=click.Choice(BYE_SCORES), default=ProgressiveOptions.bye_score,
              show_default=True, help="What a player sitting out a game scores: the game's "
                                      "average team score, or zero.")
@pass_night
def new(night: _Night, players_file: Path, tables: int | None, hands: int, rounds: int,
        shuffle_seed: int | None, bye_score: str) -> None:
    """Start a night: seat the roster four to a table, head table first."""
    if night.path.exists():
        raise click.ClickException(f"{night.path} already holds a night; choose another file")
    try:
        tournament = ProgressiveTournament.new(read_roster(players_file), tables,
                                               ProgressiveOptions(hands, rounds, bye_score),
                                               shuffle_seed)
    except ClubError as exc:
        raise _fail(exc) from None
    night.save(tournament)
    click.echo(f"{len(tournament.players)} players at {tournament.tables} tables, "
               f"{rounds} games of {hands} hands at the head table; saved to {night.path}")
    _print_seating(tournament, "rich")


@club.command("init")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--broker", default="mqtt://127.0.0.1:1883", show_default=True,
              help="The club's broker (host.broker): up starts mosquitto there if none answers.")
@click.option("--web", default="127.0.0.1:8080", show_default=True,
              help="Where the TV and phone pages are served (host.web).")
@click.option("--console", default="127.0.0.1:8081", show_default=True,
              help="Where the director console is served (host.console).")
@click.option("--tls-port", type=click.IntRange(1, 65535), default=8883, show_default=True,
              help="The boards' TLS port on the broker up starts (host.tls_port).")
def init(folder: Path, broker: str, web: str, console: str, tls_port: int) -> None:
    """Make what a first night needs in FOLDER: club file with its [host] section, a deck
    registry (the demo's deck and tokens), eight players and their night."""
    from tricktable.demo.first_night import FirstNightError, make_first_night

    try:
        made = make_first_night(folder, broker, web, console, tls_port)
    except FirstNightError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo("made " + ", ".join(str(p) for p in made))
    click.echo(f"start the night: tricktable up --club {folder / 'club.toml'}")


def _print_seating(t: ProgressiveTournament, fmt: str) -> None:
    header = ["table", *SEATS, "A (N/S)", "B (E/W)", "hands"]
    rows = [[str(i), *table, *map(str, t.table_score(i)), str(len(t.hands[i - 1]))]
            for i, table in enumerate(t.seating, 1)]
    title = f"Game {t.round} of {t.last_round}: {t.hands_left()} hands to the bell"
    _print(title, header, rows, fmt)
    if fmt != "csv":
        for label, names in (("sitting out", t.bench), ("joining next game", t.arriving)):
            if names:
                click.echo(f"{label}: {', '.join(names)}")


def _print(title: str, header: list[str], rows: list[list[str]], fmt: str) -> None:
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerows([header, *rows])
        click.echo(out.getvalue(), nl=False)
    elif fmt == "text":
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        click.echo(title)
        for row in [header, *rows]:
            click.echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    else:
        table = Table(title=title)
        for name in header:
            table.add_column(name)
        for row in rows:
            table.add_row(*row)
        Console().print(table)


@club.command()
@click.option("--format", "fmt", type=FORMATS, default="rich", show_default=True)
@pass_night
def seating(night: _Night, fmt: str) -> None:
    """Who sits where this game (table 1 is the head table), and the score so far."""
    tournament = night.load()
    if tournament.finished:
        raise click.ClickException("the night is over; see `tricktable club standings`")
    _print_seating(tournament, fmt)


@club.command()
@click.argument("table", type=int)
@click.option("--scores", type=(int, int), default=None, metavar="A B",
              help="One hand: team A's (N/S) and team B's (E/W) score.")
@click.option("--journal", "journal_path", type=click.Path(dir_okay=False, exists=True,
              path_type=Path), default=None,
              help="Take this game's hands from the table's host journal instead.")
@click.option("--journal-table", default=None,
              help="The table's name in the journal (default: its only table).")
@click.option("--game", type=int, default=None, help="The journal's game (default: its last).")
@pass_night
def record(night: _Night, table: int, scores: tuple[int, int] | None,
           journal_path: Path | None, journal_table: str | None, game: int | None) -> None:
    """Put a hand's scores on TABLE's sheet (or all its hands, from a journal)."""
    tournament = night.load()
    if (scores is None) == (journal_path is None):
        raise click.UsageError("give either --scores A B or --journal FILE")
    try:
        if scores is not None:
            tournament.record_hand(table, *scores)
        else:
            assert journal_path is not None
            hands = _journal_hands(journal_path, journal_table, game)
            if table == 1:
                hands = hands[:tournament.options.hands_per_round]
            tournament.set_hands(table, hands)
    except ClubError as exc:
        raise _fail(exc) from None
    night.save(tournament)
    a, b = tournament.table_score(table)
    click.echo(f"table {table}: {len(tournament.hands[table - 1])} hands, A {a}, B {b}"
               + (f"; the head table has {tournament.hands_left()} hands to the bell"
                  if table == 1 else ""))


@club.command()
@click.argument("table", type=int)
@pass_night
def undo(night: _Night, table: int) -> None:
    """Take back the last hand recorded at TABLE in this game."""
    tournament = night.load()
    try:
        a, b = tournament.undo_hand(table)
    except ClubError as exc:
        raise _fail(exc) from None
    night.save(tournament)
    total_a, total_b = tournament.table_score(table)
    click.echo(f"table {table}: took back A {a}, B {b}; "
               f"{len(tournament.hands[table - 1])} hands, A {total_a}, B {total_b}")


def _journal_hands(path: Path, table: str | None, game: int | None) -> list[tuple[int, int]]:
    """The hands of one game in a host journal (the last game of its only table by default)."""
    try:
        with Journal(path, readonly=True) as journal:
            names = journal.tables()
            if table is None:
                if len(names) != 1:
                    raise ClubError(f"{path} holds tables {', '.join(names) or '(none)'}; "
                                    "name one with --journal-table")
                table = names[0]
            games = journal.games(table)
    except JournalError as exc:
        raise ClubError(str(exc)) from None
    if not games:
        raise ClubError(f"{path} has no game on table {table!r}")
    chosen = games[-1] if game is None else next((g for g in games if g.game == game), None)
    if chosen is None:
        raise ClubError(f"{path} has no game {game} on table {table!r}")
    return hands_from_game(chosen.setup, [action_from_json(a) for a in chosen.actions])


@club.command()
@click.option("--winner", "winners", multiple=True, metavar="TABLE=A|B",
              help="The winning team of a tied table (repeatable).")
@pass_night
def bell(night: _Night, winners: tuple[str, ...]) -> None:
    """Ring the bell: close this game, tally it and move the players."""
    tournament = night.load()
    decided: dict[int, str] = {}
    for item in winners:
        number, _, team = item.partition("=")
        if not number.strip().isdigit() or team.strip().upper() not in ("A", "B"):
            raise click.UsageError(f"--winner takes TABLE=A or TABLE=B, not {item!r}")
        decided[int(number)] = team.strip().upper()
    try:
        game = tournament.bell(decided)
    except ClubError as exc:
        raise _fail(exc) from None
    night.save(tournament)
    won = ", ".join(f"table {i}: {team}" for i, team in enumerate(game.winners, 1))
    click.echo(f"game {game.number} over ({won})")
    if tournament.finished:
        click.echo("that was the last game: `tricktable club standings` for the results")
    else:
        _print_seating(tournament, "rich")


@club.command()
@click.argument("names", nargs=-1)
@click.option("--format", "fmt", type=FORMATS, default="rich", show_default=True)
@pass_night
def tally(night: _Night, names: tuple[str, ...], fmt: str) -> None:
    """The tally sheets of NAMES (default: everyone): one line per game played."""
    tournament = night.load()
    sheets = tournament.tallies()
    unknown = [name for name in names if name not in sheets]
    if unknown:
        raise click.ClickException(f"not on the roster: {', '.join(unknown)}")
    rows = [[name, str(e.round), "-" if e.bye else str(e.table), e.seat, e.partner,
             str(e.score), str(e.against), "bye" if e.bye else "won" if e.won else "lost"]
            for name in (names or tournament.players) for e in sheets[name]]
    _print("Tally sheets", ["player", "game", "table", "seat", "partner", "score", "against",
                            "result"], rows, fmt)


@club.command(name="standings")
@click.option("--format", "fmt", type=FORMATS, default="rich", show_default=True)
@pass_night
def standings_command(night: _Night, fmt: str) -> None:
    """The tally sheets totalled: rank, total, games won, high and low score."""
    tournament = night.load()
    rows = [[str(s.rank), s.name, str(s.total), str(s.won), str(s.played),
             "high" if s.high else "low" if s.low else ""]
            for s in standings(tournament.tallies())]
    state = ("final" if tournament.finished
             else f"after {len(tournament.games)} of {tournament.last_round} games")
    _print(f"Standings ({state})", ["rank", "player", "total", "won", "played", "note"],
           rows, fmt)
    if fmt != "csv" and (apart := unranked(tournament.tallies())):
        click.echo(f"played no game tonight: {', '.join(apart)}")


@club.command()
@click.argument("name")
@pass_night
def arrive(night: _Night, name: str) -> None:
    """A late arrival: NAME joins the night from the next game."""
    tournament = night.load()
    try:
        name = tournament.arrive(name)
    except ClubError as exc:
        raise _fail(exc) from None
    night.save(tournament)
    click.echo(f"{name} joins at the bell of game {tournament.round}")


@club.command()
@click.argument("out")
@click.argument("name", metavar="IN")
@pass_night
def substitute(night: _Night, out: str, name: str) -> None:
    """IN takes OUT's seat now; OUT leaves the night (`club arrive OUT` to come back)."""
    tournament = night.load()
    try:
        out, name = tournament.substitute(out, name)
    except ClubError as exc:
        raise _fail(exc) from None
    night.save(tournament)
    click.echo(f"{name} plays for {out} from now; this game goes on {name}'s tally")


@club.command()
@click.argument("first")
@click.argument("second")
@pass_night
def swap(night: _Night, first: str, second: str) -> None:
    """FIRST and SECOND change places now (two seats, or a seat and a bye)."""
    tournament = night.load()
    try:
        first, second = tournament.swap(first, second)
    except ClubError as exc:
        raise _fail(exc) from None
    night.save(tournament)
    click.echo(f"{first} and {second} have changed places")
    _print_seating(tournament, "rich")


@club.command()
@pass_night
def end(night: _Night) -> None:
    """End the night early: the game in play is the last (or the last bell was)."""
    tournament = night.load()
    try:
        last = tournament.end()
    except ClubError as exc:
        raise _fail(exc) from None
    night.save(tournament)
    if tournament.finished:
        click.echo(f"the night ended after game {last}: `tricktable club standings` for the "
                   "results")
    else:
        click.echo(f"game {last} is the last: its bell ends the night")


@club.command()
@pass_night
def unbell(night: _Night) -> None:
    """Take back the last bell: its game, hands and seating come back; nobody has moved."""
    tournament = night.load()
    try:
        game = tournament.unbell()
    except ClubError as exc:
        raise _fail(exc) from None
    night.save(tournament)
    click.echo(f"the bell of game {game.number} is taken back")
    _print_seating(tournament, "rich")

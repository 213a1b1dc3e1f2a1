"""``tricktable stats`` and ``tricktable season``: statistics, ratings and seasons.

``stats add-night NAME --journal J [--night-file F] [--close]`` registers a night and counts
its hands; ``stats close NAME`` takes its results and re-rates; ``stats nights``;
``stats show WHO`` prints a player's statistics, partnerships and rating; ``stats rebuild``
forgets everything derived and reads every journal again; ``stats export DIR`` writes the CSV
of every table; ``stats hands NIGHT [-o FILE]`` writes the night's hand records as one
hand-history file. The player, season and leaderboard pages are the scoreboard's
(``tricktable web --club-db``, ``web.stats``).
``season new NAME --ladder total|best|won [--best N]``, ``season add SEASON NIGHT``,
``season list``, ``season ladder SEASON`` and ``season report SEASON -o FILE.html`` (the
printable report). Bad input changes nothing and exits non-zero with the reason.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from tricktable.cli.players_cmd import db_option
from tricktable.players import ClubDB, PlayersError, default_db_path
from tricktable.stats import FAMILIES, Stats
from tricktable.stats.export import night_hand_records, write_exports
from tricktable.stats.seasons import LADDERS, Seasons
from tricktable.stats.words import summary

__all__ = ["stats_group", "season_group"]


class _RefusingGroup(click.Group):
    """A group whose commands' refusals (``PlayersError``: an unknown player, night or
    season, a database of another kind) end in one clear line, not a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except PlayersError as exc:
            raise click.ClickException(str(exc)) from None


def _open(ctx: click.Context, db_path: Path | None) -> None:
    ctx.obj = Stats(ctx.with_resource(ClubDB(db_path or default_db_path())))


@click.group("stats", cls=_RefusingGroup)
@db_option
@click.pass_context
def stats_group(ctx: click.Context, db_path: Path | None) -> None:
    """Statistics from the journals, per player and partnership."""
    _open(ctx, db_path)


@stats_group.command("add-night")
@click.argument("name")
@click.option("--journal", required=True, type=click.Path(exists=True, dir_okay=False,
                                                          path_type=Path))
@click.option("--night-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="the night's file (tricktable club): its results go on season ladders")
@click.option("--close", is_flag=True, help="the night is over: take its results and re-rate")
@click.pass_obj
def add_night(stats: Stats, name: str, journal: Path, night_file: Path | None,
              close: bool) -> None:
    """Register the night NAME and count every hand its journal scored."""
    night = stats.add_night(name, journal, night_file)
    count = stats.record_journal(night)
    if close:
        stats.close_night(night)
    click.echo(f"night #{night.id} {night.name}: {count} hand(s) counted"
               + (", closed" if close else ""))


@stats_group.command("close")
@click.argument("night")
@click.pass_obj
def close(stats: Stats, night: str) -> None:
    """The night is over: take its results from its night file and re-rate."""
    stats.close_night(stats.night(night))
    click.echo(f"closed {night}")


@stats_group.command("nights")
@click.pass_obj
def nights(stats: Stats) -> None:
    """Every night the database knows."""
    for night in stats.nights():
        click.echo(f"#{night.id} {night.name} {night.played} "
                   f"{'closed' if night.closed else 'open'} {night.journal}")


@stats_group.command("show")
@click.argument("who")
@click.pass_obj
def show(stats: Stats, who: str) -> None:
    """A player's statistics, partnerships and rating."""
    player = stats.players.find(who)
    click.echo(f"#{player.id} {player.name}")
    for family, counts in stats.counts(player).items():
        click.echo(f"{FAMILIES[family]}:")
        for label, value in summary(family, counts):
            click.echo(f"  {label:<32} {value}")
    for (partner, family), counts in stats.partnerships(player).items():
        click.echo(f"with {stats.players.get(partner).name} ({FAMILIES[family]}): "
                   f"{counts.get('hands', 0)} hand(s), {counts.get('points', 0)} point(s)")
    ratings = stats.ratings(player)
    if ratings:
        last = ratings[-1]
        click.echo(f"  rating mu {last['mu']:.2f} ± sigma {last['sigma']:.2f} after "
                   f"{last['games']} game(s)")


@stats_group.command("rebuild")
@click.pass_obj
def rebuild(stats: Stats) -> None:
    """Forget every statistic and count them again from the journals."""
    start = time.perf_counter()
    hands = stats.rebuild()
    took = time.perf_counter() - start
    click.echo(f"rebuilt from {len(stats.nights())} night(s): {hands} hand(s) in {took:.2f} s")


@stats_group.command("export")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.pass_obj
def export(stats: Stats, directory: Path) -> None:
    """Write every table as CSV into DIRECTORY."""
    for path in write_exports(stats, directory):
        click.echo(f"wrote {path}")


@stats_group.command("hands")
@click.argument("night")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path),
              help="the file to write (default: stdout)")
@click.pass_obj
def hands(stats: Stats, night: str, out: Path | None) -> None:
    """The night's hand records as one hand-history file, for players to take home."""
    text = night_hand_records(stats.night(night))
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"wrote {out}")


@click.group("season", cls=_RefusingGroup)
@db_option
@click.pass_context
def season_group(ctx: click.Context, db_path: Path | None) -> None:
    """Seasons: a set of nights with a ladder."""
    _open(ctx, db_path)


@season_group.command("new")
@click.argument("name")
@click.option("--ladder", type=click.Choice(list(LADDERS)), default="total", show_default=True)
@click.option("--best", default=0, type=click.IntRange(min=0),
              help="with --ladder best: how many nights count")
@click.pass_obj
def season_new(stats: Stats, name: str, ladder: str, best: int) -> None:
    """Start a season."""
    season = Seasons(stats).new(name, ladder, best)
    click.echo(f"season #{season.id} {season.name}: {season.ladder_words}")


@season_group.command("add")
@click.argument("season")
@click.argument("nights", nargs=-1, required=True)
@click.pass_obj
def season_add(stats: Stats, season: str, nights: tuple[str, ...]) -> None:
    """Put NIGHTS in SEASON."""
    found = Seasons(stats).add_night(season, *nights)
    click.echo(f"{found.name}: {len(found.nights)} night(s)")


@season_group.command("list")
@click.pass_obj
def season_list(stats: Stats) -> None:
    for season in Seasons(stats).all():
        click.echo(f"#{season.id} {season.name}: {season.ladder_words}, "
                   f"{len(season.nights)} night(s)")


@season_group.command("ladder")
@click.argument("season")
@click.pass_obj
def season_ladder(stats: Stats, season: str) -> None:
    """The season's ladder (ties: games won, then total points, then fewer nights)."""
    seasons = Seasons(stats)
    found = seasons.get(season)
    click.echo(f"{found.name}: {found.ladder_words}")
    for row in seasons.ladder(found):
        click.echo(f"{row.place:>3}. {row.name:<20} {row.value:>8g}  won {row.won}  "
                   f"total {row.total}  nights {row.nights}")


@season_group.command("report")
@click.argument("season")
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--public", is_flag=True, help="hidden players as Guest (for posting)")
@click.pass_obj
def season_report(stats: Stats, season: str, out: Path, public: bool) -> None:
    """Write the printable season report (HTML; print it from a browser)."""
    from tricktable.web.stats import season_report_html

    html = season_report_html(stats, Seasons(stats).get(season), public=public)
    out.write_text(html, encoding="utf-8")
    click.echo(f"wrote {out}")

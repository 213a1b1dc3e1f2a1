"""``tricktable analyse FILE|JOURNAL``: double-dummy analysis of recorded hands, cached.

Reads a hand-history file (``history.load``, as ``replay`` does) or a journal (as ``export``
does: ``Journal.history``; every game of every table, so a club night's journal is the whole
night), analyses each game with ``analysis.hand.analyse_game`` and keeps the result as JSON
so a replay page opens at once: beside a file as ``FILE.analysis.json``, for a journal in
``JOURNAL.analysis/{table}-game{n}.json``. A journal's games are analysed on every core
(``analysis.batch``, ``--jobs``) behind a progress bar with an ETA on stderr; the time taken
is said on stderr at the end (``--quiet``: only that). A cached result is used while the
game's record is unchanged (its SHA-256 is stored with it) and the format is current; a
cache that cannot be written is said (on stderr) and the analysis printed all the same.
Prints each hand's contracts table, its par (``analysis.par``: the contract a
perfect-information auction ends in, and each side's best contract at each bid) and every
card that cost a trick; ``--json`` prints the analysis itself. ``--single-dummy`` adds
single dummy (``analysis.decisions``: every decision weighed over the hidden hands the
player could not see, ``--samples`` layouts a decision from ``--seed``), cached beside the
double dummy, and prints each decision that cost points; its progress is by decisions
for a file, by games for a journal.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tricktable.analysis.batch import analyse_games, label
from tricktable.analysis.cache import cached_analysis, file_cache
from tricktable.analysis.decisions import Settings
from tricktable.engine import EngineError
from tricktable.history import HistoryError, load
from tricktable.serve.journal import Journal, JournalError

__all__ = ["analyse"]

_SQLITE = b"SQLite format 3\x00"


def _journal_games(path: Path, table: str | None, game: int | None) -> list[tuple[str, int]]:
    """(table, game) of each game of the journal ``path`` to analyse."""
    with Journal(path, readonly=True) as journal:
        out = [(t, g.game) for t in ([table] if table else journal.tables())
               for g in journal.games(t) if game is None or g.game == game]
    if not out:
        raise click.ClickException(f"no game matches in {path}")
    return out


@click.command("analyse")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--table", help="Journal only: this table.")
@click.option("--game", type=int, help="Journal only: this game number.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Journal only: games analysed at once, one process each [default: every "
                   "core].")
@click.option("--quiet", "-q", is_flag=True,
              help="Only write the cache (what the replay pages show) and say how long it took.")
@click.option("--single-dummy", "single", is_flag=True,
              help="Also weigh every decision over the hands the player could not see.")
@click.option("--samples", type=click.IntRange(min=2), default=100, show_default=True,
              help="Single dummy: hidden layouts dealt a decision.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Single dummy: the seed the layouts are dealt from.")
def analyse(path: Path, table: str | None, game: int | None, as_json: bool, jobs: int | None,
            quiet: bool, single: bool, samples: int, seed: int) -> None:
    """Double-dummy analysis of every hand in PATH (a hand history, or a journal: every game
    of every table, a whole club night, on every core); single dummy too with
    --single-dummy."""
    jobs = jobs or os.cpu_count() or 1
    settings = Settings(seed, samples) if single else None
    started = time.perf_counter()
    try:
        with path.open("rb") as f:
            is_journal = f.read(len(_SQLITE)) == _SQLITE
        if is_journal:
            games = _journal_games(path, table, game)
            with _Progress(len(games)) as progress:
                found, cpu = analyse_games(path, games, jobs, progress.done, _note, settings)
            results = list(zip([label(t, g) for t, g in games], found, strict=True))
        else:
            if table or game:
                raise click.ClickException(f"{path} is a hand-history file: --table and --game "
                                           "are for journals")
            with _Progress(0, "decisions") as progress:
                results = [(path.name, cached_analysis(load(str(path)), file_cache(path), _note,
                                                       settings, progress.decisions))]
    except (HistoryError, EngineError, JournalError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"{path}: {exc.strerror}") from None
    took = time.perf_counter() - started
    if as_json and not quiet:
        click.echo(json.dumps(results[0][1] if len(results) == 1 else dict(results), indent=1))
    elif not quiet:
        for name, result in results:
            click.echo(f"{name}: {result['variant']}, {', '.join(result['players'])}")
            for hand in result["hands"]:
                _print_hand(hand, result["players"])
            for hand in result.get("hands_not_played", []):
                click.echo(f"\nHand {hand['hand_number']} (passed out)")
                _print_decisions(hand)
    if is_journal:
        hands = sum(len(result["hands"]) for _, result in results)
        weighed = "" if settings is None else ", {} decision(s) weighed single dummy".format(
            sum(len(h["decisions"]) for _, result in results
                for h in result["hands"] + result.get("hands_not_played", [])))
        _note(f"analysed {len(results)} game(s), {hands} hand(s){weighed}, in {took:.1f} s "
              f"with {len(cpu)} process(es) (CPU s: {', '.join(f'{c:.1f}' for c in cpu)})")


class _Progress:
    """A progress bar with an ETA on stderr, by games (or by single dummy's decisions, for
    one file), shown when stderr is a terminal."""

    def __init__(self, total: int, unit: str = "games") -> None:
        console = Console(stderr=True)
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn(unit), TimeElapsedColumn(), TextColumn("ETA"),
                            TimeRemainingColumn(), console=console,
                            disable=not console.is_terminal)
        self.task = self.bar.add_task("analysing", total=total or None)
        self.hands = 0

    def decisions(self, done: int, total: int) -> None:
        self.bar.update(self.task, completed=done, total=total,
                        description="single dummy")

    def done(self, name: str, result: dict[str, Any]) -> None:
        self.hands += len(result["hands"])
        self.bar.update(self.task, advance=1, description=f"{self.hands} hands, last {name}")

    def __enter__(self) -> _Progress:
        self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.stop()


def _note(text: str) -> None:
    click.echo(text, err=True)


def _print_hand(hand: dict[str, Any], players: list[str]) -> None:
    click.echo(f"\nHand {hand['hand_number']}")
    if "unknown" in hand:
        click.echo(f"  not analysed: {hand['unknown']}")
        return
    sides = [" & ".join(players[s] for s in side) for side in hand["sides"]]
    by_trump: dict[str, list[str]] = {}
    for row in hand["contracts"]:
        text = "-".join(str(t) for t in row["tricks"])
        entry = f"{players[row['declarer']]} {text}"
        by_trump.setdefault(row["trump"], []).append(entry)
    click.echo(f"  double dummy, tricks of {' / '.join(sides)} by trump and declarer:")
    for trump, entries in by_trump.items():
        click.echo(f"    {trump:>4}: " + "   ".join(entries))
    if "par" in hand:
        _print_par(hand["par"], players, sides)
    costly = [p for p in hand["plays"] if p["cost"] > 0]
    for p in costly:
        word = "trick" if p["cost"] == 1 else "tricks"
        note = " (revoke)" if p["revoke"] else ""
        click.echo(f"  trick {p['trick']}: {players[p['seat']]} {p['card']} cost {p['cost']} "
                   f"{word} ({p['before']} -> {p['after']}){note}")
    if not costly:
        click.echo("  no card cost a trick")
    if "decisions" in hand:
        _print_decisions(hand)


def _print_decisions(hand: dict[str, Any]) -> None:
    """Single dummy: each decision that cost points on average, with its interval and why."""
    if "decisions_none" in hand:
        click.echo(f"  no single dummy: {hand['decisions_none']}")
        return
    decisions = hand["decisions"]
    costly = [d for d in decisions if d["cost"] > 0]
    click.echo(f"  single dummy, {len(decisions)} decisions, {len(costly)} that cost points:")
    for d in costly:
        where = f"trick {d['trick']}" if d["trick"] else "auction"
        lo, hi = d["cost_ci95"]
        click.echo(f"    {where}: {d['player']} {d['played']} cost {d['cost']:.2f} points "
                   f"(95% {lo:.2f} to {hi:.2f}, {d['samples']} layouts): {d['why']}")


def _print_par(par: dict[str, Any], players: list[str], sides: list[str]) -> None:
    """The par line and, per bid, each side's best contract (declarer, trump: tricks of
    each side, score of each side)."""
    if "none" in par:
        click.echo(f"  no par: {par['none']}")
        if "tricks" in par:
            click.echo(f"  double dummy with spades trump: {' / '.join(sides)} "
                       f"take {'-'.join(map(str, par['tricks']))}")
        return
    best = par["par"]
    if best is None:
        click.echo("  par: passed out (no contract does better for the side that would bid it)")
    else:
        click.echo(f"  par: {par['text']}")
    click.echo(f"  by bid, each side's best (tricks and score of {' / '.join(sides)}):")
    for row in par["by_bid"]:
        cells = [f"{players[r['seat']]} {r['trump']} {'-'.join(map(str, r['tricks']))} "
                 f"({'/'.join(f'{d:+d}' for d in r['score'])})" if r else "-"
                 for r in row["sides"]]
        click.echo(f"    {row['text']:>18}: " + "   ".join(cells))

"""``tricktable demo``: simulated tables on the real stack, live in the terminal and a browser.

Parses the options into a ``tricktable.demo.runner.DemoConfig``, starts the ``Demo``, shows the
live terminal view (``tricktable.web.termview``) until the games are done or Ctrl-C, then
stops everything and prints a summary of each game, the journal's path and each game's
hand history (written from the journal; ``tricktable verify`` checks it). Log messages
go to ``demo.log`` in the run directory's parent, not over the live view. SIGTERM and SIGHUP
(a closed terminal) stop it as cleanly as Ctrl-C.
With ``--night``, the bots play a whole club night; at the end the standings are printed and
where the web shows the night again (results to print, the TV, the standings).
"""

from __future__ import annotations

import json
import logging
import signal
import sys
import tempfile
import threading
import webbrowser
from pathlib import Path
from types import FrameType
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tricktable.club import ClubError, ProgressiveOptions, load_night, standings
from tricktable.club.standings import unranked
from tricktable.demo.director import fits
from tricktable.demo.runner import Demo, DemoConfig, DemoError
from tricktable.players import PlayersError
from tricktable.protocol import DEFAULT_PREFIX, natural_key
from tricktable.rules import list_variants
from tricktable.rules.base import OptionError
from tricktable.serve.service import ServiceError
from tricktable.web.termview import watch

DEMO_PREFIX = "tricktable-demo"  # on a club's broker, never the club's own topics
NIGHT_PAGES = (("/results", "the results to print, each player's scorecard, the CSV"),
               ("/tv", "the TV: every table, the standings, find your seat"),
               ("/standings", "the standings"))  # the web's pages of a night (docs/web.md)


def _interrupt(signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _options(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r}: use KEY=VALUE, e.g. target=32",
                                     param_hint="--option")
        try:
            out[key] = json.loads(raw)
        except ValueError:
            out[key] = raw
    return out


@click.command("demo")
@click.option("--variant", default="bid-euchre", show_default=True,
              type=click.Choice(list_variants()), help="the game every table plays")
@click.option("--tables", default=2, show_default=True, type=click.IntRange(1, 64),
              help="how many simulated tables")
@click.option("--speed", default=1.0, show_default=True, type=click.FloatRange(min=0),
              help="pace of play: 2 is twice as fast, 0 as fast as the stack goes")
@click.option("--revoke-rate", default=0.01, show_default=True, type=click.FloatRange(0, 1),
              help="chance that a bot who could follow suit does not")
@click.option("--revoke-mode", default="record", show_default=True,
              type=click.Choice(["strict", "record"]),
              help="house rule: refuse a revoke, or record it and penalise it")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="another house rule of the variant, e.g. --option target=32 (repeatable)")
@click.option("--games", default=0, show_default=True, type=click.IntRange(min=0),
              help="games per table, then stop; 0 plays until Ctrl-C")
@click.option("--broker", default=None, metavar="URL",
              help="use this MQTT broker (mqtt://host:port) instead of starting one; the demo "
                   "then speaks under its own prefix and clears what it retained when it stops")
@click.option("--ca-file", type=click.Path(exists=True, dir_okay=False),
              help="with --broker mqtts://: the CA that signed the broker's certificate (the "
                   "host, the web and the simulated boards trust only it)")
@click.option("--prefix", default=None,
              help="topic prefix [default: tricktable, or tricktable-demo with --broker]")
@click.option("--host", default="127.0.0.1", show_default=True, help="web scoreboard address")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535),
              help="web scoreboard port (0: any free port)")
@click.option("--seed", default=None, type=int, help="shuffle and bot seed (default: random)")
@click.option("--workdir", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="where run directories (journal, decks) go [default: a temp dir]")
@click.option("--night", is_flag=True,
              help="play a whole club night: a roster of bots, a progressive tournament kept "
                   "by the tables, the bell, the moves read from the tables' displays, and the "
                   "standings at the end (docs/club.md)")
@click.option("--rounds", default=ProgressiveOptions.rounds, show_default=True,
              type=click.IntRange(min=1), help="with --night: games of the night")
@click.option("--hands", default=ProgressiveOptions.hands_per_round, show_default=True,
              type=click.IntRange(min=1),
              help="with --night: hands the head table plays before it rings the bell")
@click.option("--club-db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="with --night: count the night's statistics in this club database as hands "
                   "score and show its leaderboard and players on the scoreboard (tricktable "
                   "stats, docs/stats.md) [default: club.sqlite in the demo's data directory, "
                   "so the nights add up]")
@click.option("--director", is_flag=True,
              help="with --night: the demo's director does each of the console's corrections "
                   "once during the night (a swap, an arrival, a substitute, a card and a bid "
                   "corrected, a score fixed and one voided, the bell rung, undone and rung "
                   "again) and the end summary names each")
@click.option("--phones", is_flag=True,
              help="table 1 is read by phones: its four seat pages open in this computer's "
                   "browser, each with a labelled \"place card\" stand-in for the phone's NFC "
                   "field; you play its cards by hand (docs/phones.md)")
@click.option("--no-browser", is_flag=True,
              help="with --phones: print the seat pages' addresses, open no browser")
@click.option("--view/--no-view", default=None,
              help="live terminal view (default: when the output is a terminal)")
def demo(variant: str, tables: int, speed: float, revoke_rate: float, revoke_mode: str,
         options: tuple[str, ...], games: int, broker: str | None, ca_file: str | None,
         prefix: str | None,
         host: str, port: int,
         seed: int | None, workdir: Path | None, night: bool, rounds: int, hands: int,
         club_db: Path | None, director: bool, phones: bool, no_browser: bool,
         view: bool | None) -> None:
    """Play simulated tables on the real stack: broker, host, web scoreboard, virtual boards
    running the firmware, and bots. Open the printed address in a browser."""
    console = Console()
    base = workdir or Path(tempfile.gettempdir()) / "tricktable-demo"
    if night and club_db is None:
        club_db = base / "club.sqlite"
    config = DemoConfig(variant=variant, tables=tables, speed=speed, revoke_rate=revoke_rate,
                        revoke_mode=revoke_mode, options=_options(options), games=games,
                        broker=broker, ca_file=ca_file, web_host=host, web_port=port, seed=seed,
                        workdir=workdir, night=night, rounds=rounds, hands=hands, club_db=club_db,
                        director=director, phones=phones,
                        prefix=prefix or (DEMO_PREFIX if broker else DEFAULT_PREFIX))
    if night and director and (too_small := fits(hands, rounds)) is not None:
        raise click.ClickException(too_small)  # said before the night, not after it
    for sig in (signal.SIGTERM, signal.SIGHUP):  # stop as cleanly as on Ctrl-C
        signal.signal(sig, _interrupt)
    base.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.WARNING, filename=base / "demo.log",
                        format="%(asctime)s %(name)s %(levelname)s %(message)s", force=True)
    try:
        runner = Demo(config)
        runner.start()
    except (DemoError, OptionError, ServiceError, OSError, ConnectionError, LookupError,
            ClubError, PlayersError) as exc:
        raise click.ClickException(str(exc)) from None
    web = runner.web_url  # gone once the demo stops
    console.print(f"[bold]tricktable demo[/]: {tables} table(s) of {variant} · "
                  f"web [link]{runner.web_url}[/link] · run {runner.run_dir} · Ctrl-C stops")
    if config.night and club_db is not None and web is not None:
        console.print(f"club statistics ({club_db}): [link]{web}/leaderboard[/link]")
    if config.night:
        _console_help(runner, console, config.prefix)
    if config.phones:
        _seat_pages(runner, console, not no_browser)
    failure: DemoError | None = None
    try:
        if view if view is not None else sys.stdout.isatty():
            _live(runner, console)
        else:
            runner.wait()
        if night and web and sys.stdin.isatty():  # the results stay up until the director
            console.print(f"the night is over: the results stay on {web}/tv and "
                          f"{web}/results; press Enter (or Ctrl-C) to end the display")
            input()
    except (KeyboardInterrupt, EOFError):
        console.print("stopping …")
    except DemoError as exc:
        failure = exc
    finally:
        runner.stop()
    if night:
        _night_summary(runner, console)
        _standings(runner, console, web)
        missing = runner.director.missing if runner.director is not None else []
        if failure is None and missing:
            failure = DemoError(f"the night ended before the director could do: "
                                f"{', '.join(missing)}")
    else:
        _summary(runner, console)
    if failure is not None:
        raise click.ClickException(str(failure))


def _seat_pages(runner: Demo, console: Console, open_them: bool) -> None:
    """Table 1's seat pages, paired: printed, and opened in the browser (a tab per seat)."""
    console.print("table 1 is read by phones; its seat pages (choose a card or chip in the "
                  "\"place card\" stand-in and place it; the deal first, by the dealer):")
    for url in runner.seat_pages():
        console.print(f"  [link]{url}[/link]", soft_wrap=True)
        if open_them:
            webbrowser.open_new_tab(url)


def _console_help(runner: Demo, console: Console, prefix: str) -> None:
    """Where the night's broker is, and how to open the director console on it."""
    broker = runner.broker
    if broker is None or runner.run_dir is None:
        return
    console.print(f"broker [bold]mqtt://{broker.host}:{broker.port}[/] · prefix {prefix} · "
                  f"night {runner.night_path}", soft_wrap=True)
    console.print("the director console on this night (another terminal):\n"
                  f"  TRICKTABLE_ADMIN_TOKEN=choose-one tricktable console --broker "
                  f"mqtt://{broker.host}:{broker.port} --prefix {prefix} --night "
                  f"{runner.night_path} --journal {runner.journal_path}\n"
                  "  then open http://127.0.0.1:8081 and sign in with that token",
                  soft_wrap=True)


def _night_summary(runner: Demo, console: Console) -> None:
    """Each game of the night at each table (its tally, its winners; a coin toss said), what
    the director corrected, and whether the night ended."""
    try:
        night = load_night(runner.night_path)
    except ClubError as exc:
        console.print(f"no night to sum up: {exc}")
        return
    table = Table(title="the night's games")
    for heading in ("game", "table", "N/S", "E/W", "score", "won by"):
        table.add_column(heading)
    for game in night.games:
        for number, (seating, hands) in enumerate(zip(game.seating, game.hands, strict=True), 1):
            a, b = sum(h[0] for h in hands), sum(h[1] for h in hands)
            team = game.winners[number - 1]
            won = ("N/S" if team == "A" else "E/W") + (" (tied: coin toss)"
                                                        if number in game.decided else "")
            table.add_row(str(game.number), str(number), f"{seating[0]} & {seating[2]}",
                          f"{seating[1]} & {seating[3]}", f"{a} – {b}", won)
    if night.games:
        console.print(table)
    director = runner.director
    if director is not None and director.done:
        console.print("the director's corrections:")
        for label, entry in director.done:
            console.print(f"  {label}: {entry['what']}: {entry['before']} → {entry['after']}",
                          soft_wrap=True, markup=False)
    if director is not None and director.missing:
        console.print(f"not done before the night ended: {', '.join(director.missing)}")
    console.print(f"the night ended: {len(night.games)} of {night.options.rounds} games played"
                  if night.finished else
                  f"the night did not end: {len(night.games)} of {night.last_round} games "
                  "played")
    if runner.run_dir is not None:
        console.print(f"journal: {runner.journal_path}")


def _live(runner: Demo, console: Console) -> None:
    board = runner.scoreboard
    if board is None:
        runner.wait()
        return
    done = threading.Event()
    threading.Thread(target=lambda: (runner.finished.wait(), done.set()), daemon=True).start()

    def footer() -> Text:
        return Text(f"web {runner.web_url} · games finished {len(runner.summaries)} · "
                    "Ctrl-C stops", style="dim")

    watch(board.feed, None, done, console=console, footer=footer)
    runner.wait()


def _standings(runner: Demo, console: Console, web: str | None) -> None:
    """The night's standings, and where the results page is."""
    try:
        night = load_night(runner.night_path)
    except ClubError as exc:
        console.print(f"no standings: {exc}")
        return
    games = f"{len(night.games)} game" + ("" if len(night.games) == 1 else "s")
    table = Table(title=f"final standings, {games}" if night.finished
                  else f"standings after {len(night.games)} of {night.last_round} games")
    for heading in ("rank", "player", "total", "won", "played"):
        table.add_column(heading)
    for s in standings(night.tallies()):
        table.add_row(str(s.rank), s.name, str(s.total), str(s.won), str(s.played))
    console.print(table)
    if apart := unranked(night.tallies()):
        console.print(f"played no game tonight: {', '.join(apart)}")
    console.print(f"night: {runner.night_path}")
    if web:  # the demo's scoreboard stopped with it; the web command shows the night again
        console.print(f"the night again: tricktable web --night {runner.night_path}, then open",
                      soft_wrap=True)
        for page, what in NIGHT_PAGES:
            console.print(f"  {page:<10} {what}")
        console.print(f"(this run served them at {web})")


def _summary(runner: Demo, console: Console) -> None:
    table = Table(title="games played")
    for heading in ("table", "game", "variant", "winner", "score", "hands", "revokes",
                    "refused"):
        table.add_column(heading)
    for s in sorted(runner.summaries, key=lambda s: (natural_key(s.table), s.game)):
        score = " – ".join(f"{name} {points}" for name, points in zip(s.sides, s.scores,
                                                                      strict=True))
        table.add_row(s.table, str(s.game), s.variant, s.winner or "–", score, str(s.hands),
                      str(s.revokes), str(len(s.refused)))
    if runner.summaries:
        console.print(table)
    else:
        console.print("no game finished")
    if runner.run_dir is not None:
        console.print(f"journal: {runner.journal_path}")
        for path in runner.export_histories():
            console.print(f"hand history: {path}  (check it: tricktable verify {path})")

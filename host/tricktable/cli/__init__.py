"""The ``tricktable`` command.

The group lives here; every subcommand lives in its own module of this package and is
loaded only when it is run, so ``tricktable --help`` stays fast and a broken optional
dependency of one command cannot break the others. To add a command, add a line to
``COMMANDS``: the command name, then ``module:attribute`` of a ``click.Command``.
"""

from __future__ import annotations

import importlib

import click

COMMANDS: dict[str, tuple[str, str]] = {
    # name: ("module:attribute", one-line help shown by --help)
    "demo": ("tricktable.cli.demo_cmd:demo", "Play simulated tables on the real stack, live in a browser."),
    "watch": ("tricktable.cli.watch_cmd:watch", "Watch tables live in the terminal, against any broker."),
    "web": ("tricktable.cli.web_cmd:web", "Serve the live web scoreboard for any broker."),
    "console": ("tricktable.cli.console_cmd:console", "Serve the director console: a night's corrections, audited."),
    "board": ("tricktable.cli.board_cmd:board_group", "Set up a table-side board over USB: firmware, Wi-Fi, broker."),
    "broker": ("tricktable.cli.broker_cmd:broker_group", "The club broker's TLS certificates and program users."),
    "deck": ("tricktable.cli.deck_cmds:deck_group", "List and check enrolled decks; share the club key."),
    "fleet": ("tricktable.cli.fleet_cmd:fleet", "Firmware bundles for the boards; update them table by table."),
    "enroll": ("tricktable.cli.deck_cmds:enroll_command", "Tag a deck or a token set at a USB PN532 reader."),
    "serve": ("tricktable.cli.serve_cmd:serve", "Run the host service: MQTT, journal, rules."),
    "export": ("tricktable.cli.export_cmd:export", "Write a journal's games as hand histories."),
    "variants": ("tricktable.cli.variants_cmd:variants", "List the games and their house-rule options."),
    "replay": ("tricktable.cli.history_cmds:replay_command", "Print a hand history trick by trick with the running score."),
    "club": ("tricktable.cli.club_cmd:club", "Run a progressive club night: seating, scores, bell, standings."),
    "analyse": ("tricktable.cli.analyse_cmd:analyse", "Double-dummy analysis of recorded hands: what each card cost."),
    "league": ("tricktable.cli.league_cmd:league", "The league: a club's bridge and sender, the league service and site."),
    "players": ("tricktable.cli.players_cmd:players_group", "The club's players: names, member tags, merges, Guest on public pages."),
    "stats": ("tricktable.cli.stats_cmd:stats_group", "Statistics from the journals: players, partnerships, ratings, exports."),
    "season": ("tricktable.cli.stats_cmd:season_group", "Seasons of club nights and their ladders."),
    "verify": ("tricktable.cli.history_cmds:verify_command", "Recompute a hand history's scores and name each difference."),
    "up": ("tricktable.cli.up_cmd:up", "Run the whole night as one supervised tree: broker, tables, web, console."),
    "doctor": ("tricktable.cli.up_cmd:doctor", "Check the club before a night: broker, boards, decks, disk, pages."),
    "log": ("tricktable.cli.up_cmd:log_command", "Print the log of `tricktable up`, every part and restart in one."),
    "restore": ("tricktable.cli.up_cmd:restore", "Bring back a backup `tricktable up` took of the night."),
    "service": ("tricktable.cli.up_cmd:service_group", "Start `tricktable up` at boot: a systemd unit, installed or removed."),
    "cardtime": ("tricktable.cli.cardtime_cmd:cardtime", "Measure card down to verdict at a live table's seats, from its boards."),
}


class LazyGroup(click.Group):
    """A click group that imports each subcommand's module on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        target, _help = COMMANDS[cmd_name]
        module_name, attribute = target.split(":")
        module = importlib.import_module(module_name)
        return getattr(module, attribute)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from tricktable.install import describe

    click.echo(describe())
    ctx.exit()


@click.group(cls=LazyGroup)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_show_version, help="Show the version and where this install came from.")
def main() -> None:
    """tricktable: the rules-aware host for an NFC card table."""

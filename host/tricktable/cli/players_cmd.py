"""``tricktable players``: the club's players (``tricktable.players``).

``list``, ``add NAME [--nickname N] [--tag UID]``, ``rename WHO NEW``, ``merge KEEP GONE`` (one
person typed twice), ``hide WHO`` / ``unhide WHO`` (Guest on public pages), ``retire WHO`` /
``return WHO`` (active or not), ``tag WHO UID`` / ``untag UID``, and ``import-tags REGISTRY``
(the member tags enrolled with ``enroll --kind members``). ``WHO`` is a name (now or before)
or a number (``#3``). Bad input changes nothing and exits non-zero with the reason.
``--db`` (or ``$TRICKTABLE_CLUB_DB``) names the club database, default ``club.sqlite``.
A merge re-rates (``stats``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

import click

from tricktable.deckkit.decks import Registry, RegistryError
from tricktable.players import ClubDB, Player, Players, PlayersError, default_db_path

__all__ = ["players_group", "db_option"]


def db_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--db PATH``: the club database (``$TRICKTABLE_CLUB_DB``, default club.sqlite)."""
    return click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
                        default=None, envvar="TRICKTABLE_CLUB_DB",
                        help="the club database [env TRICKTABLE_CLUB_DB; default club.sqlite]")(f)


def _players(ctx: click.Context) -> Players:
    return Players(ctx.obj)


def _line(p: Player) -> str:
    flags = [f for f, on in (("hidden", p.hidden), ("retired", not p.active)) if on]
    extra = [f"also {', '.join(p.names[1:])}"] if len(p.names) > 1 else []
    extra += [f"tags {' '.join(p.tags)}"] if p.tags else []
    extra += [f"'{p.nickname}'"] if p.nickname else []
    return f"#{p.id} {p.name}" + (f" ({'; '.join(flags)})" if flags else "") + \
        (f" · {' · '.join(extra)}" if extra else "")


def _command(f: Callable[..., Player | None]) -> Callable[..., None]:
    """Run a change, print the player after it, turn a refusal into a clear error."""
    @wraps(f)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            player = f(*args, **kwargs)
        except (PlayersError, RegistryError) as exc:
            raise click.ClickException(str(exc)) from None
        if player is not None:
            click.echo(_line(player))
    return run


@click.group("players")
@db_option
@click.pass_context
def players_group(ctx: click.Context, db_path: Path | None) -> None:
    """The club's players: names, nicknames, member tags, hidden (Guest) or retired."""
    try:
        ctx.obj = ctx.with_resource(ClubDB(db_path or default_db_path()))
    except PlayersError as exc:
        raise click.ClickException(str(exc)) from None


@players_group.command("list")
@click.option("--all", "everyone", is_flag=True, help="merged records too")
@click.pass_context
def list_players(ctx: click.Context, everyone: bool) -> None:
    """Every player, by name."""
    for player in _players(ctx).all(merged=everyone):
        click.echo(_line(player))


@players_group.command("add")
@click.argument("name")
@click.option("--nickname", default="")
@click.option("--tag", "tags", multiple=True, metavar="UID", help="a member tag (repeatable)")
@click.pass_context
@_command
def add(ctx: click.Context, name: str, nickname: str, tags: tuple[str, ...]) -> Player:
    """Add a player."""
    return _players(ctx).add(name, nickname, tags)


@players_group.command("rename")
@click.argument("who")
@click.argument("new")
@click.pass_context
@_command
def rename(ctx: click.Context, who: str, new: str) -> Player:
    """Call WHO by the name NEW from now on (the old name stays theirs)."""
    return _players(ctx).rename(who, new)


@players_group.command("merge")
@click.argument("keep")
@click.argument("gone")
@click.pass_context
@_command
def merge(ctx: click.Context, keep: str, gone: str) -> Player:
    """GONE is KEEP typed twice: one player with both histories (and one rating)."""
    from tricktable.stats import Stats

    player = _players(ctx).merge(keep, gone)
    Stats(ctx.obj).rerate()
    return player


@players_group.command("nickname")
@click.argument("who")
@click.argument("nickname")
@click.pass_context
@_command
def nickname(ctx: click.Context, who: str, nickname: str) -> Player:
    """Set (or, with '', clear) WHO's nickname."""
    return _players(ctx).set_flags(who, nickname=nickname)


def _flag(name: str, doc: str, **flags: bool) -> None:
    @players_group.command(name, help=doc)
    @click.argument("who")
    @click.pass_context
    @_command
    def command(ctx: click.Context, who: str) -> Player:
        return _players(ctx).set_flags(who, **flags)


_flag("hide", "Show WHO as Guest on public pages (the club keeps the results).", hidden=True)
_flag("unhide", "Show WHO by name on public pages again.", hidden=False)
_flag("retire", "WHO no longer plays (kept with their history).", active=False)
_flag("return", "WHO plays again.", active=True)


@players_group.command("tag")
@click.argument("who")
@click.argument("uid")
@click.pass_context
@_command
def tag(ctx: click.Context, who: str, uid: str) -> Player:
    """Give WHO the member tag UID (hex)."""
    return _players(ctx).tag(who, uid)


@players_group.command("untag")
@click.argument("uid")
@click.pass_context
@_command
def untag(ctx: click.Context, uid: str) -> Player:
    """Take the member tag UID from its player."""
    return _players(ctx).untag(uid)


@players_group.command("import-tags")
@click.argument("registry", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_context
@_command
def import_tags(ctx: click.Context, registry: Path) -> None:
    """Take the member tags enrolled in the deck REGISTRY (enroll --kind members)."""
    found = _players(ctx).import_member_tags(Registry(registry, readonly=True))
    for name, uid in found:
        click.echo(f"{name}: {uid}")
    click.echo(f"{len(found)} new member tag(s)")

"""Every command a `--help` text quotes (`tricktable NAME ...`, in backquotes) exists: a help
that sends the reader to a command the package does not have is a dead end (`--tls-cert`
once named a `tricktable web-cert` that never existed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import click
from tricktable.cli import main

QUOTED = re.compile(r"`tricktable ([a-z][a-z0-9-]*)(?: ([a-z][a-z0-9-]*))?")


def commands(command: click.Command, ctx: click.Context, path: str) -> Iterator[tuple[str, click.Command]]:
    yield path, command
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None, f"{path} {name}"
            yield from commands(sub, ctx, f"{path} {name}")


def help_texts(command: click.Command) -> list[str]:
    texts = [command.help, command.short_help, command.epilog]
    texts += [getattr(param, "help", None) for param in command.params]
    return [text for text in texts if text]


def test_every_quoted_command_exists() -> None:
    ctx = click.Context(main)
    missing = []
    for path, command in commands(main, ctx, "tricktable"):
        for text in help_texts(command):
            for quoted in QUOTED.finditer(" ".join(text.split())):
                name, sub = quoted.groups()
                target = main.get_command(ctx, name)
                if target is None or (isinstance(target, click.Group) and sub
                                      and target.get_command(ctx, sub) is None):
                    missing.append(f"{path} --help: {quoted.group(0)}`")
    assert missing == []

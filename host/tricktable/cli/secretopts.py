"""Secrets a command is given (the admin token, a board's update key): from a file
(``--NAME-file``) or the environment, so they never show in ``ps`` or the shell's history.

``--NAME VALUE`` on the command line still works, with a warning on stderr that it shows in
``ps``: it is deprecated and will be refused in a later release (docs/operations.md,
"Security").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from tricktable.secretfiles import SecretFileError, read_secret


def warn_on_command_line(what: str, instead: str) -> None:
    """Say on stderr that ``what`` was seen on the command line, and what to use instead."""
    click.echo(f"warning: {what} on the command line shows in `ps` and the shell's history; "
               f"use {instead} (the command line will be refused in a later release)", err=True)


def secret_option(name: str, env: str, help: str
                  ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Add ``--NAME`` [env ``env``] and ``--NAME-file`` to a command (as ``NAME`` and
    ``NAME_file`` parameters); ``secret_value`` turns them into the secret."""
    def add(command: Callable[..., Any]) -> Callable[..., Any]:
        command = click.option(
            f"--{name}-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help=f"a file holding {help} (its first line)")(command)
        return click.option(
            f"--{name}", envvar=env, default=None,
            help=f"{help} [env {env}]; prefer the environment or --{name}-file: the "
                 "command line shows in `ps`")(command)
    return add


def secret_value(name: str, value: str | None, file: Path | None, env: str) -> str | None:
    """The secret from ``--NAME-file``, else ``--NAME``/the environment (warned about when it
    came from the command line); None when neither was given."""
    if file is not None:
        try:
            return read_secret(file, name.replace("-", " ") + " file")
        except SecretFileError as exc:
            raise click.ClickException(str(exc)) from None
    if value:
        ctx = click.get_current_context()
        if ctx.get_parameter_source(name.replace("-", "_")) == ParameterSource.COMMANDLINE:
            warn_on_command_line(f"--{name}", f"{env} or --{name}-file")
        return value
    return None

"""The broker's credentials for serve, web, watch and demo, never needed on the command line.

``--username`` (or ``TRICKTABLE_MQTT_USERNAME``) and ``--password-file`` (or
``TRICKTABLE_MQTT_PASSWORD``) complete a ``--broker`` URL that carries no password, so the
password stays out of ``ps`` and the shell's history; a password in the URL still works, with
a warning (deprecated).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from tricktable.cli.secretopts import warn_on_command_line
from tricktable.mqtt.url import BrokerConfigError, BrokerURL
from tricktable.protocol import DEFAULT_PREFIX
from tricktable.textfiles import TextFileError, read_text

USERNAME_ENV = "TRICKTABLE_MQTT_USERNAME"
PASSWORD_ENV = "TRICKTABLE_MQTT_PASSWORD"


def credential_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--username`` and ``--password-file`` to a command."""
    command = click.option(
        "--password-file", type=click.Path(dir_okay=False, path_type=Path),
        help=f"a file holding the MQTT password (its first line) [or env {PASSWORD_ENV}]")(command)
    return click.option(
        "--username", envvar=USERNAME_ENV,
        help=f"MQTT user name, when the URL names none [env {USERNAME_ENV}]")(command)


def broker_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--broker``, ``--ca-file``, ``--prefix`` and the credentials to a client command
    (web, watch, console)."""
    command = credential_options(command)
    command = click.option("--prefix", default=DEFAULT_PREFIX, show_default=True,
                           help="topic prefix")(command)
    command = click.option(
        "--ca-file", type=click.Path(exists=True, dir_okay=False),
        help="CA certificate that signed the broker's (mqtts://); default: system CAs")(command)
    return click.option(
        "--broker", default="mqtt://127.0.0.1:1883", show_default=True,
        help="MQTT broker URL: mqtt://[user:pass@]host[:port] or mqtts://... (TLS)")(command)


def broker_url(url: str, username: str | None, password_file: Path | None) -> BrokerURL:
    """The URL with its credentials completed: the URL's own first, then the file, then the
    environment. BrokerConfigError for an unreadable password file or a password without a user."""
    parsed = BrokerURL.parse(url)
    password = parsed.password
    if password is not None:
        warn_on_command_line("a password in the broker URL",
                             f"--password-file or {PASSWORD_ENV}")
    if password is None and password_file is not None:
        try:
            lines = read_text(password_file, "password file").splitlines()
        except TextFileError as exc:
            raise BrokerConfigError(str(exc)) from None
        if not lines or not lines[0]:
            raise BrokerConfigError(f"the password file {password_file} is empty")
        password = lines[0]
    if password is None:
        password = os.environ.get(PASSWORD_ENV) or None
    user = parsed.username or username
    if password is not None and user is None:
        raise BrokerConfigError(f"an MQTT password needs a user name: --username, "
                                f"{USERNAME_ENV} or mqtt://user@host")
    return dataclasses.replace(parsed, username=user, password=password)

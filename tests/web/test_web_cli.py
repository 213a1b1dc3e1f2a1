"""``tricktable web`` and ``tricktable watch``: bad input is a clear error, nothing starts."""

from __future__ import annotations

from click.testing import CliRunner
from tricktable.broker import free_port
from tricktable.cli import main


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_a_bad_broker_url_is_refused() -> None:
    for command in ("web", "watch"):
        code, out = run(command, "--broker", "http://example.org")
        assert code == 1 and "bad broker URL 'http://example.org'" in out


def test_a_broker_that_does_not_answer_is_named() -> None:
    port = free_port()
    for command in ("web", "watch"):
        code, out = run(command, "--broker", f"mqtt://127.0.0.1:{port}", *(
            ["--port", "0"] if command == "web" else []))
        assert code == 1 and f"no MQTT broker answered at 127.0.0.1:{port}" in out


def test_watch_refuses_a_table_id_that_cannot_be_a_topic() -> None:
    code, out = run("watch", "a/b")
    assert code == 2 and "'a/b' is not a table id" in out

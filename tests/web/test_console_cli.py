"""``tricktable console``: it never starts without the admin token or a night file, and a
broker that does not answer is named; nothing starts on bad input."""

from __future__ import annotations

from click.testing import CliRunner
from tricktable.broker import free_port
from tricktable.cli import main
from tricktable.club import ProgressiveTournament, save_night


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["console", *args],
                                env={"TRICKTABLE_ADMIN_TOKEN": "", **(env or {})})
    return result.exit_code, result.output


def test_the_console_needs_the_admin_token_and_a_night(tmp_path) -> None:
    save_night(ProgressiveTournament.new([f"P{n}" for n in range(4)]), tmp_path / "night.json")
    code, out = run("--night", str(tmp_path / "night.json"))
    assert code == 2 and "Missing option '--admin-token'" in out
    code, out = run("--night", str(tmp_path / "none.json"), "--admin-token", "s")
    assert code == 2 and "does not exist" in out


def test_a_broker_that_does_not_answer_is_named(tmp_path) -> None:
    save_night(ProgressiveTournament.new([f"P{n}" for n in range(4)]), tmp_path / "night.json")
    port = free_port()
    code, out = run("--night", str(tmp_path / "night.json"), "--port", "0",
                    "--broker", f"mqtt://127.0.0.1:{port}", env={"TRICKTABLE_ADMIN_TOKEN": "s"})
    assert code == 1 and f"no MQTT broker answered at 127.0.0.1:{port}" in out

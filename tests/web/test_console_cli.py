"""``tricktable console``: it never starts without the admin token or a night file, and a
broker that does not answer is named; nothing starts on bad input."""

from __future__ import annotations

from click.testing import CliRunner
from tricktable.cli import main
from tricktable.club import ProgressiveTournament, save_night
from tricktable.mqtt.broker import free_port


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["console", *args],
                                env={"TRICKTABLE_ADMIN_TOKEN": "", **(env or {})})
    return result.exit_code, result.output


def test_the_console_needs_the_admin_token_and_a_night(tmp_path) -> None:
    save_night(ProgressiveTournament.new([f"P{n}" for n in range(4)]), tmp_path / "night.json")
    code, out = run("--night", str(tmp_path / "night.json"))
    assert code == 2 and "the console needs its admin token" in out
    code, out = run("--night", str(tmp_path / "none.json"), "--admin-token", "s")
    assert code == 2 and "does not exist" in out


def test_a_broker_that_does_not_answer_is_named(tmp_path) -> None:
    save_night(ProgressiveTournament.new([f"P{n}" for n in range(4)]), tmp_path / "night.json")
    port = free_port()
    code, out = run("--night", str(tmp_path / "night.json"), "--port", "0",
                    "--broker", f"mqtt://127.0.0.1:{port}", env={"TRICKTABLE_ADMIN_TOKEN": "s"})
    assert code == 1 and f"no MQTT broker answered at 127.0.0.1:{port}" in out


def test_the_admin_token_is_read_from_a_file_and_warned_about_on_the_command_line(tmp_path):
    """docs/operations.md, "Security": secrets come from files or the environment; one on the
    command line (where `ps` shows it) still works, with a warning."""
    save_night(ProgressiveTournament.new([f"P{n}" for n in range(4)]), tmp_path / "night.json")
    dead = f"mqtt://127.0.0.1:{free_port()}"
    common = ["--night", str(tmp_path / "night.json"), "--port", "0", "--broker", dead]
    code, out = run(*common, "--admin-token", "s")
    assert code == 1 and "warning: --admin-token on the command line shows in `ps`" in out, out
    (tmp_path / "token").write_text("")
    code, out = run(*common, "--admin-token-file", str(tmp_path / "token"))
    assert code == 1 and f"the admin token file {tmp_path / 'token'} is empty" in out, out
    (tmp_path / "token").write_text("s\n")
    code, out = run(*common, "--admin-token-file", str(tmp_path / "token"))
    assert code == 1 and "no MQTT broker answered" in out and "warning" not in out, out


def test_a_password_in_the_broker_url_is_warned_about(tmp_path):
    save_night(ProgressiveTournament.new([f"P{n}" for n in range(4)]), tmp_path / "night.json")
    url = f"mqtt://tricktable-director:pw@127.0.0.1:{free_port()}"
    code, out = run("--night", str(tmp_path / "night.json"), "--port", "0", "--broker", url,
                    env={"TRICKTABLE_ADMIN_TOKEN": "s"})
    assert code == 1 and "warning: a password in the broker URL" in out, out

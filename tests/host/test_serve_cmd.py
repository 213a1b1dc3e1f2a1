"""`tricktable serve`: one command runs a table on an embedded broker; a broker that does not
answer or refuses the host, or a mistaken club file, stops it at once with one clear line;
the MQTT password comes from a file or the environment, never the command line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from hostkit import Board, Observer, token_uid
from tricktable.mqtt.broker import BrokerAuth, free_port, mosquitto_available, start_broker


def test_serve_runs_a_table_on_its_own_embedded_broker(tmp_path):
    port = free_port()
    command = [sys.executable, "-c", "from tricktable.cli import main; main()", "serve",
               "--port", str(port), "--journal", str(tmp_path / "j.sqlite")]
    env = {**os.environ, "TRICKTABLE_REGISTRY": str(tmp_path / "none.sqlite")}  # not enrolled
    host = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    observer = board = None
    try:
        assert "serving 1 table(s)" in host.stdout.readline()
        observer = Observer(port, "tricktable")
        observer.wait_for(lambda t, p: t == "tricktable/v1/table/t1/state")
        board = Board(port, "tricktable", "t1-north")
        mark = observer.mark()
        board.tap(token_uid("DEAL"))
        _, verdict = observer.verdict("t1", mark)
        # the default table has no deck registry: the tag is refused, and says why
        assert (verdict.kind, verdict.code) == ("refused", "unknown_tag")
        assert "no deck registry" in verdict.reason
    finally:
        for client in (board, observer):
            if client is not None:
                client.close()
        host.send_signal(signal.SIGTERM)
        assert host.wait(15) == 0
        host.stdout.close()
        host.stderr.close()


def serve(tmp_path, *args: str, env: dict | None = None, timeout: float = 60):
    """Run ``tricktable serve`` to its end (the failing cases end by themselves)."""
    command = [sys.executable, "-c", "from tricktable.cli import main; main()", "serve",
               "--journal", str(tmp_path / "j.sqlite"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "TRICKTABLE_REGISTRY": str(tmp_path / "none"),
                               **(env or {})})


def one_error_line(ran) -> str:
    lines = [line for line in ran.stderr.splitlines() if line.strip()]
    assert ran.returncode != 0 and len(lines) == 1, ran.stdout + ran.stderr
    return lines[0]


def test_an_unreachable_broker_is_a_clear_error_not_silence(tmp_path):
    port = free_port()
    ran = serve(tmp_path, "--broker", f"mqtt://127.0.0.1:{port}", "--connect-timeout", "1")
    assert f"no MQTT broker answered at 127.0.0.1:{port} within 1 s" in one_error_line(ran)
    assert "serving" not in ran.stdout


@pytest.fixture(scope="module")
def locked_broker():
    if not mosquitto_available():
        pytest.skip("needs mosquitto (auth)")
    broker = start_broker("mosquitto", auth=BrokerAuth(users={"host": "s3cret word"}))
    yield broker
    broker.stop()


def test_refused_credentials_are_a_clear_error_not_an_endless_loop(tmp_path, locked_broker):
    ran = serve(tmp_path, "--broker", f"mqtt://127.0.0.1:{locked_broker.port}", "--username",
                "host", env={"TRICKTABLE_MQTT_PASSWORD": "wrong"})
    line = one_error_line(ran)
    assert f"the MQTT broker at 127.0.0.1:{locked_broker.port} refused the host" in line
    assert "Not authorized" in line


@pytest.mark.parametrize("how", ["file", "environment"])
def test_the_password_comes_from_a_file_or_the_environment(tmp_path, locked_broker, how):
    secret = tmp_path / "mqtt-password"
    secret.write_text("s3cret word\n")
    args = ["--broker", f"mqtt://127.0.0.1:{locked_broker.port}", "--username", "host"]
    args += ["--password-file", str(secret)] if how == "file" else []
    env = {"TRICKTABLE_MQTT_PASSWORD": "s3cret word"} if how == "environment" else {}
    command = [sys.executable, "-c", "from tricktable.cli import main; main()", "serve",
               "--journal", str(tmp_path / "j.sqlite"), *args]
    host = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **env, "TRICKTABLE_REGISTRY": str(tmp_path / "n")})
    try:
        first = host.stdout.readline()
        assert "serving 1 table(s)" in first, first + host.stderr.read()
    finally:
        host.send_signal(signal.SIGTERM)
        assert host.wait(15) == 0
        host.stdout.close()
        host.stderr.close()


def test_a_mistaken_club_file_stops_the_start_and_names_the_line(tmp_path):
    club = tmp_path / "club.toml"
    club.write_text('[club]\nname = "x"\n\n[tables.t1]\nvariant = "bid-uchre"\n')
    ran = serve(tmp_path, "--club", str(club), "--broker", "mqtt://127.0.0.1:1")
    line = one_error_line(ran)
    assert "club.toml, line 5: tables.t1.variant: unknown variant 'bid-uchre'" in line
    assert "did you mean 'bid-euchre'?" in line


def test_a_host_that_dies_is_reported_offline_on_its_status_topic(mqtt_broker, topic_prefix,
                                                                  tmp_path):
    club = tmp_path / "club.toml"
    club.write_text(f'[club]\nname = "x"\nprefix = "{topic_prefix}"\n[tables.t1]\n'
                    f'variant = "bid-euchre"\n')
    observer = Observer(mqtt_broker.port, topic_prefix)
    command = [sys.executable, "-c", "from tricktable.cli import main; main()", "serve",
               "--club", str(club), "--journal", str(tmp_path / "j.sqlite"),
               "--broker", f"mqtt://127.0.0.1:{mqtt_broker.port}", "--client-id", topic_prefix]
    host = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    status = observer.topics.host_status()
    try:
        observer.wait_for(lambda t, p: t == status and b'"online":true' in p)
        mark = observer.mark()
        host.send_signal(signal.SIGKILL)
        host.wait(15)
        observer.wait_for(lambda t, p: t == status and b'"online":false' in p, mark)
    finally:
        if host.poll() is None:
            host.kill()
        host.communicate()
        observer.client.publish(status, b"", retain=True)
        observer.close()


def test_a_night_that_does_not_fit_the_club_stops_the_start(tmp_path):
    players = tmp_path / "players.txt"
    players.write_text("\n".join("ABCDEFGH") + "\n")
    night = tmp_path / "night.json"
    made = subprocess.run([sys.executable, "-c", "from tricktable.cli import main; main()",
                           "club", "--night", str(night), "new", "--players", str(players),
                           "--tables", "2"], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    ran = serve(tmp_path, "--night", str(night), "--broker", "mqtt://127.0.0.1:1")
    assert "has 2 tables and the club file 1" in one_error_line(ran)
    assert "live" not in night.read_text()  # nothing was written


def test_a_club_database_that_is_not_one_stops_the_start(tmp_path):
    """``serve --night --club-db`` (docs/stats.md): a file that is not a club database is
    named at once, before any table is touched."""
    players = tmp_path / "players.txt"
    players.write_text("\n".join("ABCD") + "\n")
    night = tmp_path / "night.json"
    made = subprocess.run([sys.executable, "-c", "from tricktable.cli import main; main()",
                           "club", "--night", str(night), "new", "--players", str(players)],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    bogus = tmp_path / "club.sqlite"
    bogus.write_text("not a database, a shopping list\n" * 100)
    ran = serve(tmp_path, "--night", str(night), "--club-db", str(bogus),
                "--broker", "mqtt://127.0.0.1:1")
    assert "is not a club database" in one_error_line(ran)
    assert "live" not in night.read_text()

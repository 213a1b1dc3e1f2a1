"""``tricktable league``'s commands: the mosquitto bridge section a club includes (docs/league.md,
"A club joins"), and the refusals of bridge, send and serve, each naming what is wrong and
doing nothing."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from tricktable.cli import main

LEAGUE = "mqtts://league.example.org"


def league(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["league", *args])
    return result.exit_code, result.output


def bridge(*args: str) -> tuple[int, str]:
    return league("bridge", *args)


def test_the_bridge_carries_only_the_clubs_own_topics_and_receipts_at_qos_1_over_tls(tmp_path: Path) -> None:
    secret = tmp_path / "pw"
    secret.write_text("s3cret\n")
    code, text = bridge("--league", LEAGUE, "--club", "ashby", "--ca-file", "/etc/league-ca.crt",
                        "--password-file", str(secret))
    assert code == 0, text
    lines = text.splitlines()
    assert [line for line in lines if line.startswith("topic ")] == [
        "topic league/v1/ashby/hand out 1", "topic league/v1/ashby/game out 1",
        "topic league/v1/ashby/night out 1", "topic league/v1/ashby/player out 1",
        "topic league/v1/ashby/receipt in 1"]
    for line in ("address league.example.org:8883", "cleansession false",
                 "remote_username ashby", "remote_password s3cret",
                 "bridge_cafile /etc/league-ca.crt", "bridge_insecure false"):
        assert line in lines


def test_a_client_certificate_instead_of_a_password(tmp_path: Path) -> None:
    out = tmp_path / "league.conf"
    code, text = bridge("--league", LEAGUE + ":9883", "--club", "brook", "--certfile", "c.crt",
                        "--keyfile", "c.key", "--out", str(out))
    assert code == 0, text
    written = out.read_text().splitlines()
    assert "bridge_certfile c.crt" in written and "bridge_keyfile c.key" in written
    assert "address league.example.org:9883" in written
    assert not any(line.startswith("remote_password") for line in written)
    assert out.stat().st_mode & 0o777 == 0o600


def test_bad_bridges_are_refused_naming_the_fault(tmp_path: Path) -> None:
    out = tmp_path / "league.conf"
    for args, says in [
        (["--league", LEAGUE, "--club", "a b"], "bad club id 'a b'"),
        (["--league", "http://x", "--club", "ashby"], "bad broker URL 'http://x'"),
        (["--league", "mqtt://x", "--club", "ashby", "--ca-file", "ca.crt"],
         "a CA file or client certificate needs an mqtts:// league URL"),
        (["--league", LEAGUE, "--club", "ashby", "--certfile", "c.crt"],
         "a client certificate needs both --certfile and --keyfile"),
    ]:
        code, text = bridge(*args, "--out", str(out))
        assert code == 1 and says in text, text
        assert not out.exists()


def test_send_refuses_ids_the_league_would_refuse(tmp_path: Path) -> None:
    from tricktable.serve.journal import Journal

    journal = tmp_path / "journal.sqlite"
    Journal(journal).close()
    code, text = league("send", "--club", "ashby", "--journal", str(journal),
                        "--night-id", "thursday night")
    assert code == 1 and "bad night id 'thursday night'" in text, text
    code, text = league("send", "--club", "ash/by", "--journal", str(journal))
    assert code == 1 and "bad club id 'ash/by'" in text, text
    code, text = league("send", "--club", "ashby", "--journal", str(journal), "--date", "19/11")
    assert code == 2 and "'19/11' is not a date YYYY-MM-DD" in text, text


def test_serve_says_when_the_database_cannot_be_used() -> None:
    from tricktable.mqtt.broker import free_port

    code, text = league("serve", "--db", f"postgresql://nobody@127.0.0.1:{free_port()}/league",
                        "--broker", "mqtt://127.0.0.1:1", "--name", "x")
    assert code == 1 and "cannot use the league database" in text, text

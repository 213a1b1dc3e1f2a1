"""One MQTT identity per program and per board, on a club broker run from the shipped
configuration (host/tricktable/mqtt/mosquitto/mosquitto.conf and acl.template; docs/operations.md,
"Security"): the broker binds a client id to its user, so a board's password cannot throw the
host or another board off; each user may do only what its program needs.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from clubkit import WAIT, start_club_broker
from tricktable.cli import main
from tricktable.mqtt.broker import mosquitto_available
from tricktable.mqtt.url import BrokerURL
from tricktable.protocol import NightAnswer, encode
from tricktable.provision.acl import board_block
from tricktable.web.console_link import NightLink
from tricktable.web.feed import Feed

pytestmark = pytest.mark.skipif(not mosquitto_available(), reason="needs mosquitto")


@pytest.fixture(scope="module")
def club_broker(tmp_path_factory):
    broker = start_club_broker(tmp_path_factory.mktemp("club"), "tricktable")
    yield broker
    broker.stop()


@pytest.fixture
def club(club_broker):
    yield club_broker
    club_broker.close_clients()


def round_trip(client, topic: str) -> None:
    """``client`` publishes on a topic it reads and gets it back: its session works."""
    client.subscribe(topic)
    client.publish(topic, b"ping")
    assert client.next_message() == (topic, b"ping")


@pytest.mark.parametrize("victim", ["tricktable-host", "t1-east"])
def test_a_boards_password_cannot_take_another_clients_session(club, victim):
    host = club.client("tricktable-host", client_id="tricktable-host")
    east = club.client("t1-east", client_id="t1-east")
    target = host if victim == "tricktable-host" else east
    # t1-north's password, asking for the victim's client id: the broker makes it t1-north
    north = club.client("t1-north", client_id=victim)
    assert not north.reason.is_failure
    round_trip(host, f"{club.prefix}/v1/host/status")
    round_trip(east, f"{club.prefix}/v1/board/t1-east/status")
    assert target.disconnects == 0, f"{victim} was thrown off the broker"


def test_each_board_reads_its_own_tables_display_only(club):
    host = club.client("tricktable-host")
    north = club.client("t1-north")
    north.subscribe(f"{club.prefix}/v1/table/t2/display")
    north.subscribe(f"{club.prefix}/v1/table/t1/display")
    host.publish(f"{club.prefix}/v1/table/t2/display", b"other table")
    host.publish(f"{club.prefix}/v1/table/t1/display", b"own table")
    assert north.next_message() == (f"{club.prefix}/v1/table/t1/display", b"own table")


@pytest.mark.parametrize("user", ["tricktable-web", "tricktable-watch", "tricktable-fleet",
                                  "t1-north"])
def test_readers_fleet_and_boards_send_no_control_commands(club, user):
    p = club.prefix
    host = club.client("tricktable-host")
    host.subscribe(f"{p}/v1/table/+/control")
    host.subscribe(f"{p}/v1/night/control")
    intruder = club.client(user)
    intruder.publish(f"{p}/v1/table/t1/control", b"forged")
    intruder.publish(f"{p}/v1/night/control", b"forged")
    director = club.client("tricktable-director")
    director.publish(f"{p}/v1/table/t1/control", b"director")
    assert host.next_message() == (f"{p}/v1/table/t1/control", b"director")


def test_the_admin_scoreboard_sends_table_commands_and_only_the_director_night_ones(club):
    p = club.prefix
    host = club.client("tricktable-host")
    host.subscribe(f"{p}/v1/table/+/control")
    host.subscribe(f"{p}/v1/night/control")
    admin = club.client("tricktable-admin")
    admin.publish(f"{p}/v1/night/control", b"admin")
    admin.publish(f"{p}/v1/table/t1/control", b"admin")
    assert host.next_message() == (f"{p}/v1/table/t1/control", b"admin")
    club.client("tricktable-director").publish(f"{p}/v1/night/control", b"director")
    assert host.next_message() == (f"{p}/v1/night/control", b"director")


@pytest.mark.parametrize("user", ["tricktable-web", "tricktable-admin", "tricktable-director",
                                  "t1-north"])
def test_only_the_fleet_user_offers_firmware(club, user):
    p = club.prefix
    board = club.client("t1-east")
    board.subscribe(f"{p}/v1/board/t1-east/update/#")
    club.client(user).publish(f"{p}/v1/board/t1-east/update", b"forged offer")
    club.client("tricktable-fleet").publish(f"{p}/v1/board/t1-east/update", b"offer")
    assert board.next_message() == (f"{p}/v1/board/t1-east/update", b"offer")


def test_the_console_is_one_client_of_the_broker(club):
    """`tricktable console` reads the tables and sends night commands as the director, on one
    connection: a second under the same user would throw the first off."""
    p = club.prefix
    host = club.client("tricktable-host")
    host.subscribe(f"{p}/v1/night/control")

    def answer(_c, _u, msg) -> None:  # the night's side: every command done
        command = json.loads(msg.payload)
        host.paho.publish(f"{p}/v1/night/events", encode(NightAnswer(id=command["id"], ok=True,
                                                                       entry={"by": "test"})))

    host.paho.on_message = answer
    url = BrokerURL("127.0.0.1", club.port, username="tricktable-director",
                    password=club.passwords["tricktable-director"])
    feed = Feed(url.host, url.port, p, username=url.username, password=url.password)
    feed.start()
    link = NightLink(url, p, feed=feed)
    link.start()
    try:
        for _ in range(2):
            assert link.send("ring", {}, "Dana", timeout=WAIT).ok
    finally:
        link.stop()
        feed.stop()


@pytest.mark.parametrize("name", ["tricktable-host", "tricktable-web", "tricktable-new"])
def test_board_setup_refuses_a_programs_user_name(tmp_path, name):
    """A board named like a program would replace that program's password line."""
    passwd = tmp_path / "passwd"
    passwd.write_text("tricktable-host:$7$101$c2FsdA==$aGFzaA==\n")
    wifi = tmp_path / "wifi.json"
    wifi.write_text('[{"ssid": "club", "password": "secret-wifi"}]')
    run = CliRunner().invoke(main, ["board", "setup", "/dev/null", "--board", name,
                                    "--broker", "mqtt://10.0.0.2", "--wifi-file", str(wifi),
                                    "--passwd-file", str(passwd)])
    assert run.exit_code != 0 and "the programs' broker users" in run.output, run.output
    assert passwd.read_text() == "tricktable-host:$7$101$c2FsdA==$aGFzaA==\n"


def test_secret_files_are_made_readable_by_their_owner_only(tmp_path):
    """docs/operations.md, "Security": passwords and keys are 0600 whatever the umask."""
    import os
    import stat

    old = os.umask(0o022)
    try:
        run = CliRunner().invoke(main, ["broker", "user", "tricktable-web", "--passwd-file",
                                        str(tmp_path / "passwd"), "--password-out",
                                        str(tmp_path / "web.pw")])
        assert run.exit_code == 0, run.output
        run = CliRunner().invoke(main, ["broker", "certs", "--out", str(tmp_path / "certs"),
                                        "--name", "127.0.0.1"])
        assert run.exit_code == 0, run.output
    finally:
        os.umask(old)
    secret = [tmp_path / "passwd", tmp_path / "web.pw", tmp_path / "certs" / "ca.key",
              tmp_path / "certs" / "server.key"]
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in secret}
    assert set(modes.values()) == {0o600}, modes
    assert (tmp_path / "passwd").read_text().startswith("tricktable-web:$7$")


def test_board_acl_lets_each_board_of_the_club_file_read_its_own_tables_display(tmp_path):
    (tmp_path / "club.toml").write_text(
        '[club]\nprefix = "pfx"\n'
        '[tables.t1]\nvariant = "euchre"\ndisplays = ["t1-score"]\n'
        '[tables.t1.pads]\n"t1-n:0" = 0\n"t1-e:0" = 1\n"t1-s:0" = 2\n"t1-w:0" = 3\n'
        '[tables.t2]\nvariant = "euchre"\n'
        '[tables.t2.pads]\n"t2-n:0" = 0\n"t2-e:0" = 1\n"t2-s:0" = 2\n"t2-w:0" = 3\n')
    run = CliRunner().invoke(main, ["board", "acl", "--club", str(tmp_path / "club.toml"),
                                    "--acl-file", str(tmp_path / "acl")])
    assert run.exit_code == 0, run.output
    acl = (tmp_path / "acl").read_text()
    assert board_block("pfx", "t1-score", "t1") in acl
    assert board_block("pfx", "t2-w", "t2") in acl
    assert "topic write pfx/v1/board/t2-w/event" in acl and "tricktable/v1" not in acl
    assert "pattern" not in acl.replace("`pattern`", "")  # patterns apply to every user

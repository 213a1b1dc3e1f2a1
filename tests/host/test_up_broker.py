"""The broker ``tricktable up`` starts when none runs (docs/appliance.md, "tricktable up";
docs/operations.md, "Security"): the shipped configuration, the boards on TLS with a CA of the
club's own under the data directory and the parts on plain MQTT on loopback, or, with
``host.tls = false``, one plain listener on ``host.listen``; the boards' passwords from
``host.passwd`` with a line for each part's own user (an older line of theirs replaced); the
club file's boards each reading only their own table's display; every secret file 0600.
Mosquitto runs each configuration here, as up does, and a board and a part log in to it.
"""

from __future__ import annotations

import paho.mqtt.client as mqtt
import pytest
from hostkit import club_toml
from tricktable.appliance import credentials
from tricktable.appliance.settings import load_settings
from tricktable.appliance.up import UpError, broker_part, write_broker_files
from tricktable.mqtt.broker import free_port, mosquitto_available, start_mosquitto
from tricktable.provision.acl import board_block
from tricktable.provision.passwords import add_board_user, add_user
from waiting import eventually

pytestmark = pytest.mark.skipif(not mosquitto_available(), reason="needs mosquitto")


def club(tmp_path, prefix: str, host: str):
    add_board_user(tmp_path / "boards.passwd", "t1-n", "board-pw")
    add_user(tmp_path / "boards.passwd", "tricktable-host", "an older password")
    (tmp_path / "club.toml").write_text(club_toml(prefix, ("t1", "t2")) + "[host]\n"
                                        'passwd = "boards.passwd"\n' + host)
    settings = load_settings(tmp_path / "club.toml", tmp_path / "data")
    return settings, credentials.ensure(settings.data)


def logs_in(port: int, user: str, password: str, ca=None) -> bool:
    answer: list[bool] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user)
    client.username_pw_set(user, password)
    if ca is not None:
        client.tls_set(ca_certs=str(ca))
    client.on_connect = lambda c, u, f, reason, p: answer.append(not reason.is_failure)
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        eventually(lambda: answer, f"{user}'s CONNACK on {port}")
        return answer[0]
    finally:
        client.disconnect()
        client.loop_stop()


def test_the_boards_get_tls_with_the_clubs_ca_and_the_parts_plain_mqtt_on_loopback(
        tmp_path, topic_prefix):
    plain, tls = free_port(), free_port()
    settings, creds = club(tmp_path, topic_prefix,
                           f'broker = "mqtt://127.0.0.1:{plain}"\ntls_port = {tls}\n')
    config = write_broker_files(settings, creds).read_text()
    assert f"listener {tls} 127.0.0.1\nuse_username_as_clientid true\ncafile" in config
    assert f"listener {plain} 127.0.0.1\nuse_username_as_clientid true" in config
    folder = settings.data / "broker"
    passwd = (folder / "passwd").read_text()
    assert sorted(line.split(":")[0] for line in passwd.splitlines()) == [
        "t1-n", "tricktable-director", "tricktable-host", "tricktable-watch", "tricktable-web"]
    acl = (folder / "acl").read_text()
    for board in ("t1-n", "t2-w"):
        table = board.split("-")[0]
        assert board_block(topic_prefix, board, table) in acl
    for name in ("passwd", "acl", "mosquitto.conf", "certs/ca.key", "certs/server.key"):
        assert oct((folder / name).stat().st_mode & 0o777) == "0o600", name
    broker = start_mosquitto(config, plain)
    try:
        ca = folder / "certs" / "ca.crt"
        assert logs_in(tls, "t1-n", "board-pw", ca)  # a board, over TLS
        assert logs_in(plain, "tricktable-host", creds.read("tricktable-host"))
        assert not logs_in(plain, "tricktable-host", "an older password")
    finally:
        broker.stop()


def test_a_club_without_tls_has_one_plain_listener_where_the_boards_are(tmp_path, topic_prefix):
    plain = free_port()
    settings, creds = club(tmp_path, topic_prefix, f'broker = "mqtt://127.0.0.1:{plain}"\n'
                                                   'listen = "0.0.0.0"\ntls = false\n')
    config = write_broker_files(settings, creds).read_text()
    assert [line for line in config.splitlines() if line.startswith("listener")] == \
        [f"listener {plain} 0.0.0.0"]
    assert "cafile" not in config and not (settings.data / "broker" / "certs").exists()
    broker = start_mosquitto(config, plain)
    try:
        assert logs_in(plain, "t1-n", "board-pw")
    finally:
        broker.stop()


def test_with_tls_up_starts_a_broker_only_for_parts_on_loopback(tmp_path, topic_prefix):
    settings, creds = club(tmp_path, topic_prefix, 'broker = "mqtt://192.0.2.1:1883"\n'
                                                   'listen = "192.0.2.1"\n')  # TEST-NET-1
    with pytest.raises(UpError, match="up starts one only for programs on this machine"):
        broker_part(settings, creds)  # nothing answers there (at most 1 s to find out)


def client_of(port: int, user: str, password: str, ca=None) -> mqtt.Client:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user)
    client.username_pw_set(user, password)
    if ca is not None:
        client.tls_set(ca_certs=str(ca))
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def retained_kept(port, user, password, ca, topic, size, broker_port, creds) -> bool:
    """``user`` publishes a retained message of ``size`` bytes on ``topic``; True when the
    host, subscribing afterwards, is given it (a marker the host publishes next comes after
    a retained one)."""
    sender = client_of(port, user, password, ca)
    sender.publish(topic, b"s" * size, qos=1, retain=True).wait_for_publish(10)
    sender.disconnect()
    sender.loop_stop()
    got: list[tuple[str, int]] = []
    host = client_of(broker_port, "tricktable-host", creds.read("tricktable-host"))
    host.on_message = lambda c, u, m: got.append((m.topic, len(m.payload)))
    try:
        marker = topic.split("/v1/")[0] + "/v1/host/marker"
        host.subscribe([(topic, 1), (marker, 1)])
        eventually(lambda: host.is_connected(), "the host connected")
        host.publish(marker, b"m", qos=1)
        eventually(lambda: any(t == marker for t, _ in got), "the host's marker")
    finally:
        host.disconnect()
        host.loop_stop()
    return got[0] == (topic, size)


@pytest.fixture
def club_broker(tmp_path, topic_prefix):
    """The broker up starts, running: (plain port, TLS port, credentials, CA)."""
    plain, tls = free_port(), free_port()
    settings, creds = club(tmp_path, topic_prefix,
                           f'broker = "mqtt://127.0.0.1:{plain}"\ntls_port = {tls}\n')
    config = write_broker_files(settings, creds).read_text()
    assert "\nmax_queued_bytes " in config and "\nmessage_size_limit " in config
    broker = start_mosquitto(config, plain)
    yield plain, tls, creds, settings.data / "broker" / "certs" / "ca.crt"
    broker.stop()


def test_the_broker_drops_a_giant_retained_status_and_keeps_a_normal_one(club_broker,
                                                                          topic_prefix):
    plain, tls, creds, ca = club_broker
    status = f"{topic_prefix}/v1/board/t1-n/status"
    assert retained_kept(tls, "t1-n", "board-pw", ca, status, 1500, plain, creds)  # control
    assert not retained_kept(tls, "t1-n", "board-pw", ca, status, 40 << 20, plain, creds)


@pytest.mark.parametrize("user", ["tricktable-web", "tricktable-director", "tricktable-watch"])
def test_a_programs_user_cannot_speak_as_a_phantom_board(club_broker, topic_prefix, user):
    plain, tls, creds, ca = club_broker
    phantom = f"{topic_prefix}/v1/board/{user}/status"
    assert not retained_kept(plain, user, creds.read(user), None, phantom, 100, plain, creds)
    own = f"{topic_prefix}/v1/board/t1-n/status"  # the control: a board's own status is kept
    assert retained_kept(tls, "t1-n", "board-pw", ca, own, 100, plain, creds)

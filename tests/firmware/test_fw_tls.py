"""TLS on the boards: the real firmware under MicroPython (its ``ssl`` module, mbedTLS) with a
96k heap reaches a mosquitto that speaks only TLS, with a certificate signed by the club's
private CA (host/tricktable/mqtt/mosquitto/README.md), and refuses a broker its CA did not sign."""

from __future__ import annotations

import shutil

import pytest
from clubkit import start_club_broker
from fwkit import HostSide, MicroPython, last_json
from test_fw_link import HAND, PLAYS, played, spec_file
from tlskit import der_copy, make_certificates
from tricktable.mqtt.broker import BrokerTLS, mosquitto_available, start_broker

pytestmark = [pytest.mark.micropython, pytest.mark.timeout(120),
              pytest.mark.skipif(not mosquitto_available() or not shutil.which("openssl"),
                                 reason="needs mosquitto and openssl")]


# mbedTLS's handshake buffers come from the MicroPython heap: on this 64-bit port, with four
# emulated readers in the same heap (before they moved out: readerhost.py), 100k ran out in
# the TLS context and 104k played the hand
# (docs/fleet.md, "TLS"); 128k keeps a margin. A Pico W's heap is about 190 KB.
TLS_HEAP = "128k"


@pytest.fixture
def tls_board(mpy_build) -> MicroPython:
    return MicroPython(mpy_build, heap=TLS_HEAP)


def tls_spec(tmp_path, port: int, prefix: str, ca, readers, **extra) -> str:
    spec = spec_file(tmp_path, port, prefix, tmp_path / "flash", readers, **extra)
    text = open(spec).read().replace(
        '"keepalive": 5}', f'"keepalive": 5, "tls": true, "ca": "{der_copy(ca)}"}}')
    open(spec, "w").write(text)
    return spec


def test_a_board_plays_a_hand_over_tls_checked_against_the_club_ca(tls_board, tmp_path,
                                                                   topic_prefix, reader_host):
    ca, cert, key = make_certificates(tmp_path)
    with start_broker("mosquitto", tls=BrokerTLS(cert, key)) as broker:
        host = HostSide(broker.host, broker.port, topic_prefix, tls_ca=ca)
        try:
            spec = tls_spec(tmp_path, broker.port, topic_prefix, ca, reader_host, tricks=HAND)
            summary = last_json(tls_board.run("board_run.py", spec))
            assert summary["pending"] == 0 and summary["seq"] == 24, summary
            assert played(host) == PLAYS
        finally:
            host.close()


def test_a_broker_the_club_ca_did_not_sign_is_refused(tls_board, tmp_path, topic_prefix,
                                                      reader_host):
    (tmp_path / "club").mkdir()
    (tmp_path / "other").mkdir()
    _, cert, key = make_certificates(tmp_path / "club")
    stranger_ca, _, _ = make_certificates(tmp_path / "other")
    with start_broker("mosquitto", tls=BrokerTLS(cert, key)) as broker:
        spec = tls_spec(tmp_path, broker.port, topic_prefix, stranger_ca, reader_host,
                        tricks=HAND[:1],
                        offline=True, end="cut_now")
        summary = last_json(tls_board.run("board_run.py", spec))
        assert summary["connects"] == 0 and summary["pending"] == 4, summary


def test_a_board_plays_a_hand_on_the_clubs_broker_as_shipped(tls_board, tmp_path, reader_host):
    """host/tricktable/mqtt/mosquitto/mosquitto.conf as shipped: TLS on its own listener with the CA and
    certificate `tricktable broker certs` makes, the board logged in as itself, the host over
    plain MQTT on loopback."""
    club = start_club_broker(tmp_path / "club", "tricktable", boards={"north": "t1"})
    host = HostSide("127.0.0.1", club.port, "tricktable",
                    auth=("tricktable-host", club.passwords["tricktable-host"]))
    try:
        spec = tls_spec(tmp_path, club.tls_port, "tricktable", club.certs.ca, reader_host,
                        tricks=HAND)
        text = open(spec).read().replace('"keepalive": 5,', '"keepalive": 5, "user": "north", '
                                         f'"password": "{club.passwords["north"]}",')
        open(spec, "w").write(text)
        summary = last_json(tls_board.run("board_run.py", spec))
        assert summary["pending"] == 0 and summary["seq"] == 24, summary
        assert played(host) == PLAYS
    finally:
        host.close()
        club.stop()

"""mqtts:// with a CA file: the service and a board talk to mosquitto over TLS."""

from __future__ import annotations

import shutil

import pytest
from hostkit import Board, Observer, make_club, make_registry, token_uid
from tlskit import make_certificates
from tricktable.deckkit.decks import Registry
from tricktable.mqtt.broker import BrokerTLS, mosquitto_available, start_broker
from tricktable.serve.journal import Journal
from tricktable.serve.service import BrokerURL, Service, ServiceError

pytestmark = pytest.mark.skipif(not mosquitto_available() or not shutil.which("openssl"),
                                reason="needs mosquitto and openssl")


def test_service_and_board_over_tls(tmp_path, topic_prefix):
    ca, cert, key = make_certificates(tmp_path)
    make_registry(tmp_path / "decks.sqlite").close()
    with start_broker("mosquitto", tls=BrokerTLS(cert, key)) as broker:
        assert broker.url.startswith("mqtts://")
        journal, registry = Journal(tmp_path / "j.sqlite"), Registry(tmp_path / "decks.sqlite")
        service = Service(make_club(topic_prefix), journal, registry, BrokerURL.parse(broker.url),
                          client_id="host-tls", ca_file=str(ca))
        service.start()
        observer = board = None
        try:
            assert service.connected.wait(10)
            observer = Observer(broker.port, topic_prefix, tls_ca=ca)
            board = Board(broker.port, topic_prefix, "t1-n", tls_ca=ca)
            mark = observer.mark()
            board.tap(token_uid("DEAL"))
            _, verdict = observer.verdict("t1", mark)
            assert (verdict.kind, verdict.board) == ("accepted", "t1-n")
        finally:
            for client in (board, observer):
                if client is not None:
                    client.close()
            service.stop()
            journal.close()
            registry.close()


def test_a_missing_ca_file_is_a_clear_error(tmp_path):
    with pytest.raises(ServiceError, match="cannot use CA file"):
        Service(make_club("x"), Journal(tmp_path / "j.sqlite"), None,
                BrokerURL.parse("mqtts://127.0.0.1:1"), ca_file=str(tmp_path / "nope.crt"))

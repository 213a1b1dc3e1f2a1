"""``tricktable demo --broker mqtts://``: the host, the web and the simulated boards (the real
firmware's MQTT client, TLS by the firmware's own context) play a hand through a mosquitto that
speaks only TLS, each trusting only the club's private CA."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from tlskit import make_certificates
from tricktable.cli import main
from tricktable.demo.runner import Demo, DemoConfig, DemoError
from tricktable.mqtt.broker import BrokerTLS, mosquitto_available, start_broker

pytestmark = pytest.mark.skipif(not mosquitto_available() or not shutil.which("openssl"),
                                reason="needs mosquitto and openssl")


def test_a_demo_hand_is_played_end_to_end_over_tls(tmp_path: Path) -> None:
    ca, cert, key = make_certificates(tmp_path)
    with start_broker("mosquitto", tls=BrokerTLS(cert, key)) as broker:
        result = CliRunner().invoke(main, [
            "demo", "--broker", broker.url, "--ca-file", str(ca), "--tables", "1",
            "--games", "1", "--speed", "0", "--option", "hand_limit=1", "--no-view",
            "--port", "0", "--seed", "4", "--workdir", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "hand history: " in result.output, result.output


def test_mqtts_without_the_club_ca_is_refused_naming_the_option() -> None:
    with pytest.raises(DemoError, match="--ca-file"):
        Demo(DemoConfig(broker="mqtts://127.0.0.1:8883"))

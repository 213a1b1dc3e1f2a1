"""The scoreboard (``tricktable web``) and ``tricktable watch`` over mqtts with credentials.

They take the same broker URL forms and ``--ca-file`` as ``tricktable serve``: a table state
published over TLS reaches them; a CA that did not sign the broker's certificate is refused
with a message that says so, and nothing starts.
"""

from __future__ import annotations

import io
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import paho.mqtt.client as mqtt
import pytest
from click.testing import CliRunner
from rich.console import Console
from tlskit import make_certificates
from tricktable.cli import main
from tricktable.mqtt.broker import (
    BrokerAuth,
    BrokerHandle,
    BrokerTLS,
    mosquitto_available,
    start_broker,
)
from tricktable.mqtt.client import configure_client
from tricktable.mqtt.url import BrokerURL
from tricktable.web.feed import Feed
from tricktable.web.server import Scoreboard
from tricktable.web.termview import watch
from waiting import eventually
from web_script import game_states

pytestmark = pytest.mark.skipif(not mosquitto_available() or not shutil.which("openssl"),
                                reason="needs mosquitto and openssl")

USERS = {"tricktable-host": "host-pw", "tricktable-web": "web-pw"}


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return make_certificates(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def other_ca(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A CA that signed nothing the broker uses."""
    return make_certificates(tmp_path_factory.mktemp("other-tls"))[0]


@pytest.fixture(scope="module")
def tls_broker(certificates: tuple[Path, Path, Path]) -> Iterator[BrokerHandle]:
    _, cert, key = certificates
    with start_broker("mosquitto", auth=BrokerAuth(users=USERS), tls=BrokerTLS(cert, key)) as b:
        yield b


def url(broker: BrokerHandle, user: str = "tricktable-web", password: str = "web-pw") -> str:
    return f"mqtts://{user}:{password}@{broker.host}:{broker.port}"


def publish_state(broker: BrokerHandle, ca: Path, state: dict) -> None:
    """Publish a retained table state over TLS as the host does (its own credentials)."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    configure_client(client, BrokerURL.parse(url(broker, "tricktable-host", "host-pw")), str(ca))
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        topic = f"{state['prefix']}/v1/table/{state['table']}/state"
        body = {k: v for k, v in state.items() if k != "prefix"}
        client.publish(topic, json.dumps(body), qos=1, retain=True).wait_for_publish(5)
    finally:
        client.disconnect()
        client.loop_stop()


def test_the_scoreboard_shows_a_table_published_over_tls(
    tls_broker: BrokerHandle, certificates: tuple[Path, Path, Path], topic_prefix: str
) -> None:
    ca = certificates[0]
    last = game_states("1", hands=1)[-1]
    publish_state(tls_broker, ca, dict(last, prefix=topic_prefix))
    broker = BrokerURL.parse(url(tls_broker))
    board = Scoreboard(broker.host, broker.port, port=0, prefix=topic_prefix,
                       username=broker.username, password=broker.password, tls=broker.tls,
                       ca_file=str(ca))
    board.start()
    try:
        answer = eventually(lambda: (r := httpx.get(f"{board.url}/api/table/1")).is_success and r,
                            "the scoreboard showing table 1")
        view = answer.json()
        assert view["state"]["scores"] == last["scores"] and view["state"]["game_over"] is True
    finally:
        board.stop()


def test_watch_draws_a_table_published_over_tls(
    tls_broker: BrokerHandle, certificates: tuple[Path, Path, Path], topic_prefix: str
) -> None:
    ca = certificates[0]
    publish_state(tls_broker, ca, dict(game_states("2", hands=1)[-1], prefix=topic_prefix))
    feed = Feed(tls_broker.host, tls_broker.port, topic_prefix, username="tricktable-web",
                password="web-pw", tls=True, ca_file=str(ca))
    feed.start()
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=True)
    stop = threading.Event()
    runner = threading.Thread(target=watch, args=(feed, ["2"], stop, console), daemon=True)
    runner.start()
    try:
        eventually(lambda: "game over" in out.getvalue(), "watch drawing table 2's game over")
    finally:
        stop.set()
        runner.join(10)
        feed.stop()
    assert not runner.is_alive()


def test_a_ca_that_did_not_sign_the_broker_is_refused_clearly(
    tls_broker: BrokerHandle, other_ca: Path
) -> None:
    for command in ("web", "watch"):
        result = CliRunner().invoke(main, [command, "--broker", url(tls_broker), "--ca-file",
                                           str(other_ca), *(["--port", "0"] if command == "web"
                                                            else [])])
        assert result.exit_code == 1, result.output
        where = f"{tls_broker.host}:{tls_broker.port}"
        assert f"TLS with the MQTT broker at {where} failed: CERTIFICATE_VERIFY_FAILED" \
            in result.output
        assert "is the CA file the one that signed the broker's certificate?" in result.output


def test_wrong_credentials_are_named_as_a_refusal(
    tls_broker: BrokerHandle, certificates: tuple[Path, Path, Path]
) -> None:
    result = CliRunner().invoke(main, ["watch", "--broker",
                                       url(tls_broker, "tricktable-web", "wrong"),
                                       "--ca-file", str(certificates[0])])
    assert result.exit_code == 1
    assert f"the MQTT broker at {tls_broker.host}:{tls_broker.port} refused us" in result.output


def test_a_missing_ca_file_is_refused_before_anything_starts(tmp_path: Path) -> None:
    for command in ("web", "watch"):
        result = CliRunner().invoke(main, [command, "--broker", "mqtts://127.0.0.1:1",
                                           "--ca-file", str(tmp_path / "nope.crt")])
        assert result.exit_code == 2 and "nope.crt" in result.output

"""Every MQTT client of the host is built in one place, ``tricktable.mqtt.client``
(docs/operations.md): no other module under host/ constructs paho's client, so the client id,
protocol, credentials, TLS and reconnect delays cannot drift apart between parts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from tricktable.mqtt.client import new_client
from tricktable.mqtt.url import BrokerConfigError, BrokerURL

PACKAGE = Path(__file__).resolve().parents[2] / "host" / "tricktable"


def paho_clients_built(path: Path) -> list[int]:
    """Lines of ``path`` that call paho's ``Client(...)`` (through any import of it)."""
    tree = ast.parse(path.read_text(), str(path))
    names = {alias.asname or alias.name for node in ast.walk(tree)
             if isinstance(node, ast.Import) for alias in node.names
             if alias.name == "paho.mqtt.client"}
    direct = {alias.asname or alias.name for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module == "paho.mqtt.client"
              for alias in node.names if alias.name == "Client"}
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "Client" and \
                isinstance(func.value, ast.Name) and func.value.id in names:
            lines.append(node.lineno)
        elif isinstance(func, ast.Name) and func.id in direct:
            lines.append(node.lineno)
    return lines


def test_only_mqtt_client_builds_paho_clients() -> None:
    built = {str(p.relative_to(PACKAGE)): paho_clients_built(p) for p in PACKAGE.rglob("*.py")}
    assert built.pop("mqtt/client.py"), "the one place builds them (positive control)"
    assert {name: lines for name, lines in built.items() if lines} == {}


def test_a_persistent_session_under_mqtt5_is_asked_for_at_connect() -> None:
    url = BrokerURL("127.0.0.1", 1883)
    new_client(url, client_id="t1-host", persistent=True)  # MQTT 3.1.1: clean session off
    with pytest.raises(ValueError, match="clean_start=False"):
        new_client(url, client_id="league-a", mqtt5=True, persistent=True)


def test_a_ca_file_that_cannot_be_read_is_refused_before_connecting(tmp_path) -> None:
    url = BrokerURL("127.0.0.1", 8883, tls=True)
    with pytest.raises(BrokerConfigError, match="cannot use CA file"):
        new_client(url, ca_file=str(tmp_path / "missing.crt"))

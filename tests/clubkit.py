"""A club's own broker for the security tests: mosquitto run from the shipped configuration
(host/tricktable/mqtt/mosquitto/mosquitto.conf through provision.brokerconf), with a user of its own for
every program and board (provision.passwords), the club's ACL (provision.acl) and its CA and
broker certificate (provision.certs). Both listeners on 127.0.0.1, on free ports.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from tricktable.mqtt.broker import BrokerHandle, free_port, start_mosquitto
from tricktable.provision.acl import SERVICE_USERS, acl_text
from tricktable.provision.brokerconf import ClubBrokerFiles, club_config
from tricktable.provision.certs import ClubCerts, make_club_certs
from tricktable.provision.passwords import add_user

WAIT = 20.0
BOARDS = {"t1-north": "t1", "t1-east": "t1", "t2-north": "t2"}


@dataclass
class ClubBroker:
    """A running club broker: its ports, its users' passwords, its CA."""

    handle: BrokerHandle
    tls_port: int
    passwords: dict[str, str]
    certs: ClubCerts
    prefix: str
    clients: list[mqtt.Client] = field(default_factory=list)

    @property
    def port(self) -> int:
        return self.handle.port

    def client(self, user: str, client_id: str = "", tls: bool = False,
               password: str | None = None) -> Client:
        """A client logged in as ``user`` (asking for ``client_id``), connected and running."""
        made = Client(self, user, client_id or f"{user}-own", tls, password)
        self.clients.append(made.paho)
        return made

    def close_clients(self) -> None:
        for paho in self.clients:
            paho.disconnect()
            paho.loop_stop()
        self.clients.clear()

    def stop(self) -> None:
        self.close_clients()
        self.handle.stop()


class Client:
    """One paho client, with what it received and how often it was thrown off."""

    def __init__(self, club: ClubBroker, user: str, client_id: str, tls: bool,
                 password: str | None) -> None:
        self.user = user
        self.disconnects = 0
        self.messages: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.answer: queue.Queue[Any] = queue.Queue()
        self.subscribed = threading.Event()
        self.paho = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                                protocol=mqtt.MQTTv311)
        self.paho.username_pw_set(user, club.passwords[user] if password is None else password)
        if tls:
            self.paho.tls_set(ca_certs=str(club.certs.ca))
        self.paho.on_connect = lambda c, u, f, reason, p: self.answer.put(reason)
        self.paho.on_disconnect = self._off
        self.paho.on_message = lambda c, u, m: self.messages.put((m.topic, m.payload))
        self.paho.on_subscribe = lambda *a: self.subscribed.set()
        self.paho.connect("127.0.0.1", club.tls_port if tls else club.port)
        self.paho.loop_start()
        self.reason = self.answer.get(timeout=WAIT)

    def _off(self, *args: Any) -> None:
        self.disconnects += 1

    def subscribe(self, topic: str) -> None:
        self.subscribed.clear()
        self.paho.subscribe(topic, qos=1)
        assert self.subscribed.wait(WAIT), f"{self.user} could not subscribe to {topic}"

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        """Publish at QoS 1 and wait for the broker's PUBACK (which mosquitto sends even for
        a message its ACL drops)."""
        self.paho.publish(topic, payload, qos=1, retain=retain).wait_for_publish(WAIT)

    def next_message(self) -> tuple[str, bytes]:
        return self.messages.get(timeout=WAIT)


def start_club_broker(where: Path, prefix: str, boards: dict[str, str] | None = None
                      ) -> ClubBroker:
    """Start a club broker with files in ``where``: every program's user and every board's
    (board -> table, ``BOARDS`` by default), each with the password ``USER-pw``."""
    boards = BOARDS if boards is None else boards
    files = ClubBrokerFiles(where / "passwd", where / "acl", where / "certs", where / "data")
    files.data.mkdir(parents=True, exist_ok=True)
    certs = make_club_certs(files.certs, ["127.0.0.1", "localhost"])
    passwords = {user: f"{user}-pw" for user in [*SERVICE_USERS, *boards]}
    for user, password in passwords.items():
        add_user(files.passwd, user, password)
    files.acl.write_text(acl_text(prefix, boards))
    plain = free_port()
    tls = free_port()
    while tls == plain:  # the system may hand the same free port out twice in a row
        tls = free_port()
    config = club_config(files, plain_port=plain, tls_port=tls, tls_host="127.0.0.1")
    handle = start_mosquitto(config, plain)
    return ClubBroker(handle, tls, passwords, certs, prefix)

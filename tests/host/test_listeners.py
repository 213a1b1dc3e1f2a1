"""Who listens on a port, from Linux's own tables (appliance/listeners.py): a socket this test
binds is found with this user as its owner and this process as its holder, through the
address it listens on and through a wildcard, and not through another address; one that
nobody binds is found with nobody as its owner and not vouched for."""

from __future__ import annotations

import os
import socket

from localuser import NOBODY, Squatter, needs_nobody
from tricktable.appliance.listeners import held_by, listening, vouched
from tricktable.mqtt.broker import free_port


def test_a_socket_of_ours_is_found_with_its_owner_and_holder():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        found = listening(port, "127.0.0.1")
        assert [(s.address, s.uid) for s in found] == [("127.0.0.1", os.getuid())]
        assert os.getpid() in held_by(found[0].inode) and vouched(found[0])
        assert listening(port, "0.0.0.0") == found  # a wildcard bind would meet it
        assert listening(port, "192.0.2.1") == []  # another address does not reach it
    assert listening(port, "127.0.0.1") == []  # closed: gone


@needs_nobody
def test_a_socket_of_another_user_is_not_vouched_for():
    port = free_port()
    with Squatter("127.0.0.1", port):
        found = listening(port, "127.0.0.1")
        assert [s.uid for s in found] == [NOBODY.pw_uid]
        assert not vouched(found[0])

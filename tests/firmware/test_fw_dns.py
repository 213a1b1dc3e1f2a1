"""A broker given by host name is found without blocking the board (issue 22, item 12): the
firmware asks the network's DNS server itself (firmware/dns.py) and polls for the answer, so a
DNS server that answers after seconds holds no other task (a blocking getaddrinfo held them
all, and a board whose watchdog bit first was reset, again and again)."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from fwkit import last_json

pytestmark = [pytest.mark.timeout(120)]


class SlowDNS:
    """A DNS server on loopback UDP answering every A query with 127.0.0.1 after ``delay`` s
    (RFC 1035, 4.1: the question echoed, one answer record pointing at it)."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.queries = 0
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while self.running:
            try:
                msg, peer = self.sock.recvfrom(512)
            except OSError:
                continue
            self.queries += 1
            threading.Timer(self.delay, self._answer, (msg, peer)).start()

    def _answer(self, msg: bytes, peer) -> None:
        end = msg.index(b"\x00", 12) + 5  # the question: name, type, class
        head = msg[:2] + b"\x81\x80" + b"\x00\x01\x00\x01\x00\x00\x00\x00"
        record = b"\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x3c\x00\x04" + bytes([127, 0, 0, 1])
        if self.running:
            self.sock.sendto(head + msg[12:end] + record, peer)

    def close(self) -> None:
        self.running = False
        self.thread.join(timeout=2)
        self.sock.close()


def test_a_slow_dns_answer_holds_no_task(interpreter, mqtt_broker) -> None:
    dns = SlowDNS(delay=2.5)
    try:
        started = time.monotonic()
        out = last_json(interpreter.run("dns_run.py", str(dns.port), str(mqtt_broker.port),
                                        "broker.tricktable.test"))
        assert out["connected"], out
        assert out["addr"] == "127.0.0.1", out
        assert time.monotonic() - started >= 2.5, "the answer came late, as the server sent it"
        assert out["gap_ms"] < 1000, f"the event loop was held {out['gap_ms']} ms"
    finally:
        dns.close()

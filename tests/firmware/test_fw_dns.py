"""A broker given by host name is found without blocking the board (issue 22, item 12): the
firmware asks the network's DNS server itself (firmware/dns.py) and polls for the answer, so a
DNS server that answers after seconds holds no other task (a blocking getaddrinfo held them
all, and a board whose watchdog bit first was reset, again and again)."""

from __future__ import annotations

import importlib.util
import socket
import threading
import time

import pytest
from fwkit import FIRMWARE, last_json
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = [pytest.mark.timeout(120)]


def firmware_dns():
    """The firmware's dns.py (by path: ``dns`` may also name dnspython in this venv)."""
    spec = importlib.util.spec_from_file_location("firmware_dns", FIRMWARE / "dns.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DNS = firmware_dns()
IDENT = 0x1234


def reply(query: bytes, ip: bytes = bytes([127, 0, 0, 1])) -> bytes:
    """A well-formed reply to ``query`` (RFC 1035, 4.1): the question echoed, one A record
    pointing at it."""
    end = query.index(b"\x00", 12) + 5  # the question: name, type, class
    head = query[:2] + b"\x81\x80" + b"\x00\x01\x00\x01\x00\x00\x00\x00"
    return head + query[12:end] + b"\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x3c\x00\x04" + ip


GOOD = reply(DNS.query("broker.tricktable.test", IDENT))


def parses_or_refuses(msg: bytes) -> None:
    """answer() returns an address or None, or raises OSError (what the link handles)."""
    try:
        got = DNS.answer(msg, IDENT)
    except OSError:
        return
    assert got is None or got.count(".") == 3, got


def test_a_well_formed_reply_gives_its_address() -> None:
    assert DNS.answer(GOOD, IDENT) == "127.0.0.1"
    assert DNS.answer(GOOD, IDENT + 1) is None, "another query's reply"


@given(st.integers(0, len(GOOD) - 1))
def test_a_reply_cut_anywhere_raises_nothing_the_link_does_not_handle(cut: int) -> None:
    parses_or_refuses(GOOD[:cut])


@settings(max_examples=500)
@given(st.lists(st.tuples(st.integers(0, len(GOOD) - 1), st.integers(0, 255)), min_size=1,
                max_size=6))
def test_a_garbled_reply_raises_nothing_the_link_does_not_handle(flips) -> None:
    msg = bytearray(GOOD)
    for at, value in flips:
        msg[at] = value
    parses_or_refuses(bytes(msg))


@settings(max_examples=500)
@given(st.binary(max_size=80), st.integers(0, 20), st.integers(0, 20))
def test_any_bytes_with_our_id_raise_nothing_the_link_does_not_handle(body: bytes, qd: int,
                                                                       an: int) -> None:
    head = bytes([IDENT >> 8, IDENT & 0xFF, 0x81, 0x80, 0, qd, 0, an, 0, 0, 0, 0])
    parses_or_refuses(head + body)


class SlowDNS:
    """A DNS server on loopback UDP answering every A query with 127.0.0.1 after ``delay`` s
    (RFC 1035, 4.1: the question echoed, one answer record pointing at it). With ``hostile``
    it first sends what a bad network does (RFC 5452, section 9.1 lists what a resolver must
    refuse): a reply with the right id from another address pointing elsewhere (a forger),
    the reply cut short inside its record, and one with its answer's length garbled."""

    def __init__(self, delay: float, hostile: bool = False) -> None:
        self.delay = delay
        self.hostile = hostile
        self.forger = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.forger.bind(("127.0.0.1", 0))
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
            if self.hostile:
                good = reply(msg)
                self.forger.sendto(reply(msg, bytes([10, 6, 6, 6])), peer)
                self.sock.sendto(good[:-3], peer)
                self.sock.sendto(good[:-6] + b"\xff\xff" + good[-4:], peer)
            threading.Timer(self.delay, self._answer, (msg, peer)).start()

    def _answer(self, msg: bytes, peer) -> None:
        if self.running:
            self.sock.sendto(reply(msg), peer)

    def close(self) -> None:
        self.running = False
        self.thread.join(timeout=2)
        self.sock.close()
        self.forger.close()


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


def test_a_forged_cut_or_garbled_reply_is_waited_past(interpreter, mqtt_broker) -> None:
    """A reply from another address, one cut inside its record and one garbled come before
    the server's own: the board waits past them and reaches the broker at the right address
    (an IndexError from the cut record once escaped the link and reset the board)."""
    dns = SlowDNS(delay=0.5, hostile=True)
    try:
        out = last_json(interpreter.run("dns_run.py", str(dns.port), str(mqtt_broker.port),
                                        "broker.tricktable.test"))
        assert out["connected"], out
        assert out["addr"] == "127.0.0.1", out
    finally:
        dns.close()

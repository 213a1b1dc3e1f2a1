"""A broker given by host name is found without blocking the board (issue 22, item 12): the
firmware asks the network's DNS server itself (firmware/dns.py) and polls for the answer, so a
DNS server that answers after seconds holds no other task (a blocking getaddrinfo held them
all, and a board whose watchdog bit first was reset, again and again)."""

from __future__ import annotations

import importlib.util
import time

import pytest
from fwkit import FIRMWARE, last_json
from hypothesis import given, settings
from hypothesis import strategies as st
from tricktable.sim.dns_server import SlowDNS, reply

pytestmark = [pytest.mark.timeout(120)]


def firmware_dns():
    """The firmware's dns.py (by path: ``dns`` may also name dnspython in this venv)."""
    spec = importlib.util.spec_from_file_location("firmware_dns", FIRMWARE / "dns.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DNS = firmware_dns()
IDENT = 0x1234


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

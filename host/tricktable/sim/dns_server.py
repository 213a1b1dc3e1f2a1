"""A DNS server for the boards' world (tests and bench/hostile_room.py): loopback UDP,
answering every A query with 127.0.0.1 after a delay, and, when hostile, sending first what a
bad network sends.

It follows RFC 1035, section 4.1 (a reply: the header with QR and RD/RA set, the question
echoed, one answer record pointing at it by a compression pointer), and, hostile, the
replies RFC 5452 (section 9.1) says a resolver must not take: the right id from another
address pointing elsewhere (a forger), a reply cut short inside its record, and one whose
answer's length is garbled. A board's resolver (firmware/dns.py) must wait past all three.
"""

from __future__ import annotations

import socket
import threading


def reply(query: bytes, ip: bytes = bytes([127, 0, 0, 1])) -> bytes:
    """A well-formed reply to ``query`` (RFC 1035, 4.1): the question echoed, one A record
    pointing at it."""
    end = query.index(b"\x00", 12) + 5  # the question: name, type, class
    head = query[:2] + b"\x81\x80" + b"\x00\x01\x00\x01\x00\x00\x00\x00"
    return head + query[12:end] + b"\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x3c\x00\x04" + ip


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

"""A TCP fault proxy between boards and a broker: the link as unkind as a club room's Wi-Fi.

``FaultProxy(broker_host, broker_port)`` listens on a free loopback port; a board given that
port reaches the broker through it, one pair of pump threads per connection. On command it:

- ``stall(seconds)``: carries no byte either way for that long, holding what comes (a Wi-Fi
  link that stops carrying frames while both ends keep the TCP connection: interference,
  the AP busy or roaming). The proxy's socket buffers are small (``BUFFER``, as lwIP's
  TCP_SND_BUF of a few KB on a board), so a board that keeps writing soon finds no room,
  as it would on its own radio;
- ``drain(bytes_per_s)``: carries bytes slowly (``None``: full speed again);
- ``half_open()``: every open connection goes silent for good, without FIN or RST to either
  end (RFC 9293, 3.5.1 "Half-Open Connections and Other Anomalies": a peer that vanished, as
  a board that lost its AP or its power); later connections are carried normally;
- ``cut(after_bytes)``: closes every connection once that many more bytes went through it,
  in the middle of whatever packet is passing (a dropped AP), both ends told (FIN);
- ``refuse(on)``: turns new connections away (the broker unreachable) or takes them again;
- ``take_over(client_id)`` (a function, not a method): connects to the broker itself with a
  board's client id; the broker closes the board's connection (MQTT 3.1.1, section 3.1.4,
  MQTT-3.1.4-2: "If the ClientId represents a Client already connected to the Server then
  the Server MUST disconnect the existing Client").

Used by tests/firmware (the firmware's link under stalls) and bench/hostile_room.py.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
import time

BUFFER = 2048  # bytes a proxy socket asks to buffer (Linux doubles it, to at least 4608)
TICK = 0.02  # seconds between the pumps' looks at their sockets and at the commands


class _Pair:
    """One board connection and its broker connection."""

    def __init__(self, board: socket.socket, broker: socket.socket) -> None:
        self.board, self.broker = board, broker
        self.silent = False  # half-open: nothing carried, nothing closed
        self.cut_left: int | None = None
        self.closed = False

    def close(self) -> None:
        self.closed = True
        for s in (self.board, self.broker):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                s.close()


class FaultProxy:
    """A TCP proxy to ``broker_host:broker_port`` that stalls, drains, goes half-open and cuts
    on command (a context manager)."""

    def __init__(self, broker_host: str, broker_port: int) -> None:
        self.target = (broker_host, broker_port)
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, BUFFER)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.pairs: list[_Pair] = []
        self.stalled_until = 0.0
        self.rate: float | None = None
        self.refusing = False
        self.connections = 0
        self.running = True
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    # -- commands ---------------------------------------------------------------------------
    def stall(self, seconds: float) -> None:
        self.stalled_until = time.monotonic() + seconds

    def stalled(self) -> bool:
        return time.monotonic() < self.stalled_until

    def drain(self, bytes_per_s: float | None) -> None:
        self.rate = bytes_per_s

    def half_open(self) -> None:
        with self.lock:
            for pair in self.pairs:
                pair.silent = True

    def cut(self, after_bytes: int = 0) -> None:
        with self.lock:
            for pair in self.pairs:
                if after_bytes <= 0:
                    pair.close()
                else:
                    pair.cut_left = after_bytes

    def refuse(self, on: bool = True) -> None:
        self.refusing = on

    # -- the pumps ---------------------------------------------------------------------------
    def _accept(self) -> None:
        while self.running:
            ready, _, _ = select.select([self.listener], [], [], TICK * 5)
            if not ready:
                continue
            try:
                board, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing:
                board.close()
                continue
            try:
                broker = socket.create_connection(self.target, timeout=5)
            except OSError:
                board.close()
                continue
            broker.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, BUFFER)
            pair = _Pair(board, broker)
            with self.lock:
                self.pairs = [p for p in self.pairs if not p.closed] + [pair]
                self.connections += 1
            for src, dst in ((board, broker), (broker, board)):
                threading.Thread(target=self._pump, args=(pair, src, dst), daemon=True).start()

    def _pump(self, pair: _Pair, src: socket.socket, dst: socket.socket) -> None:
        while self.running and not pair.closed:
            if self.stalled():
                time.sleep(TICK)
                continue
            try:
                ready, _, _ = select.select([src], [], [], TICK)
                if not ready:
                    continue
                data = src.recv(4096 if self.rate is None else max(1, int(self.rate * TICK)))
            except (OSError, ValueError):
                break
            if not data:
                break
            if pair.silent:
                continue  # swallowed: the peer is gone and nobody says so
            if pair.cut_left is not None:
                data = data[: pair.cut_left]
                pair.cut_left -= len(data)
            try:
                dst.sendall(data)
            except OSError:
                break
            if pair.cut_left is not None and pair.cut_left <= 0:
                break
            if self.rate is not None:
                time.sleep(len(data) / self.rate)
        if not pair.silent:
            pair.close()

    def close(self) -> None:
        self.running = False
        with contextlib.suppress(OSError):
            self.listener.close()
        with self.lock:
            for pair in self.pairs:
                pair.close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FaultProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def take_over(broker_host: str, broker_port: int, client_id: str) -> None:
    """Connect to the broker with ``client_id`` (clean session) and leave: the broker drops
    the board that had that id (MQTT-3.1.4-2)."""
    body = b"\x00\x04MQTT\x04\x02\x00\x3c" + len(client_id).to_bytes(2, "big") + client_id.encode()
    with socket.create_connection((broker_host, broker_port), timeout=5) as s:
        s.sendall(bytes([0x10, len(body)]) + body)
        s.recv(4)  # CONNACK
        s.sendall(b"\xe0\x00")  # DISCONNECT

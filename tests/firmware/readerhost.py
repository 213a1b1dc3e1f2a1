"""The PN532 emulator serving a board's readers over TCP (mp/remote_readers.py is the board side).

``ReaderHost(pads)`` listens on a free loopback port; a board connects one stream per reader
(first byte: the pad) carrying its UART bytes, and one control stream (first byte 0xFF)
with lines ``p PAD UIDHEX`` (a card placed: an NTAG213, a 7-byte UID missing alternate polls
as such tags do), ``x PAD`` (lifted) and ``r PAD LEVEL`` (the reset pin). One thread serves
them all. Used by bench/firmware.py to keep the emulator out of the board's heap.
"""

from __future__ import annotations

import selectors
import socket
import threading

from tricktable.sim import pn532_emulator as E


class ReaderHost:
    """Emulated PN532 readers reachable over TCP (a context manager)."""

    def __init__(self, pads: int = 4) -> None:
        self.chips = [E.PN532() for _ in range(pads)]
        self.ports = [E.UARTPort(chip) for chip in self.chips]
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.listener, selectors.EVENT_READ, None)
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while self.running:
            for key, _ in self.selector.select(timeout=0.05):
                if key.data is None:
                    conn, _ = self.listener.accept()
                    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    role = conn.recv(1)
                    self.selector.register(conn, selectors.EVENT_READ,
                                           {"role": role[0] if role else None, "buf": b""})
                    continue
                self._serve_one(key.fileobj, key.data)

    def _serve_one(self, conn: socket.socket, state: dict) -> None:
        try:
            data = conn.recv(4096)
        except ConnectionResetError:  # the board process ended
            data = b""
        if not data:
            self.selector.unregister(conn)
            conn.close()
            return
        if state["role"] != 0xFF:
            port = self.ports[state["role"]]
            port.write(data)
            answer = port.read(port.any())
            if answer:
                conn.sendall(answer)
            return
        state["buf"] += data
        while b"\n" in state["buf"]:
            line, state["buf"] = state["buf"].split(b"\n", 1)
            self._control(line.decode().split())

    def _control(self, words: list[str]) -> None:
        chip = self.chips[int(words[1])]
        if words[0] == "p":
            uid = bytes.fromhex(words[2])
            chip.place(E.Tag(uid, kind="ntag213", miss_every=2 if len(uid) == 7 else 0))
        elif words[0] == "x":
            chip.remove()
        elif words[0] == "r":
            chip.set_reset(int(words[2]))

    def close(self) -> None:
        self.running = False
        self.thread.join(timeout=5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()
        self.selector.close()

    def __enter__(self) -> ReaderHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

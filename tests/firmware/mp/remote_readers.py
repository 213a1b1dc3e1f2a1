"""PN532 readers outside the board's heap: the emulator runs in the host's process
(tests/firmware/readerhost.py) and each reader's UART is a TCP stream to it.

For measuring the firmware's own heap (bench/firmware.py): with casekit.LinkBoard the
emulator (~18 KB under the unix port) shares the 96k heap with the firmware; a board has no
emulator. ``RemoteBoard(port, pads)`` is the same lightest pad board, its readers on
``SocketUART`` streams; ``chips[pad].place(tag)``/``remove()`` and each reader's reset
pin go over a control stream. ``HeapMark`` samples the live heap's high-water mark. Runs
under MicroPython and CPython; imports compat, pn532 and pn532_uart (firmware, as a pad
board would).
"""

import gc
import select
import socket

from compat import asyncio, hexlify, sleep_ms
from pn532 import PN532
from pn532_uart import UARTTransport

CONTROL = 0xFF
REMOTE_TIMEOUT_MS = 2000  # a command's deadline over the stream (the bus's is pn532's 50 ms)


def _connect(port, role):
    s = socket.socket()
    s.connect(socket.getaddrinfo("127.0.0.1", port)[0][-1])
    s.send(bytes([role]))
    return s


class SocketUART:
    """machine.UART's any/read/write on a TCP stream."""

    def __init__(self, port, pad):
        self.sock = _connect(port, pad)
        self.poll = select.poll()
        self.poll.register(self.sock, select.POLLIN)
        self.rx = b""

    def write(self, buf):
        self.sock.send(bytes(buf))

    def any(self):
        if self.poll.poll(0):
            self.rx += self.sock.recv(256)
        return len(self.rx)

    def read(self, n=None):
        out, self.rx = self.rx[:n], self.rx[n:]
        return out


class Tag:
    """The emulator's Tag as board_run.py builds it: here only its UID travels."""

    def __init__(self, uid, kind=None, miss_every=0):
        self.uid = uid


class HeapMark:
    """The live heap's high-water mark: every ``every_ms``, a full collection, then what is
    still in use. ``stop()`` returns {"heap_peak", "heap_total"}."""

    def __init__(self, every_ms):
        self.peak = 0
        self.task = asyncio.create_task(self.sample(every_ms))

    async def sample(self, every_ms):
        while True:
            gc.collect()
            self.peak = max(self.peak, gc.mem_alloc())
            await sleep_ms(every_ms)

    def stop(self):
        self.task.cancel()
        return {"heap_peak": self.peak, "heap_total": gc.mem_alloc() + gc.mem_free()}


class RemoteChip:
    """One emulated PN532 in the reader host: place and lift cards, drive its reset pin."""

    def __init__(self, control, pad):
        self.control = control
        self.pad = pad

    def place(self, tag):
        """``tag``: an emulator Tag (its uid is sent) as board_run.py makes them."""
        self.control.send(f"p {self.pad} {hexlify(tag.uid)}\n".encode())

    def remove(self):
        self.control.send(f"x {self.pad}\n".encode())

    def set_reset(self, level):
        self.control.send(f"r {self.pad} {1 if level else 0}\n".encode())


class RemoteBoard:
    """A pad board for app.App whose readers live in the reader host."""

    def __init__(self, port, pads):
        control = _connect(port, CONTROL)
        self.chips = [RemoteChip(control, pad) for pad in range(pads)]
        self.readers = [PN532(UARTTransport(SocketUART(port, pad)), reset=self.chips[pad].set_reset)
                        for pad in range(pads)]
        for reader in self.readers:  # a TCP stream to another process on a loaded test machine
            reader.TIMEOUT_MS = REMOTE_TIMEOUT_MS  # is no bus: not a late chip, so not timed out
        self.pixels = self.leds = self.buzzer = self.display = None

    def network_up(self):
        return True

    def rssi(self):
        return -60

    def feed(self):
        pass

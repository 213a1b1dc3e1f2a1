"""The PN532 emulator behind a pseudo-terminal, so real serial-port code can talk to it.

``SerialPN532`` opens a pty pair, hands the slave's path (``/dev/pts/N``) to whoever wants a
"USB serial adapter", and runs a thread that feeds the bytes written there into the
emulator's ``UARTPort`` and writes the chip's answers back. pyserial opens the path like any
tty and the Adafruit ``PN532_UART`` driver runs unchanged on top of it::

    with SerialPN532() as reader:
        ser = serial.Serial(reader.port, 115200, timeout=0.05)
        pn532 = PN532_UART(ser)
        reader.place(Tag(uid)); ...
"""

from __future__ import annotations

import os
import select
import threading
import tty

from tricktable.sim.pn532_emulator import PN532, Tag, UARTPort


class SerialPN532:
    """An emulated PN532 on a UART, reachable as a serial device at ``self.port``."""

    def __init__(self, chip: PN532 | None = None, baud: int = 115200) -> None:
        self.chip = chip if chip is not None else PN532()
        self._uart = UARTPort(self.chip, baud=baud)
        self._lock = threading.Lock()
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port: str = os.ttyname(self._slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pn532-pty", daemon=True)
        self._thread.start()

    def place(self, tag: Tag) -> None:
        """Put a tag on the reader (replacing any)."""
        with self._lock:
            self.chip.place(tag)

    def remove(self) -> None:
        """Take the tag off the reader."""
        with self._lock:
            self.chip.remove()

    def hang(self) -> None:
        """The chip stops answering (until a reset pulse, which a USB reader has not)."""
        with self._lock:
            self.chip.hang()

    def _run(self) -> None:
        while not self._stop.is_set():
            readable, _, _ = select.select([self._master], [], [], 0.005)
            with self._lock:
                if readable:
                    try:
                        data = os.read(self._master, 4096)
                    except OSError:  # the slave side went away
                        return
                    self._uart.write(data)
                answer = self._uart.read(4096)  # whatever the chip has ready
            if answer:
                os.write(self._master, answer)

    def close(self) -> None:
        """Stop the thread and close both ends of the pty."""
        self._stop.set()
        self._thread.join(timeout=2)
        os.close(self._master)
        os.close(self._slave)

    def __enter__(self) -> SerialPN532:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""A MicroPython board on a USB serial port, for the provisioning tests.

The real MicroPython unix port runs its REPL (which speaks the raw REPL protocol mpremote and
``tricktable board setup`` use) on one pseudo-terminal, with a directory as its flash (its
working directory). The host side opens a second pseudo-terminal by its path, as it would
open /dev/ttyACM0; a thread copies bytes between the two masters, as the USB cable would.
``pull_cable()`` ends the board mid-conversation.
"""

from __future__ import annotations

import fcntl
import os
import select
import subprocess
import termios
import threading
import tty
from pathlib import Path

from fwkit import MICROPYTHON, MP_DIR, MicroPython


class USBBoard:
    """A unix-port MicroPython "board" whose flash is ``flash`` and whose port is ``port``.

    Fresh from flashing MicroPython it sits at its REPL; ``booting=mp`` powers it up from its
    flash instead (mp/boot_run.py: its main.py, on virtual hardware, under the MicroPython
    runner ``mp``), and everything it prints is kept in ``output``."""

    def __init__(self, flash: Path, booting: MicroPython | None = None) -> None:
        self.flash = flash
        self.board_master, board_slave = os.openpty()
        tty.setraw(board_slave)  # a USB CDC port passes bytes as they are, except that
        attrs = termios.tcgetattr(board_slave)  # Ctrl-C interrupts the running program:
        attrs[3] |= termios.ISIG  # the terminal sends SIGINT (KeyboardInterrupt) on 0x03
        termios.tcsetattr(board_slave, termios.TCSANOW, attrs)
        self.host_master, self.host_slave = os.openpty()
        tty.setraw(self.host_slave)
        self.port = os.ttyname(self.host_slave)
        command, env = [str(MICROPYTHON)], None
        if booting is not None:
            command, env = [str(MICROPYTHON), "-i", str(MP_DIR / "boot_run.py"), str(flash)], booting.env
        self.output = bytearray()
        self.proc = subprocess.Popen(command, cwd=flash, env=env, stdin=board_slave,
                                     stdout=board_slave, stderr=board_slave,
                                     start_new_session=True, preexec_fn=_own_terminal)
        os.close(board_slave)
        self.running = True
        self.closed = False
        self.relay = threading.Thread(target=self._relay, daemon=True)
        self.relay.start()

    def _relay(self) -> None:
        pairs = {self.board_master: self.host_master, self.host_master: self.board_master}
        while self.running:
            ready, _, _ = select.select(list(pairs), [], [], 0.05)
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:  # the board's terminal closed: the cable is out
                    self.running = False
                    return
                if fd == self.board_master:
                    self.output += data
                os.write(pairs[fd], data)

    def type(self, keys: bytes) -> None:
        """Keys typed at a serial console on the host's end of the cable."""
        os.write(self.board_master, keys)

    def pull_cable(self) -> None:
        """The board loses power mid-whatever: its process ends at once."""
        self.proc.kill()
        self.proc.wait()
        self.running = False

    def close(self) -> None:
        """Unplug for good (twice is once: a closed descriptor's number is soon reused)."""
        if self.closed:
            return
        self.closed = True
        if self.proc.poll() is None:
            self.pull_cable()
        self.running = False
        self.relay.join(timeout=5)
        for fd in (self.board_master, self.host_master, self.host_slave):
            os.close(fd)


def _own_terminal() -> None:
    """In the board's process (a new session): make its terminal the controlling one, so
    the Ctrl-C byte reaches it as SIGINT."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def snapshot(flash: Path) -> dict[str, bytes]:
    """Every file of a board's flash, by name."""
    return {p.name: p.read_bytes() for p in sorted(flash.iterdir()) if p.is_file()}

"""A board's MicroPython raw REPL over its USB serial port, on mpremote's transport.

``RawREPL(port)`` opens the port with ``mpremote.transport_serial.SerialTransport``
(MicroPython's own tool, which speaks the raw REPL: Ctrl-A enters it, each program goes in
raw-paste mode with the board's flow control where the board offers it, else in 256-byte
chunks, and comes back as its output and its exception text) and adds what ``board setup``
needs around it: a program the board is running is stopped firmly first (Ctrl-C twice: the
firmware's own handler may take the first), every failure is a ``BoardError`` that names the
port and says what the board did, ``timeout`` bounds every wait (a board that loses power
mid-copy is noticed), and leaving can soft-reset the board at its friendly REPL so that
main.py starts. The unix port of MicroPython speaks the same protocol on its terminal, which
is how the tests drive a "board" on a pseudo-terminal.
"""

from __future__ import annotations

import contextlib
import io
import os
import struct
import time

import serial
from mpremote.transport import TransportError
from mpremote.transport_serial import SerialTransport

CTRL_B, CTRL_C, CTRL_D = b"\x02", b"\x03", b"\x04"
STOP_PAUSE_S = 0.1  # after Ctrl-C: time for the running program to end and say so


class BoardError(RuntimeError):
    """The board did not answer as MicroPython's raw REPL does, or a program on it failed."""


def _why_not_open(port: str) -> str:
    """Why the port cannot be opened, in the system's words (mpremote only says it failed)."""
    try:
        os.close(os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK))
    except OSError as exc:
        return exc.strerror or str(exc)
    return "another program has it open (close its serial console or mpremote first)"


class RawREPL:
    """One serial connection to a board in raw REPL mode (a context manager)."""

    def __init__(self, port: str, baudrate: int = 115200, timeout: float = 10.0) -> None:
        self.port = port
        self.timeout = timeout
        try:
            self.transport = SerialTransport(port, baudrate=baudrate, timeout=timeout)
        except TransportError:
            raise BoardError(f"cannot open {port}: {_why_not_open(port)}") from None

    def __enter__(self) -> RawREPL:
        try:
            self.enter()
        except BaseException:
            self.transport.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def enter(self) -> None:
        """Stop the running program and enter the raw REPL."""
        self.transport.serial.write(b"\r" + CTRL_C + CTRL_C)
        time.sleep(STOP_PAUSE_S)
        said = io.StringIO()  # mpremote prints what the board sent when it gets no prompt
        try:
            with contextlib.redirect_stdout(said):
                self.transport.enter_raw_repl(soft_reset=False, timeout_overall=self.timeout)
        except (TransportError, serial.SerialException) as exc:
            sent = said.getvalue().strip()[-200:]
            sent = "nothing" if sent in ("", "b''") else sent
            raise BoardError(f"{self.port} does not answer as a MicroPython board (no raw "
                             f"REPL: {exc}); it sent {sent}") from None

    def exec(self, program: str, timeout: float | None = None) -> str:
        """Run ``program`` on the board; its printed output (BoardError if it raised)."""
        said = io.StringIO()
        try:
            with contextlib.redirect_stdout(said):
                out, err = self.transport.exec_raw(
                    program, timeout=self.timeout if timeout is None else timeout)
        except (TransportError, serial.SerialException, struct.error) as exc:
            # struct.error: raw-paste mode's window size cut short (the board went away)
            raise BoardError(f"{self.port}: the board stopped answering ({exc}) "
                             f"{said.getvalue().strip()[-200:]}".rstrip()) from None
        if err:
            raise BoardError(f"{self.port}: the board raised: {err.decode(errors='replace').strip()}")
        return out.decode(errors="replace")

    def close(self, soft_reset: bool = False) -> None:
        """Leave the raw REPL (and soft-reset at the friendly REPL, so main.py starts) and close
        the port."""
        if not self.transport.serial.is_open:
            return
        try:
            self.transport.exit_raw_repl()
            if soft_reset:
                self.transport.serial.write(CTRL_D)
            self.transport.serial.flush()
        finally:
            self.transport.close()

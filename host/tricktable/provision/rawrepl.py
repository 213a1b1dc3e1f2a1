"""MicroPython's raw REPL over a serial port, the protocol mpremote speaks.

Ctrl-C twice stops whatever the board runs; Ctrl-A enters the raw REPL (the board answers
``raw REPL; CTRL-B to exit`` and ``>``); each program is sent followed by Ctrl-D, the board
answers ``OK``, runs it, and sends its output, Ctrl-D, any exception text, Ctrl-D and ``>``.
Programs go in the raw REPL's paste mode where the board offers it (Ctrl-E ``A`` Ctrl-A;
the board answers ``R\x01`` and a window size, and sends ``\x01`` each time it has room for
another window: flow control, so a board behind a USB-UART bridge is never overrun);
otherwise in 256-byte chunks with a pause, as mpremote's pyboard.py does.
Ctrl-B leaves the raw REPL; Ctrl-D at the friendly REPL soft-resets the board (main.py runs).
The unix port of MicroPython speaks the same protocol on its terminal, which is how the tests
drive a "board" on a pseudo-terminal.
"""

from __future__ import annotations

import time

import serial

CTRL_A, CTRL_B, CTRL_C, CTRL_D = b"\x01", b"\x02", b"\x03", b"\x04"
RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"
CHUNK = 256  # without paste mode: bytes written at a time, then a pause (a board behind a
CHUNK_PAUSE_S = 0.01  # USB-UART bridge has a small input buffer and no flow control)
PASTE = b"\x05A\x01"


class BoardError(RuntimeError):
    """The board did not answer as MicroPython's raw REPL does, or a program on it failed."""


class RawREPL:
    """One serial connection to a board in raw REPL mode (a context manager)."""

    def __init__(self, port: str, baudrate: int = 115200, timeout: float = 10.0) -> None:
        try:
            self.serial = serial.serial_for_url(port, baudrate=baudrate, timeout=0.1)
        except (serial.SerialException, OSError) as exc:
            raise BoardError(f"cannot open {port}: {exc}") from exc
        self.port = port
        self.timeout = timeout
        self.paste: bool | None = None  # does the board take paste mode (None: not asked yet)

    def __enter__(self) -> RawREPL:
        try:
            self.enter()
        except BaseException:
            self.serial.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def read_until(self, ending: bytes, timeout: float | None = None) -> bytes:
        """Bytes up to and including ``ending``; BoardError when it does not come in time."""
        data = bytearray()
        give_up = time.monotonic() + (self.timeout if timeout is None else timeout)
        while not data.endswith(ending):
            byte = self.serial.read(1)
            if byte:
                data += byte
                give_up = max(give_up, time.monotonic() + 1.0)  # still talking: keep listening
            elif time.monotonic() > give_up:
                raise BoardError(f"{self.port}: no {ending!r} from the board; it sent "
                                 f"{bytes(data[-200:])!r}")
        return bytes(data)

    def enter(self) -> None:
        """Stop the running program and enter the raw REPL."""
        self.serial.write(b"\r" + CTRL_C + CTRL_C)
        time.sleep(0.1)
        self.serial.reset_input_buffer()
        self.serial.write(b"\r" + CTRL_A)
        try:
            self.read_until(RAW_PROMPT)
        except BoardError as exc:
            raise BoardError(f"{self.port} does not answer as a MicroPython board "
                             f"(no raw REPL): {exc}") from None

    def read_exactly(self, n: int) -> bytes:
        data = b""
        give_up = time.monotonic() + self.timeout
        while len(data) < n:
            data += self.serial.read(n - len(data))
            if len(data) < n and time.monotonic() > give_up:
                raise BoardError(f"{self.port}: the board stopped answering (got {data!r})")
        return data

    def send_pasted(self, data: bytes) -> None:
        """Send a program in paste mode, a window at a time as the board asks for more."""
        window = int.from_bytes(self.read_exactly(2), "little")
        room = window
        sent = 0
        while sent < len(data):
            while room == 0 or self.serial.in_waiting:
                signal = self.read_exactly(1)
                if signal == b"\x01":
                    room += window
                elif signal == CTRL_D:  # the board ended the paste (out of memory)
                    self.serial.write(CTRL_D)
                    return
                else:
                    raise BoardError(f"{self.port}: unexpected {signal!r} in paste mode")
            block = data[sent:sent + room]
            self.serial.write(block)
            sent += len(block)
            room -= len(block)
        self.serial.write(CTRL_D)
        self.read_until(CTRL_D)

    def send_chunked(self, data: bytes) -> None:
        for i in range(0, len(data), CHUNK):
            self.serial.write(data[i:i + CHUNK])
            time.sleep(CHUNK_PAUSE_S)
        self.serial.write(CTRL_D)
        self.read_until(b"OK")

    def exec(self, program: str, timeout: float | None = None) -> str:
        """Run ``program`` on the board; its printed output (BoardError if it raised)."""
        data = program.encode()
        if self.paste is not False:
            self.serial.write(PASTE)
            answer = self.read_exactly(2)
            self.paste = answer == b"R\x01"
            if answer not in (b"R\x00", b"R\x01"):  # an older board: it took those as text
                self.read_until(RAW_PROMPT[2:])  # and answered with its prompt ("ra" read)
        if self.paste:
            self.send_pasted(data)
        else:
            self.send_chunked(data)
        out = self.read_until(CTRL_D, timeout)[:-1]
        err = self.read_until(CTRL_D, timeout)[:-1]
        self.read_until(b">", timeout)
        if err:
            raise BoardError(f"{self.port}: the board raised: {err.decode(errors='replace').strip()}")
        return out.decode(errors="replace")

    def close(self, soft_reset: bool = False) -> None:
        """Leave the raw REPL (and soft-reset, so main.py starts) and close the port."""
        if not self.serial.is_open:
            return
        try:
            self.serial.write(CTRL_B + (CTRL_D if soft_reset else b""))
            self.serial.flush()
        finally:
            self.serial.close()

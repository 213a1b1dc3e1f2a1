"""PN532 over its high-speed UART (115200 baud): a byte stream, framed here.

Imports nothing. One reader per UART; the wake-up preamble is sent by ``wakeup()``.
"""

class UARTTransport:
    """PN532 high-speed UART: a byte stream, buffered here until a whole frame is in."""

    def __init__(self, uart):
        self.uart = uart
        self.buf = b""

    def wakeup(self):
        self.uart.write(b"\x55\x55\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")

    def write(self, frame):
        self.buf = b""
        self.uart.write(frame)

    def _frame_end(self):
        i = self.buf.find(b"\x00\xff")  # the start code, whatever preamble came before it
        if i < 0:
            return -1
        if i:
            self.buf = self.buf[i:]
        if len(self.buf) < 4:
            return -1
        n = self.buf[2]
        if n == 0x00 or n == 0xFF:
            return 4
        end = n + 5  # to the data checksum: the postamble is not waited for (pn532.py)
        return end if len(self.buf) >= end else -1

    def ready(self):
        waiting = self.uart.any()
        if waiting:
            self.buf += self.uart.read(waiting) or b""
        return self._frame_end() > 0

    def read_frame(self, max_len):
        end = self._frame_end()
        if end < 0:
            return b""
        frame, self.buf = self.buf[:end], self.buf[end:]
        return frame

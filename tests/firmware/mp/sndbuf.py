"""A board's small TCP send buffer for a board process under the unix port (kept out of
casekit, which brings the PN532 emulator into the heap).

lwIP's TCP_SND_BUF is a few KB on a board; the unix port's default is hundreds of KB, in
which a stalled link never fills. ``small_buffers(size)`` makes every TCP socket the process
opens from then on buffer ``size`` bytes to send, so a stall fills it as it fills a board's.
"""

import sys


class SmallBuffers:
    """The socket module, its TCP sockets given a board-sized send buffer: lwIP's
    TCP_SND_BUF is a few KB, the unix port's default hundreds, so a stalled link fills it as
    it fills a board's."""

    def __init__(self, real, size):
        self._real, self._size = real, size

    def __getattr__(self, name):
        return getattr(self._real, name)

    def socket(self, *args):
        s = self._real.socket(*args)
        if not args or args[-1] != self._real.SOCK_DGRAM:
            s.setsockopt(self._real.SOL_SOCKET, 7, self._size)  # SO_SNDBUF (Linux)
        return s


def small_buffers(size):
    """From now on every TCP socket this process opens buffers ``size`` bytes to send."""
    import socket

    sys.modules["socket"] = SmallBuffers(socket, size)

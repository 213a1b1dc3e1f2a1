"""The firmware's non-blocking socket helpers under CPython (tests, the host's simulator), which
the firmware's ``compat`` imports as ``hostnet`` when it is not on MicroPython; a board's
MicroPython sockets are streams (firmware/compat.py), so this never goes on a board.
"""

import asyncio
import ssl
import time

_WOULD_BLOCK = (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError)


def sock_readinto(sock, view):
    """Bytes read into ``view``; None when nothing has come yet, 0 when the peer closed."""
    try:
        return sock.recv_into(view)
    except _WOULD_BLOCK:
        return None


def sock_write(sock, view):
    """Bytes of ``view`` written; 0 when the socket has no room now."""
    try:
        return sock.send(view)
    except _WOULD_BLOCK:
        return 0


async def tls_wrap(ctx, sock, addr, host, timeout_ms):
    """The TLS socket over ``sock`` (non-blocking, connecting to ``addr``), once connected and
    its handshake done, both polled (CPython wraps only a connected socket; MicroPython's
    handshake runs inside the first writes and reads, which say 'busy' until it is done)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while sock.connect_ex(addr) not in (0, 106):  # EISCONN: connected
        if time.monotonic() > deadline:
            raise OSError(f"no TCP connection in {timeout_ms} ms")
        await asyncio.sleep(0.005)
    sock = ctx.wrap_socket(sock, server_hostname=host, do_handshake_on_connect=False)
    while True:
        try:
            sock.do_handshake()
            return sock
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            pass
        if time.monotonic() > deadline:
            raise OSError(f"no TLS handshake in {timeout_ms} ms")
        await asyncio.sleep(0.005)

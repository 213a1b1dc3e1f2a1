"""compat's non-blocking socket helpers under CPython (tests, the host's simulator); not
deployed to boards, whose MicroPython sockets are streams (compat.py).

Imports ssl, and compat's clock when it runs (compat imports this module).
"""

import ssl

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
    from compat import sleep_ms, ticks_diff, ticks_ms

    start = ticks_ms()
    while sock.connect_ex(addr) not in (0, 106):  # EISCONN: connected
        if ticks_diff(ticks_ms(), start) > timeout_ms:
            raise OSError("no TCP connection in %d ms" % timeout_ms)
        await sleep_ms(5)
    sock = ctx.wrap_socket(sock, server_hostname=host, do_handshake_on_connect=False)
    while True:
        try:
            sock.do_handshake()
            return sock
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            pass
        if ticks_diff(ticks_ms(), start) > timeout_ms:
            raise OSError("no TLS handshake in %d ms" % timeout_ms)
        await sleep_ms(5)

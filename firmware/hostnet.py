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


async def tls_handshake(sock, timeout_ms, poll_ms):
    """CPython's TLS handshake on a non-blocking socket, polled (MicroPython's runs inside
    the first reads and writes, which say 'busy' until it is done)."""
    from compat import sleep_ms, ticks_diff, ticks_ms

    start = ticks_ms()
    while True:
        try:
            sock.do_handshake()
            return
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            pass
        if ticks_diff(ticks_ms(), start) > timeout_ms:
            raise OSError("no TLS handshake in %d ms" % timeout_ms)
        await sleep_ms(poll_ms)

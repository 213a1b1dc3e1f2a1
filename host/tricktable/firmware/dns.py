"""A broker's host name to an IPv4 address without blocking: one DNS query over UDP, polled.

Imports compat and socket only; mqtt.py imports it when the broker is given by name and the
board knows its DNS server (hw.Board.dns_server). ``socket.getaddrinfo`` blocks the whole
board until the answer comes (lwIP's resolver tries for seconds), and a slow DNS longer than
the watchdog reset the board; here the query is sent again every ``RETRY_MS`` and the reply
polled between the other tasks' turns. The message is RFC 1035's (section 4.1: a header, one
question of type A, class IN, recursion desired); the first A record of the answer section
is the address.
"""

from compat import sleep_ms, ticks_diff, ticks_ms

RETRY_MS = 1000
POLL_MS = 10


def query(name, ident):
    """The query message for ``name``'s A record (RFC 1035, 4.1.1 and 4.1.2)."""
    out = bytearray([ident >> 8, ident & 0xFF, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0])
    for label in name.rstrip(".").split("."):
        if not 0 < len(label) < 64:
            raise ValueError("bad host name %r" % name)
        out.append(len(label))
        out += label.encode()
    out += b"\x00\x00\x01\x00\x01"
    return bytes(out)


def _skip_name(msg, i):
    while True:
        n = msg[i]
        if n == 0:
            return i + 1
        if n & 0xC0 == 0xC0:  # a pointer ends the name (4.1.4)
            return i + 2
        i += n + 1


def answer(msg, ident):
    """The first IPv4 address of a reply to query ``ident``; None if this is not one; OSError
    when the server says the name does not exist or failed."""
    if len(msg) < 12 or (msg[0] << 8 | msg[1]) != ident or not msg[2] & 0x80:
        return None
    rcode = msg[3] & 0x0F
    if rcode:
        raise OSError("DNS answered rcode %d" % rcode)
    questions = msg[4] << 8 | msg[5]
    answers = msg[6] << 8 | msg[7]
    i = 12
    for _ in range(questions):
        i = _skip_name(msg, i) + 4
    for _ in range(answers):
        i = _skip_name(msg, i)
        kind = msg[i] << 8 | msg[i + 1]
        size = msg[i + 8] << 8 | msg[i + 9]
        i += 10
        if kind == 1 and size == 4:
            return "%d.%d.%d.%d" % (msg[i], msg[i + 1], msg[i + 2], msg[i + 3])
        i += size
    raise OSError("DNS answer has no IPv4 address")


async def resolve(name, server, timeout_ms=5000):
    """``name``'s IPv4 address from the DNS server ``server`` = (ip, port); OSError when no
    answer came within ``timeout_ms``."""
    import socket

    ident = ticks_ms() & 0xFFFF
    msg = query(name, ident)
    addr = socket.getaddrinfo(server[0], server[1])[0][-1]  # a literal: no lookup
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setblocking(False)
    try:
        start = ticks_ms()
        sent = None
        while ticks_diff(ticks_ms(), start) < timeout_ms:
            if sent is None or ticks_diff(ticks_ms(), sent) >= RETRY_MS:
                sock.sendto(msg, addr)
                sent = ticks_ms()
            try:
                reply = sock.recv(512)
            except OSError:  # nothing yet (EAGAIN)
                reply = None
            if reply:
                ip = answer(reply, ident)
                if ip is not None:
                    return ip
            await sleep_ms(POLL_MS)
    finally:
        sock.close()
    raise OSError("no DNS answer for %s in %d ms" % (name, timeout_ms))

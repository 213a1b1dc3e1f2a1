"""A broker's host name to an IPv4 address without blocking: one DNS query over UDP, polled.

Imports compat and socket only; mqtt.py imports it when the broker is given by name and the
board knows its DNS server (hw.Board.dns_server). ``socket.getaddrinfo`` blocks the whole
board until the answer comes (lwIP's resolver tries for seconds), and a slow DNS longer than
the watchdog reset the board; here the query is sent again every ``RETRY_MS`` and the reply
polled between the other tasks' turns. The message is RFC 1035's (section 4.1: a header, one
question of type A, class IN, recursion desired); the first A record of the answer section
is the address. A reply from another address than the server's, with another id, cut short or
garbled is waited past like silence (RFC 5452, section 9.1: accept a reply only from the
address the query went to, with its id): whatever comes, the parser raises nothing but the
OSError the MQTT link handles (issue 33: an IndexError from a cut record once escaped the link
and reset the board).
"""

from compat import jitter, sleep_ms, ticks_diff, ticks_ms

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
    """The index after the name at ``i``; IndexError past the message's end, ValueError for
    a label kind RFC 1035 does not define (4.1.4: 00 a label, 11 a pointer)."""
    while True:
        n = msg[i]
        if n == 0:
            return i + 1
        if n & 0xC0 == 0xC0:  # a pointer ends the name (4.1.4)
            if i + 1 >= len(msg):
                raise IndexError("pointer cut short")
            return i + 2
        if n & 0xC0:
            raise ValueError("label kind 0x%02x" % n)
        i += n + 1


def answer(msg, ident):
    """The first IPv4 address of a reply to query ``ident``; None if this is no reply to it
    (another id, a query, a message cut short or garbled: a forger's or a broken middlebox's,
    waited past like silence); OSError when the server says the name does not exist or
    failed, or answers with no address. Nothing else is raised, whatever the bytes."""
    if len(msg) < 12 or (msg[0] << 8 | msg[1]) != ident or not msg[2] & 0x80:
        return None
    rcode = msg[3] & 0x0F
    if rcode:
        raise OSError("DNS answered rcode %d" % rcode)
    try:
        return _first_a(msg)
    except (IndexError, ValueError):
        return None


def _first_a(msg):
    """The first A record's address of a well-formed reply; IndexError or ValueError when it
    is not one; OSError when it has none."""
    i = 12
    for _ in range(msg[4] << 8 | msg[5]):  # the questions
        i = _skip_name(msg, i) + 4
    for _ in range(msg[6] << 8 | msg[7]):  # the answers
        i = _skip_name(msg, i)
        kind = msg[i] << 8 | msg[i + 1]
        size = msg[i + 8] << 8 | msg[i + 9]
        i += 10
        if i + size > len(msg):
            raise IndexError("record past the end")
        if kind == 1 and size == 4:
            return "%d.%d.%d.%d" % (msg[i], msg[i + 1], msg[i + 2], msg[i + 3])
        i += size
    if i > len(msg):
        raise IndexError("question past the end")
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
        wait = 0
        while ticks_diff(ticks_ms(), start) < timeout_ms:
            if sent is None or ticks_diff(ticks_ms(), sent) >= wait:
                sock.sendto(msg, addr)
                sent, wait = ticks_ms(), jitter(RETRY_MS)
            try:
                reply, peer = sock.recvfrom(512)
            except OSError:  # nothing yet (EAGAIN)
                reply = peer = None
            if reply and peer == addr:  # a reply from another address is a forger's
                ip = answer(reply, ident)
                if ip is not None:
                    return ip
            await sleep_ms(POLL_MS)
    finally:
        sock.close()
    raise OSError("no DNS answer for %s in %d ms" % (name, timeout_ms))

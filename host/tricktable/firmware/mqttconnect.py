"""The connecting half of mqtt.py's client: resolve the broker, open the socket (TLS when
configured), CONNECT, wait for CONNACK, subscribe and send again what is in flight.

Imports compat and mqtt (dns.py when the broker is given by name and the board knows its
DNS server, tlsctx.py and tlsfed.py with TLS). ``MQTTClient._open`` imports it for each
connect and drops it once the connect is over, as main.py drops config.py after boot: a
board whose link is up holds none of this code in its heap (about 1.8 KB on the 64-bit unix
port), and one that reconnects loads it from flash again.

A broker host name is resolved without blocking (dns.py, a UDP query polled like the
socket) when ``client.dns`` gives the DNS server; the address is kept for the boot and
resolved again after ``_RESOLVE_AFTER`` failed connects in a row. ``getaddrinfo`` (which
blocks) is left only for a literal address and where no DNS server is known (the unix
port, CPython).
"""

from compat import const, ticks_ms, tls_wrap
from mqtt import MQTTError, _packet, _str, publish_head

_RESOLVE_AFTER = const(3)  # failed connects in a row before the broker's name is resolved again


def connect_packet(client_id, keepalive, clean, will, user, password):
    """CONNECT; will = (topic, payload, retain) or None."""
    flags = 0x02 if clean else 0
    payload = _str(client_id)
    if will:
        flags |= 0x04 | 0x08 | (0x20 if will[2] else 0)
        payload += _str(will[0]) + _str(will[1])
    if user is not None:
        flags |= 0x80
        payload += _str(user)
        if password is not None:
            flags |= 0x40
            payload += _str(password)
    body = _str("MQTT") + bytes([4, flags, keepalive >> 8, keepalive & 0xFF]) + payload
    return _packet(0x10, body)


def is_ip(host):
    """True for a dotted IPv4 address (no DNS needed)."""
    parts = host.split(".")
    return len(parts) == 4 and all(p.isdigit() and 0 <= int(p) <= 255 for p in parts)


async def resolve(client):
    """The broker's socket address: kept for the boot, resolved again after
    _RESOLVE_AFTER failed connects; a name through dns.py when the DNS server is known."""
    if client._addr is not None and client._failed < _RESOLVE_AFTER:
        return client._addr
    import socket

    host = client.host
    server = client.dns() if client.dns is not None and not is_ip(host) else None
    if server:
        from dns import resolve

        host = await resolve(host, server, client.connect_timeout_ms)
    client.address = host
    client._addr = socket.getaddrinfo(host, client.port)[0][-1]  # a literal: no lookup
    client._failed = 0
    return client._addr


async def connect_socket(client):
    """A non-blocking TCP socket connecting to the broker (TLS wrapped when configured);
    the CONNECT written next waits, polled, until the connection is up (as mqtt_as)."""
    import socket

    addr = await resolve(client)
    sock = socket.socket()
    sock.setblocking(False)
    client._sock = sock
    try:
        sock.connect(addr)
    except OSError as e:
        if e.args[0] not in (115, 119, 11):  # EINPROGRESS (119 on lwIP), EAGAIN
            raise
    if client.ssl is not None:
        if isinstance(client.ssl, str):
            from tlsctx import tls_context

            client.ssl = tls_context(client.ssl)
        if tls_wrap is not None:  # CPython: wrapped once connected, the handshake polled
            sock = await tls_wrap(client.ssl, sock, addr, client.host, client.connect_timeout_ms)
        else:  # MicroPython: the handshake runs inside the first writes and reads
            sock = client.ssl.wrap_socket(sock, server_hostname=client.host,
                                          do_handshake_on_connect=False)
            if client.watchdog is not None:  # fed across the handshake's long steps
                from tlsfed import Fed

                sock = Fed(sock, client.watchdog)
        client._sock = sock


async def open_link(client):
    """Connect ``client`` (an mqtt.MQTTClient): socket, CONNECT and CONNACK, subscriptions,
    the in-flight packets again (DUP set), then its ``on_connect``."""
    client._broken = None
    client._owed = []
    await connect_socket(client)
    will = client.will
    if will:
        will = (will[0], will[1].encode() if isinstance(will[1], str) else will[1], will[2])
    client._last_rx = client._ping_at = ticks_ms()
    await client._send(connect_packet(client.client_id, client.keepalive, client.clean, will,
                                      client.user, client.password))
    first, body = await client._read_packet(client.connect_timeout_ms)
    if first != 0x20 or body is None or len(body) != 2:
        raise MQTTError("expected CONNACK, got packet 0x%02x" % first)
    if body[1]:
        raise MQTTError("broker refused the connection, return code %d" % body[1])
    client._sock = getattr(client._sock, "tls", client._sock)  # the handshake is over (Fed)
    client._failed = 0
    client.connected = True
    client.connects += 1
    for topic in client.subscriptions:
        pid = client._next_pid()
        await client._send(_packet(0x82, bytes([pid >> 8, pid & 0xFF]) + _str(topic) + b"\x01"))
    for pid in list(client.inflight):
        topic, payload, retain = client.inflight[pid]
        await client._send(publish_head(topic, len(payload), 1, retain, pid, True), payload)
    if client.on_connect:
        await client.on_connect()

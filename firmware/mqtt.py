"""A small MQTT 3.1.1 client on asyncio streams (non-blocking sockets), for boards and tests.

Imports compat only. QoS 0 and 1 publish with PUBACK tracking (in-flight packets are sent
again, DUP set, after a reconnect), QoS 1 subscriptions (incoming QoS 1 PUBLISH is
PUBACKed; boardconfig.py sends SUBSCRIBE/UNSUBSCRIBE while connected), keepalive with PINGREQ when idle and a dead link declared after 1.5 keepalive
periods of silence, a retained last will, TLS (tlsctx.py) when given a CA file, and ``run()``: connect, serve, and reconnect
with exponential backoff forever. One task reads; publishers write whole packets.

A message's payload is read into one buffer of its size, in small pieces (no copy of the
packet); one longer than ``max_packet``, or for which the heap has no piece that long free, is
read past in small pieces (a QoS 1 PUBLISH still PUBACKed, so the broker does not send it
again: a board asks again for a firmware chunk it missed), counted in ``skipped``, and the
link stays up.
"""

from compat import asyncio, sleep_ms, ticks_diff, ticks_ms, wait_for_ms


class MQTTError(OSError):
    """The broker refused us or broke the protocol."""


def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)


def _str(s):
    if isinstance(s, str):
        s = s.encode()
    return bytes([len(s) >> 8, len(s) & 0xFF]) + s


def _packet(first, body):
    return bytes([first]) + _varint(len(body)) + body


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


def publish_head(topic, payload_len, qos, retain, pid, dup=False):
    """Everything of a PUBLISH but its payload (written separately: no copy of the payload)."""
    first = 0x30 | (0x08 if dup else 0) | (qos << 1) | (1 if retain else 0)
    var = _str(topic) + (bytes([pid >> 8, pid & 0xFF]) if qos else b"")
    return bytes([first]) + _varint(len(var) + payload_len) + var


class MQTTClient:
    """One connection to one broker, kept up by ``run()``."""

    max_packet = 2048  # bytes: a longer packet is skipped (a firmware chunk is 1 KB and a head)

    def __init__(self, host, port, client_id, keepalive=30, user=None, password=None,
                 will=None, clean=False, backoff_ms=(250, 8000), connect_timeout_ms=5000,
                 ssl=None):
        self.host = host
        self.ssl = ssl  # for mqtts: the CA file (DER), made an SSLContext on the first connect
        self.port = port
        self.client_id = client_id
        self.keepalive = keepalive
        self.user = user
        self.password = password
        self.will = will
        self.clean = clean
        self.backoff_ms = backoff_ms
        self.connect_timeout_ms = connect_timeout_ms
        self.on_message = None  # callable(topic str, payload bytes)
        self.on_connect = None  # coroutine function, run after CONNACK and subscriptions
        self.network_up = None  # callable -> bool (Wi-Fi), or None
        self.subscriptions = []
        self.inflight = {}  # pid -> topic, payload, retain
        self.connected = False
        self.connects = 0
        self.published = 0
        self.skipped = 0  # packets longer than max_packet, read past
        self._pid = 0
        self._reader = None
        self._writer = None
        self._last_rx = 0
        self._last_tx = 0
        self._stop = False

    def subscribe(self, topic):
        """Add a QoS 1 subscription, (re)made on every connect."""
        self.subscriptions.append(topic)

    def _next_pid(self):
        while True:
            self._pid = self._pid % 65535 + 1
            if self._pid not in self.inflight:
                return self._pid

    async def _send(self, data, more=None):
        if self._writer is None:
            raise OSError("MQTT not connected")
        self._writer.write(data)
        if more:
            self._writer.write(more)
        await self._writer.drain()
        self._last_tx = ticks_ms()

    async def _send_publish(self, topic, payload, qos, retain, pid, dup=False):
        await self._send(publish_head(topic, len(payload), qos, retain, pid, dup), payload)

    async def publish(self, topic, payload, qos=1, retain=False):
        """Send a PUBLISH; for QoS 1 return its packet id (kept until PUBACK), else 0."""
        if isinstance(payload, str):
            payload = payload.encode()
        if not self.connected:
            raise OSError("MQTT not connected")
        pid = 0
        if qos:
            pid = self._next_pid()
            self.inflight[pid] = (topic, payload, retain)
        await self._send_publish(topic, payload, qos, retain, pid)
        self.published += 1
        return pid

    async def _read_packet(self, timeout_ms):
        """One packet: (first byte, body). A PUBLISH's body is (topic bytes, packet id bytes or
        None, payload or None: read past); another packet's body is None when it was longer
        than ``max_packet``."""
        reader = self._reader
        if reader is None:
            raise MQTTError("MQTT link closed")
        first = (await wait_for_ms(reader.readexactly(1), timeout_ms))[0]
        n = 0
        shift = 0
        while True:
            b = (await wait_for_ms(reader.readexactly(1), timeout_ms))[0]
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        if first & 0xF0 == 0x30:
            body = await self._read_publish(first, n, timeout_ms)
        elif n > self.max_packet:
            await self._discard(n, timeout_ms)
            self.skipped += 1
            body = None
        else:
            body = await wait_for_ms(reader.readexactly(n), timeout_ms) if n else b""
        self._last_rx = ticks_ms()
        return first, body

    async def _read_publish(self, first, n, timeout_ms):
        """A PUBLISH's (topic, packet id, payload). The payload is read into one buffer of its
        size, in small pieces (no second copy); a payload longer than ``max_packet``, or with no
        room in the heap for it, is read past (None) and counted in ``skipped``."""
        reader = self._reader
        head = await wait_for_ms(reader.readexactly(2), timeout_ms)
        topic_len = (head[0] << 8) | head[1]
        rest = n - 2 - topic_len - (2 if first & 0x06 else 0)
        if rest < 0:
            raise MQTTError("PUBLISH shorter than its topic")
        topic = await wait_for_ms(reader.readexactly(topic_len), timeout_ms)
        pid = await wait_for_ms(reader.readexactly(2), timeout_ms) if first & 0x06 else None
        payload = None
        if rest <= self.max_packet:
            try:
                payload = bytearray(rest)
            except MemoryError:
                pass  # no piece of the heap that long free: read past it, the link stays up
        if payload is None:
            await self._discard(rest, timeout_ms)
            self.skipped += 1
            return topic, pid, None
        view = memoryview(payload)
        got = 0
        while got < rest:
            piece = await wait_for_ms(reader.read(min(rest - got, 256)), timeout_ms)
            if not piece:
                raise EOFError("MQTT link closed mid-packet")
            view[got : got + len(piece)] = piece
            got += len(piece)
        return topic, pid, payload

    async def _discard(self, n, timeout_ms):
        while n:
            piece = await wait_for_ms(self._reader.read(min(n, 256)), timeout_ms)
            if not piece:
                raise EOFError("MQTT link closed mid-packet")
            n -= len(piece)

    async def _open(self):
        if isinstance(self.ssl, str):
            from tlsctx import tls_context

            self.ssl = tls_context(self.ssl)
        self._reader, self._writer = await wait_for_ms(
            asyncio.open_connection(self.host, self.port, ssl=self.ssl), self.connect_timeout_ms)
        will = self.will
        if will:
            will = (will[0], will[1].encode() if isinstance(will[1], str) else will[1], will[2])
        await self._send(connect_packet(self.client_id, self.keepalive, self.clean, will,
                                        self.user, self.password))
        first, body = await self._read_packet(self.connect_timeout_ms)
        if first != 0x20 or body is None or len(body) != 2:
            raise MQTTError("expected CONNACK, got packet 0x%02x" % first)
        if body[1]:
            raise MQTTError("broker refused the connection, return code %d" % body[1])
        self.connected = True
        self.connects += 1
        for topic in self.subscriptions:
            pid = self._next_pid()
            await self._send(_packet(0x82, bytes([pid >> 8, pid & 0xFF]) + _str(topic) + b"\x01"))
        for pid in list(self.inflight):
            topic, payload, retain = self.inflight[pid]
            await self._send_publish(topic, payload, 1, retain, pid, dup=True)
        if self.on_connect:
            await self.on_connect()

    async def _close(self):
        self.connected = False
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            try:
                writer.close()
                await writer.wait_closed()
            except OSError:
                pass

    async def _serve(self):
        """Read packets until the link dies; ping when idle."""
        tick = max(self.keepalive * 1000 // 4, 100)
        while True:
            try:
                first, body = await self._read_packet(tick)
            except asyncio.TimeoutError:
                now = ticks_ms()
                if ticks_diff(now, self._last_rx) > self.keepalive * 1500:
                    raise MQTTError("no word from the broker for 1.5 keepalive periods") from None
                if ticks_diff(now, self._last_tx) >= self.keepalive * 500:
                    await self._send(b"\xc0\x00")
                continue
            kind = first & 0xF0
            if kind == 0x30:
                topic, pid, payload = body
                if payload is not None and self.on_message:
                    self.on_message(topic.decode(), payload)
                if pid is not None:  # PUBACKed even when read past: the broker sends it once
                    await self._send(b"\x40\x02" + pid)
            elif body is None:  # read past: longer than max_packet
                pass
            elif kind == 0x40 and len(body) == 2:  # PUBACK
                self.inflight.pop((body[0] << 8) | body[1], None)
            elif kind in (0x90, 0xB0, 0xD0):  # SUBACK, UNSUBACK, PINGRESP
                pass
            else:
                raise MQTTError("unexpected packet 0x%02x" % first)

    async def run(self):
        """Stay connected until ``stop()``: connect, serve, back off, reconnect."""
        delay = self.backoff_ms[0]
        while not self._stop:
            if self.network_up is not None and not self.network_up():
                await sleep_ms(delay)
                continue
            try:
                await self._open()
                delay = self.backoff_ms[0]
                await self._serve()
            except (OSError, ValueError, asyncio.TimeoutError, EOFError, MemoryError):
                pass  # link down, TLS refused (ValueError on MicroPython), heap short: retry
            await self._close()
            if self._stop:
                break
            await sleep_ms(delay)
            delay = min(delay * 2, self.backoff_ms[1])

    async def stop(self):
        """Send DISCONNECT (the will is not published) and end ``run()``."""
        self._stop = True
        if self.connected:
            try:
                await self._send(b"\xe0\x00")
            except OSError:
                pass
        await self._close()

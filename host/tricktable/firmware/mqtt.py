"""A small MQTT 3.1.1 client on one non-blocking socket, polled, for boards and tests.

Imports compat, and for each connect mqttconnect.py (the socket, CONNECT, subscriptions;
dropped once connected). QoS 0 and 1 publish with PUBACK tracking (in-flight packets are
sent again, DUP set, after a reconnect), QoS 1 subscriptions (incoming QoS 1 PUBLISH is
PUBACKed; boardconfig.py sends SUBSCRIBE/UNSUBSCRIBE while connected), keepalive, a retained
last will, TLS (tlsctx.py) when given a CA file, and ``run()``: connect, serve, and reconnect
with exponential backoff forever, each wait jittered (compat.jitter: 120 boards cut off at
once come back at their own moments); whatever one attempt raises ends that attempt, not
the board (``fault`` says what it was, in the status).

The socket, as Peter Hinch's mqtt_as keeps it (the asyncio MQTT client for MicroPython that
was tested against outages): non-blocking and polled, never awaited through asyncio's stream
waits (MicroPython's asyncio keeps one waiter per stream direction: a reader's timed-out
wait dropped the writer's, and a board stopped sending for good after a link stall), and one
writer at a time: every packet is written whole behind one lock. A write that makes no
progress for ``write_timeout_ms`` kills the link (a stalled peer), as does silence from the
broker for 1.25 keepalive periods (pings go out at half a period of silence), so a stall is
seen within 1.5 keepalives and ``connected`` turns False. The reader never waits for the
lock: a PUBACK or PINGREQ it owes goes out when no one else is writing. ``alive`` is the
ticks_ms of the client's last sign of life (a poll of the socket, a backoff step): the app's
watchdog starves a board whose link task hangs, never one whose link is merely down.

A broker host name is resolved without blocking (mqttconnect.py, through dns.py) when ``dns``
gives the DNS server; the address is kept for the boot.

A message's payload is read into one buffer of its size (no copy of the packet), or, when the
heap has no piece that long free, into the ``spare`` a download lends; one longer than
``max_packet``, or with neither room nor a spare that fits, is read past in small
pieces (a QoS 1 PUBLISH still PUBACKed, so the broker does not send it again: a board asks
again for a firmware chunk it missed), counted in ``skipped``, and the link stays up.
"""

from compat import (
    asyncio,
    borrowed,
    const,
    jitter,
    sleep_ms,
    sock_readinto,
    sock_write,
    ticks_diff,
    ticks_ms,
)

# a socket with nothing to read or no room to write is tried again this much later
_POLL_MS = const(5)
_STEP_MS = const(200)  # a backoff sleeps in steps this long, each one a sign of life
_PINGREQ = const(b"\xc0\x00")
_REFUSED = const((104, 111))  # ECONNRESET, ECONNREFUSED: the broker's host said no


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
                 ssl=None, write_timeout_ms=None):
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
        # a write with no progress this long is a stalled link (at most half a keepalive)
        self.write_timeout_ms = write_timeout_ms or min(connect_timeout_ms, keepalive * 500)
        self.on_message = None  # callable(topic str, payload bytes)
        self.on_connect = None  # coroutine function, run after CONNACK and subscriptions
        self.network_up = None  # callable -> bool (Wi-Fi), or None
        self.dns = None  # callable -> (DNS server ip, port) or None, for a broker given by name
        # the App (its healthy(now), its board's feed()): the watchdog fed across a TLS
        # handshake's blocking steps (tlsfed.Fed), or None
        self.watchdog = None
        self.subscriptions = []
        self.inflight = {}  # pid -> topic, payload, retain
        self.connected = False
        self.connects = 0
        self.published = 0
        self.skipped = 0  # packets longer than max_packet, read past
        # A buffer lent by a download (fwupdate.py): a payload the heap has no piece for just
        # then is read into it and handed on as a memoryview, used before on_message returns.
        self.spare = None
        self.alive = ticks_ms()
        self.address = None  # the broker's address as last resolved
        self.fault = None  # what an attempt raised that no link error explains (the status's)
        self.network = True  # the board's network said it was up when last asked
        self.taken = 0  # links the broker ended within a keepalive of connecting
        self.heard = ticks_ms()  # the broker's host last answered (connected, or refused us)
        self._pid = 0
        self._sock = None
        self._addr = None  # the broker's address, resolved once per boot
        self._failed = 0  # connects failed in a row
        self._lock = asyncio.Lock()
        self._owed = []  # PUBACKs and PINGREQ the reader sends once no one else writes
        self._broken = None  # why a writer gave the link up
        self._last_rx = 0
        self._last_tx = 0
        self._ping_at = 0
        self._stop = False

    def subscribe(self, topic):
        """Add a QoS 1 subscription, (re)made on every connect."""
        self.subscriptions.append(topic)

    def _next_pid(self):
        while True:
            self._pid = self._pid % 65535 + 1
            if self._pid not in self.inflight:
                return self._pid

    # -- the socket: polled, one writer at a time ---------------------------------------------
    async def _write(self, data):
        """Write all of ``data`` (the lock held); a write with no progress for
        ``write_timeout_ms`` breaks the link."""
        view = memoryview(data)
        since = ticks_ms()
        while view:
            sock = self._sock
            if sock is None or self._broken:
                raise OSError("MQTT link closed")
            n = sock_write(sock, view)
            now = ticks_ms()
            self.alive = now
            if n:
                view = view[n:]
                since = now
                continue
            if ticks_diff(now, since) > self.write_timeout_ms:
                self._broken = "a write made no progress for %d ms" % self.write_timeout_ms
                raise OSError(self._broken)
            await sleep_ms(_POLL_MS)
        self._last_tx = ticks_ms()

    async def _send(self, data, more=None):
        """Write one whole packet (``more``: its payload, not copied), behind the lock."""
        if self._sock is None:
            raise OSError("MQTT not connected")
        async with self._lock:
            await self._write(data)
            if more:
                await self._write(more)

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
        await self._send(publish_head(topic, len(payload), qos, retain, pid), payload)
        self.published += 1
        return pid

    async def _fill(self, view, deadline_ms=None):
        """Read exactly len(view) bytes. While nothing comes: pay what the reader owes when
        no one writes, ping at half a keepalive of silence, and give the link up after 1.25
        keepalives of silence (or ``deadline_ms``, while connecting) or once the network is
        down."""
        got = 0
        start = ticks_ms()
        while got < len(view):
            sock = self._sock
            if sock is None or self._broken:
                raise OSError(self._broken or "MQTT link closed")
            n = sock_readinto(sock, view[got:] if got else view)  # no garbage per idle poll
            now = ticks_ms()
            self.alive = now
            if not n and self.network_up is not None and not self.network_up():
                self.network = False
                raise OSError("the network is down")  # as mqtt_as asks the WLAN in its loops
            if n:
                got += n
                self._last_rx = now
                continue
            if n == 0:
                raise EOFError("MQTT link closed by the broker")
            if deadline_ms is not None:
                if ticks_diff(now, start) > deadline_ms:
                    raise OSError("no answer from the broker in %d ms" % deadline_ms)
            elif ticks_diff(now, self._last_rx) > self.keepalive * 1250:
                raise MQTTError("no word from the broker for 1.25 keepalive periods")
            elif not self._lock.locked():
                half = self.keepalive * 500
                if (ticks_diff(now, self._last_tx) >= half or ticks_diff(now, self._last_rx) >= half) \
                        and ticks_diff(now, self._ping_at) >= half // 2 and _PINGREQ not in self._owed:
                    self._owed.append(_PINGREQ)  # at most one ping a quarter keepalive
                    self._ping_at = now
                if self._owed:
                    async with self._lock:
                        while self._owed:
                            await self._write(self._owed[0])
                            self._owed.pop(0)
                    continue
            await sleep_ms(_POLL_MS)
        return view

    async def _read(self, n, deadline_ms=None):
        buf = bytearray(n)
        await self._fill(memoryview(buf), deadline_ms)
        return buf

    async def _read_packet(self, deadline_ms=None):
        """One packet: (first byte, body). A PUBLISH's body is (topic bytes, packet id bytes or
        None, payload or None: read past); another packet's body is None when it was longer
        than ``max_packet``."""
        first = (await self._read(1, deadline_ms))[0]
        n = 0
        shift = 0
        while True:
            b = (await self._read(1, deadline_ms))[0]
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        if first & 0xF0 == 0x30:
            return first, await self._read_publish(first, n)
        if n > self.max_packet:
            await self._discard(n)
            self.skipped += 1
            return first, None
        return first, (await self._read(n, deadline_ms) if n else b"")

    async def _read_publish(self, first, n):
        """A PUBLISH's (topic, packet id, payload). The payload is read into one buffer of its
        size (no second copy); a payload longer than ``max_packet``, or with no room in the
        heap for it, is read past (None) and counted in ``skipped``."""
        head = await self._read(2)
        topic_len = (head[0] << 8) | head[1]
        rest = n - 2 - topic_len - (2 if first & 0x06 else 0)
        if rest < 0:
            raise MQTTError("PUBLISH shorter than its topic")
        topic = await self._read(topic_len)
        pid = await self._read(2) if first & 0x06 else None
        payload = None
        if rest <= self.max_packet:
            try:
                payload = bytearray(rest)
            except MemoryError:  # no piece of the heap that long free: into the spare, if lent
                if self.spare is not None and rest <= len(self.spare):
                    payload = memoryview(self.spare)[:rest]
        if payload is None:
            await self._discard(rest)
            self.skipped += 1
            return topic, pid, None
        await self._fill(memoryview(payload))
        return topic, pid, payload

    async def _discard(self, n):
        while n:
            k = min(n, 256)
            await self._read(k)
            n -= k

    # -- connecting --------------------------------------------------------------------------
    async def _open(self):
        """Connect, CONNECT and subscribe (mqttconnect.py: imported for each connect and
        dropped again, so a link that is up holds none of that code in RAM)."""
        await borrowed("mqttconnect").open_link(self)

    async def _close(self):
        if self.connected:
            self.heard = ticks_ms()
        self.connected = False
        sock, self._sock = self._sock, None
        self._broken = self._broken or "closed"
        if sock is not None:
            try:
                sock.close()
            except OSError:
                pass

    async def _serve(self):
        """Read packets until the link dies (``_fill`` pings when idle)."""
        while True:
            first, body = await self._read_packet()
            kind = first & 0xF0
            if kind == 0x30:
                topic, pid, payload = body
                if payload is not None and self.on_message:
                    self.on_message(topic.decode(), payload)
                if pid is not None:  # PUBACKed even when read past: the broker sends it once
                    self._owed.append(b"\x40\x02" + pid)
            elif body is None:  # read past: longer than max_packet
                pass
            elif kind == 0x40 and len(body) == 2:  # PUBACK
                self.inflight.pop((body[0] << 8) | body[1], None)
            elif kind in (0x90, 0xB0, 0xD0):  # SUBACK, UNSUBACK, PINGRESP
                pass
            else:
                raise MQTTError("unexpected packet 0x%02x" % first)

    async def _pause(self, ms):
        """Sleep ``ms`` in steps, each a sign of life for the watchdog."""
        for _ in range(0, ms, _STEP_MS):
            self.alive = ticks_ms()
            await sleep_ms(min(_STEP_MS, ms))
        self.alive = ticks_ms()

    async def run(self):
        """Stay connected until ``stop()``: connect, serve, back off, reconnect. The back-off
        starts again from its first step only after a link that lasted a keepalive: a link the
        broker ends at once (another client with our id took the session, MQTT-3.1.4-2:
        counted in ``taken``) backs off further each time, so two boards with one id do not
        take it from each other every 250 ms."""
        delay = self.backoff_ms[0]
        while not self._stop:
            self.alive = ticks_ms()
            self.network = self.network_up is None or self.network_up()
            if not self.network:
                delay = self.backoff_ms[0]  # not the broker's doing: try soon once it is back
                await self._pause(jitter(delay))
                continue
            opened = None
            try:
                await self._open()
                opened = ticks_ms()
                await self._serve()
            except Exception as e:  # whatever one attempt raised: that attempt's end, not the board's
                self._failed += 1
                if isinstance(e, MQTTError) or isinstance(e, OSError) and e.args \
                        and e.args[0] in _REFUSED:
                    self.heard = ticks_ms()  # the broker, or its host, answered
                elif isinstance(e, EOFError) and opened is not None \
                        and ticks_diff(ticks_ms(), opened) < self.keepalive * 1000:
                    self.taken += 1
                elif not isinstance(e, (OSError, ValueError, EOFError, MemoryError)):
                    self.fault = "%s: %s" % (type(e).__name__, e)  # not a link's error
            if opened is not None and ticks_diff(ticks_ms(), opened) >= self.keepalive * 1000:
                delay = self.backoff_ms[0]  # a link that lasted: try again soon
            await self._close()
            if self._stop:
                break
            await self._pause(jitter(delay))
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

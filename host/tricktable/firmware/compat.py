"""Clock, sleep and heap helpers that read the same under MicroPython and CPython, and
``const`` (MicroPython's: an ``_``-named module constant is folded into the bytecode, with
no global and no name kept in RAM; the value itself under CPython).

Imports only the language's standard modules. Every other firmware module takes its
time from here, so the same code runs on a board, on the unix port and in the host's
simulator.
"""

import gc
import sys
import time
from random import getrandbits  # a board seeds it at boot (rp2: the ROSC; ESP32: its RNG)

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):  # type: ignore[misc]
        """The value: MicroPython's compiler folds a ``const`` into the code that uses it."""
        return value


def borrowed(name):
    """Module ``name`` imported and at once dropped from ``sys.modules`` again: code that runs
    only at boot, at a connect or at a reader's recovery stays in RAM only as long as what
    the caller took from it is in use (firmware/README.md, "Memory")."""
    module = __import__(name)
    sys.modules.pop(name, None)
    return module


try:
    import asyncio
except ImportError:  # older MicroPython firmware
    import uasyncio as asyncio  # type: ignore[no-redef]

if hasattr(time, "ticks_ms"):
    ticks_ms = time.ticks_ms
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
    ticks_add = time.ticks_add
else:

    def ticks_ms():
        return time.monotonic_ns() // 1000000

    def ticks_us():
        return time.monotonic_ns() // 1000

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, delta):
        return a + delta


# A non-blocking socket with nothing to read or no room to write says so by these errnos:
# EAGAIN, EINPROGRESS, ETIMEDOUT, and the ESP32's and rp2's own (as mqtt_as lists them).
_BUSY = const((11, 115, 110, 118, 119, -110))

if hasattr(time, "ticks_ms"):  # MicroPython: sockets are streams (None: nothing yet)

    def sock_readinto(sock, view):
        """Bytes read into ``view``; None when nothing has come yet, 0 when the peer closed."""
        try:
            return sock.readinto(view)
        except OSError as e:
            if e.args[0] in _BUSY:
                return None
            raise

    def sock_write(sock, view):
        """Bytes of ``view`` written; 0 when the socket has no room now."""
        try:
            return sock.write(view) or 0
        except OSError as e:
            if e.args[0] in _BUSY:
                return 0
            raise

    tls_wrap = None  # MicroPython's TLS handshake runs inside the first writes and reads

else:  # CPython (tests, the host's simulator): host/tricktable/sim/hostnet.py, never on a board
    from hostnet import sock_readinto, sock_write, tls_wrap  # type: ignore[import-not-found,no-redef]  # noqa: F401


class Uptime:
    """Milliseconds since it was made, past any number of tick wraps (a board's ticks_ms
    wraps at 2**30 ms, and ticks_diff of two ticks is right only within half of that): each
    call adds the ticks_diff since the last one, so calling it at least once a few days
    (every status does) keeps it right for ever."""

    def __init__(self):
        self.last = ticks_ms()
        self.ms = 0

    def __call__(self):
        now = ticks_ms()
        self.ms += ticks_diff(now, self.last)
        self.last = now
        return self.ms


if hasattr(asyncio, "sleep_ms"):
    sleep_ms = asyncio.sleep_ms
else:

    def sleep_ms(ms):
        return asyncio.sleep(ms / 1000)


def wait_for_ms(awaitable, ms):
    """Await with a time-out in milliseconds (asyncio.TimeoutError when it runs out)."""
    if hasattr(asyncio, "wait_for_ms"):
        return asyncio.wait_for_ms(awaitable, ms)
    return asyncio.wait_for(awaitable, ms / 1000)


if hasattr(gc, "mem_free"):  # MicroPython: a small heap that fragments

    def collect():
        """Run a full garbage collection."""
        gc.collect()

else:  # CPython (tests, the host's simulator): one process holds many boards and the host

    def collect():
        """Nothing: CPython frees by reference counting; a full collection of the whole
        process at every board's send round cost the simulator most of its time."""


def jitter(ms):
    """``ms`` spread at random over its upper half (``ms`` // 2 .. ``ms``): boards that were
    cut off together (an access point rebooting, the broker restarting) retry at their own
    moments, not in lock step (AWS Architecture Blog, "Exponential Backoff And Jitter": equal
    jitter)."""
    half = ms // 2
    return half + getrandbits(20) % (ms - half + 1)


if sys.platform == "esp32":  # a heap that grows: what it can still take counts (esp32heap.py)
    from esp32heap import heap_free
else:

    def heap_free():
        """Free heap in bytes, or None where the interpreter does not say (CPython)."""
        return gc.mem_free() if hasattr(gc, "mem_free") else None


def heap_used():
    """Heap in use in bytes, or None where the interpreter does not say (CPython)."""
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else None


def hexlify(data):
    """Lower-case hex of bytes (no separators)."""
    return "".join("%02x" % b for b in data)


def unhexlify(text):
    """Bytes from hex text; ValueError on anything else."""
    if len(text) % 2:
        raise ValueError("odd-length hex: %r" % text)
    return bytes(int(text[i : i + 2], 16) for i in range(0, len(text), 2))

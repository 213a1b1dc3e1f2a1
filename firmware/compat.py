"""Clock, sleep and heap helpers that read the same under MicroPython and CPython.

Imports only the language's standard modules. Every other firmware module takes its
time from here, so the same code runs on a board, on the unix port and in the host's
simulator.
"""

import gc
import time

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

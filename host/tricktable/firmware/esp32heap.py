"""An ESP32's split heap: ``heap_free()`` counts what the GC heap can still grow by.

compat.py takes its ``heap_free`` from here on an ESP32 only (the other ports' heaps do not
grow). Imports gc, and the port's ``esp32`` module when asked.
"""

import gc

from micropython import const

# ESP32: what the IDF heap keeps for itself when the GC heap grows into it (Wi-Fi's buffers,
# lwIP 4-7 KB a socket, mbedTLS 16 KB + 4 KB a TLS socket: micropython/micropython#8940)
_IDF_KEEPS = const(28672)


def idf_growth():
    """ESP32: bytes the GC heap can still grow by, from the ESP-IDF heap, leaving it
    ``_IDF_KEEPS``. The port's heap starts small (56 KB on an ESP32) and gains an area when
    an allocation fails after a collection (py/gc.c ``gc_try_add_heap``; ports/esp32
    ``gc_get_max_new_split``: the IDF heap's largest free block), and ``gc.mem_free()``
    counts only the areas gained so far."""
    from esp32 import HEAP_DATA, idf_heap_info  # type: ignore[import-not-found,unused-ignore]  # an ESP32 only

    largest = max(region[2] for region in idf_heap_info(HEAP_DATA))
    return largest - _IDF_KEEPS if largest > _IDF_KEEPS else 0


def heap_free():
    """Free heap in bytes: what the areas gained so far have free, and what the heap can
    still gain (``idf_growth``)."""
    return gc.mem_free() + idf_growth()

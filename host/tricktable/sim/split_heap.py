"""An ESP32's split GC heap and its ESP-IDF heap, for the firmware's tests (runs under
MicroPython and CPython; small, apart from virtual.py, so a case's heap holds it)."""


class SplitHeap:
    """An ESP32's GC heap and its ESP-IDF heap, standing in for ``gc`` and ``esp32`` (put it in
    compat's ``gc`` and in sys.modules as ``esp32``). After py/gc.c and ports/esp32
    (MICROPY_GC_SPLIT_HEAP_AUTO): the heap starts with one area (56 KB on an ESP32,
    mpconfigport.h ``MICROPY_GC_INITIAL_HEAP_SIZE``), and only an allocation that fails after a
    collection adds one, taken from the IDF heap's largest free block (``gc_try_add_heap``,
    ``gc_get_max_new_split``); ``mem_free()`` counts the areas gained so far, never what the
    IDF could still give; ``esp32.idf_heap_info(HEAP_DATA)`` lists the IDF's regions as
    (total, free, largest free block, least free ever)."""

    HEAP_DATA = 0x1000  # esp32.HEAP_DATA (MALLOC_CAP_8BIT)

    def __init__(self, area=56 * 1024, used=0, idf_free=(80 * 1024,)):
        self.areas = [area]
        self.used = used
        self.idf = list(idf_free)  # the largest free block of each IDF region

    def mem_free(self):
        return sum(self.areas) - self.used

    def mem_alloc(self):
        return self.used

    def collect(self):
        pass  # what is used here is live: a collection frees none of it

    def idf_heap_info(self, caps):
        return [(size + 4096, size, size, size // 2) for size in self.idf]

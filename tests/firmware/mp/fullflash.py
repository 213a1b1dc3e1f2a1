"""A flash that fills up: the outbox's ENOSPC cases (firmware/README.md, "A full flash").

What a board's file systems do once no room is left, from the sources MicroPython builds
(micropython/micropython: lib/littlefs/lfs2.c, lib/oofatfs/ff.c, extmod/):

* littlefs, the file system of the rp2 and esp32 ports: an append needs a new block
  (``lfs2_file_flushedwrite`` -> ``lfs2_ctz_extend`` -> ``lfs2_alloc``, which returns
  ``LFS2_ERR_NOSPC``, -28, "No more free space"); the file is then marked
  ``LFS2_F_ERRED`` and ``lfs2_file_close_`` does not sync it ("it's not safe to do anything
  if our file errored"), so it stays as of its last sync or close. A small file lives in
  its cache and in the directory's metadata ("inline", up to the cache size: 1 KB with the
  rp2 port's ``progsize=256``, extmod/vfs_lfsx.c ``init_config``): there the close's
  ``lfs2_file_sync_`` fails alike and commits nothing. Data is written copy-on-write: a
  file rewritten needs room for the new data while the old is still there. A rename is a
  metadata commit, and fails with NOSPC when the metadata has no room to grow.
  MicroPython raises each as ``OSError(-res)``, errno 28, ENOSPC (extmod/vfs_lfsx_file.c
  ``file_write`` and its ``MP_STREAM_CLOSE`` ioctl; extmod/vfs_lfsx.c ``rename``).
* FAT (oofatfs), on a board formatted so: ``f_write`` writes what the clusters it can still
  allocate hold and reports fewer bytes ("Could not allocate a new cluster (disk full)",
  lib/oofatfs/ff.c); extmod/vfs_fat_file.c ``file_obj_write`` raises
  ``OSError(MP_ENOSPC)`` for the short write ("The FatFS documentation says that this means
  disk full"): what fitted stays in the file, a torn record.

``fill(directory, room)`` gives the directory ``room`` bytes more than its files hold now
(bytes, not 4 KB blocks: a model) and from then on every ``open()`` for writing follows
littlefs (``fat=True``: FAT) and ``os.rename`` fails with ENOSPC while ``renames`` is
false; ``room_back()`` ends it. builtins.open is replaced, and the ``os`` module for the
modules imported afterwards (outboxload.py is imported for each call: compat.borrowed).
"""

import builtins
import os
import sys

ENOSPC = 28
OPEN = builtins.open
INLINE = 1024  # a littlefs file this small is written at its close, not at its writes


def used(directory):
    """Bytes the files of ``directory`` hold."""
    return sum(os.stat(directory + "/" + name)[6] for name in os.listdir(directory))


class LittleFile:
    """A file opened for writing on littlefs: committed whole at its close, or not at all."""

    def __init__(self, flash, path, mode):
        self.flash = flash
        self.path = path
        self.mode = mode
        self.data = []
        self.size = 0
        self.erred = False
        try:
            self.base = os.stat(path)[6] if "a" in mode else 0
        except OSError:
            self.base = 0

    def write(self, data):
        if self.erred:
            raise OSError(ENOSPC)
        self.data.append(data)
        self.size += len(data)
        if self.base + self.size > INLINE and self.size > self.flash.free():
            self.erred = True  # no block to extend the file with: the file as it was
            raise OSError(ENOSPC)
        return len(data)

    def close(self):
        if self.erred:
            return  # lfs2_file_close_ syncs nothing
        if self.size > self.flash.free():  # the sync's commit finds no room
            raise OSError(ENOSPC)
        with OPEN(self.path, self.mode) as f:
            for data in self.data:
                f.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FatFile:
    """A file opened for writing on FAT: a write keeps what fits, then ENOSPC."""

    def __init__(self, flash, path, mode):
        self.flash = flash
        self.f = OPEN(path, mode)

    def write(self, data):
        left = self.flash.free()
        if len(data) > left:
            self.f.write(data[:max(left, 0)])
            raise OSError(ENOSPC)
        return self.f.write(data)

    def close(self):
        self.f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


class FullOs:
    """The ``os`` module, with a rename that may fail for want of room."""

    def __init__(self, flash):
        self.flash = flash

    def __getattr__(self, name):
        return getattr(os, name)

    def rename(self, old, new):
        if not self.flash.renames:
            raise OSError(ENOSPC)
        os.rename(old, new)


class Flash:
    """The directory's room: ``free()`` bytes left; ``grow(n)`` adds n (a file removed
    elsewhere); ``renames`` False makes every rename fail; ``opens``: files opened for
    writing so far."""

    def __init__(self, directory, room, fat, renames):
        self.directory = directory
        self.capacity = used(directory) + room
        self.renames = renames
        self.file = FatFile if fat else LittleFile
        self.opens = 0

    def free(self):
        return self.capacity - used(self.directory)

    def grow(self, n):
        self.capacity += n


def fill(directory, room, fat=False, renames=True):
    """From now on ``directory`` holds ``room`` bytes more at most; the Flash."""
    flash = Flash(directory, room, fat, renames)

    def full_open(path, mode="r"):
        if "a" in mode or "w" in mode:
            flash.opens += 1
            return flash.file(flash, path, mode)
        return OPEN(path, mode)

    builtins.open = full_open
    sys.modules["os"] = FullOs(flash)
    sys.modules.pop("outboxload", None)  # imported again, with this os
    return flash


def room_back():
    """Files open, and rename, as before."""
    builtins.open = OPEN
    sys.modules["os"] = os
    sys.modules.pop("outboxload", None)

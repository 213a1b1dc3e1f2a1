"""Firmware updates over MQTT: a signed bundle offered by the host, fetched in chunks, checked,
swapped in (docs/fleet.md, docs/protocol.md "Firmware updates").

Imports hashlib, json, os, compat, fwslot (the boot loader's slots and pointer: fwslot
imports nothing of this module) and sigcheck (for the signature's check, then dropped);
main.py's ``updates`` imports it on the first message on the board's ``update`` topics, so a
board that is never updated keeps the RAM. The offer carries the bundle's version, the size
of its manifest (version; the public key; every file's name, size and SHA-256) and of the
manifest's signature. The signature is HSS/LMS (RFC 8554) under the host's firmware signing
key, checked with the public key alone: config.json's ``update_pub``, or, on a board set up
before public keys that took the migration bundle, the key in the signed manifest of the
bundle it boots. A board that holds neither takes no updates: the old scheme's HMAC under a
key every board held is not checked here at all (docs/fleet.md, "Signatures"). The board
refuses an offer while a hand is in progress; else it fetches the manifest and its signature
like any file, in chunks into the slot not booted, and refuses them unless the signature is
the key's, the manifest carries the same key, names files within the bundle's rules and
carries a counter higher than the running bundle's (a correctly signed older bundle is a
downgrade: only the director's ``tricktable fleet rollback``, which signs the old files again
with a fresh counter, takes a board back);
then it fetches each file (resuming from what the slot already holds), checks every size and
hash, points fw/boot.json at the new slot on trial, and restarts. fwslot.py rolls back a
bundle that does not come online. Every step is reported in the status's ``update``.

Memory: nothing larger than a chunk (``CHUNK``, one MQTT packet) is ever held: the manifest
is written to flash as it comes, signed and hashed from the file in small pieces, and parsed
from the file one line, one file, at a time. A step the heap is too short or too
broken up for just then (a chunk, the manifest's parse) is not the offer's end: the chunk is
asked for again, the download resumed from the slot after a pause, and a verdict's status
sent again, before the board gives up for want of heap.
"""

import hashlib
import json
import os

import fwslot
from compat import asyncio, borrowed, collect, sleep_ms, unhexlify

CHUNK = 512  # bytes asked for at a time: one chunk in RAM, whatever the file's size
SPARE_HEAD = 64  # bytes for a chunk's ``name\noffset\n`` in the buffer lent to the link
RETRY_MS = 3000  # a chunk not come by then is asked for again
WAIT_STEP_MS = 20  # how often the fetch looks whether its chunk came (or was read past)
HEAP_TRIES = 5  # a download that finds the heap short is resumed this many times in all
HEAP_PAUSE_MS = 500  # before each: the board's other tasks free what they hold meanwhile
MAX_MANIFEST = 16384  # bytes: protocol.py's MAX_MANIFEST
MAX_SIGNATURE = 16384  # bytes: protocol.py's MAX_SIGNATURE
MANIFEST = "manifest.json"  # the manifest, fetched into the slot like the files
SIGNATURE = "manifest.sig"  # its signature, fetched the same way
OFFERED = "offer.sig"  # the name of the offer the slot's files belong to
BOOT_LOADER = ("main.py", "main.mpy", "fwslot.py", "fwslot.mpy")
RESERVED = BOOT_LOADER + (MANIFEST, SIGNATURE, OFFERED)
NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"


def same(a, b):
    """Compare two digests in a time that does not depend on where they differ."""
    diff = len(a) ^ len(b)
    for i in range(min(len(a), len(b))):
        diff |= a[i] ^ b[i]
    return diff == 0


def size_of(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def feed(h, path):
    """Hash a file's bytes into ``h``, 256 bytes at a time."""
    buf = bytearray(256)
    view = memoryview(buf)
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                return
            h.update(view[:n])


def newline(buf, start):
    """Where the first b"\\n" from ``start`` is in ``buf`` (bytes, or the memoryview of the
    link's spare, which has no find), or -1."""
    for i in range(start, len(buf)):
        if buf[i] == 10:
            return i
    return -1


def sha256_of(path):
    h = hashlib.sha256()
    feed(h, path)
    return h.digest()


def empty(where):
    """Remove every file in the slot directory ``where``."""
    for name in os.listdir(where):
        os.remove(where + "/" + name)


def public_key(app):
    """The public key (hex) this board checks bundles with: config.json's ``update_pub``, else
    the one the signed manifest of the bundle it boots carries (a board moved from the old
    scheme by the migration bundle), else None."""
    key = app.cfg.get("update_pub")
    if key:
        return key
    active = fwslot.read_pointer(app.outbox.dir)["active"]
    if not active:
        return None
    try:
        return manifest_head(fwslot.slot_dir(app.outbox.dir, active) + "/" + MANIFEST)[2]
    except (OSError, ValueError):
        return None


def manifest_head(path):
    """The manifest's version, counter and public key (None if it carries none), from its
    first line (bundle.py writes the head and ``"files": [`` there, then one file a line, so
    no more than a line is parsed at a time: the whole document at once needs pieces a heap in
    use rarely has); ValueError naming the fault."""
    with open(path) as f:
        first = f.readline().rstrip()
    if not first.endswith('"files": ['):
        raise ValueError("manifest is not written one file a line: build the bundle again")
    doc = json.loads(first + "]}")
    version = doc.get("version")
    if not isinstance(version, str) or not version:
        raise ValueError("manifest needs a version and a list of files")
    counter = doc.get("counter")
    if not isinstance(counter, int) or isinstance(counter, bool) or counter < 0:
        raise ValueError("manifest needs a counter (bundles made before counters cannot be "
                         "told from older ones)")
    return version, counter, doc.get("pub")


def manifest_files(path):
    """Each file of the manifest at ``path`` as (name, size, sha256 bytes), one line parsed
    at a time; ValueError naming the fault."""
    with open(path) as f:
        f.readline()  # the head
        while True:
            line = f.readline().rstrip()
            if line == "]}":
                return
            if not line:
                raise ValueError("manifest ends before its list of files does")
            entry = json.loads(line[:-1] if line.endswith(",") else line)
            name = entry.get("name")
            if not isinstance(name, str) or not name or name[0] == "." \
                    or [c for c in name if c not in NAME_CHARS]:
                raise ValueError("bad file name in manifest: %r" % (name,))
            if name in RESERVED:
                raise ValueError("a bundle may not hold the boot loader or a manifest (%s)" % name)
            size = entry.get("size")
            digest = unhexlify(entry.get("sha256", ""))
            if not isinstance(size, int) or size < 0 or len(digest) != 32:
                raise ValueError("%s: size and sha256 are required" % name)
            yield name, size, digest


def handle(app, topic, payload):
    """A message on the board's update topics, to the board's Updater (made on the first)."""
    if getattr(app, "updater", None) is None:
        app.updater = Updater(app)
    app.updater.handle(topic, payload)


class Updater:
    """One board's update: the offer it is working on, and the chunk it waits for."""

    def __init__(self, app):
        self.app = app
        self.storage = app.outbox.dir
        self.topic_fetch = app.cfg["prefix"] + "/v1/board/" + app.id + "/fetch"
        self.want = None  # (path, file name, offset) of the chunk asked for
        self.got = False  # the chunk asked for came
        self.lost = False  # the chunk asked for came but the heap was short to write it
        self.task = None

    def handle(self, topic, payload):
        collect()  # a chunk is written, an offer starts a download: start from a clean heap
        if topic.endswith("/chunk"):
            try:
                self.chunk(payload)
            except MemoryError:  # dropped, not the link: the fetch asks for it again at once
                self.lost = True
            return
        version = None
        try:
            msg = json.loads(payload)
            version = msg.get("version")
            self.offered(msg)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            self.report("refused", version, str(e))
        except MemoryError:
            self.report("refused", version, "not enough heap free to take an update")

    def report(self, state, version, reason=None):
        fwslot.report(self.app, update={"state": state, "version": version, "reason": reason})
        if self.app.link.connected:
            asyncio.create_task(self.publish_status())

    async def publish_status(self):
        """Publish the status now: a verdict waits for no status period. A heap short this
        moment is collected and tried again; a link down leaves it to the status sent on
        connecting."""
        for _ in range(HEAP_TRIES):
            try:
                await self.app.publish_status()
                return
            except OSError:
                return
            except MemoryError:
                collect()
                await sleep_ms(HEAP_PAUSE_MS)

    def busy(self):
        """Why a hand may be in progress on this board, or None. Between the taps of a hand
        scan neither holds: the host offers only between hands (fleet/updater.py)."""
        app = self.app
        if [p for p in app.pads if p.present is not None]:
            return "a card lies on a pad"
        if app.outbox.pending:
            return "plays not yet acknowledged by the host"
        return None

    def offered(self, msg):
        """Check an offer (its form, not mid-hand); then fetch and check its manifest."""
        if not public_key(self.app):
            raise ValueError("this board has no update public key (update_pub): it takes no "
                             "updates signed the old way; set it up again")
        version, size, sig = msg["version"], msg["size"], msg["sig"]
        sig_size = msg.get("sig_size")
        if not isinstance(version, str) or not version or not isinstance(size, int) \
                or not 0 < size <= MAX_MANIFEST or len(unhexlify(sig)) != 32:
            raise ValueError("an offer needs a version, the manifest's size and its signature")
        if not isinstance(sig_size, int) or not 0 < sig_size <= MAX_SIGNATURE:
            raise ValueError("not signed with the club's firmware signing key (an offer signed "
                             "the old way, without a public-key signature)")
        if version == fwslot.version(self.app):
            self.report("current", version)
            return
        why = self.busy()
        if why:
            raise ValueError("busy: " + why + "; offer again between hands")
        if self.task is not None and not self.task.done():
            return  # already fetching (a repeated offer)
        active = fwslot.read_pointer(self.storage)["active"]
        slot = "b" if active == "a" else "a"
        where = fwslot.slot_dir(self.storage, slot)
        self.stage(where, sig)
        self.report("fetching", version)
        self.task = asyncio.create_task(self.take(version, (size, sig_size), slot, where))

    def stage(self, where, sig):
        """Make ``where`` the home of the offer signed ``sig``: keep what was fetched for the
        same offer before (a resumed download), drop anything else."""
        for d in (self.storage + "/fw", where):
            try:
                os.mkdir(d)
            except OSError:
                pass  # it exists
        try:
            with open(where + "/" + OFFERED) as f:
                kept = f.read() == sig
        except OSError:
            kept = False
        if not kept:
            empty(where)
            with open(where + "/" + OFFERED, "w") as f:
                f.write(sig)

    async def take(self, version, sizes, slot, where):
        """Download and check the bundle into ``where``, then swap it in and restart. A heap
        too short for a step (parsing the manifest, a chunk) leaves the slot with what it
        holds: the download is resumed after a pause, ``HEAP_TRIES`` times in all, before the
        offer is refused for want of heap (a later offer resumes it again)."""
        running = fwslot.read_pointer(self.storage).get("counter", 0)
        for tries_left in range(HEAP_TRIES - 1, -1, -1):
            try:
                counter = await self.download(version, sizes, where, running)
                break
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                empty(where)
                self.report("refused", version, str(e))
                return
            except MemoryError:
                self.want = None
                if not tries_left:
                    self.report("refused", version, "not enough heap free to take an update")
                    return
            collect()
            await sleep_ms(HEAP_PAUSE_MS)
        pointer = fwslot.read_pointer(self.storage)
        fwslot.write_pointer(self.storage, {
            "active": slot, "version": version, "counter": counter,
            "previous": pointer["active"], "previous_version": fwslot.version(self.app),
            "previous_counter": running, "trial": 0})
        self.report("installed", version)
        await self.publish_status()
        await self.app.link.stop()
        fwslot.RESTART()

    async def download(self, version, sizes, where, running):
        """Fetch and check the manifest, then the files, into ``where``; returns the bundle's
        counter. The link is lent one chunk's buffer meanwhile, made while the heap is freshly
        collected: a heap in pieces after a few chunks has no piece a chunk long for each one
        anew. The signature's check (sigcheck.py, whose import asks for pieces longer than a
        chunk) is imported before it, on the freshly collected heap: imported after, it once found
        the pieces left between the buffer and the manifest's chunks too short, try after try."""
        collect()
        try:
            check = borrowed("sigcheck").verify
            self.app.link.spare = bytearray(CHUNK + SPARE_HEAD)
            counter = await self.fetch_manifest(version, sizes, where, running, check)
            check = None  # the check's code is freed for the files
            manifest = where + "/" + MANIFEST
            for name, length, _ in manifest_files(manifest):
                await self.fetch(version, name, where + "/" + name, length)
            self.want = None
            collect()
            for name, length, digest in manifest_files(manifest):
                path = where + "/" + name
                if size_of(path) != length or not same(sha256_of(path), digest):
                    raise ValueError("%s: SHA-256 differs from the manifest" % name)
            return counter
        finally:
            self.app.link.spare = None

    async def fetch_manifest(self, version, sizes, where, running, check):
        """The offer's manifest and its signature (``sizes``: their lengths), fetched into
        ``where`` and checked (``check``: sigcheck.verify): the signature under this board's
        public key, the same key in the manifest, its files' rules, its version, a counter
        above ``running`` (the booted bundle's). Returns its counter."""
        path = where + "/" + MANIFEST
        signature = where + "/" + SIGNATURE
        await self.fetch(version, MANIFEST, path, sizes[0])
        await self.fetch(version, SIGNATURE, signature, sizes[1])
        key = public_key(self.app)
        collect()
        if size_of(path) != sizes[0] or size_of(signature) != sizes[1] \
                or not check(unhexlify(key), signature, lambda h: feed(h, path)):
            raise ValueError("bad signature: the bundle is not signed with this club's "
                             "firmware signing key")
        got, counter, carried = manifest_head(path)
        if carried != key:
            raise ValueError("the manifest does not carry this board's update public key")
        if not sum(1 for _ in manifest_files(path)):  # each file's rules checked, none kept
            raise ValueError("manifest needs a version and a list of files")
        if got != version:
            raise ValueError("the offer's version is not the manifest's")
        if counter <= running:
            raise ValueError("older than the bundle this board runs (counter %d, runs %d): a "
                             "downgrade is `tricktable fleet rollback`" % (counter, running))
        return counter

    async def fetch(self, version, name, path, size):
        """Fetch ``name`` into ``path`` in chunks until it holds ``size`` bytes."""
        have = size_of(path)
        if have > size:
            os.remove(path)
            have = -1
        if have < 0:
            open(path, "wb").close()
            have = 0
        while have < size:
            if not self.app.link.connected:
                await sleep_ms(RETRY_MS)
                continue
            self.want = (path, name, have)
            self.got = self.lost = False
            ask = {"v": 1, "version": version, "file": name, "offset": have,
                   "len": min(CHUNK, size - have)}
            link = self.app.link
            skipped = link.skipped
            try:
                await link.publish(self.topic_fetch, json.dumps(ask), qos=0)
            except OSError:
                pass  # asked again
            # Wait for the chunk; one the link read past or this board could not write (no
            # room in the heap just then) is asked for again at once, after a collection.
            for _ in range(RETRY_MS // WAIT_STEP_MS):
                if self.got or self.lost or link.skipped != skipped:
                    break
                await sleep_ms(WAIT_STEP_MS)
            collect()
            have = size_of(path)

    def chunk(self, payload):
        """``name\\noffset\\n`` then the bytes: appended if it is the chunk asked for."""
        first = newline(payload, 0)
        second = newline(payload, first + 1)
        if first < 0 or second < 0 or self.want is None:
            return
        path, name, offset = self.want
        if bytes(payload[:first]) != name.encode() \
                or bytes(payload[first + 1:second]) != str(offset).encode():
            return  # a late copy of a chunk asked for before, or garbage: nothing raised
        data = memoryview(payload)[second + 1:]
        if not len(data):
            return
        with open(path, "ab") as f:
            f.write(data)
        self.want = None  # a second copy of this chunk (asked for again, come late) is not
        self.got = True  # appended again

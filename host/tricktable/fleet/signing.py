"""The key that signs firmware: an HSS/LMS private key (RFC 8554) that the host alone holds.

A board holds only the public key (config.json ``update_pub``), which checks a signature and
makes none (firmware/sigcheck.py): a stolen board gives away nothing that signs. Why HSS/LMS
and not Ed25519: docs/fleet.md, "Signatures" (bench/signing.py's figures).

HSS/LMS is stateful: each signature spends a one-time key that must never sign twice, or a
forger may combine the two. The private key file (pyhsslms's form, which carries each
level's next unused one-time key) is therefore written back with the key already spent,
synced to disk and renamed over the old one, *before* the signature is handed to anyone; a
crash in between wastes one key and never reuses one. A lock on the key file keeps two
signers on one host apart. Its parameters: two levels of LMS_SHA256_M32_H5 with
LMOTS_SHA256_N32_W4, 1,024 signatures in all (a club signs one a release or rollback).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pyhsslms

LEVELS = 2
LMS_TYPE = pyhsslms.lms_sha256_m32_h5
OTS_TYPE = pyhsslms.lmots_sha256_n32_w4


class SigningError(RuntimeError):
    """No key, a key spent, or a key file that cannot be written; the message says which."""


def public_path(key: Path) -> Path:
    """Where the public key of the private key file ``key`` is kept (hex, not secret)."""
    return key.with_name(key.name + ".pub")


def _write_durably(path: Path, data: bytes, new: bool = False) -> None:
    """``data`` into ``path`` (0600) through a fresh temporary file, synced and renamed over
    it, the directory synced too: after a crash ``path`` holds the old bytes or these."""
    if new and path.exists():
        raise SigningError(f"{path} exists: a signing key is made once")
    temp = path.with_name(path.name + ".new")
    temp.unlink(missing_ok=True)  # left by a crash before its rename
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temp, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def generate(key: Path) -> str:
    """Make the firmware signing key in ``key`` (0600, refused if it exists) and its public
    key beside it; returns the public key in hex (what ``board setup --update-pub`` takes)."""
    key.parent.mkdir(parents=True, exist_ok=True)
    made = pyhsslms.HssPrivateKey(levels=LEVELS, lms_type=LMS_TYPE, lmots_type=OTS_TYPE)
    _write_durably(key, made.serialize(), new=True)
    pub = made.publicKey().serialize().hex()
    public_path(key).write_text(pub + "\n")
    return pub


def public_key(key: Path) -> str:
    """The public key (hex) of the signing key ``key``."""
    try:
        return public_path(key).read_text().strip()
    except OSError:
        raise SigningError(f"no firmware signing key at {key}: `tricktable fleet keygen` "
                           "makes one") from None


def sign(key: Path, message: bytes) -> bytes:
    """An HSS signature of ``message`` under ``key``, its one-time key spent on disk first."""
    try:
        fd = os.open(key, os.O_RDWR | os.O_NOFOLLOW)
    except OSError:
        raise SigningError(f"no firmware signing key at {key}: `tricktable fleet keygen` "
                           "makes one") from None
    with os.fdopen(fd, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # one signer at a time (released on close)
        state = pyhsslms.HssPrivateKey.deserialize(held.read())
        if state.is_exhausted():
            raise SigningError(f"the signing key {key} has signed all it can: make a new one "
                               "and set the boards up with it (docs/fleet.md)")
        sig = state.sign(message)
        _write_durably(key, state.serialize())  # journaled before the signature leaves
    return bytes(sig)


def remaining(key: Path) -> int:
    """Signatures the key ``key`` can still make."""
    return int(pyhsslms.HssPrivateKey.deserialize(key.read_bytes()).remaining())


def verify(public_hex: str, message: bytes, sig: bytes) -> bool:
    """Whether ``sig`` is the signature of ``message`` under the public key ``public_hex``."""
    try:
        return bool(pyhsslms.HssPublicKey.deserialize(bytes.fromhex(public_hex))
                    .verify(message, sig))
    except (ValueError, IndexError, KeyError):
        return False

"""A firmware bundle's signature checked: HSS/LMS hash-based signatures (RFC 8554), verify only.

The host alone holds the private key (fleet/signing.py); a board holds the public key, which
lets it check a signature and make none. Verification needs nothing but SHA-256, which every
port's ``hashlib`` has (no public-key C module on rp2 or esp32), and reads the signature from
its file a few bytes at a time: the heap holds one 55-byte buffer and a hash, never the
signature (2.7 KB at the club's parameters) or the message. Imported by fwupdate.py for one
check and dropped again.

The steps are RFC 8554's: section 4.6 (a one-time signature's candidate public key: the
message hashed with the key's identifier, leaf number and randomizer, its checksum appended,
each chain finished from the signature's value), section 5.4.2 (the candidate leaf hashed up
the authentication path to the tree's root) and section 6.3 (each level of the hierarchy signs
the public key of the level below; the lowest signs the message). Only the SHA-256, 32-byte
parameter sets are known here; any other type code is refused.
"""

import hashlib

N = 32  # bytes of every hash value (the SHA-256 parameter sets)
# one-time signature type code: (p chains, w bits a chain digit, left shift of the checksum)
OTS = {1: (265, 1, 7), 2: (133, 2, 6), 3: (67, 4, 4), 4: (34, 8, 0)}
TREE = {5: 5, 6: 10, 7: 15, 8: 20, 9: 25}  # LMS type code: tree height
PUBLIC_KEY = 60  # bytes of an HSS public key: levels, LMS type, OTS type, I (16), root (32)
MAX_LEVELS = 8


def u32(data):
    return int.from_bytes(data, "big")


class Reader:
    """The signature file, read exactly as many bytes as asked; ValueError past its end."""

    def __init__(self, f):
        self.f = f

    def take(self, n):
        data = self.f.read(n)
        if len(data) != n:
            raise ValueError("the signature ends too soon")
        return data

    def lms_length(self):
        """Bytes of the LMS signature that starts here (the file left where it was)."""
        f = self.f
        start = f.tell()
        f.seek(start + 4)
        ots = OTS.get(u32(self.take(4)))
        if ots is None:
            raise ValueError("a one-time signature of an unknown kind")
        f.seek(start + 8 + N + N * ots[0])
        height = TREE.get(u32(self.take(4)))
        if height is None:
            raise ValueError("a signature tree of an unknown kind")
        f.seek(start)
        return 12 + N + N * ots[0] + N * height


def digit(q, i, w):
    """The ``i``-th ``w``-bit digit of ``q`` (RFC 8554 section 3.1.3, "coef")."""
    per = 8 // w
    return (q[i // per] >> (8 - w * (i % per + 1))) & ((1 << w) - 1)


def lms_verify(key, sig, feed):
    """Whether the LMS signature read from ``sig`` (a Reader) is ``key``'s (the 56-byte LMS
    public key) over the message ``feed(h)`` puts into a SHA-256 ``h``."""
    lms_type, ots_type, ident, root = u32(key[:4]), u32(key[4:8]), key[8:24], key[24:56]
    q = sig.take(4)
    if u32(sig.take(4)) != ots_type or ots_type not in OTS or lms_type not in TREE:
        return False
    p, w, shift = OTS[ots_type]
    h = hashlib.sha256(ident)
    h.update(q)
    h.update(b"\x81\x81")
    h.update(sig.take(N))  # C, the randomizer
    feed(h)
    digits = h.digest()
    total = 0
    for i in range(N * 8 // w):
        total += (1 << w) - 1 - digit(digits, i, w)
    digits += (total << shift).to_bytes(2, "big")
    buf = bytearray(23 + N)  # I || q || chain (2) || step (1) || value: one hash's input
    buf[:16] = ident
    buf[16:20] = q
    view = memoryview(buf)
    k = hashlib.sha256(ident)
    k.update(q)
    k.update(b"\x80\x80")
    top = (1 << w) - 1
    for i in range(p):
        buf[20] = i >> 8
        buf[21] = i & 255
        view[23:] = sig.take(N)
        for j in range(digit(digits, i, w), top):
            buf[22] = j
            view[23:] = hashlib.sha256(buf).digest()
        k.update(view[23:])
    if u32(sig.take(4)) != lms_type:
        return False
    height = TREE[lms_type]
    node = (1 << height) + u32(q)
    if node >> height != 1:
        return False  # a leaf number past the tree
    h = hashlib.sha256(ident)
    h.update(node.to_bytes(4, "big"))
    h.update(b"\x82\x82")
    h.update(k.digest())
    value = h.digest()
    for _ in range(height):
        step = sig.take(N)
        h = hashlib.sha256(ident)
        h.update((node >> 1).to_bytes(4, "big"))
        h.update(b"\x83\x83")
        if node & 1:
            h.update(step)
            h.update(value)
        else:
            h.update(value)
            h.update(step)
        value = h.digest()
        node >>= 1
    return value == root


def verify(public_key, sig_path, feed):
    """Whether the HSS signature in the file ``sig_path`` is ``public_key``'s (bytes, RFC 8554
    section 6.1's form) over the message ``feed(h)`` puts into a SHA-256 ``h``. ValueError for
    a key or signature that is not of this form."""
    if len(public_key) != PUBLIC_KEY:
        raise ValueError("the update public key is not an HSS/LMS public key")
    levels = u32(public_key[:4])
    key = public_key[4:]
    with open(sig_path, "rb") as f:
        sig = Reader(f)
        if not 0 < levels <= MAX_LEVELS or u32(sig.take(4)) != levels - 1:
            return False
        for _ in range(levels - 1):  # each level signs the next level's public key
            start = f.tell()
            f.seek(start + sig.lms_length())
            lower = sig.take(PUBLIC_KEY - 4)
            f.seek(start)
            if not lms_verify(key, sig, lambda h, k=lower: h.update(k)):
                return False
            f.seek(f.tell() + len(lower))  # past the key just checked
            key = lower
        if not lms_verify(key, sig, feed):
            return False
        return not f.read(1)  # nothing after the signature

"""The Ed25519 candidate for a board's firmware check, measured by bench/signing.py, not shipped.

A verifier in plain MicroPython (boards have no public-key C module, and their hashlib has
SHA-256 only, so SHA-512 is written here too), following RFC 8032: SHA-512 as FIPS 180-4
section 6.4 computes it, edwards25519 points in extended coordinates (RFC 8032 section
5.1.4's addition and doubling), point decoding (section 5.1.3) and the check [S]B = R + [k]A
(section 5.1.7) as one joint double-and-add. Runs on CPython too (bench/signing.py checks it
against ``cryptography``'s signatures before it times it).
"""

M64 = (1 << 64) - 1
K512 = None


def _constants():
    """SHA-512's round constants: the first 64 bits of the fractional parts of the cube roots
    of the first 80 primes (FIPS 180-4 section 4.2.3), computed rather than listed."""
    primes = []
    n = 2
    while len(primes) < 80:
        if all(n % p for p in primes):
            primes.append(n)
        n += 1
    out = []
    for p in primes:
        # integer cube root of p * 2^192, exact by Newton's method on integers
        x = p << 192
        r = 1 << 72  # above the cube root of any of them (p < 2^9): Newton comes down from it
        while True:
            s = (2 * r + x // (r * r)) // 3
            if s >= r:
                break
            r = s
        out.append(r & M64)
    return out


def _rotr(x, n):
    return ((x >> n) | (x << (64 - n))) & M64


def sha512(data):
    global K512
    if K512 is None:
        K512 = _constants()
    h = [0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
         0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179]
    length = len(data)
    data = bytes(data) + b"\x80" + bytes((111 - length) % 128) + (length * 8).to_bytes(16, "big")
    for block in range(0, len(data), 128):
        w = [int.from_bytes(data[block + 8 * i:block + 8 * i + 8], "big") for i in range(16)]
        for i in range(16, 80):
            s0 = _rotr(w[i - 15], 1) ^ _rotr(w[i - 15], 8) ^ (w[i - 15] >> 7)
            s1 = _rotr(w[i - 2], 19) ^ _rotr(w[i - 2], 61) ^ (w[i - 2] >> 6)
            w.append((w[i - 16] + s0 + w[i - 7] + s1) & M64)
        a, b, c, d, e, f, g, hh = h
        for i in range(80):
            t1 = (hh + (_rotr(e, 14) ^ _rotr(e, 18) ^ _rotr(e, 41)) + ((e & f) ^ (~e & g))
                  + K512[i] + w[i]) & M64
            t2 = ((_rotr(a, 28) ^ _rotr(a, 34) ^ _rotr(a, 39)) + ((a & b) ^ (a & c) ^ (b & c))) & M64
            hh, g, f, e, d, c, b, a = g, f, e, (d + t1) & M64, c, b, a, (t1 + t2) & M64
        h = [(x + y) & M64 for x, y in zip(h, (a, b, c, d, e, f, g, hh))]  # noqa: B905 (MicroPython)
    return b"".join(x.to_bytes(8, "big") for x in h)


P = (1 << 255) - 19
L = (1 << 252) + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
D2 = 2 * D % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
BY = 4 * pow(5, P - 2, P) % P


def _add(p1, p2):
    x1, y1, z1, t1 = p1
    x2, y2, z2, t2 = p2
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * D2 * t2 % P
    d = 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return e * f % P, g * h % P, f * g % P, e * h % P


def _double(p1):
    x1, y1, z1, _ = p1
    a = x1 * x1 % P
    b = y1 * y1 % P
    c = 2 * z1 * z1 % P
    h = a + b
    e = h - (x1 + y1) * (x1 + y1) % P
    g = a - b
    f = c + g
    return e * f % P, g * h % P, f * g % P, e * h % P


def _recover_x(y, sign):
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P:
        return None
    if x & 1 != sign:
        x = P - x
    return x


def _decode(s):
    y = int.from_bytes(s, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % P)


def _encode(pt):
    x, y, z, _ = pt
    zi = pow(z, P - 2, P)
    x, y = x * zi % P, y * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def verify(public, message, signature):
    """Whether ``signature`` (64 bytes) is ``public``'s (32 bytes) over ``message``."""
    if len(public) != 32 or len(signature) != 64:
        return False
    a = _decode(public)
    if a is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= L:
        return False
    k = int.from_bytes(sha512(signature[:32] + public + message), "little") % L
    base = (_recover_x(BY, 0), BY, 1, 0)
    base = (base[0], BY, 1, base[0] * BY % P)
    neg_a = (P - a[0], a[1], a[2], P - a[3])
    both = _add(base, neg_a)
    acc = (0, 1, 1, 0)
    for i in range(255, -1, -1):  # [s]B - [k]A, both scalars at once
        acc = _double(acc)
        bs, bk = (s >> i) & 1, (k >> i) & 1
        if bs and bk:
            acc = _add(acc, both)
        elif bs:
            acc = _add(acc, base)
        elif bk:
            acc = _add(acc, neg_a)
    return _encode(acc) == signature[:32]

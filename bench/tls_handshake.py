"""What a board's TLS handshake costs in CPU, by the club CA's key type (issue 33, item 7);
prints numbers, asserts nothing.

A board's mbedTLS (MicroPython's ``ssl``: Mbed TLS 3.6, TLS 1.2 only) runs the whole public-key
part of a handshake inside one socket write or read: the server's flight checked (the broker's
certificate against the club CA, the key exchange's signature) and the client's key exchange
computed, with nothing else running on the board meanwhile. For each candidate below a local
TLS 1.2 server (CPython's ssl, a CA and a broker certificate of that kind made with
``cryptography`` as tricktable.provision.certs makes them) takes N connections from the
MicroPython unix port, each a full blocking handshake; the client process's CPU per handshake
(getrusage of the child) less the same process making N plain TCP connections, median of R
runs. Then scaled to a Pico W:

* the ratio of one C implementation of P-256 on both kinds of CPU: p256-m (shipped in Mbed
  TLS as 3rdparty/p256-m; its README, "Runtime performance") verifies an ECDSA signature in
  1,976 ms on a Cortex-M0 at 48 MHz and in 2,279 us on an x86-64 laptop (i7-6500U), a factor of
  867, taken as this machine's (an AMD EPYC: per clock about that laptop's);
* times 48/125, the RP2040's clock (125 MHz) against that Cortex-M0's: **333**.

The factor is a floor rather than a bound: Mbed TLS's bignum code has 64-bit limbs and
assembly on x86-64, where a Cortex-M0+ multiplies 32 by 32 bits into 32 (p256-m's README: its
own Cortex-M0 assembly makes it about 2 times faster than its C), so a Pico W may take up to
about twice the estimate; the figures reported from Pico Ws (issue 33: 0.7-7.2 s a connect, a
P-256 CA) are the check.

Candidates: the club CA and the broker's key ECDSA P-256 (what ``tricktable broker certs``
makes today; ECDHE-ECDSA), RSA-2048 (ECDHE-RSA), RSA-2048 with RSA key exchange (no ECDHE:
no forward secrecy), and an Ed25519 CA (Mbed TLS 3.6's X.509 has no EdDSA: the board refuses
it). Session resumption would skip all of it on a reconnect, but MicroPython's ``ssl`` offers
no session to keep (its SSLContext and wrap_socket take none), so it is not a choice here.

Run: .venv/bin/python bench/tls_handshake.py [--runs 5] [--n 20]
"""

from __future__ import annotations

import argparse
import datetime
import ipaddress
import resource
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import NameOID

ROOT = Path(__file__).resolve().parents[1]
MICROPYTHON = Path(sys.executable).parent / "micropython"
WATCHDOG_MAX_MS = 8388  # machine.WDT's longest timeout on an RP2040
# p256-m's ECDSA verify: Cortex-M0 at 48 MHz (ms) / x86-64 i7-6500U (us); RP2040 at 125 MHz
TO_PICO_W = 1976 / 2.279 * 48 / 125

CANDIDATES = {
    "P-256 CA and broker key, ECDHE-ECDSA (today)": ("p256", "ECDHE-ECDSA-AES128-GCM-SHA256"),
    "RSA-2048 CA and broker key, ECDHE-RSA": ("rsa", "ECDHE-RSA-AES128-GCM-SHA256"),
    "RSA-2048 CA and broker key, RSA key exchange": ("rsa", "AES128-GCM-SHA256"),
}

CLIENT = """
import socket, ssl, sys, time
host, port, n, ca = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ctx = None
if ca != "-":
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.verify_mode = ssl.CERT_REQUIRED
    with open(ca, "rb") as f:
        ctx.load_verify_locations(cadata=f.read())
addr = socket.getaddrinfo(host, port)[0][-1]
for _ in range(n):
    s = socket.socket()
    s.connect(addr)
    if ctx is not None:
        s = ctx.wrap_socket(s, server_hostname=host)  # the whole handshake, blocking
    s.write(b"x")
    s.close()
print("ok")
"""


def certs(kind: str, where: Path) -> tuple[Path, Path, Path]:
    """A CA (DER, as a board reads it) and a broker certificate and key (PEM) for 127.0.0.1."""
    def key():
        if kind == "p256":
            return ec.generate_private_key(ec.SECP256R1())
        if kind == "rsa":
            return rsa.generate_private_key(public_exponent=65537, key_size=2048)
        return ed25519.Ed25519PrivateKey.generate()

    now = datetime.datetime.now(datetime.UTC)
    digest = None if kind == "ed25519" else hashes.SHA256()
    ca_key, server_key = key(), key()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"{kind} club CA")])
    ca = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=30))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .sign(ca_key, digest))
    server = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
              .issuer_name(name).public_key(server_key.public_key())
              .serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(minutes=5))
              .not_valid_after(now + datetime.timedelta(days=30))
              .add_extension(x509.SubjectAlternativeName(
                  [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
              .sign(ca_key, digest))
    ca_der, cert, keyfile = where / f"{kind}-ca.der", where / f"{kind}.crt", where / f"{kind}.key"
    ca_der.write_bytes(ca.public_bytes(serialization.Encoding.DER))
    cert.write_bytes(server.public_bytes(serialization.Encoding.PEM))
    keyfile.write_bytes(server_key.private_bytes(serialization.Encoding.PEM,
                                                 serialization.PrivateFormat.PKCS8,
                                                 serialization.NoEncryption()))
    return ca_der, cert, keyfile


class Server:
    """A TLS 1.2 server on 127.0.0.1 (or plain TCP, ``context`` None) taking connections
    until closed: handshake, read a byte, close."""

    def __init__(self, context: ssl.SSLContext | None) -> None:
        self.context = context
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            try:
                if self.context is not None:
                    conn = self.context.wrap_socket(conn, server_side=True)
                conn.recv(1)
            except OSError:
                pass
            finally:
                conn.close()

    def close(self) -> None:
        self.sock.close()


def server_context(cert: Path, key: Path, ciphers: str) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.maximum_version = ssl.TLSVersion.TLSv1_2
    ctx.set_ciphers(ciphers)
    ctx.set_ecdh_curve("prime256v1")
    ctx.load_cert_chain(cert, key)
    return ctx


def client_cpu(script: Path, port: int, n: int, ca: str) -> float:
    """CPU seconds (user + system) of one MicroPython process making ``n`` connections."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([str(MICROPYTHON), str(script), "127.0.0.1", str(port), str(n), ca],
                          capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode or "ok" not in proc.stdout:
        raise RuntimeError(f"MicroPython client failed: {proc.stdout[-500:]}{proc.stderr[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def ed25519_refused(script_dir: Path) -> str:
    """What the board's mbedTLS says to an Ed25519 club CA."""
    ca, _, _ = certs("ed25519", script_dir)
    probe = script_dir / "probe.py"
    probe.write_text("import ssl, sys\nctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)\n"
                     "try:\n    ctx.load_verify_locations(cadata=open(sys.argv[1], 'rb').read())\n"
                     "    print('accepted')\nexcept Exception as e:\n    print('refused:', e)\n")
    proc = subprocess.run([str(MICROPYTHON), str(probe), str(ca)], capture_output=True,
                          text=True, timeout=60)
    return (proc.stdout + proc.stderr).strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--n", type=int, default=20, help="handshakes per run")
    args = parser.parse_args()
    version = subprocess.run([str(MICROPYTHON), "-c", "import ssl; print(ssl.MBEDTLS_VERSION)"],
                             capture_output=True, text=True, timeout=30).stdout.strip()
    print(f"TLS handshake, client CPU per connect: MicroPython unix port ({version}), "
          f"{args.n} handshakes a run, median of {args.runs} runs; Pico W = x {TO_PICO_W:.0f} "
          f"(watchdog at most {WATCHDOG_MAX_MS} ms)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        script = work / "client.py"
        script.write_text(CLIENT)
        plain = Server(None)
        try:
            base = [client_cpu(script, plain.port, args.n, "-") for _ in range(args.runs)]
        finally:
            plain.close()
        for label, (kind, ciphers) in CANDIDATES.items():
            ca, cert, key = certs(kind, work)
            server = Server(server_context(cert, key, ciphers))
            try:
                runs = [(client_cpu(script, server.port, args.n, str(ca)) - b) / args.n
                        for b in base]
            finally:
                server.close()
            ms = statistics.median(runs) * 1000
            pico = ms * TO_PICO_W
            print(f"  {label}: {ms:.2f} ms here (runs {', '.join(f'{r * 1000:.2f}' for r in runs)})"
                  f" -> Pico W about {pico / 1000:.1f} s, up to {2 * pico / 1000:.1f} s"
                  f" ({100 * 2 * pico / WATCHDOG_MAX_MS:.0f}% of the watchdog's longest period)")
        print(f"  Ed25519 CA: {ed25519_refused(work)}")
        print("  session resumption: not offered by MicroPython's ssl (no session to keep)")


if __name__ == "__main__":
    main()

"""A private CA and a broker certificate for the TLS tests (host service, scoreboard, watch).

Built with openssl the way hardware/mosquitto/README.md tells a club to build its own.
"""

from __future__ import annotations

import ssl
import subprocess
from pathlib import Path


def make_certificates(where: Path) -> tuple[Path, Path, Path]:
    """A private CA and a certificate for 127.0.0.1 signed by it: (ca.crt, server.crt, server.key)."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=where, check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-keyout", "ca.key",
        "-out", "ca.crt", "-subj", "/CN=test club CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
        "-subj", "/CN=127.0.0.1")
    (where / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.crt")
    return where / "ca.crt", where / "server.crt", where / "server.key"


def der_copy(pem: Path) -> Path:
    """The certificate in DER beside the PEM (``ca.der``): what a board's mbedTLS reads."""
    der = pem.with_suffix(".der")
    der.write_bytes(ssl.PEM_cert_to_DER_cert(pem.read_text()))
    return der

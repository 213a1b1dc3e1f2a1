"""A private CA and a broker certificate for the TLS tests (host service, scoreboard, watch,
boards), made by `tricktable broker certs` (tricktable.provision.certs) as a club makes its own.
"""

from __future__ import annotations

import ssl
from pathlib import Path

from tricktable.provision.certs import make_club_certs


def make_certificates(where: Path) -> tuple[Path, Path, Path]:
    """A private CA and a certificate for 127.0.0.1 signed by it: (ca.crt, server.crt, server.key)."""
    made = make_club_certs(where, ["127.0.0.1"], "test club")
    return made.ca, made.server, made.server_key


def der_copy(pem: Path) -> Path:
    """The certificate in DER beside the PEM (``ca.der``): what a board's mbedTLS reads."""
    der = pem.with_suffix(".der")
    der.write_bytes(ssl.PEM_cert_to_DER_cert(pem.read_text()))
    return der

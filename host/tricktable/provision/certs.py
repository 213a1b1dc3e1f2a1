"""The club broker's TLS: a private CA of the club's own and the broker's certificate signed by
it (Python's ``cryptography``), so boards and programs check they talk to the club's broker.

``make_club_certs(folder, names)`` writes ``ca.crt``/``ca.key`` (made once, kept: every board
holds this CA), ``ca.der`` (what a board's mbedTLS reads) and ``server.crt``/``server.key``
for the broker's host names and addresses ``names`` (made again on each call). Keys are
RSA-2048: a Pico W checks an RSA signature in a fraction of the time an ECDSA P-256 one
takes, and its TLS handshake runs inside one socket call with nothing else running (about
1.8 s with RSA against 6.6 s with P-256 on its Cortex-M0+: bench/tls_handshake.py, docs/
fleet.md "TLS on the boards"). A club CA made before (ECDSA P-256) is kept: every board holds
it; its broker key is RSA from the next call on. Every key file is created 0600.
"""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from tricktable.secretfiles import write_private

CA_DAYS = 3650
KEY_BITS = 2048
SERVER_DAYS = 825  # what browsers and most clients accept for a leaf certificate


@dataclass(frozen=True)
class ClubCerts:
    """Where the club's CA and the broker's certificate are."""

    ca: Path
    ca_der: Path
    ca_key: Path
    server: Path
    server_key: Path


def _key_pem(key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _san(names: list[str]) -> list[x509.GeneralName]:
    out: list[x509.GeneralName] = []
    for name in names:
        try:
            out.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            out.append(x509.DNSName(name))
    return out


def make_club_certs(folder: Path, names: list[str], club: str = "tricktable club") -> ClubCerts:
    """The club's CA (kept if ``folder`` has one) and a broker certificate for ``names``."""
    if not names:
        raise ValueError("the broker certificate needs at least one host name or address")
    folder.mkdir(parents=True, exist_ok=True)
    certs = ClubCerts(folder / "ca.crt", folder / "ca.der", folder / "ca.key",
                      folder / "server.crt", folder / "server.key")
    now = datetime.datetime.now(datetime.UTC)
    if certs.ca.exists() and certs.ca_key.exists():
        ca_cert = x509.load_pem_x509_certificate(certs.ca.read_bytes())
        loaded = serialization.load_pem_private_key(certs.ca_key.read_bytes(), None)
        if not isinstance(loaded, (rsa.RSAPrivateKey, ec.EllipticCurvePrivateKey)):
            raise ValueError(f"{certs.ca_key}: not an RSA or EC key as tricktable makes")
        ca_key = loaded
    else:
        ca_key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
        ca_cert = (x509.CertificateBuilder().subject_name(_name(f"{club} CA"))
                   .issuer_name(_name(f"{club} CA")).public_key(ca_key.public_key())
                   .serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
                   .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                   .add_extension(x509.KeyUsage(False, False, False, False, False, True, True,
                                                False, False), critical=True)
                   .sign(ca_key, hashes.SHA256()))
        write_private(certs.ca_key, _key_pem(ca_key))
        certs.ca.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    certs.ca_der.write_bytes(ca_cert.public_bytes(serialization.Encoding.DER))
    key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
    server = (x509.CertificateBuilder().subject_name(_name(names[0]))
              .issuer_name(ca_cert.subject).public_key(key.public_key())
              .serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(minutes=5))
              .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
              .add_extension(x509.SubjectAlternativeName(_san(names)), critical=False)
              .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
              .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                             critical=False)
              .sign(ca_key, hashes.SHA256()))
    write_private(certs.server_key, _key_pem(key))
    certs.server.write_bytes(server.public_bytes(serialization.Encoding.PEM))
    return certs

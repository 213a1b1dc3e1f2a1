"""The seat pages over HTTPS with the club's own certificate (docs/phones.md, "A secure
page"): Web NFC runs only in a secure context. The certificate is the one `tricktable up`
makes for the broker, signed by the club's CA; the CA is offered at /ca with the steps for
Android."""

from __future__ import annotations

import base64
import hashlib
import random
import ssl
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browsing import ARGS, CHROMIUM, needs_chromium
from click.testing import CliRunner
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from phonekit import (
    PhoneTable,
    bot_choice,
    new_shadow,
    open_seat,
    phone_context,
    place,
    tap_for,
)
from playwright.sync_api import sync_playwright
from tricktable.cli import main
from tricktable.provision.certs import make_club_certs

pytestmark = [needs_chromium, pytest.mark.browser]


@pytest.fixture
def certs(tmp_path):
    return make_club_certs(tmp_path / "certs", ["127.0.0.1", "localhost"], "test club")


@pytest.fixture
def table(mqtt_broker, topic_prefix, tmp_path, registry_file, certs) -> Iterator[PhoneTable]:
    t = PhoneTable(mqtt_broker.port, topic_prefix, tmp_path, registry_file,
                   https=(certs.server, certs.server_key), club_ca=certs.ca)
    yield t
    t.close()


def spki(cert: Path) -> str:
    """The certificate's public key as Chromium's --ignore-certificate-errors-spki-list
    names it (base64 of the SHA-256 of its SubjectPublicKeyInfo)."""
    key = x509.load_pem_x509_certificate(cert.read_bytes()).public_key()
    der = key.public_bytes(serialization.Encoding.DER,
                           serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def test_the_pages_are_served_over_tls_checked_by_the_club_ca(table, certs, tmp_path):
    """A client that trusts the club's CA reaches the seat page; one that does not is refused
    (the same request, the other CA); the CA itself is offered at /ca.crt."""
    assert table.web.url.startswith("https://127.0.0.1:")
    assert httpx.get(f"{table.web.url}/pad", verify=ssl.create_default_context(cafile=certs.ca)).status_code == 200
    other = make_club_certs(tmp_path / "other", ["127.0.0.1"], "another club")
    with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
        httpx.get(f"{table.web.url}/pad", verify=ssl.create_default_context(cafile=other.ca))
    offered = httpx.get(f"{table.web.url}/ca.crt", verify=ssl.create_default_context(cafile=certs.ca))
    assert offered.content == certs.ca.read_bytes()
    assert offered.headers["content-type"] == "application/x-x509-ca-cert"
    steps = httpx.get(f"{table.web.url}/ca", verify=ssl.create_default_context(cafile=certs.ca)).text
    assert "Install a certificate" in steps and "CA certificate" in steps


def test_a_card_read_by_a_phone_over_https(table, certs):
    """The seat page over HTTPS is a secure context, so Web NFC is offered, and a card
    placed on it is checked by the host."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            *ARGS, f"--ignore-certificate-errors-spki-list={spki(certs.server)}"])
        try:
            context = phone_context(browser)
            north = open_seat(context, table.pair(0))
            assert north.evaluate("() => window.isSecureContext")
            deal = bot_choice(new_shadow(), random.Random(1))
            assert place(north, tap_for(deal))["kind"] == "accepted"
        finally:
            browser.close()


def test_web_takes_a_certificate_and_its_key_together(tmp_path, certs):
    runner = CliRunner()
    result = runner.invoke(main, ["web", "--tls-cert", str(certs.server), "--port", "0"])
    assert result.exit_code == 2 and "--tls-cert and --tls-key go together" in result.output

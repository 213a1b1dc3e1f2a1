"""``tricktable up`` with phone seats in the club file (docs/phones.md, "On the club's
host"): the scoreboard keeps the pairings and serves the pages over HTTPS, with the broker's
certificate from the club's CA (offered to phones at /ca) or the club's own certificate; the
console pairs phones with QR codes that open the scoreboard's seat page."""

from __future__ import annotations

from pathlib import Path

import pytest
from tricktable.appliance.credentials import ensure
from tricktable.appliance.settings import SettingsError, load_settings
from tricktable.appliance.up import addresses, plan

CLUB = ('[club]\nname = "c"\n[tables.t1]\nvariant = "bid-euchre"\n{phones}\n'
        '[host]\nweb = "0.0.0.0:8443"\n{host}')


def parts(tmp_path: Path, phones: str = "phones = [0, 1, 2, 3]", host: str = "",
          night: bool = True) -> dict[str, list[str]]:
    if night:
        (tmp_path / "night.json").write_text("{}")
        host += 'night = "night.json"\n'
    (tmp_path / "club.toml").write_text(CLUB.format(phones=phones, host=host))
    settings = load_settings(tmp_path / "club.toml", tmp_path / "data")
    return {p.name: p.argv for p in plan(settings, ensure(tmp_path / "data"))}


def option(argv: list[str], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv else None


def test_phone_seats_put_the_pages_on_https_with_the_club_ca(tmp_path):
    made = parts(tmp_path)
    web, console = made["web"], made["console"]
    certs = tmp_path / "data" / "broker" / "certs"
    assert option(web, "--phones") == str(tmp_path / "data" / "phones.sqlite")
    assert option(web, "--tls-cert") == str(certs / "server.crt")
    assert option(web, "--tls-key") == str(certs / "server.key")
    assert option(web, "--club-ca") == str(certs / "ca.crt")
    assert option(console, "--phones") == option(web, "--phones")
    pad = option(console, "--pad-url")
    assert pad is not None and pad.startswith("https://") and pad.endswith(":8443/pad")


def test_the_addresses_offer_the_club_ca_to_phones(tmp_path):
    parts(tmp_path)
    settings = load_settings(tmp_path / "club.toml", tmp_path / "data")
    shown = {p.what: p.url for p in addresses(settings)}
    assert shown["phone certificate"].startswith("https://") and shown["phone certificate"].endswith("/ca")
    assert shown["TV"].startswith("https://")


def test_a_clubs_own_certificate_instead(tmp_path):
    (tmp_path / "club.crt").write_text("cert")
    (tmp_path / "club.key").write_text("key")
    web = parts(tmp_path, host='web_cert = "club.crt"\nweb_key = "club.key"\n')["web"]
    assert option(web, "--tls-cert") == str(tmp_path / "club.crt")
    assert option(web, "--club-ca") is None


def test_without_phone_seats_nothing_changes(tmp_path):
    web = parts(tmp_path, phones="")["web"]
    assert "--phones" not in web and "--tls-cert" not in web


def test_a_certificate_without_its_key_is_refused(tmp_path):
    with pytest.raises(SettingsError, match="host.web_cert and host.web_key go together"):
        parts(tmp_path, host='web_cert = "club.crt"\n')

"""Pairing a phone to a seat on the director's phones page (docs/phones.md, "Pairing"): a QR
code per seat opens the seat page with the seat's credential; one phone per seat; revoking a
pairing refuses its phone; all of it behind the admin token."""

from __future__ import annotations

import random
from collections.abc import Iterator

import httpx
import pytest
from browsing import needs_chromium
from click.testing import CliRunner
from phonekit import (
    WAIT,
    PhoneTable,
    bot_choice,
    new_shadow,
    open_seat,
    phone_context,
    place,
    tap_for,
)
from tricktable.cli import main
from tricktable.web.pairings import PairingStore
from waiting import eventually
from web_fixtures import ADMIN_TOKEN

pytestmark = [needs_chromium, pytest.mark.browser]


@pytest.fixture
def table(mqtt_broker, topic_prefix, tmp_path, registry_file) -> Iterator[PhoneTable]:
    t = PhoneTable(mqtt_broker.port, topic_prefix, tmp_path, registry_file,
                   admin_token=ADMIN_TOKEN)
    yield t
    t.close()


def director(browser, table: PhoneTable):
    page = browser.new_page()
    page.goto(f"{table.web.url}/phones")
    page.fill("#by", "Dana")
    page.fill("#token", ADMIN_TOKEN)
    page.click("#signin button")
    page.wait_for_selector("#seats tr[data-seat='0']")
    return page


def seat_row(page, seat: int):
    return page.locator(f"#seats tr[data-seat='{seat}']")


def test_the_director_pairs_a_phone_by_the_seats_qr_code(browser, table, shots):
    """The QR code opens North's seat page on the phone, which then plays as North; the
    phones page names the phone; a new QR code for North while it reads is refused, saying
    which phone has it; revoked, the phone is refused at its next card."""
    console = director(browser, table)
    assert [seat_row(console, s).locator("td").first.inner_text() for s in range(4)] == [
        "North at Table 1", "East at Table 1", "South at Table 1", "West at Table 1"]
    seat_row(console, 0).get_by_role("button", name="QR code").click()
    console.wait_for_selector("#qr-box:not([hidden])")
    assert console.locator("#qr-where").inner_text() == "North at Table 1"
    assert console.locator("#qr").get_attribute("src").startswith("data:image/svg+xml")
    url = console.locator("#qr-url").inner_text()
    console.screenshot(path=str(shots / "phones-qr.png"), full_page=True)
    assert url.startswith(f"{table.web.url}/pad#pair=")
    phone = phone_context(browser)
    north = open_seat(phone, url)
    assert north.locator("#where").inner_text() == "Table 1 · North"
    eventually(lambda: "Android 14 · Chrome 120" in seat_row(console, 0).inner_text(),
               "the phones page naming North's phone", WAIT)
    eventually(lambda: "reading" in seat_row(console, 0).inner_text(),
               "North's reader online", WAIT)
    shadow = new_shadow()
    deal = bot_choice(shadow, random.Random(1))
    assert deal.seat == 0 and place(north, tap_for(deal))["kind"] == "accepted"
    fleet = httpx.get(f"{table.web.url}/api/fleet",
                      headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}).json()["boards"]
    (row,) = [b for b in fleet if b["board"] == "t1.phone0"]  # the fleet page lists the phone
    assert (row["fw"], row["online"]) == ("phone", True)

    seat_row(console, 0).get_by_role("button", name="New QR code").click()
    eventually(lambda: "North at Table 1 is read by the phone (Android 14 · Chrome 120)"
               in console.locator("#answer").inner_text(), "the refusal naming the phone", WAIT)

    console.once("dialog", lambda d: d.accept())
    seat_row(console, 0).get_by_role("button", name="Revoke").click()
    eventually(lambda: "pairing revoked" in console.locator("#answer").inner_text(),
               "the revocation", WAIT)
    north.evaluate("s => window.__nfcField.tap(s)", "04:01:02:03:04")
    north.wait_for_selector("#verdict[data-kind=unpaired]", timeout=WAIT * 1000)
    assert "revoked" in north.locator("#verdict-detail").inner_text()
    # the page stopped its scan (its abort signal): no reader listens any more
    assert north.evaluate("s => window.__nfcField.tap(s)", "04:01:02:03:04") == 0
    phone.close()


def test_pairing_is_behind_the_admin_token(table):
    """Without the token, or with a wrong one, nothing is paired; with it (the positive
    control) a pairing is made."""
    api = f"{table.web.url}/api/phones/pair"
    seat = {"table": "t1", "seat": 1, "by": "Dana"}
    assert httpx.post(api, json=seat).status_code == 403
    assert httpx.post(api, json=seat, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert PairingStore(table.store.path).live() == []
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    elsewhere = httpx.post(api, json=dict(seat, table="t9"), headers=admin)
    assert elsewhere.status_code == 409
    assert elsewhere.json()["error"].startswith("Table 9 has no phone seat East")
    made = httpx.post(api, json=seat, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert made.status_code == 200 and made.json()["where"] == "East at Table 1"
    assert [p.seat for p in table.store.live()] == [1]


def test_a_play_without_a_pairing_is_refused(table):
    """The seat page's API speaks only for a paired phone: no credential, a made-up one, or
    another phone's device key is refused, and the host hears nothing."""
    url = table.pair(0)
    credential = url.split("#pair=")[1]
    play = {"device": "a" * 32, "seq": 1, "t": 0, "uid": "04010203"}
    api = f"{table.web.url}/api/pad"
    assert httpx.post(f"{api}/play", json=play).status_code == 403
    assert httpx.post(f"{api}/play", json=play,
                      headers={"Authorization": "Bearer 1-madeup"}).status_code == 403
    bearer = {"Authorization": f"Bearer {credential}"}
    assert httpx.post(f"{api}/claim", json={"device": "b" * 32}, headers=bearer).status_code == 200
    refused = httpx.post(f"{api}/play", json=play, headers=bearer)
    assert refused.status_code == 403 and "already read by" in refused.json()["error"]
    assert table.host.journal.count("pad") == 0
    # the positive control: the phone that claimed it is heard (an unknown tag, refused by
    # the host: acknowledged, nothing applied)
    heard = httpx.post(f"{api}/play", json=dict(play, device="b" * 32), headers=bearer,
                       timeout=WAIT)
    assert heard.status_code == 200 and heard.json()["acked"]
    assert heard.json()["verdict"]["code"] == "unknown_tag"
    assert table.host.service.state("t1")["actions"] == 0


def test_the_console_pairs_phones_only_knowing_the_seat_pages_address(tmp_path):
    """The console's QR codes open the public scoreboard's seat page: it needs its address."""
    night = tmp_path / "night.json"
    night.write_text("{}")
    result = CliRunner().invoke(main, ["console", "--night", str(night), "--phones",
                                       str(tmp_path / "phones.sqlite")],
                                env={"TRICKTABLE_ADMIN_TOKEN": "x"})
    assert result.exit_code == 2 and "--phones needs --pad-url" in result.output


def test_a_director_signed_in_on_the_console_needs_no_second_sign_in(browser, table):
    """The console (console.js) keeps the token and the director's name in the tab's
    sessionStorage; its /phones page, opened in that tab, takes them: the seats show at once,
    not the sign-in form again."""
    page = browser.new_page()
    page.goto(f"{table.web.url}/")
    page.evaluate("([token, by]) => { sessionStorage.setItem('token', token); "
                  "sessionStorage.setItem('by', by); }", [ADMIN_TOKEN, "Dana"])
    page.goto(f"{table.web.url}/phones")
    page.wait_for_selector("#seats tr[data-seat='0']", timeout=WAIT * 1000)
    assert page.locator("#signin").is_hidden()
    page.close()

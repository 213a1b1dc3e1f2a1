"""``tricktable up`` runs a club night as one supervised tree (docs/appliance.md): its own
mosquitto (the shipped configuration: client ids bound to users, the boards on TLS with the
club's CA, the parts on plain MQTT on loopback) with the boards' passwords and the club's ACL,
``serve --night``, the scoreboard and the console, each part under a broker user of its own
with its secrets in owner-only files, none on a command line. A browser opens the TV, the phone page and the console from the addresses it
printed; any one part killed is started again and the night carries on; the whole tree
SIGKILLed mid-hand and during the bell (a power cut) and started again ends the game with
every hand and the movement as the rules give them ("Bid Euchre", section "Bid euchre
variations", "Progressive"): nothing lost, nothing counted twice, the bell kept.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from browsing import needs_chromium
from test_live_night import hands_scored, moved
from tricktable.club.store import load_night
from tricktable.provision.acl import board_block
from upkit import PARTS, TABLES, Up
from waiting import eventually

pytestmark = pytest.mark.slow


@pytest.fixture
def up(tmp_path, topic_prefix):
    club = Up(tmp_path, topic_prefix)
    yield club
    club.close()


def first_seating(up: Up) -> list[list[str]]:
    return [list(t) for t in load_night(up.tmp / "night.json").seating]


def serves(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


@needs_chromium
def test_the_printed_addresses_open_the_tv_the_phone_page_and_the_console(up, browser):
    places = up.addresses()
    assert set(places) == {"TV", "phones", "console"}, up.output()
    token = up.secret("console-token")
    assert token not in up.output()  # never on stdout (the system journal keeps it)
    assert f"the console's token is in {up.data / 'secrets' / 'console-token'}" in up.output()
    assert token not in up.log()  # never in the log
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(places["TV"])
    panel = page.locator("#addresses figure")
    panel.first.wait_for()
    assert panel.count() == 2  # the console's address is the director's, not the room's
    assert page.locator("#addresses").inner_text().count("http://") == 2
    assert places["console"] not in page.locator("#addresses").inner_text()
    assert places["phones"].endswith("/seat")
    page.goto(places["phones"])  # where do I sit?
    page.fill("#name", "Ann")
    page.get_by_text("Table ").first.wait_for()
    page.goto(places["console"])
    page.fill("#by", "Director")
    page.fill("#token", token)
    page.click("#signin button")
    page.locator("#desk").wait_for()
    page.close()


def test_each_part_has_its_own_broker_user_and_no_secret_on_its_command_line(up):
    log = up.log()
    for part, user in (("serve", "tricktable-host"), ("web", "tricktable-web"),
                       ("console", "tricktable-director")):
        assert f"u'{user}')" in log, (part, log[-3000:])  # mosquitto's "New client" line
    assert "already connected, closing old connection" not in log  # nobody thrown off
    secrets = {p.name: p.read_text().strip() for p in (up.data / "secrets").iterdir()}
    assert set(secrets) == {"tricktable-host", "tricktable-web", "tricktable-director",
                            "tricktable-watch", "console-token"}
    for part, pid in up.pids().items():
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode()
        environ = Path(f"/proc/{pid}/environ").read_bytes().decode()
        for name, secret in secrets.items():
            assert secret not in argv and secret not in environ, (part, name)
    private = [*(up.data / "secrets").iterdir(), up.data / "broker" / "passwd",
               up.data / "broker" / "certs" / "ca.key", up.data / "broker" / "certs" /
               "server.key"]
    assert {p.name: oct(p.stat().st_mode & 0o777) for p in private} == \
        {p.name: "0o600" for p in private}
    acl = (up.data / "broker" / "acl").read_text()
    assert board_block(up.prefix, "t2-w", "t2") in acl  # from the club file
    mark = up.observer.mark()  # the boards, on TLS, are served: their plays are judged
    for table, players in zip(TABLES, first_seating(up), strict=True):
        up.seated(table, 2, players, mark)
    up.tap("t1")


def test_a_part_killed_is_started_again_and_the_night_carries_on(up):
    for table, players in zip(TABLES, first_seating(up), strict=True):
        up.seated(table, 2, players)
    places = up.addresses()
    for part in PARTS:
        mark = up.observer.mark()
        up.kill_part(part)
        if part == "broker":  # the host is back on the new broker before a play is made
            up.observer.wait_for(lambda t, p: t == up.observer.topics.host_status()
                                 and json.loads(p)["online"], mark, timeout=60)
        up.tap("t1")
        up.tap("t2")
        eventually(lambda: serves(places["TV"]) and serves(places["console"]),
                   f"the pages served after {part} was killed", timeout=60)
    up.play_until("t2", lambda s: s.public_state()["hand_number"] == 2)
    up.play_until("t1", lambda s: s.public_state()["hand_number"] == 2)
    eventually(lambda: load_night(up.tmp / "night.json").games, "the players moving", 60)
    assert up.stop() == 0
    assert "every part stopped" in up.log()


def test_the_whole_tree_sigkilled_mid_hand_and_during_the_bell_loses_nothing(up):
    first = first_seating(up)
    for table, players in zip(TABLES, first, strict=True):
        up.seated(table, 2, players)
    up.play_until("t2", lambda s: s.phase == "play" and s.public_state()["tricks"])
    up.kill_all()  # a power cut during a hand
    up.tap("t2", meanwhile=up.start)
    assert up.secret("console-token") not in up.output()  # shown the first time only
    up.play_until("t2", lambda s: len(s.public_state()["tricks"]) >= 3)
    up.play_until("t1", lambda s: s.public_state()["hand_number"] == 2)

    def live() -> dict:
        return json.loads((up.tmp / "night.json").read_text())["live"]

    eventually(lambda: live()["bell"] and live()["closed"] == {"t1": 1}, "the bell")
    up.kill_all()  # a power cut during the bell: table 2 is still in its hand
    up.tap("t2", meanwhile=up.start)
    assert live()["bell"]  # the bell state kept
    up.play_until("t2", lambda s: s.public_state()["hand_number"] == 2)
    eventually(lambda: load_night(up.tmp / "night.json").games, "the players moving", 60)
    night = load_night(up.tmp / "night.json")
    [game] = night.games
    assert [list(h) for h in game.hands] == [hands_scored(up.shadows[t]) for t in TABLES]
    expected = moved(first, up.shadows)
    assert night.seating == expected
    for table, players in zip(TABLES, expected, strict=True):
        up.seated(table, 3, list(players))

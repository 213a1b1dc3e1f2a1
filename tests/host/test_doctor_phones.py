"""``tricktable doctor`` sees phones as readers (docs/phones.md, "Before the night"): a seat
nothing reads stops the night; a phone seat without its phone, offline or low on battery is
a warning (phones are paired as the players sit down); a phone reading passes."""

from __future__ import annotations

import tomllib

from tricktable.appliance.doctor import _phone, _seats
from tricktable.clubfile import parse_club
from tricktable.protocol import BoardStatus, encode


def table(pads: str, phones: str = "[]"):
    text = (f'[tables.t1]\nvariant = "bid-euchre"\nphones = {phones}\n'
            f"[tables.t1.pads]\n{pads}")
    return parse_club(tomllib.loads(text)).tables["t1"]


def test_a_seat_nothing_reads_stops_the_night():
    mixed = table('"n1:0" = 0\n"s1:0" = 2\n', phones="[1]")
    (check,) = _seats(mixed)
    assert (check.ok, check.stops) == (False, True)
    assert check.line() == ("✗ Table 1: West has no reader: give it a board's pad "
                            "(tables.t1.pads) or a phone (tables.t1.phones) in the club file")
    assert _seats(table('"n1:0" = 0\n"s1:0" = 2\n', phones="[1, 3]")) == []


def test_a_phone_seat_says_how_its_phone_is():
    t = table("", phones="[0, 1, 2, 3]")
    (none,) = _phone(t, 0, None)
    assert not none.ok and not none.stops and "North at Table 1 (a phone seat) has no phone" \
        in none.what
    (off,) = _phone(t, 1, encode(BoardStatus(online=False)))
    assert off.what == "the phone at East at Table 1 is offline" and not off.stops
    (low,) = _phone(t, 2, encode(BoardStatus(online=True, fw="phone", battery=12)))
    assert low.what == "the phone at South at Table 1: battery 12 %: plug the phone in"
    (charging,) = _phone(t, 2, encode(BoardStatus(online=True, battery=12, charging=True)))
    assert charging.ok
    (fine,) = _phone(t, 3, encode(BoardStatus(online=True, fw="phone", battery=80)))
    assert fine.ok and fine.line() == "✓ the phone at West at Table 1 reads, battery 80 %"

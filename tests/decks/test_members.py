"""Member tags: a player's own tag, enrolled like a deck from a list of names, that the registry
resolves to the player (hardware/tag-format.md, "Member tags"). Through the PN532 emulator with
the real pyserial and Adafruit driver, and ``tricktable enroll --kind members`` as a process."""

from __future__ import annotations

import pytest
from deckkit import ScriptedUI, make_tags
from test_deck_cli import enrolled_in, run, tapping
from tricktable.deckkit import decks, tags
from tricktable.deckkit.enroll import EnrollError, enroll_deck


def test_members_are_enrolled_one_tag_each_and_resolve_to_their_names(emulator, usb_reader,
                                                                       registry):
    hand = make_tags(3, first=100)
    ui = ScriptedUI(emulator, hand)
    result = enroll_deck(registry, usb_reader, 90, "members", ui, tap_timeout=5,
                         members=("Ann", "Bob", "Cy"))
    assert result.complete and ui.log[0] == "tap MEMBER:1 (Ann) (0/3)"
    found = [registry.resolve(tag.uid) for tag in hand]
    assert [(f.member, f.player, f.token, f.card) for f in found] == [
        (1, "Ann", None, None), (2, "Bob", None, None), (3, "Cy", None, None)]
    record = tags.decode(hand[1].user_bytes(), hand[1].uid, registry.keys())
    assert (record.deck_id, record.code, record.copy) == (90, tags.MEMBER_CODE, 2)


def test_a_new_member_is_added_later_and_only_they_tap(emulator, usb_reader, registry):
    enroll_deck(registry, usb_reader, 90, "members", ScriptedUI(emulator, make_tags(2)),
                tap_timeout=5, members=("Ann", "Bob"))
    late = make_tags(1, first=50)
    result = enroll_deck(registry, usb_reader, 90, "members", ScriptedUI(emulator, late),
                         tap_timeout=5, members=("Ann", "Bob", "Di"))
    assert [slot.name for slot, _ in result.enrolled] == ["MEMBER:3 (Di)"]
    assert registry.resolve(late[0].uid).player == "Di"


def test_a_member_tag_read_by_another_host_needs_the_name_there(emulator, usb_reader, registry,
                                                                 tmp_path):
    hand = make_tags(1)
    enroll_deck(registry, usb_reader, 90, "members", ScriptedUI(emulator, hand), tap_timeout=5,
                members=("Ann",))
    with decks.Registry(tmp_path / "other.sqlite") as other:
        other.add_key(1, registry.keys()[1])
        with pytest.raises(decks.UnknownTag, match="member 1 of deck 90 has no name in this "
                                                   "registry"):
            other.resolve(hand[0].uid, hand[0].user_bytes())
        other.create_deck(90, "members")
        other.add_members(90, ["Ann"])
        assert other.resolve(hand[0].uid, hand[0].user_bytes()).player == "Ann"


@pytest.mark.parametrize(("kind", "names", "message"), [
    ("members", (), "members deck 90 has no members yet"),
    ("24", ("Ann",), "only a members deck has members"),
    ("members", ("Ann", "ann"), "'ann' is on the members list twice"),
    ("members", ("Ann", " "), "a member's name is empty"),
])
def test_bad_member_lists_are_refused(usb_reader, registry, emulator, kind, names, message):
    with pytest.raises(EnrollError, match=message):
        enroll_deck(registry, usb_reader, 90, kind, ScriptedUI(emulator, []), tap_timeout=0.1,
                    members=names)
    assert registry.members(90) == {}
    assert registry.deck(90) is None


def test_enroll_members_from_the_command_line(emulator, tmp_path):
    path = str(tmp_path / "decks.sqlite")
    names = tmp_path / "members.txt"
    names.write_text("# the club\nAnn\nBob\n")
    with tapping(emulator, make_tags(2), enrolled_in(path)):
        done = run("enroll", "--deck", "90", "--kind", "members", "--members", str(names),
                   "--port", emulator.port, "--registry", path, "--timeout", "5")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok MEMBER:2 (Bob)" in done.stdout and "complete: 2 enrolled" in done.stdout
    assert "2/2" in run("deck", "list", "--registry", path).stdout

"""The deck registry (docs/architecture.md, "Tags and tokens"): deck contents, enrollment
rules, and ``Registry.resolve`` as the table uses it."""

from __future__ import annotations

import pytest
from tricktable import cards
from tricktable.deckkit import decks, tags

UID = bytes.fromhex("04a1b2c3d4e5f6")
UID2 = bytes.fromhex("04a1b2c3d4e5f7")


def slot(name: str) -> decks.Slot:
    card, copy = cards.parse_card_copy(name)
    return decks.Slot(tags.card_code(card), copy)


@pytest.mark.parametrize(
    ("kind", "size"), [("24", 24), ("25", 25), ("32", 32), ("48", 48), ("52", 52), ("tokens", 46)]
)
def test_deck_kinds_have_their_cards(kind, size):
    slots = decks.deck_slots(kind)
    assert len(slots) == len(set(slots)) == size


def test_a_48_card_deck_is_two_24_card_decks_copy_0_and_1():
    slots = decks.deck_slots("48")
    assert [s.copy for s in slots] == [0] * 24 + [1] * 24
    assert {s.code for s in slots[:24]} == {s.code for s in slots[24:]}
    assert slots[24].name.endswith("'")


def test_unknown_kind_is_refused(registry):
    with pytest.raises(decks.RegistryError, match="unknown deck kind '23'"):
        registry.create_deck(1, "23")
    assert registry.decks() == []


def test_a_deck_id_is_used_once(registry):
    registry.create_deck(1, "24", "red backs")
    with pytest.raises(decks.RegistryError, match="deck 1 already exists"):
        registry.create_deck(1, "52")
    assert registry.deck(1) == decks.Deck(1, "24", "red backs", 1)


def test_enrolled_card_resolves_from_the_registry_without_a_record(registry):
    registry.create_deck(3, "48")
    registry.enroll(UID, 3, slot("JD'"))
    found = registry.resolve(UID, None)
    assert (found.deck_id, found.card, found.copy, found.token) == (3, cards.parse_card("JD"), 1, None)
    assert found.source == "registry" and found.slot == slot("JD'")


def test_token_resolves_as_a_token(registry):
    registry.create_deck(9, "tokens")
    registry.enroll(UID, 9, decks.Slot(tags.token_code("BID:3HC")))
    found = registry.resolve(UID)
    assert found.is_token and found.token == "BID:3HC" and found.card is None


def test_a_uid_is_enrolled_once_in_any_deck(registry):
    registry.create_deck(1, "24")
    registry.create_deck(2, "24")
    registry.enroll(UID, 1, slot("AS"))
    with pytest.raises(decks.RegistryError, match="already enrolled in this deck as AS"):
        registry.enroll(UID, 1, slot("KS"))
    with pytest.raises(decks.RegistryError, match="already enrolled in deck 1 as AS"):
        registry.enroll(UID, 2, slot("AS"))
    assert registry.enrolled(2) == {}


def test_a_slot_takes_one_tag_and_must_belong_to_the_deck(registry):
    registry.create_deck(1, "24")
    registry.enroll(UID, 1, slot("AS"))
    with pytest.raises(decks.RegistryError, match="AS of deck 1 already has tag"):
        registry.enroll(UID2, 1, slot("AS"))
    with pytest.raises(decks.RegistryError, match="2S is not part of a 24 deck"):
        registry.enroll(UID2, 1, slot("2S"))
    assert registry.lookup(UID2) is None


def test_unknown_uid_without_record_is_unknown(registry):
    with pytest.raises(decks.UnknownTag, match="not enrolled and carries no tricktable record"):
        registry.resolve(UID, bytes(16))


def test_unknown_uid_with_a_valid_record_resolves_from_the_record(registry):
    registry.create_deck(4, "25")
    registry.enroll(UID, 4, slot("JOKER"))
    record = registry.record_for(UID)
    registry.unenroll(UID)  # as on a table whose host never enrolled the card
    found = registry.resolve(UID, record)
    assert (found.card, found.source) == (cards.JOKER, "record")


def test_record_with_a_bad_mac_is_refused(registry):
    registry.create_deck(4, "24")
    registry.enroll(UID, 4, slot("AS"))
    record = bytearray(registry.record_for(UID))
    registry.unenroll(UID)
    record[6] = tags.card_code(cards.parse_card("KS"))  # promote the card: MAC no longer fits
    with pytest.raises(decks.BadRecord, match="MAC does not match"):
        registry.resolve(UID, bytes(record))


def test_record_copied_onto_another_tag_is_refused(registry):
    registry.create_deck(4, "24")
    registry.enroll(UID, 4, slot("AS"))
    record = registry.record_for(UID)
    with pytest.raises(decks.BadRecord, match=f"tag {UID2.hex()}: record MAC does not match"):
        registry.resolve(UID2, record)


def test_record_naming_a_card_its_deck_does_not_have_is_refused(registry):
    key_id = registry.club_key()
    registry.create_deck(4, "24")
    raw = tags.encode(tags.TagRecord(4, tags.card_code(cards.parse_card("2C")), 0, key_id),
                      UID, registry.keys()[key_id])
    with pytest.raises(decks.BadRecord, match="2C is not part of deck 4"):
        registry.resolve(UID, raw)


def test_club_keys_are_shared_between_hosts_and_never_replaced(tmp_path):
    with decks.Registry(tmp_path / "a.sqlite") as a, decks.Registry(tmp_path / "b.sqlite") as b:
        a.create_deck(5, "24")
        a.enroll(UID, 5, slot("9H"))
        record = a.record_for(UID)
        with pytest.raises(decks.BadRecord, match="club key 1, unknown"):
            b.resolve(UID, record)
        b.add_key(1, a.keys()[1])
        assert b.resolve(UID, record).card == cards.parse_card("9H")
        with pytest.raises(decks.RegistryError, match="already exists with a different value"):
            b.add_key(1, bytes(32))


def test_registry_survives_reopening(tmp_path):
    with decks.Registry(tmp_path / "r.sqlite") as reg:
        reg.create_deck(1, "24")
        reg.enroll(UID, 1, slot("QC"), signature=b"s" * 32)
    with decks.Registry(tmp_path / "r.sqlite") as reg:
        assert reg.resolve(UID).card == cards.parse_card("QC")
        assert reg.signature(UID) == b"s" * 32


def test_unenroll_of_an_unknown_tag_is_refused(registry):
    with pytest.raises(decks.RegistryError, match="is not enrolled"):
        registry.unenroll(UID)


def test_a_valid_record_for_a_card_enrolled_here_as_another_tag_is_refused(registry):
    # a second AS made with the club key (e.g. tagged on another host): this registry knows
    # which tag AS of deck 4 is, so the other one is refused
    registry.create_deck(4, "24")
    registry.enroll(UID, 4, slot("AS"))
    key_id = registry.deck(4).key_id
    raw = tags.encode(tags.TagRecord(4, tags.card_code(cards.parse_card("AS")), 0, key_id),
                      UID2, registry.keys()[key_id])
    with pytest.raises(decks.BadRecord, match=f"AS of deck 4 is enrolled here as tag {UID.hex()}"):
        registry.resolve(UID2, raw)


def test_the_club_key_is_readable_by_its_owner_only(tmp_path):
    """The registry holds the club key (it signs the tags, and the boards' update key comes
    from it): the file and its SQLite side files are created 0600 whatever the umask, and an
    older registry readable by others is made 0600 when opened."""
    import os
    import stat

    path = tmp_path / "decks.sqlite"
    old_umask = os.umask(0o022)
    try:
        with decks.Registry(path) as reg:
            reg.add_key(1, bytes(range(32)))
            side = [p for p in tmp_path.iterdir() if p.name != "decks.sqlite"]
            assert {p.name for p in side} >= {"decks.sqlite-wal", "decks.sqlite-shm"}
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in [path, *side]}
            assert set(modes.values()) == {0o600}, modes
        path.chmod(0o644)
        decks.Registry(path).close()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        os.umask(old_umask)

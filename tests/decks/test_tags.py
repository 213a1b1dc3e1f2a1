"""The tag record (hardware/tag-format.md): layout, codes, round trips, and the MAC that
binds a record to its tag's UID."""

from __future__ import annotations

import pytest
from deckkit import GENUINE
from hypothesis import given
from hypothesis import strategies as st
from tricktable import cards
from tricktable.deckkit import tags

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))
UID = bytes.fromhex("04a1b2c3d4e5f6")


def test_every_card_face_and_token_has_its_own_code_and_back():
    faces = [tags.card_code(card) for card in cards.CARDS]
    tokens = [tags.token_code(token) for token in tags.TOKENS]
    assert len(set(faces + tokens)) == 53 + len(tags.TOKENS)
    assert [tags.code_value(code) for code in faces] == list(cards.CARDS)
    assert [tags.code_value(code) for code in tokens] == list(tags.TOKENS)


def test_codes_read_well_in_a_hex_dump():
    assert tags.card_code(cards.parse_card("AS")) == 0x1E
    assert tags.card_code(cards.parse_card("10H")) == 0x2A
    assert tags.card_code(cards.parse_card("9C")) == 0x49
    assert tags.card_code(cards.JOKER) == 0x50
    assert tags.token_code("PASS") == 0x80


def test_the_architecture_tokens_are_all_codable():
    for token in ["PASS", "BID:2", "BID:12", "BID:3HC", "PEPPER:BIG", "BLINDNIL", "TRUMP:NT",
                  "SIT_OUT", "NEW_GAME"]:
        assert tags.code_value(tags.token_code(token)) == token


def test_unassigned_codes_and_tokens_are_refused():
    for code in (0x00, 0x0E, 0x1F, 0x51, 0x7F, 0x80 + len(tags.TOKENS), 0xFF):
        with pytest.raises(tags.RecordError, match="not assigned"):
            tags.code_value(code)
    with pytest.raises(tags.RecordError, match="not a token"):
        tags.token_code("BID:14")


def test_record_layout_is_a_proprietary_tlv_of_16_bytes():
    raw = tags.encode(tags.TagRecord(deck_id=0x0102, code=0x1E, copy=1, key_id=3), UID, KEY)
    assert len(raw) == 16 == tags.RECORD_LEN
    assert raw[:8] == bytes([0xFD, 0x0E, 0x01, 0x03, 0x01, 0x02, 0x1E, 0x01])
    assert tags.TERMINATOR_PAGE[0] == 0xFE


@given(
    deck_id=st.integers(1, 0xFFFF),
    code=st.sampled_from([tags.card_code(c) for c in cards.CARDS]
                         + [tags.token_code(t) for t in tags.TOKENS]),
    copy=st.integers(0, 1),
    key_id=st.integers(0, 255),
    uid=st.binary(min_size=7, max_size=7) | st.binary(min_size=4, max_size=4),
)
def test_round_trip(deck_id, code, copy, key_id, uid):
    record = tags.TagRecord(deck_id, code, copy, key_id)
    raw = tags.encode(record, uid, KEY)
    assert tags.decode(raw, uid, {key_id: KEY}) == record


def test_a_reader_may_return_more_than_16_bytes():
    record = tags.TagRecord(7, 0x1E)
    raw = tags.encode(record, UID, KEY) + tags.TERMINATOR_PAGE
    assert tags.decode(raw, UID, {1: KEY}) == record


def test_a_record_copied_onto_another_tag_is_refused():
    raw = tags.encode(tags.TagRecord(7, 0x1E), UID, KEY)
    other_uid = bytes.fromhex("04a1b2c3d4e5f7")
    with pytest.raises(tags.RecordError, match="does not match tag 04a1b2c3d4e5f7"):
        tags.decode(raw, other_uid, {1: KEY})


@pytest.mark.parametrize("byte", range(2, 16))
def test_any_altered_byte_is_refused(byte):
    raw = bytearray(tags.encode(tags.TagRecord(7, 0x1E), UID, KEY))
    raw[byte] ^= 0x01
    with pytest.raises(tags.RecordError):
        tags.decode(bytes(raw), UID, {1: KEY, 0: KEY})


def test_another_clubs_key_is_refused():
    raw = tags.encode(tags.TagRecord(7, 0x1E), UID, OTHER_KEY)
    with pytest.raises(tags.RecordError, match="MAC does not match"):
        tags.decode(raw, UID, {1: KEY})


def test_unknown_key_id_is_named():
    raw = tags.encode(tags.TagRecord(7, 0x1E, key_id=9), UID, KEY)
    with pytest.raises(tags.RecordError, match="club key 9, unknown"):
        tags.decode(raw, UID, {1: KEY})


def test_malformed_records_say_what_is_wrong():
    with pytest.raises(tags.RecordError, match="16 bytes, got 4"):
        tags.parse(b"\xfd\x0e\x01\x01")
    with pytest.raises(tags.RecordError, match="not a tricktable record"):
        tags.parse(bytes(16))
    raw = bytearray(tags.encode(tags.TagRecord(7, 0x1E), UID, KEY))
    raw[2] = 2
    with pytest.raises(tags.RecordError, match="version 2 is not supported"):
        tags.parse(bytes(raw))


def test_field_ranges_are_checked():
    with pytest.raises(tags.RecordError, match="deck id 0"):
        tags.TagRecord(0, 0x1E)
    with pytest.raises(tags.RecordError, match="copy number 256"):
        tags.TagRecord(1, 0x1E, copy=256)
    with pytest.raises(tags.RecordError, match="UID is 4, 7 or 10 bytes"):
        tags.encode(tags.TagRecord(1, 0x1E), b"\x01\x02", KEY)
    with pytest.raises(tags.RecordError, match="club key is 32 bytes"):
        tags.encode(tags.TagRecord(1, 0x1E), UID, b"short")


def test_the_token_table_in_tag_format_md_matches_the_code():
    import re
    from pathlib import Path
    text = (Path(__file__).parents[2] / "hardware" / "tag-format.md").read_text()
    pairs = re.findall(r"\| ([89A-F][0-9A-F]) \| ([A-Z_:0-9]+) ", text)
    assert sorted((int(code, 16), token) for code, token in pairs) == [
        (tags.token_code(token), token) for token in tags.TOKENS
    ]


@pytest.mark.parametrize(("uid", "signature"), GENUINE)
def test_a_genuine_nxp_originality_signature_verifies(uid, signature):
    assert tags.originality_valid(bytes.fromhex(uid), bytes.fromhex(signature))


def test_a_signature_replayed_for_another_uid_or_altered_does_not_verify():
    uid, signature = (bytes.fromhex(x) for x in GENUINE[0])
    assert not tags.originality_valid(bytes.fromhex(GENUINE[1][0]), signature)
    altered = bytearray(signature)
    altered[31] ^= 1
    assert not tags.originality_valid(uid, bytes(altered))
    assert not tags.originality_valid(uid, bytes(32))
    assert not tags.originality_valid(uid, signature[:31])

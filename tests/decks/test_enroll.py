"""Enrollment and deck check through the PN532 emulator on a pseudo-terminal, with the real
pyserial and Adafruit PN532_UART code in between (issue 7, "Done when")."""

from __future__ import annotations

import pytest
from deckkit import GENUINE, ScriptedUI, make_tags
from tricktable import cards
from tricktable.deckkit import decks, tags
from tricktable.deckkit.enroll import (
    EnrollError,
    ReaderError,
    TapDetector,
    UsbReader,
    check_deck,
    enroll_deck,
)
from tricktable.sim.pn532_emulator import Tag

# How long a session waits for a tap once the scripted person has no card left to tap (or
# has walked away): it ends the session, and is long enough for a reader's round trips on a
# loaded machine (at 0.5 s, a session under load ended between two cards of the script).
QUIET_S = 2.0


def test_the_adafruit_driver_talks_to_the_emulator_through_pyserial(emulator, usb_reader):
    assert tuple(usb_reader.pn532.firmware_version) == (0x32, 1, 6, 7)
    assert usb_reader.poll() is None
    tag = make_tags(1)[0]
    emulator.place(tag)
    assert usb_reader.poll() == tag.uid
    usb_reader.write_record(bytes(range(16)))
    assert usb_reader.read_record() == bytes(range(16))
    assert tag.user_bytes()[16:20] == tags.TERMINATOR_PAGE
    assert usb_reader.signature() == tag.signature


def test_a_24_card_deck_is_enrolled_written_and_read_back(emulator, usb_reader, registry):
    hand = make_tags(24)
    ui = ScriptedUI(emulator, hand)
    result = enroll_deck(registry, usb_reader, 1, "24", ui, name="blue backs", tap_timeout=5)
    assert result.complete and len(result.enrolled) == 24
    assert ui.log[0] == "tap 9S (0/24)"
    for (slot, uid), tag in zip(result.enrolled, hand, strict=True):
        assert uid == tag.uid
        assert registry.resolve(uid).slot == slot
        # the record on the tag stands alone: another host with the key accepts it
        record = tags.decode(tag.user_bytes(), tag.uid, registry.keys())
        assert decks.Slot(record.code, record.copy) == slot
        assert registry.signature(uid) == tag.signature


def test_a_token_set_is_enrolled(emulator, usb_reader, registry):
    ui = ScriptedUI(emulator, make_tags(len(tags.TOKENS), kind="ntag215"))
    result = enroll_deck(registry, usb_reader, 40, "tokens", ui, tap_timeout=5)
    assert result.complete
    assert [registry.resolve(uid).token for _, uid in result.enrolled] == list(tags.TOKENS)


def test_a_duplicate_tap_is_caught_and_the_right_card_asked_again(emulator, usb_reader, registry):
    first, second, third = make_tags(3)
    # 9S, then 9S again by mistake (lifted and put back), then the real 10S, then JS
    taps = TapDetector(usb_reader)
    ui = ScriptedUI(emulator, [first, first, second, third], taps=taps)
    registry.create_deck(2, "24")
    result = enroll_deck(registry, usb_reader, 2, "24", ui, tap_timeout=QUIET_S, taps=taps)
    assert [s.name for s, _ in result.enrolled] == ["9S", "10S", "JS"]
    assert "problem: this tag is already enrolled in this deck as 9S; tap 10S" in ui.log
    assert not result.complete and result.remaining[0].name == "QS"


def test_a_tag_of_another_deck_is_refused(emulator, usb_reader, registry):
    other = make_tags(1, first=500)[0]
    registry.create_deck(7, "24")
    registry.enroll(other.uid, 7, decks.deck_slots("24")[3])
    ui = ScriptedUI(emulator, [other, *make_tags(1)])
    result = enroll_deck(registry, usb_reader, 8, "24", ui, tap_timeout=QUIET_S)
    assert "problem: this tag is already enrolled in deck 7 as QS; tap 9S" in ui.log
    assert [s.name for s, _ in result.enrolled] == ["9S"]
    assert registry.lookup(other.uid)[0] == 7


def test_a_card_out_of_order_is_caught_by_its_record_and_can_be_redone(emulator, usb_reader, registry):
    # A deck whose registry entries were lost (e.g. enrolled on another host with this key):
    # the records on the tags say which card each one is.
    hand = make_tags(3)
    enroll_deck(registry, usb_reader, 5, "24", ScriptedUI(emulator, hand), tap_timeout=QUIET_S)
    for tag in hand:
        registry.unenroll(tag.uid)
    # asked for 9S, the person taps 10S: redo; then 9S; then asked 10S, taps JS: overwrite
    ui = ScriptedUI(emulator, [hand[1], hand[0], hand[2]], answers=["r", "o"])
    result = enroll_deck(registry, usb_reader, 5, "24", ui, tap_timeout=QUIET_S)
    asks = [line for line in ui.log if line.startswith("ask")]
    assert asks == [
        "ask: out of order: this card is 10S by its record, 9S was asked.",
        "ask: out of order: this card is JS by its record, 10S was asked.",
    ]
    assert [(s.name, uid) for s, uid in result.enrolled] == [("9S", hand[0].uid), ("10S", hand[2].uid)]
    assert registry.resolve(hand[2].uid, hand[2].user_bytes()).card == cards.parse_card("10S")


def test_quit_stops_and_a_later_run_resumes(emulator, usb_reader, registry):
    hand = make_tags(3)
    enroll_deck(registry, usb_reader, 5, "24", ScriptedUI(emulator, hand[:1]), tap_timeout=QUIET_S)
    registry.unenroll(hand[0].uid)
    ui = ScriptedUI(emulator, [hand[0]], answers=["q"])
    registry.enroll(hand[1].uid, 5, decks.deck_slots("24")[0])  # 9S now taken by another tag
    result = enroll_deck(registry, usb_reader, 5, "24", ui, tap_timeout=QUIET_S)
    assert ui.log[0] == "tap 10S (1/24)" and result.enrolled == []
    assert len(result.remaining) == 23


def test_redo_forgets_a_card_and_enrolls_it_again(emulator, usb_reader, registry):
    hand = make_tags(2)
    enroll_deck(registry, usb_reader, 6, "24", ScriptedUI(emulator, hand), tap_timeout=QUIET_S)
    replacement = make_tags(1, first=900)[0]
    ui = ScriptedUI(emulator, [replacement])
    result = enroll_deck(registry, usb_reader, 6, "24", ui, redo=("9S",), tap_timeout=QUIET_S)
    assert result.enrolled[0] == (decks.deck_slots("24")[0], replacement.uid)
    assert registry.lookup(hand[0].uid) is None


def test_bad_requests_change_nothing(usb_reader, registry, emulator):
    registry.create_deck(6, "24")
    ui = ScriptedUI(emulator, [])
    with pytest.raises(EnrollError, match="deck 6 is a 24 deck, not 52"):
        enroll_deck(registry, usb_reader, 6, "52", ui)
    with pytest.raises(EnrollError, match="not in a 24 deck: 2S"):
        enroll_deck(registry, usb_reader, 6, "24", ui, redo=("2S",))
    with pytest.raises(EnrollError, match="unknown deck kind"):
        enroll_deck(registry, usb_reader, 7, "23", ui)
    with pytest.raises(EnrollError, match="deck 8 is not enrolled"):
        check_deck(registry, usb_reader, 8, ui)
    assert ui.log == [] and [d.deck_id for d in registry.decks()] == [6]


def test_a_card_left_on_the_reader_is_one_tap_and_a_7_byte_tag_that_flickers_too(emulator, usb_reader):
    flicker = Tag(bytes.fromhex("04010203040506"), miss_every=2)
    emulator.place(flicker)
    taps = TapDetector(usb_reader)
    assert taps.next_tap(2) == flicker.uid
    assert taps.next_tap(0.5) is None  # still lying there, dropping out of every second poll
    emulator.remove()
    assert taps.next_tap(0.5) is None
    emulator.place(flicker)
    assert taps.next_tap(2) == flicker.uid  # put back after removal: a new tap


class AnswersLate:
    """The USB reader, but its first ``late`` polls go unanswered (a busy USB link)."""

    def __init__(self, reader: UsbReader, late: int) -> None:
        self.reader, self.late = reader, late

    def poll(self) -> bytes | None:
        if self.late:
            self.late -= 1
            raise ReaderError("PN532 did not answer command 0x4A")
        return self.reader.poll()


def test_a_poll_left_unanswered_now_and_then_is_not_a_lost_reader(emulator, usb_reader):
    tag = make_tags(1)[0]
    emulator.place(tag)
    assert TapDetector(AnswersLate(usb_reader, 3), silent_polls=8).next_tap(5) == tag.uid


def test_a_reader_that_stays_silent_is_lost(emulator, usb_reader):
    emulator.hang()
    with pytest.raises(ReaderError, match="did not answer"):
        TapDetector(usb_reader, silent_polls=2).next_tap(30)


def test_deck_check_lists_missing_extra_and_foreign_cards(emulator, usb_reader, registry):
    hand = make_tags(24)
    enroll_deck(registry, usb_reader, 1, "24", ScriptedUI(emulator, hand), tap_timeout=5)
    foreign = make_tags(1, first=300)[0]
    # the idle times are what a person's pause means, not a serial link's (a loaded machine
    # answers a poll over the pty in more than 0.3 s): the scripted person lifts the last card
    enroll_deck(registry, usb_reader, 2, "24", ScriptedUI(emulator, [foreign]), tap_timeout=3)
    stranger = make_tags(1, first=400)[0]
    copied = Tag(bytes.fromhex("04999999999999"))
    copied.write_user(hand[5].user_bytes()[:16])  # AS's record cloned onto another tag
    scan = [*hand[2:], foreign, stranger, copied]
    ui = ScriptedUI(emulator, scan)
    report = check_deck(registry, usb_reader, 1, ui, idle_timeout=3)
    assert [s.name for s in report.missing] == ["9S", "10S"]
    assert report.foreign == [(foreign.uid, "9S of deck 2")]
    assert [uid for uid, _ in report.extra] == [stranger.uid, copied.uid]
    assert "MAC does not match" in report.extra[1][1]
    assert report.warnings == [] and not report.ok
    assert len(report.seen) == 22


def test_deck_check_of_a_complete_deck_is_ok_and_warns_of_a_swapped_chip(emulator, usb_reader, registry):
    hand = make_tags(25)
    enroll_deck(registry, usb_reader, 1, "25", ScriptedUI(emulator, hand), tap_timeout=5)
    report = check_deck(registry, usb_reader, 1, ScriptedUI(emulator, hand), idle_timeout=3)
    assert report.ok and len(report.seen) == 25
    # a chip answering with the JOKER's UID and record but another originality signature
    joker = hand[-1]
    clone = Tag(joker.uid, signature=bytes(32))
    clone.write_user(joker.user_bytes())
    report = check_deck(registry, usb_reader, 1, ScriptedUI(emulator, [*hand[:-1], clone]),
                        idle_timeout=3)
    assert report.warnings == [(joker.uid, "JOKER: originality signature differs from enrollment")]


def test_genuine_only_refuses_a_tag_whose_originality_signature_does_not_verify(
    emulator, usb_reader, registry
):
    genuine = [Tag(bytes.fromhex(uid), signature=bytes.fromhex(sig)) for uid, sig in GENUINE]
    clone = Tag(bytes.fromhex("04E10CDA993C81"), signature=bytes.fromhex(GENUINE[0][1]))
    ui = ScriptedUI(emulator, [genuine[0], clone, genuine[1]])
    result = enroll_deck(registry, usb_reader, 9, "24", ui, tap_timeout=QUIET_S, genuine_only=True)
    assert [(s.name, uid) for s, uid in result.enrolled] == [
        ("9S", genuine[0].uid), ("10S", genuine[1].uid)]
    assert any("04e10cda993c81 is not a genuine NXP NTAG21x" in line for line in ui.log)
    assert registry.lookup(clone.uid) is None and clone.user_bytes()[:2] == b"\x00\x00"
    report = check_deck(registry, usb_reader, 9, ScriptedUI(emulator, genuine), idle_timeout=3,
                        genuine_only=True)
    assert report.warnings == [] and len(report.seen) == 2


class WriteProtectedTag(Tag):
    """A tag whose user pages are password-protected: it answers NAK to every WRITE."""

    def command(self, cmd):
        if cmd and cmd[0] == 0xA2:
            return 0x14, b"", 0
        return super().command(cmd)


class ForgetfulTag(Tag):
    """A failing tag that acknowledges WRITE but keeps nothing."""

    def command(self, cmd):
        if cmd and cmd[0] == 0xA2:
            return 0x00, b"", 0
        return super().command(cmd)


class TornWriteTag(Tag):
    """A tag that leaves the field half way through its first record: page 4 is written, the
    WRITE of page 5 times out."""

    torn = False

    def command(self, cmd):
        if cmd and cmd[0] == 0xA2 and cmd[1] == 5 and not self.torn:
            self.torn = True
            return 0x01, b"", 0  # PN532 status 01: the target did not answer in time
        return super().command(cmd)


def test_a_write_torn_half_way_is_written_again_without_asking(emulator, usb_reader, registry):
    torn = TornWriteTag(bytes.fromhex("04777777777703"))
    ui = ScriptedUI(emulator, [torn, torn])  # tapped again when told to
    result = enroll_deck(registry, usb_reader, 3, "24", ui, tap_timeout=QUIET_S)
    assert [line for line in ui.log if line.startswith("ask")] == []  # its own half record
    assert result.enrolled == [(decks.deck_slots("24")[0], torn.uid)]
    assert tags.decode(torn.user_bytes(), torn.uid, registry.keys()).code == \
        decks.deck_slots("24")[0].code


def test_a_write_refused_or_not_read_back_enrolls_nothing_and_asks_again(emulator, usb_reader,
                                                                         registry):
    locked = WriteProtectedTag(bytes.fromhex("04777777777701"))
    forgetful = ForgetfulTag(bytes.fromhex("04777777777702"))
    good = make_tags(1)[0]
    ui = ScriptedUI(emulator, [locked, forgetful, good])
    result = enroll_deck(registry, usb_reader, 3, "24", ui, tap_timeout=QUIET_S)
    problems = [line for line in ui.log if line.startswith("problem")]
    assert problems[:2] == [
        "problem: tag refused NTAG command 0xA2 (status 0x14): hold the card still and tap 9S again",
        "problem: the record did not read back as written: hold the card still and tap 9S again",
    ]
    assert result.enrolled == [(decks.deck_slots("24")[0], good.uid)]
    assert registry.lookup(locked.uid) is None and registry.lookup(forgetful.uid) is None


def test_a_port_where_no_pn532_answers_is_a_clear_error(emulator):
    emulator.chip.hang()
    with pytest.raises(ReaderError, match=f"no PN532 answers on {emulator.port}"):
        UsbReader.open(emulator.port)


def test_a_48_card_double_deck_is_enrolled_as_two_copies(emulator, usb_reader, registry):
    hand = make_tags(48)
    result = enroll_deck(registry, usb_reader, 48, "48", ScriptedUI(emulator, hand), tap_timeout=5)
    assert result.complete
    first, second = registry.resolve(hand[0].uid), registry.resolve(hand[24].uid, hand[24].user_bytes())
    assert (first.card, first.copy) == (second.card, 0) and second.copy == 1
    assert tags.parse(hand[24].user_bytes()).copy == 1

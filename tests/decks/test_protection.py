"""Password protection of enrolled tags (hardware/tag-format.md, "Optional: password
protection"): the NTAG21x semantics of the PN532 emulator, checked against the NXP
NTAG213/215/216 data sheet (Rev. 3.2), and ``tricktable enroll --protect`` / ``deck check``
through the real pyserial and Adafruit PN532 code on the emulator's pseudo-terminal.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading

import pytest
from deckkit import ScriptedUI, make_tags
from tricktable.deckkit import decks, tags
from tricktable.deckkit.enroll import ReaderError, check_deck, enroll_deck
from tricktable.sim.pn532_emulator import PN532, ST_NAK, ST_OK, ST_TIMEOUT, Tag, build_frame

WAIT = 30  # a card the script places is tapped long before: the time only ends a failure

UID = bytes.fromhex("04a1b2c3d4e5f6")
PWD = bytes.fromhex("11223344")
PACK = bytes.fromhex("abcd")


def write(tag: Tag, page: int, data: bytes = b"\x01\x02\x03\x04") -> int:
    return tag.command(bytes([0xA2, page]) + data)[0]


def read(tag: Tag, page: int) -> tuple[int, bytes]:
    status, data, _ = tag.command(bytes([0x30, page]))
    return status, data


def auth(tag: Tag, pwd: bytes) -> tuple[int, bytes]:
    status, data, _ = tag.command(b"\x1b" + pwd)
    return status, data


# -- the emulator against the data sheet -------------------------------------------------------


@pytest.mark.parametrize(("kind", "cfg0"), [("ntag213", 0x29), ("ntag215", 0x83), ("ntag216", 0xE3)])
def test_configuration_pages_as_shipped(kind, cfg0):
    """Data sheet 8.5.7 "Configuration pages" (tables "Configuration pages" and "Default
    values"): CFG0 at 29h/83h/E3h reads MIRROR 04h, RFUI, MIRROR_PAGE 00h, AUTH0 FFh; CFG1
    ACCESS 00h then 05h 00h 00h; PWD (default FFFFFFFFh) and PACK (0000h) read as 00h.
    GET_VERSION's storage size byte tells the host which page that is."""
    tag = Tag(UID, kind=kind)
    status, version, _ = tag.command(b"\x60")
    assert status == ST_OK and tags.CFG0_PAGES[version[6]] == cfg0
    assert read(tag, cfg0) == (ST_OK, bytes.fromhex("040000ff" "00050000" "00000000" "00000000"))
    assert auth(tag, b"\xff\xff\xff\xff") == (ST_OK, b"\x00\x00")  # factory password


def test_auth0_protects_writes_from_its_page_and_pwd_auth_answers_pack():
    """Data sheet 8.8 "Password verification protection": from page AUTH0 on, WRITE needs a
    successful PWD_AUTH (10.7: 1Bh + PWD, answered with the 2-byte PACK, or NAK). With
    ACCESS.PROT = 0 only writes are protected; reads stay open."""
    tag = Tag(UID, kind="ntag213")
    tag.set_password(PWD, PACK, auth0=5)
    assert write(tag, 4) == ST_OK  # below AUTH0
    assert write(tag, 5) == ST_NAK
    tag.new_session()
    assert read(tag, 5)[0] == ST_OK  # PROT = 0: reads are free
    assert auth(tag, PWD) == (ST_OK, PACK)
    assert write(tag, 5) == ST_OK and read(tag, 5)[1][:4] == b"\x01\x02\x03\x04"


def test_after_a_nak_the_tag_is_silent_until_selected_again():
    """Data sheet 10 "NTAG21x command overview" / state diagram: a NAK sends the tag back to
    IDLE, so it answers nothing until a new selection; a wrong PWD_AUTH is a NAK."""
    tag = Tag(UID, kind="ntag215")
    tag.set_password(PWD, PACK)
    assert auth(tag, b"\x00\x00\x00\x00") == (ST_NAK, b"")
    assert read(tag, 4)[0] == ST_TIMEOUT
    tag.new_session()
    assert read(tag, 4)[0] == ST_OK


def test_prot_makes_reads_need_the_password_too():
    """Data sheet 8.5.7, ACCESS bit 7 PROT: 1b = read and write access protected."""
    tag = Tag(UID, kind="ntag216")
    tag.set_password(PWD, PACK, auth0=8, prot=True)
    assert read(tag, 4)[0] == ST_OK
    assert read(tag, 8)[0] == ST_NAK
    tag.new_session()
    auth(tag, PWD)
    assert read(tag, 8)[0] == ST_OK


def test_pwd_and_pack_are_write_only_and_cfglck_locks_the_configuration():
    """Data sheet 8.8.1 "Programming of PWD and PACK": they can be written, a READ returns
    00h for them. 8.5.7, ACCESS bit 6 CFGLCK: CFG0/CFG1 locked for good, PWD and PACK not."""
    tag = Tag(UID, kind="ntag213")
    assert write(tag, 0x2B, PWD) == ST_OK and write(tag, 0x2C, PACK + b"\x00\x00") == ST_OK
    assert read(tag, 0x2B)[1][:8] == bytes(8)
    assert write(tag, 0x2A, b"\x40\x05\x00\x00") == ST_OK  # CFGLCK
    assert write(tag, 0x29, b"\x04\x00\x00\x04") == ST_NAK
    tag.new_session()
    assert write(tag, 0x2B, b"\x55\x66\x77\x88") == ST_OK


def exchange(chip: PN532, data: bytes) -> bytes:
    chip.receive(build_frame(0xD4, b"\x40\x01" + data))
    return chip.out[-1][6:-2]  # after 00 00 FF LEN LCS D5: 41, status, data


def list_target(chip: PN532) -> None:
    chip.receive(build_frame(0xD4, b"\x4a\x01\x00"))


def test_the_pn532_reports_a_nak_as_status_14_and_a_silent_tag_as_01():
    """PN532 user manual (UM0701-02) 7.1 error codes: the InDataExchange status byte; 01h is a
    target that did not answer. Authentication lasts only while the tag stays selected: a new
    InListPassiveTarget, InRelease or leaving the field ends it."""
    chip = PN532()
    tag = Tag(UID)
    tag.set_password(PWD, PACK)
    chip.place(tag)
    list_target(chip)
    assert exchange(chip, b"\xa2\x04abcd") == b"\x41\x14"
    assert exchange(chip, b"\x30\x04")[:2] == b"\x41\x01"
    list_target(chip)
    assert exchange(chip, b"\x1b" + PWD) == b"\x41\x00" + PACK
    assert exchange(chip, b"\xa2\x04abcd") == b"\x41\x00"
    chip.receive(build_frame(0xD4, b"\x52\x01"))  # InRelease
    list_target(chip)
    assert exchange(chip, b"\xa2\x04abcd") == b"\x41\x14"
    chip.remove()
    chip.place(tag)
    list_target(chip)
    assert exchange(chip, b"\x30\x04")[:2] == b"\x41\x00"



def test_get_version_goes_through_in_communicate_thru_not_in_data_exchange():
    """PN532 user manual (UM0701-02) 7.3.8 InDataExchange: to a MIFARE-class target (an NTAG
    answers SEL_RES 00) the first byte is a MIFARE command, and 60h is MIFARE Classic
    authentication with key A, which needs a key and the UID: a one-byte 60h is refused
    (status 14h) and the tag, sent garbage, is silent until selected again. 7.3.9
    InCommunicateThru hands the bytes to the tag as they are: NTAG's GET_VERSION (60h)."""
    chip = PN532()
    chip.place(Tag(UID, kind="ntag215"))
    list_target(chip)
    assert exchange(chip, b"\x60") == b"\x41\x14"
    assert exchange(chip, b"\x30\x04")[:2] == b"\x41\x01"
    list_target(chip)
    chip.receive(build_frame(0xD4, b"\x42\x60"))
    assert chip.out[-1][6:-2] == b"\x43\x00" + bytes.fromhex("0004040201001103")
    assert exchange(chip, b"\x30\x04")[:2] == b"\x41\x00"


# -- the password ------------------------------------------------------------------------------


def test_the_password_is_derived_from_the_club_key_and_the_uid():
    key = bytes(range(32))
    secret = tags.password(key, UID)
    assert len(secret.pwd) == 4 and len(secret.pack) == 2
    assert tags.password(key, UID) == secret
    assert tags.password(key, UID[:-1] + b"\x00") != secret
    assert tags.password(bytes(32), UID) != secret
    with pytest.raises(tags.RecordError, match="club key is 32 bytes"):
        tags.password(b"short", UID)


# -- enroll --protect and deck check -----------------------------------------------------------


def club_password(registry: decks.Registry, deck_id: int, uid: bytes) -> tags.Password:
    return tags.password(registry.keys()[registry.deck(deck_id).key_id], uid)


def enroll_protected(emulator, usb_reader, registry, hand):
    result = enroll_deck(registry, usb_reader, 3, "24", ScriptedUI(emulator, hand),
                         tap_timeout=WAIT, protect=True)
    assert result.complete
    return result


def test_an_enrolled_protected_tag_cannot_be_rewritten_without_the_password(
    emulator, usb_reader, registry
):
    hand = make_tags(24)
    enroll_protected(emulator, usb_reader, registry, hand)
    ace = hand[5]
    record = ace.user_bytes()[:16]
    assert registry.resolve(ace.uid, record).slot.name == "AS"
    assert (ace.auth0(), ace.access() & 0x80) == (tags.PROTECT_FROM, 0)

    # a copier (or a phone) with the tag on its reader: reads work, writes are refused
    emulator.place(ace)
    assert usb_reader.poll() == ace.uid and usb_reader.read_record() == record
    forged = tags.encode(tags.TagRecord(3, decks.deck_slots("24")[0].code), ace.uid, bytes(32))
    with pytest.raises(ReaderError, match=r"0xA2 \(status 0x14\)"):
        usb_reader.write_record(forged)
    assert ace.user_bytes()[:16] == record

    # with the password from the club key it can
    secret = club_password(registry, 3, ace.uid)
    assert usb_reader.poll() == ace.uid and usb_reader.authenticate(secret.pwd) == secret.pack
    usb_reader.write_record(forged)
    assert usb_reader.read_record() == forged


def test_a_refused_password_is_told_apart_from_a_tag_taken_away(emulator, usb_reader):
    tag = make_tags(1)[0]
    tag.set_password(PWD, PACK)
    emulator.place(tag)
    assert usb_reader.poll() == tag.uid
    assert usb_reader.authenticate(b"\x00\x00\x00\x00") is None  # NAK
    assert usb_reader.poll() == tag.uid and usb_reader.authenticate(PWD) == PACK
    emulator.remove()
    with pytest.raises(ReaderError, match="tag refused NTAG command 0x1B"):
        usb_reader.authenticate(PWD)


def test_re_enrolling_a_protected_tag_unlocks_it_with_the_derived_password(
    emulator, usb_reader, registry
):
    hand = make_tags(24)
    enroll_protected(emulator, usb_reader, registry, hand)
    ace = hand[5]
    ui = ScriptedUI(emulator, [ace])
    result = enroll_deck(registry, usb_reader, 3, "24", ui, redo=("AS",), tap_timeout=WAIT)
    assert result.complete and [s.name for s, _ in result.enrolled] == ["AS"], ui.log
    assert ace.auth0() == tags.PROTECT_FROM  # still protected: enroll never removes it


def test_a_tag_protected_with_an_unknown_password_or_a_wrong_pack_is_refused(
    emulator, usb_reader, registry
):
    strangers = make_tags(2, first=100)
    strangers[0].set_password(PWD, PACK)  # protected by someone else
    good = make_tags(1)[0]
    registry.create_deck(3, "24", "")
    secret = club_password(registry, 3, strangers[1].uid)
    strangers[1].set_password(secret.pwd, b"\x00\x00")  # our password, not our PACK
    ui = ScriptedUI(emulator, [*strangers, good])
    result = enroll_deck(registry, usb_reader, 3, "24", ui, tap_timeout=0.5, protect=True)
    problems = [line for line in ui.log if line.startswith("problem")]
    assert problems[0] == (
        f"problem: tag {strangers[0].uid.hex()} is protected with a password this club key "
        "does not give (another club's, or set by an app): use another tag for 9S"
    )
    assert problems[1] == (
        f"problem: tag {strangers[1].uid.hex()} took the password but answered PACK 0000, "
        f"expected {secret.pack.hex()}: not a tag this club protected (a copy?): use another "
        "tag for 9S"
    )
    assert [uid for _, uid in result.enrolled] == [good.uid]
    assert all(registry.lookup(t.uid) is None and t.user_bytes()[:2] == b"\x00\x00"
               for t in strangers)


def test_deck_check_says_which_tags_are_protected_and_catches_a_wrong_pack(
    emulator, usb_reader, registry
):
    hand = make_tags(24)
    enroll_deck(registry, usb_reader, 3, "24", ScriptedUI(emulator, hand[:12]), tap_timeout=0.5)
    enroll_deck(registry, usb_reader, 3, "24", ScriptedUI(emulator, hand[12:]), tap_timeout=WAIT,
                protect=True)
    secret = club_password(registry, 3, hand[20].uid)
    hand[20].set_password(secret.pwd, b"\xee\xee")
    report = check_deck(registry, usb_reader, 3, ScriptedUI(emulator, hand), idle_timeout=3)
    slots = decks.deck_slots("24")
    assert report.protected == {slot: i >= 12 for i, slot in enumerate(slots)}
    assert report.warnings == [(hand[20].uid, (
        f"{slots[20].name}: tag {hand[20].uid.hex()} took the password but answered PACK "
        f"eeee, expected {secret.pack.hex()}: not a tag this club protected (a copy?)"))]


CLI = [sys.executable, "-c", "from tricktable.cli import main; main()"]


def test_enroll_protect_and_deck_check_from_the_command_line(emulator, tmp_path):
    path = str(tmp_path / "decks.sqlite")
    hand = make_tags(24)
    stop = threading.Event()

    def enrolled(tag: Tag) -> bool:
        """The tool has put ``tag`` in the registry (and, with --protect, protected it first)."""
        try:
            with decks.Registry(path, readonly=True) as registry:
                return registry.lookup(tag.uid) is not None
        except (decks.RegistryError, sqlite3.Error):  # not made yet, or being made
            return False

    def tap(polls: int, enrolling: bool) -> None:
        """Each card stays down, as a player keeps it there: while enrolling, until the tool
        has enrolled it (a reply lost under load makes the tool ask for the same card again
        after it has already protected it: lifting the card at its AUTH0, written last, then
        tapped the next card as this one's second try), and then until the reader polled it
        ``polls`` times more (with --protect: once to prove the password, once finding the
        card still there)."""
        for tag in hand:
            emulator.place(tag)
            while enrolling and not enrolled(tag) and not stop.wait(0.01):
                pass
            start = tag.polls
            while tag.polls < start + polls and not stop.wait(0.01):
                pass
        emulator.remove()

    def run(*args: str, polls: int) -> subprocess.CompletedProcess[str]:
        stop.clear()
        thread = threading.Thread(target=tap, args=(polls, args[0] == "enroll"), daemon=True)
        thread.start()
        try:
            return subprocess.run([*CLI, *args, "--port", emulator.port, "--registry", path],
                                  capture_output=True, text=True, timeout=120,
                                  env={"COLUMNS": "100", "PATH": "/usr/bin:/bin"})
        finally:
            stop.set()
            thread.join(5)

    done = run("enroll", "--deck", "12", "--kind", "24", "--protect", "--timeout", "5", polls=2)
    assert done.returncode == 0, done.stdout + done.stderr
    assert all(tag.auth0() == tags.PROTECT_FROM for tag in hand)
    checked = run("deck", "check", "--deck", "12", "--idle", "5", polls=2)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "password-protected: 24/24" in checked.stdout

"""Phones as seat readers (issue 35, docs/phones.md): four seat pages in one Chromium (four
contexts, a phone's viewport) play a whole hand through the real scoreboard, broker, host,
journal and engine; only the NFC field is faked (tricktable/sim/webnfc_field.js, after the Web NFC draft)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Iterator

import pytest
from browsing import needs_chromium
from phonekit import (
    PLAYERS,
    WAIT,
    PhoneTable,
    bot_choice,
    new_shadow,
    open_seat,
    phone_club,
    phone_context,
    place,
    tap_for,
    verdict,
)
from tricktable.cards import parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import Play
from tricktable.history import read_text, verify, write_text
from tricktable.sim.boards import SeatBoard
from waiting import eventually

pytestmark = [needs_chromium, pytest.mark.browser]


@pytest.fixture
def table(mqtt_broker, topic_prefix, tmp_path, registry_file) -> Iterator[PhoneTable]:
    t = PhoneTable(mqtt_broker.port, topic_prefix, tmp_path, registry_file)
    yield t
    t.close()


def four_phones(browser, table: PhoneTable):
    contexts = [phone_context(browser) for _ in range(4)]
    pages = [open_seat(c, table.pair(seat)) for seat, c in enumerate(contexts)]
    return contexts, pages


def record_shadow() -> Engine:
    """The engine the test plays beside the host's, in the table's record mode."""
    return Engine.new("bid-euchre", {"revoke_mode": "record"}, seed=1, dealer=0,
                      players=PLAYERS)


def revoke_chance(shadow) -> Play | None:
    """A card the seat to act may not play (it can follow suit), if it holds one."""
    if shadow.phase != "play":
        return None
    legal = {str(a.card) for a in shadow.legal_actions()}
    illegal = [c for c in shadow.known_hand(shadow.to_act) if c not in legal]
    return Play(seat=shadow.to_act, card=parse_card(illegal[0])) if illegal else None


def test_a_whole_hand_read_by_four_phones(browser, table, shots):
    """Every card through page, scoreboard, broker, host and back: each verdict on the phone
    that read it; a planted revoke shown on the offending phone and on the TV; the score on
    every phone after the hand."""
    contexts, pages = four_phones(browser, table)
    tv = browser.new_page(viewport={"width": 1920, "height": 1080})
    tv.goto(f"{table.web.url}/tv")
    shadow, rng = record_shadow(), random.Random(3)
    planted = None
    plays = 0
    while shadow.public_state()["hand_number"] < 2:
        action = revoke_chance(shadow) if planted is None else None
        if action is not None:
            planted = action
        else:
            action = bot_choice(shadow, rng)
        assert shadow.apply(action).ok
        shown = place(pages[action.seat], tap_for(action))
        plays += 1
        if action is planted:
            assert shown["kind"] == "revoke", shown
            assert "not following suit" in shown["detail"]
            pages[action.seat].screenshot(path=str(shots / "phone-revoke.png"))
            eventually(lambda: "revoked" in tv.locator("body").inner_text(),
                       "the TV's revoke banner", WAIT)
        else:
            assert shown["kind"] == "accepted", (action, shown)
    assert planted is not None, "the hand never offered a revoke to plant"
    state = table.host.service.state("t1")
    assert state["actions"] == plays
    assert table.host.journal.tables() == ["t1"]
    # every phone shows the score after the hand
    scores = [str(s) for s in state["scores"]]
    for page in pages:
        eventually(lambda p=page: [c.inner_text() for c in p.locator("#score td").all()] == scores,
                   f"the score {scores} on every phone", WAIT)
    pages[0].wait_for_selector("#verdict", state="hidden", timeout=WAIT * 1000)
    pages[0].screenshot(path=str(shots / "phone-score.png"))
    for c in contexts:
        c.close()


def test_a_phone_speaks_only_for_its_own_seat(browser, table):
    """North's phone plays as North whatever it reads: a card placed on it when it is East's
    turn is refused as not North's turn, and nothing changes; the same card on East's phone
    (the positive control) is accepted."""
    contexts, pages = four_phones(browser, table)
    shadow = new_shadow()
    deal = bot_choice(shadow, random.Random(1))
    assert shadow.apply(deal).ok and place(pages[deal.seat], tap_for(deal))["kind"] == "accepted"
    action = bot_choice(shadow, random.Random(1))
    wrong = (action.seat + 3) % 4
    before = table.host.service.state("t1")["actions"]
    shown = place(pages[wrong], tap_for(action))
    assert (shown["kind"], shown["word"]) == ("refused", "Not your turn"), shown
    assert table.host.service.state("t1")["actions"] == before
    assert place(pages[action.seat], tap_for(action))["kind"] == "accepted"
    for c in contexts:
        c.close()


def test_one_phone_per_seat_and_a_revoked_pairing_is_refused(browser, table):
    """A second phone opening North's QR code is refused, naming the phone that reads North;
    once the director revokes North's pairing its phone is refused too; a new pairing for
    North on the second phone is then accepted (the positive control)."""
    url = table.pair(0)
    first, second = phone_context(browser), phone_context(browser)
    north = open_seat(first, url)
    other = open_seat(second, url, start=False)
    other.wait_for_selector("#verdict[data-kind=unpaired]")
    said = other.locator("#verdict-detail").inner_text()
    assert "North at Table 1 is already read by the phone (Android 14 · Chrome 120)" in said
    shadow = new_shadow()
    deal = bot_choice(shadow, random.Random(1))
    pairing = table.store.live()[0]
    table.store.revoke(pairing.id)
    north.evaluate("s => window.__nfcField.tap(s)", "04:01:02:03")
    north.wait_for_selector("#verdict[data-kind=unpaired]", timeout=WAIT * 1000)
    assert "revoked" in north.locator("#verdict-detail").inner_text()
    assert table.host.service.state("t1")["actions"] == 0
    again = open_seat(second, table.pair(0))
    assert shadow.apply(deal).ok and place(again, tap_for(deal))["kind"] == "accepted"
    first.close()
    second.close()


def test_the_host_stopped_mid_hand_loses_and_doubles_nothing(browser, table):
    """Plays placed while the host is down stay on the phones (kept in localStorage across a
    reload) and reach the host once it is back: each applied once, in order."""
    contexts, pages = four_phones(browser, table)
    shadow, rng = new_shadow(), random.Random(5)
    for _ in range(6):
        action = bot_choice(shadow, rng)
        assert shadow.apply(action).ok
        assert place(pages[action.seat], tap_for(action))["kind"] == "accepted"
    table.host.service.stop()
    table.host.journal.close()
    waiting = []
    for _ in range(3):
        action = bot_choice(shadow, rng)
        assert shadow.apply(action).ok
        page = pages[action.seat]
        seq = page.evaluate("() => JSON.parse(localStorage.getItem('tricktable.pad.v1')).next")
        page.evaluate("s => window.__nfcField.tap(s)", ":".join(
            f"{b:02x}" for b in tap_for(action)))
        waiting.append((action.seat, seq))
        eventually(lambda p=page, s=seq: json.loads(p.evaluate(
            "() => localStorage.getItem('tricktable.pad.v1')"))["outbox"][-1]["seq"] == s,
            "the play kept on the phone", WAIT)
    reloaded = {seat for seat, _ in waiting}
    for seat in reloaded:  # a reload while the host is down loses nothing
        pages[seat].reload()
        pages[seat].wait_for_selector("#start")
    table.host._start_service()
    for seat in reloaded:
        eventually(lambda p=pages[seat]: p.evaluate("() => document.body.dataset.pending") == "0",
                   "the kept plays acknowledged", WAIT)
    state = table.host.service.state("t1")
    assert state["actions"] == 9
    assert len(list(table.host.journal.entries("t1"))) == 9
    shown = verdict(pages[waiting[-1][0]], waiting[-1][1])
    assert shown["kind"] in ("accepted", "counted")
    for c in contexts:
        c.close()


def test_a_mixed_table_two_boards_two_phones(browser, mqtt_broker, topic_prefix, tmp_path,
                                             registry_file):
    """North and South on boards running the real firmware (the simulator's virtual boards,
    as in the demo), East and West on phones: a whole hand, every card accepted, and the
    host's game is the one four boards give (the shadow engine's, fed the same actions)."""
    club = phone_club(topic_prefix, phones=(1, 3), pads={"t1-n:0": 0, "t1-s:0": 2})
    table = PhoneTable(mqtt_broker.port, topic_prefix, tmp_path, registry_file, club=club)
    loop = asyncio.new_event_loop()
    world = threading.Thread(target=loop.run_forever, daemon=True)
    world.start()

    def on_loop(coro):
        return asyncio.run_coroutine_threadsafe(coro, loop).result(WAIT)

    async def make(board: str) -> SeatBoard:
        return SeatBoard(board, "t1", {"host": "127.0.0.1", "port": mqtt_broker.port},
                         prefix=topic_prefix, storage=tmp_path / board)

    async def spawn() -> list[asyncio.Task]:
        return [asyncio.create_task(b.run()) for b in boards.values()]

    async def shutdown() -> None:
        for board in boards.values():
            await board.stop()
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)

    boards = {0: on_loop(make("t1-n")), 2: on_loop(make("t1-s"))}
    running = on_loop(spawn())
    contexts = [phone_context(browser) for _ in range(2)]
    try:
        for board in boards.values():
            on_loop(board.ready())
        phones = {seat: open_seat(c, table.pair(seat)) for seat, c in zip((1, 3), contexts,
                                                                          strict=True)}
        observer = table.host.observer
        shadow, rng = record_shadow(), random.Random(3)
        plays = 0
        while shadow.public_state()["hand_number"] < 2:
            action = bot_choice(shadow, rng)
            assert shadow.apply(action).ok
            plays += 1
            if action.seat in phones:
                assert place(phones[action.seat], tap_for(action))["kind"] == "accepted"
                continue
            mark = observer.mark()  # the tag as enrolled in this registry (by its UID)
            on_loop(boards[action.seat].place(0, tap_for(action)))
            # this board's verdict: a phone's may reach the observer after the mark
            verdict = observer.verdict("t1", mark, board=boards[action.seat].id)[1]
            loop.call_soon_threadsafe(boards[action.seat].lift, 0)
            assert (verdict.kind, verdict.seat) == ("accepted", action.seat), verdict
        state = table.host.service.state("t1")
        assert state["scores"] == shadow.public_state()["scores"]
        assert state["actions"] == plays
        assert sorted(state["boards_online"]) == ["t1-n", "t1-s", "t1.phone1", "t1.phone3"]
        # the hand history says which seats a phone read, and reads back and verifies
        record = table.host.journal.history("t1", 1)
        assert record.tags["Phones"] == "East | West"
        text = write_text(record)
        assert '[Phones "East | West"]' in text
        again = read_text(text)
        assert again.tags["Phones"] == "East | West" and verify(again) == []
    finally:
        for c in contexts:
            c.close()
        on_loop(shutdown())
        loop.call_soon_threadsafe(loop.stop)
        world.join(WAIT)
        table.close()


def test_nfc_refused_or_off_says_what_to_do(browser, table):
    """Web NFC's own refusals, as Chrome for Android gives them: permission denied
    (NotAllowedError), no adapter or NFC off (NotSupportedError); a tag read badly
    (readingerror) asks for the card again. Each in words, and nothing reaches the host."""
    denied, off = phone_context(browser), phone_context(browser)
    page = open_seat(denied, table.pair(0), start=False)
    page.evaluate("() => { window.__nfcField.permission = 'denied'; }")
    page.locator("#start").click()
    eventually(lambda: "NFC was not allowed" in page.locator("#note").inner_text(),
               "the permission refusal in words", WAIT)
    page = open_seat(off, table.pair(1), start=False)
    page.evaluate("() => { window.__nfcField.adapter = false; }")
    page.locator("#start").click()
    eventually(lambda: "turn NFC on" in page.locator("#note").inner_text(),
               "NFC off in words", WAIT)
    page.evaluate("() => { window.__nfcField.adapter = true; }")
    page.locator("#start").click()  # the positive control: with NFC on, it reads
    page.wait_for_selector("body[data-reading=yes]", timeout=WAIT * 1000)
    page.evaluate("() => window.__nfcField.fail()")
    page.wait_for_selector("#verdict[data-kind=refused]", timeout=WAIT * 1000)
    assert page.locator("#verdict-word").inner_text() == "Place it again"
    assert table.host.journal.count("pad") == 0
    denied.close()
    off.close()

"""The double-dummy analysis on the replay page, in a real browser (Debian's chromium through
Playwright): a card that cost its side a trick is marked on the felt, in the hands and in the
trick list ("DD 5→4, cost 1 trick"), with a legend and the cards in words; the auction table
says what each trump would have made for each declarer, and the par table under the bidding
each side's best contract at each bid; a revoke hand with every hand known shows its revoke,
its proof and its analysis together; the analysis is cached beside the file (and beside a
journal); a game too large to analyse says so at once; and the page's text meets WCAG AA
contrast with the marks shown."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import SIZES, needs_chromium
from played_games import random_game, revoke_game, write_journal
from playwright.sync_api import Browser, Page, expect
from test_contrast import measure
from tricktable.analysis.cache import file_cache
from tricktable.analysis.hand import FORMAT, analyse_game
from tricktable.history import load, record_from_engine, write_json
from tricktable.history.replay import game_json
from tricktable.mqtt.broker import BrokerHandle
from tricktable.web.journal_hands import HistoryFiles, JournalHands
from tricktable.web.server import Scoreboard

WAIT_MS = 30_000

@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """A Bid Euchre game whose hands open with a card that costs a trick, a Bid Euchre hand
    with a revoke (record mode, every hand known), and a Spades hand (13 cards each: over
    the replay's bound)."""
    costly = tmp_path / "club-blunder.json"
    costly.write_text(write_json(record_from_engine(random_game(5, hands=3, blunder=True))))
    revoke = tmp_path / "revoke-night.json"
    revoke.write_text(write_json(record_from_engine(revoke_game(2))))
    spades = tmp_path / "spades-night.json"
    spades.write_text(write_json(record_from_engine(random_game(2, hands=1, variant="spades"))))
    return {"costly": costly, "revoke": revoke, "spades": spades}


@pytest.fixture
def board(mqtt_broker: BrokerHandle, topic_prefix: str,
          files: dict[str, Path]) -> Iterator[Scoreboard]:
    """``tricktable web --history club-blunder.json --history spades-night.json``."""
    b = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                   histories=list(files.values()))
    b.start()
    yield b
    b.stop()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def first_costly(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first hand with a card that cost a trick, and that card (as the analysis says)."""
    for hand in analyse_game(load(str(path)))["hands"]:
        for play in hand["plays"]:
            if play["cost"] > 0:
                return hand, play
    raise AssertionError("the game has no card that cost a trick")


@pytest.mark.browser
@needs_chromium
def test_a_card_that_cost_a_trick_is_marked(page: Page, board: Scoreboard,
                                            files: dict[str, Path]) -> None:
    hand, play = first_costly(files["costly"])
    trick, seat, card = play["trick"], play["seat"], play["card"]
    page.goto(board.url + f"/replay/club-blunder?game=1&hand={hand['hand_number']}&trick={trick}")
    expect(page.locator("#step")).to_contain_text(f"Trick {trick} of", timeout=WAIT_MS)
    item = page.locator(f'#trick-list li[data-trick="{trick}"]')
    expect(item.locator(f'.card.costly[data-card="{card}"]')).to_have_count(1)
    word = "trick" if play["cost"] == 1 else "tricks"
    expect(item.locator(".dd.costly")).to_have_text(
        f"DD {play['before']}→{play['after']}, cost {play['cost']} {word}")
    expect(page.locator(f'#felt .slot[data-seat="{seat}"] .card.costly')).to_have_count(1)
    expect(page.locator(f'#deal-hands tr[data-seat="{seat}"] .card.costly[data-card="{card}"]')
           ).to_have_count(1)
    # every card played has its before -> after; the legend and the words say what it means
    expect(page.locator("#trick-list .dd")).to_have_count(len(hand["plays"]))
    expect(page.locator("#analysis-legend")).to_contain_text("cost its side a trick")
    expect(page.locator("#costly li").first).to_contain_text(f"Trick {trick}: ")
    expect(page.locator("#costly li").first).to_contain_text(f"cost {play['cost']} {word}")
    # the auction table: a row per trump, a column per declarer, the contract played marked
    trumps = list(dict.fromkeys(r["trump"] for r in hand["contracts"]))
    expect(page.locator("#dd-contracts tr[data-trump]")).to_have_count(len(trumps))
    expect(page.locator("#dd-contracts td.played")).to_have_count(1)
    expect(page.locator("#dd-contracts td.played")).to_contain_text("(played)")
    # par under the bidding: a row per bid, the par bid and side marked
    par = hand["par"]
    expect(page.locator("#par-line")).to_have_text(f"Par: {par['text']}.")
    expect(page.locator("#par-table tr[data-bid]")).to_have_count(len(par["by_bid"]))
    expect(page.locator("#par-table td.par")).to_have_count(1 if par["par"] else 0)
    if par["par"]:  # the marked cell is the par line's contract: its declarer and tricks
        declarer = par["par"]["text"].split()[0]  # "Tom 4 in hearts: ..."
        expect(page.locator("#par-table td.par")).to_contain_text(
            f"{declarer} ")
        expect(page.locator("#par-table td.par")).to_contain_text(
            "-".join(str(t) for t in par["par"]["tricks"]))
    assert (files["costly"].parent / "club-blunder.json.analysis.json").exists()


@pytest.mark.browser
@needs_chromium
def test_a_revoke_hand_shows_its_revoke_its_proof_and_its_analysis(
        page: Page, board: Scoreboard, files: dict[str, Path]) -> None:
    """A revoke in record mode (the table took the card and penalised it): the four hands
    as dealt, trump and the bidding in words, the revoking card and the card of the suit
    led that its hand still held (the proof) marked, and the double-dummy analysis going
    on from the position the revoke made, marking a card that cost a trick."""
    record = load(str(files["revoke"]))
    analysis = analyse_game(record)
    shown = game_json(record, 1, analysis)[0]
    revoke = shown["revokes"][0]
    costly = next(p for p in analysis["hands"][0]["plays"] if p["cost"] > 0 and not p["revoke"])
    seat, trick = revoke["seat"], revoke["trick"]
    page.goto(board.url + f"/replay/revoke-night?game=1&hand=1&trick={trick}")
    expect(page.locator("#step")).to_have_text(f"Trick {trick} of 6", timeout=WAIT_MS)
    hands = page.locator("#deal-hands tr")
    expect(hands).to_have_count(4)
    for s in range(4):
        expect(hands.nth(s).locator(".card")).to_have_count(len(shown["hands"][s]))
    facts = page.locator("#facts")
    expect(facts).to_contain_text(", ".join(
        f"{shown['seats'][b['seat']]}: {b['text']}" for b in shown["bids"]))
    expect(facts).to_contain_text(shown["contract_text"])
    expect(facts).to_contain_text(shown["trump_text"])
    mine = page.locator(f'#deal-hands tr[data-seat="{seat}"]')
    expect(mine.locator(f'.card.revoke[data-card="{revoke["card"]}"]')).to_have_count(1)
    expect(mine.locator(f'.card.proof[data-card="{revoke["proof"]}"]')).to_have_count(1)
    expect(page.locator(f'#felt .slot[data-seat="{seat}"] .card.revoke')).to_have_count(1)
    expect(page.locator(f'#trick-list li[data-trick="{trick}"] '
                        f'.card.revoke[data-card="{revoke["card"]}"]')).to_have_count(1)
    expect(page.locator("#revokes li").first).to_contain_text(revoke["text"])
    item = page.locator(f'#trick-list li[data-trick="{costly["trick"]}"]')
    expect(item.locator(f'.card.costly[data-card="{costly["card"]}"]')).to_have_count(1)
    expect(page.locator("#trick-list .dd")).to_have_count(len(analysis["hands"][0]["plays"]))
    expect(page.locator("#par-line")).to_contain_text("Par: ")


@pytest.mark.browser
@needs_chromium
def test_a_game_too_large_to_analyse_says_so(page: Page, board: Scoreboard) -> None:
    """Spades deals 13 cards to each of four hands: the replay does not search it."""
    page.goto(board.url + "/replay/spades-night?game=1&hand=1")
    expect(page.locator("#step")).to_have_text("Trick 1 of 13", timeout=WAIT_MS)
    expect(page.locator("#analysis-note")).to_contain_text(
        "analysis not available for this hand size")
    expect(page.locator("#trick-list .dd")).to_have_count(0)
    expect(page.locator("#analysis-legend")).to_be_hidden()


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.browser
@needs_chromium
def test_the_analysis_meets_wcag_aa_contrast(browser: Browser, board: Scoreboard,
                                             files: dict[str, Path], size: str) -> None:
    hand, play = first_costly(files["costly"])
    url = board.url + f"/replay/club-blunder?game=1&hand={hand['hand_number']}"
    checked = measure(browser, url, "#trick-list .dd.costly", SIZES[size])
    seen = {c["what"] for c in checked}
    named = {"span.dd.costly", "span.dd", "li", "caption", "td.num.played"}
    assert named <= seen, f"not measured: {named - seen}"
    low = [c for c in checked if c["ratio"] < c["need"]]
    assert not low, f"below WCAG AA on the replay ({size}): {low[:8]}"


def test_a_journal_hand_comes_with_its_cached_analysis(tmp_path: Path) -> None:
    path = tmp_path / "night.sqlite"
    write_journal(path, "t3", random_game(5, hands=2, blunder=True))
    hand = JournalHands(path).hand("t3", 1, 1)
    assert hand is not None and hand["analysis"]["hand_number"] == 1
    assert len(hand["analysis"]["plays"]) == sum(len(t["cards"]) for t in hand["tricks"])
    assert (tmp_path / "night.sqlite.analysis" / "t3-game1.json").exists()


def test_a_large_game_analysed_beforehand_is_shown_from_its_cache(
        files: dict[str, Path]) -> None:
    """Over the bound the page does not search, but it shows what ``tricktable analyse``
    kept (here a hand-written analysis of this very record: the record's SHA-256)."""
    path = files["spades"]
    assert HistoryFiles([path]).hand("spades-night", 1, 1)["analysis"]["unavailable"] \
        .startswith("analysis not available for this hand size (52 cards in play")
    record = load(str(path))
    kept = {"format": FORMAT, "record_sha256": hashlib.sha256(write_json(record).encode())
            .hexdigest(), "hands": [{"hand_number": 1, "plays": [], "contracts": []}]}
    file_cache(path).write_text(json.dumps(kept))
    hand = HistoryFiles([path]).hand("spades-night", 1, 1)
    assert hand["analysis"].items() >= {"hand_number": 1, "plays": [], "contracts": []}.items()

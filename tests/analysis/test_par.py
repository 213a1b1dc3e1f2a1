"""Par for the auction (``analysis.par``): against a brute force that drives the real engine
through every auction, trump, discard and card (plain minimax, no pruning), and on positions
built from the rules' scoring passages."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from tricktable.analysis.hand import analyse_game
from tricktable.analysis.par import DoubleDummy, auction_start, hand_par
from tricktable.cards import CARDS, COPY_STRIDE, parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import Call, Play, SitOut
from tricktable.engine.intplay import CardPlay
from tricktable.history import load
from tricktable.rules.bid_euchre import BidEuchre
from tricktable.rules.euchre import Euchre
from tricktable.rules.hasenpfeffer import Hasenpfeffer
from tricktable.rules.jucker import BauerSaarland
from tricktable.rules.pfeffer import Buckpfeffer


class ThreeCardEuchre(Euchre):
    """Euchre with three cards a hand: small enough for a brute force."""

    name = "euchre-3"
    cards_per_hand = 3
    deal_packets = (3,)


class ThreeCardBidEuchre(BidEuchre):
    """Single Deck Bid Euchre with three cards a hand."""

    name = "bid-euchre-3"
    cards_per_hand = 3


class ThreeCardHasenpfeffer(Hasenpfeffer):
    """Hasenpfeffer (the joker, the holder of the joker forced to bid when all pass) with
    three cards a hand."""

    name = "hasenpfeffer-3"
    cards_per_hand = 3


class ThreeCardBauer(BauerSaarland):
    """The Saarland Bauer (the lower score wins; forehand names trump and leads one) with
    three cards a hand."""

    name = "bauer-3"
    cards_per_hand = 3
    deal_packets = (3,)


class ThreeCardBuckpfeffer(Buckpfeffer):
    """Buckpfeffer (high and low no-trump, the bidder passing its best card to the left and
    taking back that player's worst, the dealer stuck) with three cards a hand."""

    name = "buckpfeffer-3"
    cards_per_hand = 3


def best_line(cp: CardPlay, side: int) -> tuple[int, list[int]]:
    """The tricks ``side`` takes with best play by all (every card tried, no pruning) and
    a line of play that gives them."""
    if cp.over:
        return 0, []
    maxing = cp.side_of[cp.to_play] == side
    best: tuple[int, list[int]] | None = None
    for p in cp.legal_actions():
        before = cp.won[side]
        cp.play(p)
        value, line = best_line(cp, side)
        value += cp.won[side] - before
        cp.undo()
        if best is None or (value > best[0] if maxing else value < best[0]):
            best = (value, [p, *line])
    assert best is not None
    return best


def brute_margin(eng: Engine, played: dict) -> int:
    """Side 0's score minus side 1's for the hand in progress, every seat choosing every
    bid, pass, trump and discard the engine offers to do best for its side (the lower score
    where it wins), the card play by plain minimax and the hand scored by the engine itself
    (``played`` keeps the margin of each contract and hands once played). Calls and playing
    alone by choice after the auction (a ``SitOut``) are not part of par."""
    st = eng.state
    if st.phase == "play":
        key = (st.contract, tuple(st.known), st.out)
        if key not in played:
            played[key] = _played_margin(eng)
        return played[key]
    sign = 1 if st.side_of[st.to_act] == 0 else -1
    hand = st.hand_number
    values = []
    for action in eng.legal_actions():
        if isinstance(action, Call) or isinstance(action, SitOut) and action.out:
            continue
        child = fork(eng)
        assert child.apply(action).ok
        passed_out = child.state.hand_number != hand
        values.append(0 if passed_out else brute_margin(child, played))
    return sign * max(sign * v for v in values)


def fork(eng: Engine) -> Engine:
    """A copy of the table to try an action on; what no action changes (the variant, the
    deck, the engine's made actions) is shared, not copied."""
    st = eng.state
    shared = [eng._plays, eng.ids, st.variant, st.options, st.deck,
              st.names, st.rng, *eng.actions]
    return copy.deepcopy(eng, {id(x): x for x in shared})


def _played_margin(eng: Engine) -> int:
    """The margin of the hand played out on the engine along a minimax line."""
    st = eng.state
    cp = CardPlay.from_state(st)
    _, line = best_line(cp, 0)
    before = list(st.scores)
    hand = st.hand_number
    for p in line:
        out = eng.apply(Play(cp.to_play, CARDS[p % COPY_STRIDE], p // COPY_STRIDE))
        assert out.ok, out.reason
        cp.play(p)
    assert eng.state.hand_number != hand or eng.state.game_over
    deltas = [a - b for a, b in zip(eng.state.scores, before, strict=True)]
    return deltas[1] - deltas[0] if st.variant.low_score_wins else deltas[0] - deltas[1]


def _par_of_deal(variant, seed: int, options: dict) -> tuple[dict, Engine]:
    eng = Engine.new(variant, {"target": None, **options}, seed=seed, dealer=seed % 4)
    assert eng.apply(eng.legal_actions()[0]).ok  # the deal
    return hand_par(auction_start(eng.state), DoubleDummy(eng.state)), eng


@pytest.mark.parametrize("variant, options, deals", [
    (ThreeCardEuchre(), {}, 12),
    (ThreeCardEuchre(), {"stick_the_dealer": True}, 6),
    (ThreeCardBidEuchre(), {"pepper": False}, 3),
    (ThreeCardHasenpfeffer(), {}, 3),
    (ThreeCardBauer(), {}, 8),
    (ThreeCardBuckpfeffer(), {}, 2),
])
def test_par_agrees_with_a_brute_force_through_the_engine(variant, options, deals):
    """Par's margin (how much better side 0 does than side 1 under the par contract) is
    what the auction, the trump, the exchanges (the dealer's discard, Buckpfeffer's best and
    worst cards) and the play give when every choice is tried on the engine; the par row
    scores that margin."""
    for seed in range(deals):
        par, eng = _par_of_deal(variant, seed, options)
        assert par["margin"] == brute_margin(eng, {}), f"{variant.name} seed {seed}: {par}"
        row = par["par"]
        diff = row["score"][0] - row["score"][1] if row else 0
        assert (-diff if variant.low_score_wins else diff) == par["margin"]


def test_every_contract_row_scores_as_the_variant_does():
    """Each row's score is the engine's for that contract when each side takes its
    double-dummy tricks (“Bid Euchre”, section “Leading, taking tricks, and scoring”: made
    scores the tricks taken, set loses six; defenders score their tricks, or lose six with
    none)."""
    par, _ = _par_of_deal(BidEuchre(), 3, {})
    assert par["contracts"]
    for row in par["contracts"]:
        made, side = row["tricks"][row["seat"] % 2], row["seat"] % 2
        if row["bid"].startswith("PEPPER"):
            continue
        want = made if made >= row["need"] else -6
        defenders = row["tricks"][1 - side] or -6
        assert row["score"][side] == want and row["score"][1 - side] == defenders, row


def _known_deal(variant, hands: list[str], up: str | None = None, dealer: int = 0,
                **options) -> dict:
    """Par of a deal set by hand (cards as words, a hand per seat)."""
    eng = Engine.new(variant, {"target": None, **options}, dealer=dealer)
    st = eng.state
    st.known = [sum(1 << parse_card(c).index for c in h.split()) for h in hands]
    st.up_card = parse_card(up).index if up else None
    st.dealt = True
    return hand_par(auction_start(st), DoubleDummy(st))


def test_a_lone_march_scores_four_and_is_par():
    """“Euchre”, section “Making trump”: a march (all five tricks) scores 2, a lone march 4.
    The eldest holds both bowers and the three top trumps of hearts: par is ordering up
    alone, all five tricks, +4."""
    par = _known_deal("euchre", ["JH JD AH KH QH", "9S TS JS QS KS", "9C TC JC QC KC",
                                 "AS AC 9D TD QD"], up="TH", dealer=3)
    assert par["par"]["bid"] == "ORDER_UP:ALONE" and par["par"]["seat"] == 0
    assert par["par"]["tricks"] == [5, 0] and par["par"]["score"] == [4, 0]
    assert par["auction"] == [[0, "ORDER_UP:ALONE"]]


def test_the_dealer_matches_a_big_pepper_to_save_the_shutout():
    """“Bid Euchre”, section “Single Deck Bid Euchre”: big pepper wins or loses 14; a side
    on defense that takes no trick goes back six (“Leading, taking tricks, and scoring”);
    the dealer may call the same pepper and win the bid (“Pepper exchanges”). The eldest
    holds the six top spades: its big pepper takes every trick (+14, the other side -6),
    so the dealer matches it at no trump and loses 14 while the eldest's side, defending,
    takes one trick (+1): 15 between the sides instead of 20."""
    par = _known_deal("bid-euchre", ["JS JC AS KS QS TS", "9H TH JH QH KH AH",
                                     "9D TD JD QD KD AD", "9C TC QC KC AC 9S"], dealer=3)
    eldest = [r for r in par["contracts"] if r["seat"] == 0 and r["bid"] == "PEPPER:BIG"
              and r["trump"] == "S"]
    assert eldest[0]["tricks"] == [6, 0] and eldest[0]["score"] == [14, -6]
    assert par["auction"] == [[0, "PEPPER:BIG"], [1, "PASS"], [2, "PASS"], [3, "PEPPER:BIG"]]
    assert par["par"]["seat"] == 3 and par["par"]["trump"] == "NT"
    assert par["par"]["score"] == [1, -14] and par["margin"] == 15


def test_spades_gives_the_tricks_each_side_takes_and_no_par():
    par = _known_deal("spades", [
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
        "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"])
    assert "par" not in par and "no auction is won" in par["none"]
    assert par["tricks"] == [13, 0]


def test_more_than_two_sides_have_no_par():
    eng = Engine.new("buck-euchre", seed=1, n_players=3)
    assert eng.apply(eng.legal_actions()[0]).ok
    par = hand_par(auction_start(eng.state), DoubleDummy(eng.state))
    assert par == {"none": par["none"]} and "two sides" in par["none"]


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_par_of_a_championship_hand_from_the_cards_its_play_showed():
    """The EGN record of a Euchre hand names no hand as dealt, but it was played out: each
    seat's hand is the cards it played, the dealer's with the up-card (the king of clubs,
    taken up) out and its discard (the jack of hearts) back. Par is worked out from them,
    as from the same hands known at the deal."""
    record = load(str(EXAMPLES / "euchre-club-final.egn"))
    par = analyse_game(record)["hands"][0]["par"]
    assert par.pop("hands") == "as the play showed them"
    eng = Engine.new("euchre", record.config.get("options"), dealer=record.config["dealer"],
                     players=record.players)
    played = [0] * 4
    for action in record.actions():
        if isinstance(action, Play):
            played[action.seat] |= 1 << action.card.index
    dealer = eng.state.dealer
    played[dealer] = played[dealer] & ~(1 << parse_card("KC").index) | 1 << parse_card(
        "JH").index
    st = eng.state
    st.known, st.up_card, st.dealt = played, parse_card("KC").index, True
    assert par == hand_par(auction_start(st), DoubleDummy(st))
    assert par["text"] == "clubs, ordered up by Cy: 5-0 tricks, +2/+0"


def test_a_hand_not_played_out_has_par_only_when_every_hand_is_known():
    """Nobody scanned the cards of the revoke example: played out, its hands are the cards
    each seat played; stopped after two tricks, the hands are not known and there is no
    par (its analysis lists the hand as not analysed)."""
    record = load(str(EXAMPLES / "bid-euchre-unknown-revoke.txt"))
    whole = analyse_game(record)["hands"][0]
    assert whole["par"]["hands"] == "as the play showed them" and whole["par"]["contracts"]
    cut = copy.deepcopy(record)
    hand = cut.hands[0]
    plays = [i for i, a in enumerate(hand.actions) if isinstance(a, Play)]
    hand.actions = hand.actions[:plays[8]]
    hand.lines = hand.lines[:plays[8]]
    stopped = analyse_game(cut)["hands"][0]
    assert "par" not in stopped and stopped["unknown"]

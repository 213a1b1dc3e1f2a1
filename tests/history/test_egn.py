"""Euchre Game Notation (EGN, NextSuit Labs' open JSON format for Euchre games): recorded
Euchre games are written as EGN and read back to the same play and scores; an EGN file is
replayed and verified like any hand history; a malformed or inconsistent file is refused
naming the deal and the trick."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from tricktable.cards import CARDS
from tricktable.cli import main
from tricktable.engine import Engine
from tricktable.engine.actions import Deal, TurnUp
from tricktable.history import HistoryError, load, record_from_engine, verify, write_text
from tricktable.history.egn import read_egn, to_egn, write_egn

PLAYERS = ["Ann", "Bob", "Cy", "Di"]

# A hand as a championship record gives it: nobody's cards, only the calls and the play.
# Cy (seat 2) deals and turns up the KC; Di, Ann and Bob pass, Cy takes it up (clubs trump)
# and discards the JH. Di leads; Cy ruffs, leads both top clubs, Ann takes two: a march.
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "euchre-club-final.egn"
RECORDED = json.loads(EXAMPLE.read_text())


def euchre_game(seed: int, deal: str = "seed", options: dict | None = None) -> Engine:
    """A whole Euchre game by random legal actions (engine-dealt, or nobody's cards seen)."""
    rng = random.Random(seed)
    eng = Engine.new("euchre", options=options or {}, seed=seed, players=PLAYERS,
                     dealer=seed % 4)
    while not eng.state.game_over:
        if eng.phase == "deal" and deal == "seed":
            eng.apply(Deal(eng.state.dealer))
            continue
        if eng.phase == "deal" and eng.state.up_card is None:  # nobody's cards seen
            up = rng.choice([c for c in CARDS if c in eng.state.deck])
            assert eng.apply(TurnUp(eng.state.dealer, up)).ok
            continue
        assert eng.apply(rng.choice(eng.legal_actions())).ok
    return eng


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("deal", ["seed", "unknown"])
def test_a_euchre_game_round_trips_through_egn(seed: int, deal: str) -> None:
    """Written as EGN and read back, a game plays the same cards to the same scores, and
    writing it again gives the same file."""
    eng = euchre_game(seed, deal)
    text = write_egn(record_from_engine(eng))
    back = read_egn(text, "game.egn")
    again = Engine.new("euchre", back.config["options"], 0, back.config["dealer"], PLAYERS)
    for action in back.actions():
        assert again.apply(action).ok
    assert again.state.scores == eng.state.scores and again.state.game_over
    played = [t for h in record_from_engine(eng).hands for k, t in h.claims.items()
              if k[0] == "trick"]
    assert played == [t for h in back.hands for k, t in h.claims.items() if k[0] == "trick"]
    assert write_egn(back) == text
    assert verify(back) == []


def test_egn_written_follows_the_spec_shape() -> None:
    """The fields the EGN README and schema name: fileType, version, metadata (players,
    initialScore, ruleset), deals with initialState (dealer, upCard, playerCards when the
    hands were known) and the two phases; cards as 'Tc', 'Jd'."""
    doc = to_egn(record_from_engine(euchre_game(3)))
    assert doc["fileType"] == "Euchre Game Notation" and doc["version"].startswith("1.")
    assert doc["metadata"]["players"] == PLAYERS and doc["metadata"]["initialScore"] == [0, 0]
    deal = doc["deals"][0]
    assert set(deal) == {"dealNumber", "initialState", "phases"}
    assert len(deal["initialState"]["playerCards"]) == 4
    assert all(len(h) == 5 for h in deal["initialState"]["playerCards"])
    cards = [c for h in deal["initialState"]["playerCards"] for c in h]
    assert all(len(c) == 2 and c[0] in "9TJQKA" and c[1] in "shdc" for c in cards)
    assert deal["phases"][0]["type"] == "EUCHRE_BIDDING"


def test_a_recorded_championship_style_hand_replays() -> None:
    """A record with only the calls and the play (no dealt hands): the lead follows from
    the rules (eldest leads, then each trick's winner), and the makers score."""
    record = read_egn(json.dumps(RECORDED), "final.egn")
    assert record.tags["Event"] == "Club final"
    tricks = [c.value for k, c in record.hands[0].claims.items() if k[0] == "trick"]
    assert tricks == ["Cy", "Cy", "Ann", "Ann", "Cy"]
    assert record.hands[0].claims[("contract",)].value == "ORDER_UP C by Cy"
    assert record.hands[0].claims[("score",)].value == "+2 +0 / 2 0"


def broken(change) -> str:  # type: ignore[no-untyped-def]
    doc = copy.deepcopy(RECORDED)
    change(doc)
    return json.dumps(doc)


def _trick(doc: dict, t: int) -> list:
    return doc["deals"][0]["phases"][1]["tricks"][t]


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: _trick(d, 1).__setitem__(1, "Ad"), "deal 0, trick 2, card 2 ('Ad')"),
    (lambda d: _trick(d, 2).pop(), "deal 0, trick 3: 3 cards, but 4 players"),
    (lambda d: _trick(d, 0).__setitem__(2, "Xx"), "deal 0, trick 1, card 3 ('Xx'): 'Xx': an unknown card"),
    (lambda d: d["deals"].append(dict(copy.deepcopy(d["deals"][0]), dealNumber=1)),
     "deal 1: initialState.dealer is 2, but the deal passes left: seat 3 (Di) deals"),
    (lambda d: d["deals"][0]["phases"][0]["calls"].__setitem__(3, "c"), "deal 0, call 4 ('c')"),
    (lambda d: d["metadata"].__setitem__("initialScore", [3, 2]), "initialScore"),
    (lambda d: d["metadata"]["ruleset"].__setitem__("joker", True), "joker"),
    (lambda d: d["metadata"].__setitem__("finalScore", [0, 2]), "finalScore"),
    (lambda d: d["metadata"].__setitem__("players", PLAYERS[:3]), "four players"),
    (lambda d: d["deals"].append("CgQIARAC"), "deal 1: a deal in the binary"),
])
def test_a_malformed_or_inconsistent_egn_file_is_refused_naming_deal_and_trick(
        change, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(HistoryError) as err:
        read_egn(broken(change), "final.egn")
    assert str(err.value).startswith("final.egn: ") and message in str(err.value)


def test_a_card_played_twice_is_refused_with_the_rules_reason() -> None:
    text = broken(lambda d: _trick(d, 4).__setitem__(0, "Ad"))
    with pytest.raises(HistoryError, match=r"deal 0, trick 5, card 1 \('Ad'\): .*played"):
        read_egn(text, "final.egn")


def test_only_euchre_is_written_as_egn() -> None:
    eng = Engine.new("bid-euchre", seed=1, players=PLAYERS)
    eng.apply(Deal(eng.state.dealer))
    with pytest.raises(HistoryError, match="EGN holds Euchre games only; this is 'bid-euchre'"):
        write_egn(record_from_engine(eng))


def test_replay_verify_and_export_take_egn(tmp_path: Path) -> None:
    """``tricktable replay`` and ``verify`` read .egn files; the native history of an EGN
    game is the project's own text form."""
    path = tmp_path / "final.egn"
    path.write_text(json.dumps(RECORDED))
    runner = CliRunner()
    out = runner.invoke(main, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert "clubs, ordered up by Cy" in out.output and "Cy picks up the king of clubs" in out.output
    assert "Cy discards the jack of hearts" in out.output
    out = runner.invoke(main, ["verify", str(path)])
    assert out.exit_code == 0 and "1 hand(s) verified, no differences" in out.output
    native = tmp_path / "final.txt"
    native.write_text(write_text(load(str(path))))
    def claims(p: Path) -> dict:
        return {k: c.value for h in load(str(p)).hands for k, c in h.claims.items()
                if k[0] in ("trick", "contract", "score")}

    assert claims(native) == claims(path) and verify(load(str(native))) == []
    bad = tmp_path / "bad.egn"
    bad.write_text(broken(lambda d: _trick(d, 2).pop()))
    out = runner.invoke(main, ["replay", str(bad)])
    assert out.exit_code == 1 and "deal 0, trick 3" in out.output


def test_a_file_whose_dealer_discarded_the_up_card_is_read_with_that_house_rule() -> None:
    """"Masters of the Euchreverse Week 1 Game 6" (the EGN project's validation examples, an
    online championship): in deal 4 the dealer took up the 10 of diamonds and never played
    it. By the seed's rule the up-card "is left in place until played" (“Euchre”, section
    “Making trump”), so the file cannot be played that way: it is read with the house rule
    ``discard_up_card`` (the dealer discarded it), and ``verify`` says so."""
    path = Path(__file__).resolve().parents[1] / "data" / "egn" / "examples" / "mote-w1-game6.egn"
    record = load(str(path))
    assert record.config["options"]["discard_up_card"] is True
    assert verify(record) == []
    out = CliRunner().invoke(main, ["verify", str(path)])
    assert out.exit_code == 0, out.output
    assert "read with the house rule discard_up_card: the dealer discarded the up-card in " \
           "deal 4" in out.output
    assert "13 hand(s) verified, no differences" in out.output


def test_a_file_whose_dealer_played_the_up_card_keeps_the_seeds_rule() -> None:
    """Every other deal of a file keeps the up-card on the table until played: the seed's rule,
    and nothing said."""
    record = read_egn(json.dumps(RECORDED), "final.egn")
    assert record.config["options"]["discard_up_card"] is False
    assert "HouseRule" not in record.tags

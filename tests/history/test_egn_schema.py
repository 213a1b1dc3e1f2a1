"""What we write as EGN and EMN validates against the EGN project's own published schemas
(release 1.4.0, kept in tests/data/egn with their Apache-2.0 licence; checked with PyPI
``jsonschema``, tests/egnschema.py), rule by rule as the specification states it, and every
real EGN file the suite keeps goes round: read, written back, valid, the same tricks and
scores. The specification's words quoted here are from its README, ``docs/alternate-rules.md``,
``docs/annotations.md``, ``changelog.md`` and ``docs/emn/match-specification.md``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from egnschema import DATA, egn_errors, emn_errors
from tricktable.cards import parse_card_copy
from tricktable.cli import main
from tricktable.club.night_games import night_options
from tricktable.engine import Engine
from tricktable.engine.actions import Deal, Play
from tricktable.history import HistoryError, record_from_engine
from tricktable.history.egn import read_egn, to_egn
from tricktable.history.emn import read_emn

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
ROOT = Path(__file__).resolve().parents[2]
REAL_EGN = sorted((DATA / "examples").glob("*.egn")) + sorted((ROOT / "examples").glob("*.egn"))


def game(seed: int = 3, options: dict | None = None, hands: int | None = None,
         variant: str = "euchre", revoke_rate: float = 0.0) -> Engine:
    """A Euchre game by random legal actions (the engine deals); ``hands``: stop after that
    many; ``revoke_rate``: now and then a card that does not follow suit (record mode)."""
    rng = random.Random(seed)
    eng = Engine.new(variant, options=options or {}, seed=seed, players=PLAYERS, dealer=seed % 4)
    while not eng.state.game_over and (hands is None or eng.state.hands_played < hands):
        if eng.phase == "deal":
            eng.apply(Deal(eng.state.dealer))
            continue
        legal = eng.legal_actions()
        seat = legal[0].seat
        wrong = [c for c in eng.known_hand(seat) if eng.phase == "play"
                 and all(str(a.card) + ("'" if a.copy else "") != c for a in legal
                         if isinstance(a, Play))]
        if wrong and rng.random() < revoke_rate and eng.state.trick:
            card, copy = parse_card_copy(wrong[0])
            if eng.apply(Play(seat, card, copy)).ok:
                continue
        assert eng.apply(rng.choice(legal)).ok
    return eng


def egn(eng: Engine, tags: dict | None = None) -> dict:
    record = record_from_engine(eng)
    record.tags.update(tags or {})
    return to_egn(record)


def test_a_whole_game_validates() -> None:
    doc = egn(game())
    assert egn_errors(doc) == []


def test_the_version_is_1_4_which_the_schema_pattern_accepts_and_1_6_is_not() -> None:
    """Schema: version "pattern": "^1\\.[234](?:\\.\\d+)?$"; 1.4.0 is the newest release."""
    doc = egn(game())
    assert doc["version"] == "1.4"
    assert egn_errors({**doc, "version": "1.6"}) != []


def test_every_phase_is_numbered_bidding_0_and_trick_play_1() -> None:
    """Schema: biddingPhase and trickPlayPhase "required": ["phaseNumber", "type", ...]; the
    README's example numbers them 0 and 1."""
    doc = egn(game())
    for deal in doc["deals"]:
        assert [(p["phaseNumber"], p["type"]) for p in deal["phases"]] == \
            [(0, "EUCHRE_BIDDING"), (1, "TRICK_PLAY")][:len(deal["phases"])]
    del doc["deals"][0]["phases"][0]["phaseNumber"]
    assert any("phaseNumber" in e for e in egn_errors(doc))


def test_final_score_is_written_once_the_game_is_over_team_0_2_first() -> None:
    """Schema: finalScore, "Optional final team scores. [Team 0/2 Score, Team 1/3 Score]"."""
    eng = game()
    doc = egn(eng)
    assert doc["metadata"]["finalScore"] == list(eng.state.scores)
    assert [tuple(s["seats"]) for s in eng.public_state()["sides"]] == [(0, 2), (1, 3)]
    unfinished = game(hands=2)
    assert not unfinished.state.game_over
    assert "finalScore" not in egn(unfinished)["metadata"]


def test_a_target_other_than_10_is_the_winning_score_and_10_the_default() -> None:
    """alternate-rules: winning_score "Default: 10", "the target score to win the game"."""
    assert "winning_score" not in egn(game())["metadata"]["ruleset"]
    doc = egn(game(variant="euchre-1844"))
    assert doc["metadata"]["ruleset"]["winning_score"] == 5  # 'Game is 5 points'
    assert egn_errors(doc) == []


def test_a_hand_limit_is_num_deals_alone() -> None:
    """alternate-rules: "A ruleset enforces either a target score (winning_score) OR a fixed
    deal count (num_deals), but not both simultaneously"; schema: not required both."""
    doc = egn(game(options={"target": None, "hand_limit": 4}))
    rules = doc["metadata"]["ruleset"]
    assert rules["num_deals"] == 4 and "winning_score" not in rules
    assert egn_errors(doc) == []
    assert egn_errors({**doc, "metadata": {**doc["metadata"], "ruleset": {
        **rules, "winning_score": 0}}}) != []  # both named: refused by the schema
    with pytest.raises(HistoryError, match="both a target score and a hand limit"):
        egn(game(options={"target": 10, "hand_limit": 4}, hands=1))


def test_a_club_nights_game_ended_by_the_bell_is_num_deals_of_the_deals_played() -> None:
    """changelog 1.4.0: num_deals is "ideal for progressive Euchre. Games set to num_deals do
    not have a winner, but rather count the number of points scored"; alternate-rules: "A
    ruleset cannot set both winning_score and num_deals to 0 (or omit both)"."""
    eng = game(options=night_options("euchre", {}), hands=6)
    doc = egn(eng)
    assert doc["metadata"]["ruleset"]["num_deals"] == len(doc["deals"]) == 6
    assert egn_errors(doc) == []
    back = read_egn(json.dumps(doc))
    assert back.config["options"]["hand_limit"] == 6 and back.config["options"]["target"] is None


@pytest.mark.parametrize(("deck", "min_rank"), [(24, None), (28, 8), (32, 7)])
def test_the_deck_is_min_rank(deck: int, min_rank: int | None) -> None:
    """alternate-rules: min_rank "Defines the lowest card rank in the deck" (default 9)."""
    doc = egn(game(options={"deck": deck}))
    assert doc["metadata"]["ruleset"].get("min_rank") == min_rank
    assert egn_errors(doc) == []


@pytest.mark.parametrize("stick", [True, False])
def test_stick_the_dealer_is_std(stick: bool) -> None:
    """alternate-rules: std "When true, it commonly enforces Stick the Dealer"."""
    doc = egn(game(options={"stick_the_dealer": stick}))
    assert doc["metadata"]["ruleset"]["std"] is stick


def test_cards_and_calls_are_the_schemas() -> None:
    """Schema: card "^([78N9TJQKAX][SsHhCcDdxtngh]|[LRB])$"; calls "Pass", "Order", a suit."""
    doc = egn(game(options={"deck": 32}))
    calls = {c for d in doc["deals"] for c in d["phases"][0]["calls"]}
    assert calls <= {"Pass", "Order", "s", "h", "d", "c"}
    assert egn_errors(doc) == []


def test_a_date_with_a_time_is_written_and_a_date_alone_left_out() -> None:
    """Schema: date is a date-time or "^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}...$"."""
    assert egn(game(), {"Date": "2026-11-27 20:15"})["metadata"]["date"] == "2026-11-27 20:15"
    doc = egn(game(), {"Date": "2026-11-27", "Event": "x" * 300})
    assert "date" not in doc["metadata"] and len(doc["metadata"]["title"]) == 128
    assert egn_errors(doc) == []


def test_a_revoke_kept_in_record_mode_is_a_play_annotation() -> None:
    """annotations: playAnnotations, "the key is the 0-based index into each play across all
    tricks"; README: annotations log "events like renegs"."""
    eng = next(e for s in range(40) for e in [game(s, {"revoke_mode": "record"}, hands=3,
                                                   revoke_rate=0.5)] if e.state.revokes)
    doc = egn(eng)
    notes = [(d, k, n) for d in doc["deals"] for p in d["phases"]
             for k, n in p.get("playAnnotations", {}).items()]
    assert notes and all(n[0].startswith("[??]Revoke: ") for _, _, n in notes)
    for deal, key, _ in notes:
        plays = [c for t in deal["phases"][1]["tricks"] for c in t]
        assert 0 <= int(key) < len(plays)
    assert egn_errors(doc) == []


def test_more_deals_than_the_schema_holds_are_refused() -> None:
    """Schema: deals "maxItems": 100."""
    eng = game(options={"target": None, "hand_limit": 101})
    with pytest.raises(HistoryError, match="at most 100 deals"):
        egn(eng)


@pytest.mark.parametrize("path", REAL_EGN, ids=lambda p: p.name)
def test_every_real_egn_file_validates_and_goes_round_to_the_same_play(path: Path) -> None:
    """A real file (the EGN project's examples, ours): read, written back, it validates and
    replays to the same tricks and scores."""
    original = json.loads(path.read_text())
    assert egn_errors(original) == []
    record = read_egn(path.read_text(), path.name)
    doc = to_egn(record)
    assert egn_errors(doc) == []
    again = read_egn(json.dumps(doc), "written")

    def play(r):  # type: ignore[no-untyped-def]
        return [(k, c.value) for h in r.hands for k, c in h.claims.items()
                if k[0] in ("trick", "score", "result", "contract")]

    assert play(again) == play(record)
    scores = Engine.replay(record.config, record.actions()).state.scores
    assert Engine.replay(again.config, again.actions()).state.scores == scores
    assert doc["metadata"].get("finalScore", list(scores)) == list(scores)


def test_a_real_emn_match_validates_and_reads_game_by_game() -> None:
    path = DATA / "examples" / "mote-w5-match.emn"
    assert emn_errors(json.loads(path.read_text())) == []
    games = read_emn(path.read_text(), path.name)
    assert len(games) == 6 and games[0][0] == "game 0: Dad of Carl, Jen-Eye, Chach, WWMM"
    out = CliRunner().invoke(main, ["verify", str(path)])
    assert out.exit_code == 0 and "6 games, 0 difference(s)" in out.output, out.output


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["games"][0].__setitem__("players", ["p-01", "p-01", "p-02", "p-03"]),
     "game 0: players: four different player ids"),
    (lambda d: d["games"][1]["players"].__setitem__(0, "p-99"),
     "game 1: player id 'p-99' is not in metadata.players"),
    (lambda d: d["games"][2]["gameData"]["deals"][0]["phases"][1]["tricks"][0].pop(),
     "game 2: deal 0, trick 1"),
])
def test_a_broken_emn_match_is_refused_naming_the_game(change, message: str) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads((DATA / "examples" / "mote-w5-match.emn").read_text())
    change(doc)
    with pytest.raises(HistoryError, match=message):
        read_emn(json.dumps(doc), "match.emn")

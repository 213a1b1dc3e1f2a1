"""Hand histories (docs/hand-history.md): the text and JSON forms round-trip, replay to the
same table, refuse malformed files naming the line, and verify names each difference."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tricktable.cli import main
from tricktable.engine import Engine
from tricktable.engine.actions import Deal
from tricktable.history import (
    HistoryError,
    load,
    read_json,
    read_text,
    record_from_engine,
    verify,
    write_json,
    write_text,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def random_game(seed: int, hands: int = 3, deal: str = "seed",
                options: dict | None = None) -> Engine:
    """A game of ``hands`` hands by random legal actions; ``deal``: seed or unknown."""
    rng = random.Random(seed)
    opts = {"target": None, "hand_limit": hands} | (options or {})
    eng = Engine.new("bid-euchre", options=opts, seed=seed, players=PLAYERS)
    while not eng.state.game_over:
        if eng.phase == "deal" and deal == "seed":
            eng.apply(Deal(eng.state.dealer))
            continue
        actions = eng.legal_actions()
        if eng.phase == "deal":   # nobody deals or scans: start with the first bid
            actions = [a for a in actions if a.TYPE in ("bid", "pass")]
        assert eng.apply(rng.choice(actions)).ok
    return eng


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from(["seed", "unknown"]),
       st.sampled_from(["strict", "record"]))
def test_written_history_replays_to_the_same_state(seed: int, deal: str, mode: str) -> None:
    """Issue 2: 'a written history replays to the same state'; text and JSON round-trip."""
    eng = random_game(seed, deal=deal, options={"revoke_mode": mode})
    record = record_from_engine(eng, {"Event": "property", "Date": "2026.11.22"})
    text = write_text(record)
    again = read_text(text)
    assert write_text(again) == text
    assert write_text(read_json(write_json(record))) == text
    assert verify(again) == []
    replayed = Engine.replay(again.config, again.actions())
    assert replayed.public_state() == eng.public_state()
    assert again.tags == {"Event": "property", "Date": "2026.11.22"}


@pytest.mark.parametrize("path", sorted(p.name for p in EXAMPLES.glob("bid-euchre-*")))
def test_examples_verify_and_replay(path: str) -> None:
    record = load(str(EXAMPLES / path))
    assert verify(record) == []
    runner = CliRunner()
    result = runner.invoke(main, ["verify", str(EXAMPLES / path)])
    assert result.exit_code == 0 and "no differences" in result.output
    shown = runner.invoke(main, ["replay", str(EXAMPLES / path)])
    assert shown.exit_code == 0 and "trick" in shown.output and "score:" in shown.output


def test_replay_prints_who_led_the_cards_who_won_and_the_score() -> None:
    result = CliRunner().invoke(main, ["replay", str(EXAMPLES / "bid-euchre-scanned-pepper.txt")])
    assert result.exit_code == 0
    assert "Ann JH" in result.output and "made pepper:small: +7" in result.output
    assert "score: Ann & Cy 7 (+7), Bob & Di -6 (-6)" in result.output


def _example(tmp_path: Path, old: str, new: str) -> Path:
    text = (EXAMPLES / "bid-euchre-game.txt").read_text()
    assert old in text
    path = tmp_path / "changed.txt"
    path.write_text(text.replace(old, new, 1))
    return path


def test_verify_names_each_difference_and_exits_1(tmp_path: Path) -> None:
    text = (EXAMPLES / "bid-euchre-game.txt").read_text()
    lines = text.splitlines()
    score_line = next(i for i, ln in enumerate(lines) if ln.startswith("[Score"))
    trick_line = next(i for i, ln in enumerate(lines) if "=> " in ln)
    winner = lines[trick_line].split("=> ")[1]
    other = next(p for p in PLAYERS if p != winner)
    lines[score_line] = '[Score "+9 +9 / 9 9"]'
    lines[trick_line] = lines[trick_line].replace(f"=> {winner}", f"=> {other}")
    path = tmp_path / "wrong.txt"
    path.write_text("\n".join(lines) + "\n")
    diffs = verify(load(str(path)))
    assert [d.line for d in diffs] == sorted([trick_line + 1, score_line + 1])
    assert any(d.what == "score" and d.recorded == "+9 +9 / 9 9" for d in diffs)
    assert any(d.what == "trick 1 winner" and d.recorded == other and d.recomputed == winner
               for d in diffs)
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 1
    assert f"line {score_line + 1}: hand 1 score: recorded '+9 +9 / 9 9'" in result.output
    assert "2 difference(s)" in result.output


def test_a_dealt_hand_that_differs_from_the_seed_is_a_difference(tmp_path: Path) -> None:
    text = (EXAMPLES / "bid-euchre-game.txt").read_text()
    line = next(ln for ln in text.splitlines() if ln.startswith("Ann: "))
    path = tmp_path / "dealt.txt"
    path.write_text(text.replace(line, "Ann: AS AS AS AS AS AS", 1))
    diffs = verify(load(str(path)))
    assert len(diffs) == 1 and diffs[0].what == "Ann's dealt hand"


@pytest.mark.parametrize(("old", "new", "message"), [
    ("% tricktable hand history 1", "hello", ":1: not a tricktable hand history"),
    ('[Variant "bid-euchre"]', '[Variant "bridge"]', "unknown variant 'bridge'"),
    ('[Seed "25"]', '[Seed "x"]', "[Seed] must be an integer"),
    ('[Option', '[Option "nonsense=1"]\n[Option', "unknown option(s) for bid-euchre: nonsense"),
    ('[Auction "Cy"]', '[Auction "Cy"', 'a tag is [Name "value"]'),
    ("[Trump", "[Trumps", "unknown tag [Trumps]"),
    ('[Deal "seed"]', '[Deal "shuffled"]', "[Deal] is seed, scan or unknown"),
])
def test_malformed_files_are_refused_naming_the_line(tmp_path: Path, old: str, new: str,
                                                      message: str) -> None:
    if old == "[Option":
        old, new = '[Seed "25"]', '[Option "nonsense=1"]\n[Seed "25"]'
    path = _example(tmp_path, old, new)
    with pytest.raises(HistoryError) as err:
        load(str(path))
    assert message in str(err.value)
    assert str(err.value).startswith(f"{path}:")
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 1 and message in result.output  # click's error exit


def test_an_illegal_move_is_refused_with_its_line_and_rule(tmp_path: Path) -> None:
    text = (EXAMPLES / "bid-euchre-game.txt").read_text()
    lines = text.splitlines()
    i = next(i for i, ln in enumerate(lines) if ln.startswith('[Auction'))
    lines[i + 1] = "4 3 Pass Pass"
    path = tmp_path / "illegal.txt"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(HistoryError, match=rf":{i + 2}: .*cannot bid 3: the high bid is 4 \(bid_too_low\)"):
        load(str(path))


def test_moves_after_an_unfinished_hand_are_refused(tmp_path: Path) -> None:
    text = (EXAMPLES / "bid-euchre-game.txt").read_text()
    lines = text.splitlines()
    i = next(i for i, ln in enumerate(lines) if "=> " in ln)
    del lines[i + 1: i + 6]           # drop the rest of hand 1's tricks
    path = tmp_path / "short.txt"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(HistoryError, match="hand 1 is not finished"):
        load(str(path))


def test_json_errors_name_the_path() -> None:
    with pytest.raises(HistoryError, match="not a tricktable history"):
        read_json('{"format": "pgn"}')
    with pytest.raises(HistoryError, match=r"x.json:1: malformed JSON"):
        read_json("{", "x.json")
    bad = write_json(record_from_engine(random_game(1, hands=1))).replace('"type": "pass"', '"type": "nap"', 1)
    with pytest.raises(HistoryError, match=r"hands\[0\]\.actions\[\d+\]: unknown action type 'nap'"):
        read_json(bad)
    good = write_json(record_from_engine(random_game(1, hands=1)))
    with pytest.raises(HistoryError, match="config: unknown variant 'bridge'"):
        read_json(good.replace('"variant": "bid-euchre"', '"variant": "bridge"'))
    with pytest.raises(HistoryError, match=r"claims\[0\]\.key: not a claim key"):
        read_json(good.replace('"key": [', '"key": ["nonsense", ', 1))


def test_missing_file_is_a_clear_error() -> None:
    result = CliRunner().invoke(main, ["replay", "/nonexistent/history.txt"])
    assert result.exit_code == 1 and "no hand history at /nonexistent/history.txt" in result.output


def test_names_that_are_not_one_word_are_written_as_seat_numbers() -> None:
    eng = Engine.new("bid-euchre", seed=4, players=["Ann Lee", "Bob", "Pass", "Di"],
                     options={"hand_limit": 1, "target": None})
    eng.apply(Deal(0))
    rng = random.Random(4)
    while not eng.state.game_over:
        eng.apply(rng.choice(eng.legal_actions()))
    text = write_text(record_from_engine(eng))
    assert "@1: " in text and "@3: " in text and '[Seats "Ann Lee | Bob | Pass | Di"]' in text
    assert Engine.replay(read_text(text).config, read_text(text).actions()).public_state() \
        == eng.public_state()


def _variant_game(variant: str, dealt: bool) -> Engine:
    from tricktable.rules import get_variant

    fields = get_variant(variant).Options.__dataclass_fields__
    options = {"hand_limit": 2} | ({"target": None} if "target" in fields else {})
    eng = Engine.new(variant, seed=3, options=options)
    rng = random.Random(3)
    while not eng.state.game_over:
        if eng.phase == "deal" and dealt:
            eng.apply(Deal(eng.state.dealer))
            continue
        legal = eng.legal_actions()
        if eng.phase == "deal":   # nobody scans: turn the up-card if any, then bid
            legal = ([a for a in legal if a.TYPE == "turn_up"][:1]
                     or [a for a in legal if a.TYPE not in ("scan", "deal")] or legal)
        assert eng.apply(rng.choice(legal)).ok
    return eng


def _all_variants() -> list[str]:
    from tricktable.rules import list_variants

    return list_variants()


@pytest.mark.parametrize("dealt", [True, False], ids=["dealt", "unknown"])
@pytest.mark.parametrize("variant", _all_variants())
def test_every_variant_round_trips_and_verifies(variant: str, dealt: bool) -> None:
    """Issue 3: 'replay and verify work for every variant'."""
    eng = _variant_game(variant, dealt)
    text = write_text(record_from_engine(eng))
    again = read_text(text)
    assert write_text(again) == text and verify(again) == []
    assert Engine.replay(again.config, again.actions()).public_state() == eng.public_state()


def test_partly_scanned_deal_is_written_with_dashes() -> None:
    """Issue 2: 'deal with - for unknown cards'."""
    from tricktable.cards import parse_card
    from tricktable.engine.actions import Bid, DeclareTrump, Pass, ScanCard

    eng = Engine.new("bid-euchre", players=PLAYERS)
    for seat, name in ((0, "AS"), (0, "KS"), (2, "9H")):
        assert eng.apply(ScanCard(seat, parse_card(name))).ok
    for action in (Bid(1, "3"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "S")):
        assert eng.apply(action).ok
    text = write_text(record_from_engine(eng))
    assert "Ann: AS KS - - - -\nBob: - - - - - -\nCy: 9H - - - - -\n" in text
    again = read_text(text)
    assert Engine.replay(again.config, again.actions()).public_state() == eng.public_state()


def test_verify_says_a_game_nobody_played_has_nothing_to_verify(tmp_path: Path) -> None:
    """A game dealt to but never bid or played in (its one hand has no action) is not
    "1 hand(s) verified": nothing in it was checked."""
    path = tmp_path / "empty.txt"
    path.write_text(write_text(record_from_engine(Engine.new("bid-euchre", players=PLAYERS))))
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "hand(s) verified" not in result.output
    assert "no hand was played, nothing to verify" in result.output

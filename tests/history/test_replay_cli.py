"""``tricktable replay`` on a revoke hand (“Bid Euchre”, section “Single Deck Bid Euchre”,
record mode): the hands as the play showed them, the bidding and contract in words, every
trick with its leader and winner, the revoking card and the card that proved it marked."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from tricktable.cli import main

REVOKE = Path(__file__).resolve().parents[2] / "examples" / "bid-euchre-unknown-revoke.txt"


def test_replay_marks_the_revoke_and_the_card_that_proved_it() -> None:
    out = CliRunner().invoke(main, ["replay", str(REVOKE)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    text = out.output
    assert "hands (as played):" in text and "Ann: 9C 10S 10C QH JC AS" in text
    assert "bidding: Bob 3, Cy pass, Di 5, Ann pass" in text
    assert "contract: 5 in diamonds by Di; trump diamonds" in text
    assert "Ann 10C (revoke)" in text          # trick 3: Ann showed out of hearts
    assert "Ann QH (proof, revoke)" in text    # trick 4: the heart that proved it
    assert ("revoke: Ann played 10C in trick 3 and did not follow hearts (showed out, then "
            "played hearts in trick 4); the proof: QH") in text
    assert "score: Ann & Cy -18 (-18), Bob & Di 6 (+6)" in text
    assert "ORDER_UP" not in text and "PASS" not in text


def test_replay_names_the_winning_side_in_words_that_fit_a_pair() -> None:
    game = REVOKE.with_name("bid-euchre-game.txt")
    out = CliRunner().invoke(main, ["replay", str(game)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    last = out.output.strip().splitlines()[-1]
    assert last.startswith("game over: ") and " wins" not in last, last

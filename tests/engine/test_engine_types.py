"""The engine's phases and refusal codes are types (``rules.base.Phase``, ``engine.refusals``):
mypy, as mypyc runs it when it compiles the rules core (setup.py: ``--strict-equality``),
finds the rules core clean and turns a misspelt phase or code into an error. The values stay
the plain strings the journal, the protocol and the pages carry."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tricktable.engine import Engine
from tricktable.engine.actions import Pass
from tricktable.engine.refusals import REFUSALS
from tricktable.rules.base import PHASES

HOST = Path(__file__).resolve().parents[2] / "host"

PLANTED = '''
from tricktable.engine import Engine
from tricktable.engine.core import Outcome


def misspelt(eng: Engine) -> bool:
    eng.state.phase = "sit_out"
    Outcome(False, "not_you_turn", "it is Bob's turn")
    return eng.phase == "plya"
'''


def test_a_misspelt_phase_or_refusal_code_is_a_type_error(tmp_path: Path) -> None:
    (tmp_path / "planted.py").write_text(PLANTED)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict-equality", "--no-incremental", "--cache-dir",
         os.devnull, "--follow-imports=silent", "--python-version", "3.11", "--no-error-summary",
         *(str(HOST / "tricktable" / part) for part in ("cards.py", "engine", "rules")),
         "planted.py"],
        cwd=tmp_path, env={**os.environ, "MYPYPATH": str(HOST)}, capture_output=True, text=True,
        timeout=240)
    errors = [line for line in proc.stdout.splitlines() if ": error: " in line]
    assert [line.split(":")[:2] for line in errors] == [
        ["planted.py", "7"], ["planted.py", "8"], ["planted.py", "9"]], proc.stdout + proc.stderr
    assert "[assignment]" in errors[0] and "[arg-type]" in errors[1]
    assert "[comparison-overlap]" in errors[2]


def test_phases_and_codes_travel_as_the_plain_strings_they_always_were() -> None:
    eng = Engine.new("bid-euchre", seed=3, dealer=0)
    out = eng.apply(Pass(3))  # the bidding begins at the dealer's left, seat 1
    assert json.loads(json.dumps(eng.public_state()))["phase"] == eng.phase == "deal"
    assert type(eng.phase) is str and out.to_json()["code"] == out.code == "not_your_turn"
    assert PHASES == ("deal", "bidding", "trump", "exchange", "sitout", "play", "game_over")
    assert len(set(REFUSALS)) == len(REFUSALS) == 22 and all(type(c) is str for c in REFUSALS)

"""Every bench in bench/ still runs: each in its quickest mode, as its own process, must exit 0
and print the line that carries its figures. A bench whose code has drifted from the package
fails here, not on the evening someone needs its numbers. Nothing here times anything: the
figures are the benches' to print (DESIGN.md, "Numbers come from bench/").

A new bench gets its row in ``SMOKE`` (``test_every_bench_has_a_smoke_run`` says so); a row
is the quickest arguments (seconds of CPU) and a pattern of its figures line.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from tricktable.analysis import _search

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"

SEARCH = _search.__file__  # the installed build of the search, run beside itself

SMOKE: dict[str, tuple[list[str], str]] = {
    "ab_search": ([SEARCH, SEARCH, "--reps", "1", "--deals", "1"],
                  r"^old sum [\d.]+ ms  new sum [\d.]+ ms  sum ratio [\d.]+"),
    "analyse_night": (["--tables", "2", "--games", "1", "--hands", "1", "--runs", "1"],
                      r"^analyse night: serial \d"),
    "analysis": (["--deals", "3", "--big-deals", "1", "--variant", "euchre", "--no-hand"],
                 r"^euchre \(5\) solve +3 deals +median"),
    "attack": (["--quick"], r"^attacks: (\d+) tried, 0 got in, \1 controls ok$"),
    "card_to_host": (["--bus", "spi", "--plays", "100", "--seconds", "2"],
                     r"^  w +[\d.]+ +[\d.]+ "),
    "chaos": (["--rounds", "4", "--fuzz", "20", "--fuzz-only", "1", "--seed", "11"],
              r"^  state changes by invalid messages +0$"),
    "decks": (["--runs", "1"], r"^enroll 24 cards via pty: +\d"),
    "demo_game": (["--speed", "0", "--seeds", "1", "--hand-limit", "1"],
                  r"^speed 0: complete game median [\d.]+ s \(1 hands"),
    "engine": (["--hands", "200", "--runs", "1", "--variant", "euchre"],
               r"^euchre +hands/s median +[\d,]+"),
    "firmware": (["--quick"], r"^5\. bundle \(tricktable board setup\): \d+ B"),
    "fleet": (["--quick"], r"^2\. offer -> new version online.*: median \d"),
    "hostile_room": (["--quick", "--boards", "2", "--plays", "20"],
                     r"^hostile room: 2 boards, \d+ plays, lost 0, doubled 0"),
    "latency": (["--tables", "1", "--seconds", "2", "--warmup", "0.5"], r"^ +1 +\d+ +\d"),
    "league": (["--clubs", "2", "--tables", "1", "--hand-every", "1", "--seconds", "2",
                "--burst", "20", "--backlog", "20", "--hubs", "1", "--instances", "1"],
               r"^ +1 \| +2 tables .* stored/s.*\| burst 20: .*\| backlog 20: "),
    "league_ratings": (["--clubs", "2", "--nights", "1", "--tables", "2", "--games", "1",
                        "--runs", "1"], r"^rerate: median \d"),
    "misreads": (["--plays", "500"], r"^  wrong cards accepted +0$"),
    "night": (["--tables", "2", "--rounds", "1", "--hands", "1"],
              r"^tap-to-verdict otherwise: p50 [\d.]+ ms"),
    "night_sweep": (["--variants", "euchre", "--seeds", "1", "--tables", "2", "--rounds", "1",
                     "--hands", "1"], r"^1 of 1 nights finished with every hand"),
    "phone_seat": (["--hands", "1"],
                   r"^phone seat: card to verdict on screen p50 \d+ ms, p99 \d+ ms"),
    "par": (["--deals", "3", "--variant", "euchre"], r"^euchre +par alone +\d+ deals"),
    "replay_bound": (["--hands", "1", "--variant", "euchre"],
                     r"^euchre +\d+ cards +analysed +1 hands +median"),
    "search_work": (["--deals", "1", "--tables", "1"],
                    r"^tables \(  1\) +nodes +[\d,]+  trick starts +[\d,]+  table hits +[\d,]+  answers [0-9a-f]{8}$"),
    "signing": (["--quick"], r"^  unix port at 96k: check [\d.]+ ms median"),
    "soak": (["--tables", "1", "--minutes", "0.1"], r"^  games the journal disagrees on +0$"),
    "stats": (["--nights", "2", "--tables", "2", "--rounds", "1", "--hands", "1",
               "--requests", "5", "--repeat", "1"], r"^player page .* median p50 [\d.]+ ms"),
    "tls_heap": (["--quick"], r"^   TLS costs -?\d+ B more$"),
    "tls_handshake": (["--runs", "1", "--n", "2"],
                      r"^  RSA-2048 CA and broker key, ECDHE-RSA: [\d.-]+ ms here .* Pico W about"),
    "up": (["--runs", "1", "--quick"], r"^  all ready +[\d.]+ "),
}


MODES: dict[str, tuple[str, list[str], str]] = {
    # a bench's other modes, each smoke-run as well: name -> (bench, arguments, figures)
    "analysis --single-dummy": ("analysis", ["--single-dummy", "--hands", "3", "--samples", "20",
                                            "--whole-hands", "1"],
                                r"^single dummy: \d+ decisions, 20 samples each, agree with "
                                r"exact \d+/\d+, decisions/s [\d.]+$"),
}


def test_every_bench_has_a_smoke_run() -> None:
    benches = [p.stem for p in BENCH.glob("*.py") if '__name__ == "__main__"' in p.read_text()]
    assert sorted(SMOKE) == sorted(benches)  # a module a bench imports (no main) is not one


@pytest.mark.slow
@pytest.mark.parametrize("bench", sorted(SMOKE))
def test_a_bench_runs_in_its_quickest_mode_and_prints_its_figures(bench: str) -> None:
    args, figures = SMOKE[bench]
    proc = subprocess.run([sys.executable, str(BENCH / f"{bench}.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)  # the installed tricktable
    output = f"bench/{bench}.py {' '.join(args)}\n{proc.stdout}\n{proc.stderr}"
    assert proc.returncode == 0, output
    assert re.search(figures, proc.stdout, re.MULTILINE), output


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_benchs_other_modes_run_and_print_their_figures(mode: str) -> None:
    bench, args, figures = MODES[mode]
    proc = subprocess.run([sys.executable, str(BENCH / f"{bench}.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    output = f"bench/{bench}.py {' '.join(args)}\n{proc.stdout}\n{proc.stderr}"
    assert proc.returncode == 0, output
    assert re.search(figures, proc.stdout, re.MULTILINE), output

"""The firmware's pure logic, each case once under CPython, once under the real MicroPython
unix port with a 96k heap plus the PN532 emulator's (fwkit.CASE_HEAP), and once on a 32-bit
MicroPython (wasm32.py: a board's small ints and ticks that wrap at 2**30 ms). The cases live
in tests/firmware/mp/cases_*.py, written once in the language all three share; their
docstrings and names say the rule they check.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect

import pytest
import wasm32
from fwkit import MicroPython

MODULES = ("cases_reader", "cases_scanner", "cases_outbox", "cases_io", "cases_display", "cases_hw",
           "cases_app", "cases_config", "cases_cardpath", "cases_stack", "cases_setup", "cases_time",
           "cases_heal", "cases_heal_app", "cases_fullflash")
CASES = [
    pytest.param(module, name, id=f"{module}.{name[5:]}")
    for module in MODULES
    for name, fn in vars(importlib.import_module(module)).items()
    if name.startswith("case_") and callable(fn)
]



@pytest.mark.parametrize(("module", "name"), CASES)
def test_under_cpython(module: str, name: str, tmp_path) -> None:
    fn = getattr(importlib.import_module(module), name)
    result = fn(str(tmp_path))
    if inspect.iscoroutine(result):
        result = asyncio.run(result)
    if isinstance(result, str) and result.startswith("skip"):
        pytest.skip(result)


@pytest.mark.micropython
@pytest.mark.parametrize(("module", "name"), CASES)
def test_under_micropython(module: str, name: str, tmp_path, micropython: MicroPython) -> None:
    result = micropython.case(module, name, tmp_path)
    assert result["ok"], result.get("error")
    if result.get("skip"):
        pytest.skip(result["skip"])


SHARDS_32BIT = 3  # Node.js processes the cases are shared among (two minutes in one, loaded)


@pytest.mark.parametrize("shard", range(SHARDS_32BIT))
def test_every_case_on_32bit_micropython(shard: int) -> None:
    """Every case on the 32-bit VM, a third of them in each of three Node.js processes (so
    that the suite's workers share them: in one test they were its longest). The VM is slow
    and shares the machine: a case that fails is run again, up to twice, before it counts
    (the PN532 driver's 50 ms budget is real time)."""
    why = wasm32.missing()
    if why:
        pytest.skip(why)
    names = [tuple(p.values) for p in CASES][shard::SHARDS_32BIT]
    results = wasm32.run_cases(names)
    for _ in range(2):
        again = [n for n in names if not results[":".join(n)]["ok"]]
        if again:
            results.update(wasm32.run_cases(again))
    failed = {k: f"{r.get('error')}\n{r.get('output', '')}" for k, r in results.items() if not r["ok"]}
    assert not failed, "\n\n".join(f"{k}: {v}" for k, v in failed.items())

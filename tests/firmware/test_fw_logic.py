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
           "cases_app", "cases_config", "cases_cardpath", "cases_stack", "cases_setup", "cases_time")
# Cases the 32-bit VM cannot run: its asyncio (the WebAssembly port's own, on the JS event
# loop) never lets a JS timer fire while another task loops on sleep_ms(0), so a case that
# races a busy task against a sleeping one never ends there.
NOT_ON_32BIT = {"cases_reader:case_waiting_for_a_slow_reader_lets_other_tasks_run":
                "the VM's asyncio starves timers behind a sleep_ms(0) loop",
                "cases_cardpath:case_a_late_chip_on_one_pad_does_not_stall_the_other_pads":
                "the VM's asyncio starves timers behind a sleep_ms(0) loop"}
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


def test_every_case_on_32bit_micropython() -> None:
    """All cases on the 32-bit VM in one Node.js process (one test: xdist would run a module
    fixture once per worker). The VM is slow and shares the machine: a case that fails is run
    once more on its own before it counts (the PN532 driver's 50 ms budget is real time)."""
    why = wasm32.missing()
    if why:
        pytest.skip(why)
    names = [tuple(p.values) for p in CASES if ":".join(p.values) not in NOT_ON_32BIT]
    results = wasm32.run_cases(names)
    again = [n for n in names if not results[":".join(n)]["ok"]]
    if again:
        results.update(wasm32.run_cases(again))
    failed = {k: f"{r.get('error')}\n{r.get('output', '')}" for k, r in results.items() if not r["ok"]}
    assert not failed, "\n\n".join(f"{k}: {v}" for k, v in failed.items())

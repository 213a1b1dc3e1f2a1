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
           "cases_app", "cases_config", "cases_cardpath", "cases_stack", "cases_setup")
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


@pytest.fixture(scope="module")
def on_32bit() -> dict[str, dict]:
    """Every case's result on the 32-bit VM, run once for the module (one Node.js process)."""
    why = wasm32.missing()
    if why:
        pytest.skip(why)
    return wasm32.run_cases([p.values for p in CASES if ":".join(p.values) not in NOT_ON_32BIT])


@pytest.mark.parametrize(("module", "name"), CASES)
def test_under_32bit_micropython(module: str, name: str, on_32bit: dict[str, dict]) -> None:
    if f"{module}:{name}" in NOT_ON_32BIT:
        pytest.skip(NOT_ON_32BIT[f"{module}:{name}"])
    result = on_32bit[f"{module}:{name}"]
    assert result["ok"], f"{result.get('error')}\n{result.get('output', '')}"
    if result.get("skip"):
        pytest.skip(result["skip"])

"""The firmware's pure logic, each case once under CPython and once under the real MicroPython
unix port with a 96k heap plus the PN532 emulator's (fwkit.CASE_HEAP; the cases live in
tests/firmware/mp/cases_*.py, written once in the language both share; their docstrings and
names say the rule of issue 5 they check).
"""

from __future__ import annotations

import asyncio
import importlib
import inspect

import pytest
from fwkit import MicroPython

MODULES = ("cases_reader", "cases_scanner", "cases_outbox", "cases_io", "cases_display", "cases_hw",
           "cases_app", "cases_config", "cases_cardpath", "cases_stack", "cases_setup")
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

"""Waiting in tests for something that happens asynchronously (a broker delivery, a page update).

One helper, so every test waits the same way: poll a check until it holds, or fail naming
what never happened. A liveness bound, never a performance assertion: timings live in bench/.
The default bound is generous (30 s): at a load of 8 on two cores, a 10 s bound was once
missed by a test that passes in milliseconds on a quiet machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def eventually(check: Callable[[], T], what: str, timeout: float = 30.0, every: float = 0.02) -> T:
    """Poll ``check`` until it returns a truthy value and return it; fail naming ``what``."""
    give_up = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() >= give_up:
            raise AssertionError(f"never happened within {timeout:g} s: {what}")
        time.sleep(every)

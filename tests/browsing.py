"""Debian's chromium under Playwright, set up one way for every browser test.

The flags keep chromium off the network this machine does not have (see docs/web.md);
``needs_chromium`` skips a test where the package is not installed. The fixtures ``browser``
(one chromium per test module) and ``shots`` (where screenshots go) reach every test through
the root conftest's ``pytest_plugins``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SIZES = {"tv": (1920, 1080), "phone": (390, 844)}
needs_chromium = pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                                    reason="Debian chromium not installed")


@contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Debian chromium, closed on the way out."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $TRICKTABLE_SCREENSHOTS to keep them, else the test's tmp dir."""
    where = os.environ.get("TRICKTABLE_SCREENSHOTS")
    out = Path(where) if where else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    return out

"""The 32-bit MicroPython of the suite: the WebAssembly port from npm, run by Node.js.

PyPI's unix port is a 64-bit build (small ints of 62 bits, ticks that never wrap in a test's
life); a board is 32-bit: small ints of 30 bits and ``time.ticks_ms()`` wrapping at 2**30 ms.
The npm package ``@micropython/micropython-webassembly-pyscript`` (pinned in
tests/firmware/wasm/package.json, installed by ./scripts/run-tests with ``npm ci``) is such a
build: ``sys.maxsize`` 2**31-1, ticks period 2**30. Its heap grows on demand, so it says
nothing about a board's heap limit (``gc.mem_alloc()`` still counts live bytes at a board's
word size); it has no sockets, so the logic cases run on it, not the link tests.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from fwkit import EMULATOR_DIR, FIRMWARE, MP_DIR

WASM_DIR = Path(__file__).resolve().parent / "wasm"
PACKAGE = WASM_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def missing() -> str | None:
    """Why the 32-bit VM cannot run here, or None."""
    if shutil.which("node") is None:
        return "Node.js not installed (./scripts/run-tests installs it as root)"
    if not PACKAGE.exists():
        return "the 32-bit MicroPython is not installed: npm ci --prefix tests/firmware/wasm"
    return None


def run_cases(cases: list[tuple[str, str]], timeout: float = 600) -> dict[str, dict]:
    """Run firmware cases ``(module, name)`` on the 32-bit VM, a fresh VM each; their results
    by ``module:name`` ({"ok", "skip", "error", "output"})."""
    names = [f"{module}:{name}" for module, name in cases]
    proc = subprocess.run(["node", str(WASM_DIR / "run_cases.mjs"), str(FIRMWARE), str(EMULATOR_DIR),
                           str(MP_DIR), "--", *names], capture_output=True, text=True, timeout=timeout,
                          cwd=WASM_DIR)
    results = {}
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            out = json.loads(line[len("RESULT "):])
            results[out["case"]] = out
    for name in names:
        results.setdefault(name, {"ok": False, "error": f"no result (exit {proc.returncode})",
                                  "output": proc.stdout[-4000:] + proc.stderr[-4000:]})
    return results


def run_script(path: Path, *args: str, timeout: float = 900) -> str:
    """Run a MicroPython script on the 32-bit VM (its ``asyncio.run(main())`` awaited there,
    ``sys.argv[1]`` a fresh directory, then ``args``); its output."""
    proc = subprocess.run(["node", str(WASM_DIR / "run_cases.mjs"), str(FIRMWARE), str(EMULATOR_DIR),
                           str(MP_DIR), "--", f"script:{path}", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=WASM_DIR)
    if proc.returncode:
        raise RuntimeError(f"32-bit MicroPython failed:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout

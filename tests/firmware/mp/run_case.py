"""Run one firmware case under MicroPython: run_case.py MODULE CASE TMPDIR; prints a JSON line."""

import json
import sys

from compat import asyncio


def main():
    module, name, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
    fn = getattr(__import__(module), name)
    try:
        result = fn(tmp)
        if result is not None and hasattr(result, "send"):
            result = asyncio.run(result)
        out = {"ok": True, "skip": result if isinstance(result, str) else None}
    except Exception as e:  # report any failure to pytest, with its type
        sys.print_exception(e)
        out = {"ok": False, "error": f"{type(e).__name__}: {e}"}
    print(json.dumps(out))


main()

"""Firmware signature check on a board: Ed25519 in plain MicroPython against HSS/LMS (RFC 8554).

Prints, for each candidate, what a board pays to check one bundle's signature:

- the signature's bytes (fetched like a file) and the host's time to make the key and sign;
- the check's time under the MicroPython unix port at a board's heap (``-X heapsize=96k``),
  median of ``--runs`` checks in one interpreter, and on the 32-bit WebAssembly port
  (tests/firmware/wasm32.py) where it is installed;
- its heap: the smallest ``-X heapsize`` in which the check passes (bisected by 1 KB), less
  the smallest in which the same script passes without the check (the interpreter's own and
  the script's): what the check needs on top of what is there;
- what one check allocates in all (``gc.mem_alloc`` with the collector stopped, in a 16 MB
  heap): garbage a board's collector must sweep.

The Ed25519 verifier is bench/sigcand_ed25519.py (SHA-512 included: boards have SHA-256 only);
the LMS one is the firmware's own sigcheck.py; both compiled by mpy-cross, as a bundle holds
them (compiling from source costs a heap more than running). Both are checked first to
accept a genuine signature and refuse a changed one.

Run: .venv/bin/python bench/signing.py [--quick]  (--quick: 3 checks of the club's own parameters only)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyhsslms
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "firmware"), str(ROOT / "tests")]  # fwkit, wasm32

from fwkit import mpy_cross  # noqa: E402

FIRMWARE = ROOT / "host" / "tricktable" / "firmware"
MICROPYTHON = Path(sys.executable).parent / "micropython"
MESSAGE = b'{"v": 1, "version": "0.2.0", "counter": 1764000000, "files": [\n' + b"x" * 2100

# The measuring script, run as text by both ports: CASE and RUNS are put in front of it; the
# key, signature and message are files in the case directory (sys.argv[1]), read as a board
# reads them (the message, for Ed25519, whole: its hash needs it in one piece here).
MEASURE = r'''
import gc, sys, time
try:
    ticks_us, ticks_diff = time.ticks_us, time.ticks_diff
except AttributeError:
    ticks_us = lambda: int(time.perf_counter() * 1e6)
    ticks_diff = lambda a, b: a - b

def read(name):
    with open(WHERE + "/" + name, "rb") as f:
        return f.read()

def feed(h):
    buf = bytearray(256)
    with open(WHERE + "/msg", "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                return
            h.update(memoryview(buf)[:n])

def check():
    if CASE == "none":
        return True
    if CASE == "ed25519":
        from sigcand_ed25519 import verify
        return verify(read("pub"), read("msg"), read("sig"))
    import sigcheck
    return sigcheck.verify(read("pub"), WHERE + "/sig", feed)

async def main():
    global WHERE
    WHERE = sys.argv[1]
    for name in FILES:
        with open(name if name[0] == "/" else WHERE + "/" + name, "wb") as f:
            f.write(FILES[name])
    FILES.clear()
    gc.collect()
    if RUNS == 0:
        try:
            print("RESULT", check())
        except MemoryError:
            print("RESULT MemoryError")
        return
    ok = check()  # once first: Ed25519's SHA-512 constants are made on the first use
    gc.collect()
    if RUNS < 0:  # what one check allocates, the collector stopped (in a roomy heap)
        gc.disable()
        before = gc.mem_alloc()
        check()
        print("RESULT", ok, gc.mem_alloc() - before)
        return
    times = []
    for _ in range(RUNS):
        gc.collect()
        t = ticks_us()
        ok = check() and ok
        times.append(ticks_diff(ticks_us(), t) / 1000)
    print("RESULT", ok, " ".join("%.1f" % t for t in times))

import asyncio
asyncio.run(main())
'''


def script(case: str, runs: int, files: dict[str, bytes] | None = None) -> str:
    """The measuring script for ``case``; ``files`` written by the script itself (the wasm
    port's file system is its own), else the bench writes them into the case directory."""
    head = f"CASE = {case!r}\nRUNS = {runs}\nFILES = {files or {}!r}\n"
    if files and case == "ed25519":  # the wasm port: the candidate's source written there too
        source = (ROOT / "bench" / "sigcand_ed25519.py").read_bytes()
        head = head.replace("FILES = {", f"FILES = {{'/lib/sigcand_ed25519.py': {source!r}, ", 1)
    return head + MEASURE


def run_unix(text: str, heap: str, work: Path) -> str | None:
    path = work / "measure.py"
    path.write_text(text)
    proc = subprocess.run([str(MICROPYTHON), "-X", f"heapsize={heap}", str(path),
                           str(work / "case")], capture_output=True, text=True, timeout=600,
                          env={"MICROPYPATH": f"{work / 'lib'}:.frozen"})
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return line[len("RESULT "):]
    return None


def put(work: Path, pub: bytes, sig: bytes) -> None:
    case = work / "case"
    case.mkdir(exist_ok=True)
    (case / "pub").write_bytes(pub)
    (case / "sig").write_bytes(sig)
    (case / "msg").write_bytes(MESSAGE)


def smallest_heap(text: str, work: Path) -> int:
    """The smallest heap in KB (bisected by 1 KB, 4k to 96k) in which ``text`` passes."""
    lo, hi = 4, 96
    while lo < hi:
        mid = (lo + hi) // 2
        out = run_unix(text, f"{mid}k", work)
        if out is not None and out.startswith("True"):
            hi = mid
        else:
            lo = mid + 1
    return lo


def candidates(quick: bool) -> list[tuple[str, str, bytes, bytes, float, float]]:
    """(name, case, public key, signature of MESSAGE, host keygen s, host sign s) of each."""
    out = []
    if quick:  # the club's own parameters only (fleet/signing.py)
        sets = [(2, pyhsslms.lms_sha256_m32_h5, pyhsslms.lmots_sha256_n32_w4, "H5/W4, 2 levels")]
        return out + [lms_candidate(*params) for params in sets]
    t = time.perf_counter()
    ed = Ed25519PrivateKey.generate()
    made = time.perf_counter() - t
    t = time.perf_counter()
    sig = ed.sign(MESSAGE)
    signed = time.perf_counter() - t
    out.append(("Ed25519 (RFC 8032)", "ed25519", ed.public_key().public_bytes_raw(), sig,
                made, signed))
    sets = [(1, pyhsslms.lms_sha256_m32_h5, pyhsslms.lmots_sha256_n32_w8, "H5/W8, 1 level"),
            (2, pyhsslms.lms_sha256_m32_h5, pyhsslms.lmots_sha256_n32_w8, "H5/W8, 2 levels"),
            (2, pyhsslms.lms_sha256_m32_h5, pyhsslms.lmots_sha256_n32_w4, "H5/W4, 2 levels"),
            (1, pyhsslms.lms_sha256_m32_h10, pyhsslms.lmots_sha256_n32_w4, "H10/W4, 1 level")]
    return out + [lms_candidate(*params) for params in sets]


def lms_candidate(levels: int, lms: object, ots: object,
                  label: str) -> tuple[str, str, bytes, bytes, float, float]:
    """An HSS/LMS key of these parameters made, MESSAGE signed with it (as ``candidates``)."""
    t = time.perf_counter()
    key = pyhsslms.HssPrivateKey(levels=levels, lms_type=lms, lmots_type=ots)
    made = time.perf_counter() - t
    t = time.perf_counter()
    sig = key.sign(MESSAGE)
    signed = time.perf_counter() - t
    pub = key.publicKey().serialize()
    assert key.publicKey().verify(MESSAGE, sig)
    count = key.maxSignatures()
    return (f"HSS/LMS SHA-256 {label} ({count} signatures)", "lms", pub, sig, made, signed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 runs, the club's own parameters only")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    runs = 3 if args.quick else args.runs
    try:
        import wasm32
        wasm_missing = wasm32.missing()
    except ImportError as exc:
        wasm_missing = str(exc)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "lib").mkdir()
        for source in (FIRMWARE / "sigcheck.py", ROOT / "bench" / "sigcand_ed25519.py"):
            mpy_cross(source, work / "lib" / (source.stem + ".mpy"))  # as a bundle holds it
        for name, case, pub, sig, made, signed in candidates(args.quick):
            changed = bytearray(sig)
            changed[len(sig) // 2] ^= 1
            put(work, pub, bytes(changed))
            bad = run_unix(script(case, 0), "96k", work)
            put(work, pub, sig)
            good = run_unix(script(case, 0), "96k", work)
            print(f"{name}: signature {len(sig)} B, public key {len(pub)} B; host: key "
                  f"{made:.2f} s, sign {signed * 1000:.0f} ms")
            if good != "True" or bad != "False":
                print(f"  unix port at 96k: genuine {good}, changed {bad}")
                continue
            out = run_unix(script(case, runs), "96k", work)
            assert out is not None, "the measuring run failed"
            _, *times = out.split()
            alloc = (run_unix(script(case, -1), "16m", work) or "? ?").split()[1]
            need = smallest_heap(script(case, 0), work)
            base = smallest_heap(script("none", 0), work)
            print(f"  unix port at 96k: check {statistics.median(map(float, times)):.1f} ms median "
                  f"of {runs} ({', '.join(times)}); smallest heap {need}k, "
                  f"{need - base:+d}k over the same script without the check; "
                  f"{int(alloc):,} B allocated in one check")
            if wasm_missing:
                print(f"  32-bit wasm port: not run ({wasm_missing})")
                continue
            path = work / "wasm.py"
            path.write_text(script(case, runs, {"pub": pub, "sig": sig, "msg": MESSAGE}))
            line = next((x for x in wasm32.run_script(path).splitlines()
                         if x.startswith("RESULT ")), "RESULT ?")
            _, ok, *times32 = line.split()
            print(f"  32-bit wasm port: check {statistics.median(map(float, times32)):.1f} ms "
                  f"median of {runs} ({', '.join(times32)}), genuine accepted: {ok}")


if __name__ == "__main__":
    main()

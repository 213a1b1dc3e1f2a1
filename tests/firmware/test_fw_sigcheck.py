"""The board's firmware signature check (host/tricktable/firmware/sigcheck.py, HSS/LMS of RFC
8554, SHA-256 only) on the real MicroPython unix port at a board's heap, on the 32-bit wasm
port and on CPython: RFC 8554's own test vector, and signatures the host's signer
(fleet/signing.py, ``pyhsslms``) makes at the club's parameters, accepted; a signature, message
or key changed by one bit, another key's signature and a cut signature, refused.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import wasm32
from fwkit import FIRMWARE, MicroPython, last_json
from tricktable.fleet import signing

pytestmark = pytest.mark.micropython

VECTOR = json.loads((Path(__file__).parent / "vectors" / "rfc8554.json").read_text())


def case(where: Path, pub: bytes, sig: bytes, msg: bytes) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    (where / "pub").write_bytes(pub)
    (where / "sig").write_bytes(sig)
    (where / "msg").write_bytes(msg)
    return where


def on_micropython(micropython: MicroPython, where: Path) -> dict:
    return last_json(micropython.run("sigcheck_run.py", str(where)))


def on_cpython(where: Path) -> dict:
    proc = subprocess.run([sys.executable, str(Path(__file__).parent / "mp" / "sigcheck_run.py"),
                           str(where)], capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(FIRMWARE)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return last_json(proc.stdout)


def flipped(data: bytes, at: int) -> bytes:
    out = bytearray(data)
    out[at] ^= 1
    return bytes(out)


def test_rfc_8554_test_case_1_is_accepted_and_a_changed_one_refused(micropython, tmp_path):
    """RFC 8554, Appendix F, Test Case 1: two levels of LMS_SHA256_M32_H5 / LMOTS W8."""
    pub, sig, msg = (bytes.fromhex(VECTOR[k]) for k in ("public_key", "signature", "message"))
    for run in (lambda w: on_micropython(micropython, w), on_cpython):
        assert run(case(tmp_path / "good", pub, sig, msg)) == {"ok": True}
        assert run(case(tmp_path / "sig", pub, flipped(sig, 1000), msg)) == {"ok": False}
        assert run(case(tmp_path / "msg", pub, sig, flipped(msg, 3))) == {"ok": False}
        assert run(case(tmp_path / "pub", flipped(pub, 40), sig, msg)) == {"ok": False}


def test_the_hosts_signatures_are_checked_by_the_board(micropython, tmp_path):
    """fleet/signing.py's parameters (two levels of H5/W4), signed by ``pyhsslms``."""
    key, other = tmp_path / "host.key", tmp_path / "thief.key"
    pub = bytes.fromhex(signing.generate(key))
    signing.generate(other)
    msg = b'{"v": 1, "version": "0.2.0", "counter": 1, "files": [\n' + bytes(range(256)) * 9
    first, second = signing.sign(key, msg), signing.sign(key, msg[:-1])
    thief = signing.sign(other, msg)
    checks = {
        "genuine": (case(tmp_path / "a", pub, first, msg), {"ok": True}),
        "genuine, the next one-time key": (case(tmp_path / "b", pub, second, msg[:-1]),
                                           {"ok": True}),
        "another message": (case(tmp_path / "c", pub, first, msg[:-1]), {"ok": False}),
        "a bit of the signature": (case(tmp_path / "d", pub, flipped(first, 3000), msg),
                                   {"ok": False}),
        "another key's": (case(tmp_path / "e", pub, thief, msg), {"ok": False}),
        "with a byte after it": (case(tmp_path / "f", pub, first + b"\0", msg), {"ok": False}),
        "cut short": (case(tmp_path / "g", pub, first[:-40], msg),
                      {"error": "the signature ends too soon"}),
        "a key of another form": (case(tmp_path / "h", pub[:-1], first, msg),
                                  {"error": "the update public key is not an HSS/LMS public key"}),
    }
    for what, (where, expected) in checks.items():
        assert on_micropython(micropython, where) == expected, what
        assert on_cpython(where) == expected, what


def test_rfc_8554_test_case_1_on_32bit_micropython(tmp_path):
    why = wasm32.missing()
    if why:
        pytest.skip(why)
    files = {k: bytes.fromhex(VECTOR[k]) for k in ("public_key", "signature", "message")}
    script = tmp_path / "check.py"
    script.write_text(
        f"import sigcheck, sys\nFILES = {files!r}\nw = sys.argv[1]\n"
        "open(w + '/sig', 'wb').write(FILES['signature'])\n"
        "for s, m in ((FILES['signature'], FILES['message']), (FILES['signature'], b'x')):\n"
        "    print('RESULT', sigcheck.verify(FILES['public_key'], w + '/sig',"
        " lambda h, m=m: h.update(m)))\n")
    results = [line for line in wasm32.run_script(script).splitlines()
               if line.startswith("RESULT")]
    assert results == ["RESULT True", "RESULT False"], results

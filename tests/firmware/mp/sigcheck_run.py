"""The board's signature check (sigcheck.py) on files, as fwupdate.py calls it.

Usage: micropython sigcheck_run.py DIR. DIR holds ``pub`` (an HSS public key), ``sig`` (a
signature file) and ``msg`` (the message, fed to the hash in 256-byte pieces as fwupdate.py
feeds the manifest). Prints one JSON line: ``{"ok": true/false}``, or ``{"error": "..."}``
for a key or signature sigcheck refuses as malformed.
"""

import json
import sys

import sigcheck

where = sys.argv[1]


def feed(h):
    buf = bytearray(256)
    with open(where + "/msg", "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                return
            h.update(memoryview(buf)[:n])


with open(where + "/pub", "rb") as f:
    pub = f.read()
try:
    print(json.dumps({"ok": sigcheck.verify(pub, where + "/sig", feed)}))
except ValueError as e:
    print(json.dumps({"error": str(e)}))

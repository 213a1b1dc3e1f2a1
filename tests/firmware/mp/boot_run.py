"""Power up a board from its flash: its own main.py, on virtual hardware.

Usage: micropython -i boot_run.py FLASH. boot.py (when the flash has one) runs first. virtual.py stands in for ``machine``, ``network``
and ``neopixel`` (no reader is wired: each pad reports a fault; Wi-Fi joins the first
network; the watchdog bites: virtual.WDT.bites); the board's flash is the working directory and comes first on the path, so the
board runs the .mpy files ``tricktable board setup`` copied there. With ``-i``, the Ctrl-C
that ``tricktable board setup`` sends stops main.py and leaves the board at its REPL.
"""

import os
import sys

import virtual

for name in ("machine", "network", "neopixel"):
    sys.modules[name] = virtual
virtual.WDT.bites = True
os.chdir(sys.argv[1])
sys.path.insert(0, "")
try:  # boot.py, then main.py, as ports/rp2/main.c runs them at power-up
    with open("boot.py") as f:
        exec(f.read(), {"__name__": "__main__"})
except OSError:
    pass
with open("main.py") as f:
    exec(f.read())

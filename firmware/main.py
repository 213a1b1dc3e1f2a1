"""Board entry point (runs at boot): config, hardware, then the application forever.

Imports config, hw and app. A fatal error is printed and the board resets after a pause,
so a board in the field never sits dead; the watchdog covers hangs.
"""

import time

from app import App
from compat import asyncio
from config import load
from hw import Board, load_pins


def main():
    cfg = load("config.json")
    board = Board(cfg, load_pins(cfg["pins"]))
    board.connect_wifi()
    app = App(board, cfg, ".")
    asyncio.run(app.run())


try:
    main()
except Exception as e:  # the last line of defence on a board: report, pause, reboot
    import sys

    sys.print_exception(e)
    time.sleep(5)
    import machine

    machine.reset()

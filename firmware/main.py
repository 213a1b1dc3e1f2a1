"""Board entry point (runs at boot): config, hardware, then the application forever.

Imports config, hw and app. A fatal error is printed and the board resets after a pause,
so a board in the field never sits dead; the watchdog covers hangs.
"""

import sys
import time

from app import App
from compat import asyncio
from hw import Board, load_pins, reset


def boot_config():
    """config.json, validated; the config module is needed at boot only, so it is dropped."""
    import config

    cfg = config.load("config.json")
    del sys.modules["config"]
    return cfg


def main():
    cfg = boot_config()
    board = Board(cfg, load_pins(cfg["pins"]))
    board.connect_wifi()
    app = App(board, cfg, ".")
    asyncio.run(app.run())


try:
    main()
except Exception as e:  # the last line of defence on a board: report, pause, reboot
    sys.print_exception(e)
    time.sleep(5)
    reset()

"""Board entry point (runs at boot): the bundle to boot, config, hardware, then the application.

The boot loader, with fwslot.py: neither is ever in an update bundle. fwslot chooses the
slot (fw/a or fw/b, or the root) and counts a new bundle's trial boot; only then are the
firmware modules imported, from that slot first. Without a usable config.json the board stays
in setup mode (hw.SetupSignal) until ``tricktable board setup`` writes one. A fatal error is
printed and the board resets after a pause, so a board in the field never sits dead (and a
bundle on trial that fails goes back to the one before, as does one whose config check
refuses the board's config.json); the watchdog covers hangs. The reset is hw.reset, the
root's own hw when a broken bundle's does not even import. Stopped over USB (Ctrl-C), the
board keeps its watchdog fed from a timer while the REPL is in use, and after a soft reset
boot.py does (maintenance.py).
"""

import sys
import time

import fwslot

TRIAL_S = 120  # a new bundle must reach the broker within this, or the board goes back


def boot_config():
    """config.json, validated; the config module is needed at boot only, so it is dropped,
    before the app is imported: the app's imports then overwrite the stack words that could
    still point at config.py (firmware/README.md, "Memory")."""
    import config

    try:
        return config.load("config.json")
    finally:
        del sys.modules["config"]


def setup_mode(why):
    """No usable config.json: say so on the REPL, the lights and the display, and wait for
    ``tricktable board setup`` (which interrupts this loop over USB). boot.py's timer feeds
    the watchdog meanwhile (maintenance.py)."""
    from hw import SetupSignal

    signal = SetupSignal(why)
    on = False
    while True:
        print("tricktable: setup mode (%s); run: tricktable board setup PORT" % why)
        for _ in range(10):
            on = not on
            signal.blink(on)
            time.sleep(0.5)


def stopped():
    """Ctrl-C over USB stopped the firmware: the watchdog is fed from a timer while the REPL
    is in use (``tricktable board setup`` takes longer than its 8 s), and after a soft reset
    boot.py feeds it the same way (maintenance.py)."""
    import maintenance

    maintenance.begin()
    print("tricktable: stopped; the watchdog is fed while the REPL is in use")


SLOT: list = []  # the bundle's directory, first on sys.path while it runs


def updates(app, topic, payload):
    """A message on the board's update topics, to fwupdate.py (in the bundle): imported on the
    first, so a board that is never updated keeps the RAM. A heap with no room for it just
    then drops the message, as the link drops one it has no room for: the host offers again
    (fleet/updater.py, ``OFFER_AGAIN_S``) and the link stays up."""
    try:
        from fwupdate import handle
    except MemoryError:
        from compat import collect

        collect()
        app.last_error = "heap short for a firmware update"
        return
    handle(app, topic, payload)


def main():
    path, pointer = fwslot.boot(".")
    if path:
        sys.path.insert(0, path)
        SLOT.append(path)
    try:
        cfg = boot_config()  # before the application is imported (boot_config)
    except ValueError as e:  # no config.json, or one that does not validate
        if "trial" in pointer:  # a new bundle refuses the config the board runs: go back
            print("tricktable: the new firmware refuses config.json (%s); going back" % e)
            from hw import reset

            reset()  # fwslot.boot rolls a trial that failed back to the bundle before
        setup_mode(str(e))
    import maintenance
    from app import App
    from compat import asyncio
    from hw import Board, load_pins, reset, reset_cause

    maintenance.end()  # boot.py's timer stops: the app feeds the watchdog while it lives
    board = Board(cfg, load_pins(cfg["pins"]))
    board.connect_wifi()
    app = App(board, cfg, ".")
    fwslot.report(app, config=board.problem)  # pads the pin map does not wire: the host is told
    asyncio.run(fwslot.run(app, pointer, ".", reset, TRIAL_S, reset_cause(), updates))


try:
    main()
except KeyboardInterrupt:  # stopped over USB (Ctrl-C): setup or a person takes the REPL
    for _ in range(3):  # the raw REPL sends Ctrl-C twice: the second may land in here
        try:
            stopped()
            break
        except KeyboardInterrupt:
            pass
except Exception as e:  # the last line of defence on a board: report, pause, reboot
    sys.print_exception(e)
    time.sleep(5)
    try:
        from hw import reset
    except Exception:  # the bundle's hardware layer is what broke: reset with the root's
        for path in SLOT:
            sys.path.remove(path)
        for name in ("hw", "pn532", "display"):
            sys.modules.pop(name, None)
        from hw import reset
    reset()

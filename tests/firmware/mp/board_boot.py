"""A board booting under the unix port as main.py boots it: fwslot chooses the bundle (a new one
on trial, or back to the one before), the firmware is imported from that slot, and the App runs
on emulated readers until the test stops the process. A restart (after an update, or the trial
guard giving up) exits with status 75, and the test's power supply boots the board again.

Usage: micropython board_boot.py SPEC.json. SPEC: ``config`` (config.json content),
``storage`` (the board's flash), ``trial_s`` (how long a new bundle has to come online),
``lying`` (cards on pads at boot: [[pad, uid hex]]), ``readers_port`` (the readers in
tests/firmware/readerhost.py, outside this heap: remote_readers.py). Prints the pointer it
booted with.
"""

import json
import sys

import fwslot

REBOOT = 75


def restart():
    print(json.dumps({"restart": True}))
    raise SystemExit(REBOOT)


def updates(app, topic, payload):
    """As main.py's: fwupdate.py loaded on the first update message."""
    from fwupdate import handle

    handle(app, topic, payload)


def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    storage = spec["storage"]
    path, pointer = fwslot.boot(storage)
    if path:
        sys.path.insert(0, path)
    print(json.dumps({"booted": pointer}))
    import config

    cfg = config.validate(spec["config"])
    del sys.modules["config"], config  # boot-time only, as on a board
    from app import App
    from compat import asyncio, unhexlify

    if "readers_port" in spec:  # the emulator stays out of this heap, as on a board
        import remote_readers as E

        board = E.RemoteBoard(spec["readers_port"], cfg["pads"])
        chips = board.chips
    else:
        import pn532_emulator as E
        from casekit import LinkBoard

        chips = [E.PN532() for _ in range(cfg["pads"])]
        board = LinkBoard(chips)
    for pad, uid in spec.get("lying", []):
        chips[pad].place(E.Tag(unhexlify(uid)))
    app = App(board, cfg, storage)
    asyncio.run(fwslot.run(app, pointer, storage, restart, spec.get("trial_s", 10), "power",
                           updates))


main()

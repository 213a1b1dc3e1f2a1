"""Which firmware bundle boots: the A/B slots, the trial boot of a new bundle, and rollback.

Part of the boot loader with main.py: never in a bundle, so a bad bundle cannot break it.
Imports json, os and compat, nothing of a bundle: fwupdate.py (in bundles) uses this module's
slots and pointer, and reaches the board through the ``updates`` handler main.py gives ``run``. Bundles live in ``fw/a`` and ``fw/b`` under the board's storage;
``fw/boot.json`` (written to a temporary file, then renamed over: a power cut leaves the old
or the new pointer, never half of one) says which slot is active and which was before, and
the active bundle's ``counter`` (from its signed manifest: fwupdate.py refuses a lower one).
No ``boot.json``: the firmware copied by hand at the root (slot ``""``, counter 0).

A newly installed bundle boots on trial: ``boot()`` counts the trial boots, and the second
boot that finds the bundle still unconfirmed (it crashed, hung until the watchdog, or
``guard`` reset the board because it never came online) goes back to the previous slot.
``guard`` confirms the bundle the moment the app is connected to the broker.
"""

import json
import os

POINTER = "/fw/boot.json"
TRIAL_BOOTS = 1  # boots a new bundle gets to come online before the board goes back
RESTART = None  # the board's reset, set by run() (fwupdate.py restarts into a new bundle)


def slot_dir(storage, slot):
    """The directory of ``slot`` ("" is the root: the firmware copied by hand)."""
    return storage + "/fw/" + slot if slot else storage


def read_pointer(storage):
    try:
        with open(storage + POINTER) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"active": "", "version": None}


def write_pointer(storage, doc):
    """Replace fw/boot.json in one rename."""
    path = storage + POINTER
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f)
    os.rename(path + ".tmp", path)


def boot(storage):
    """Choose the slot to boot (counting a trial boot, or rolling back a failed one); return
    (directory to import from first, or None for the root; the pointer as it now stands)."""
    doc = read_pointer(storage)
    if "trial" in doc:
        if doc["trial"] >= TRIAL_BOOTS:  # it had its chance and never confirmed: go back
            doc = {"active": doc["previous"], "version": doc["previous_version"],
                   "counter": doc.get("previous_counter", 0), "rolled_back": doc["version"]}
        else:
            doc["trial"] += 1
        write_pointer(storage, doc)
    return (slot_dir(storage, doc["active"]) if doc["active"] else None), doc


def confirm(storage):
    """The bundle on trial came online: keep it."""
    doc = read_pointer(storage)
    if "trial" in doc:
        del doc["trial"]
        write_pointer(storage, doc)


def report(app, **fields):
    """From now on, the app's every status carries ``fields`` (``fw``: the booted bundle's
    version; ``fwc``: its counter; ``reboot``: why the board started; ``update``: a firmware update's progress), a
    None leaving a field as it was. The app's own status() knows none of them: a board that
    never boots through fwslot.run spends no RAM on them."""
    extra = getattr(app, "extra", None)
    if extra is None:
        extra = app.extra = {}
        own = type(app).status

        def status():
            out = own(app)
            out.update(extra)
            return out

        app.status = status
    for key in fields:
        if fields[key] is not None:
            extra[key] = fields[key]


def version(app):
    """The firmware version ``app`` reports."""
    extra = getattr(app, "extra", None)
    return extra["fw"] if extra and "fw" in extra else app.status()["fw"]


async def run(app, pointer, storage, restart, trial_s, cause, updates=None):
    """Run ``app`` as the booted bundle: its version, last update and why it started (``cause``
    from the hardware, or ``update``/``rollback`` when fwslot chose so) in the status; the
    board's ``restart``; its update messages to ``updates(app, topic, payload)`` (main.py's,
    which loads fwupdate.py on the first); and on a trial boot the ``guard``."""
    global RESTART
    from compat import asyncio

    RESTART = restart
    rolled_back = pointer.get("rolled_back")
    if rolled_back:
        cause = "rollback"
    elif "trial" in pointer:
        cause = "update"
    report(app, fw=pointer.get("version") or version(app), fwc=pointer.get("counter", 0),
           reboot=cause,
           update=rolled_back and {"state": "rolled_back", "version": rolled_back,
                                   "reason": "it did not come online"})
    if (app.cfg.get("update_pub") or app.cfg["update_key"]) and updates is not None:
        take_updates(app, updates)
    if "trial" in pointer:
        asyncio.create_task(guard(app, storage, trial_s, restart))
    await app.run()


def take_updates(app, updates):
    """Subscribe ``app`` to its update topics and hand what comes on them to ``updates``. Here,
    not in app.py, so that a board that takes no updates (no ``update_pub`` or
    ``update_key``, or not booted
    through main.py) spends no RAM on them."""
    own = app.on_message
    app.link.subscribe(app.topic_config[:-6] + "update/#")

    def on_message(topic, payload):
        if not (topic.endswith("/update") or topic.endswith("/chunk")):
            own(topic, payload)
            return
        try:
            updates(app, topic, payload)
        except MemoryError:  # counted like a bad message; the host offers again
            app.bad_messages += 1
            app.last_error = "update: not enough heap free to take an update message"

    app.link.on_message = on_message


async def guard(app, storage, seconds, restart):
    """On a trial boot: confirm the bundle once ``app`` is connected, or ``restart()`` (and so
    roll back) if ``seconds`` pass first."""
    from compat import sleep_ms

    for _ in range(seconds * 10):
        if app.link.connected:
            confirm(storage)
            report(app, update={"state": "confirmed", "version": version(app)})
            try:
                await app.publish_status()
            except OSError:
                pass  # the next status carries it
            return
        await sleep_ms(100)
    restart()

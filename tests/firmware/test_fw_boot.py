"""A board booting its own main.py from its flash (mp/boot_run.py: virtual hardware whose
watchdog bites, as the chip's does) meets what the field brings: a USB setup that takes
longer than the watchdog, a new bundle whose config check refuses the board's config.json,
and a config.json asking for more pads than its bus wires (firmware/README.md, "Setting up a
board", "Updates" and "config.json").
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from fwkit import FIRMWARE, HostSide, MicroPython, mpy_cross
from tricktable.provision.rawrepl import BoardError, RawREPL
from usbboard import USBBoard
from waiting import eventually

pytestmark = [pytest.mark.micropython, pytest.mark.timeout(120)]

BOOT_HEAP = "1m"  # the unix port's own default, as USBBoard boots: not a board's heap test


def flash_with(mpy_build: Path, flash: Path, config: dict) -> Path:
    """A board's flash as ``tricktable board setup`` leaves it: the compiled firmware,
    boards.json, main.py, boot.py and ``config``."""
    flash.mkdir(parents=True)
    for f in mpy_build.glob("*.mpy"):
        shutil.copy(f, flash / f.name)
    shutil.copy(mpy_build / "boards.json", flash / "boards.json")
    shutil.copy(FIRMWARE / "main.py", flash / "main.py")
    shutil.copy(FIRMWARE / "boot.py", flash / "boot.py")
    (flash / "config.json").write_text(json.dumps(config))
    return flash


def board_config(broker, prefix: str, **extra) -> dict:
    return {"board": "north", "prefix": prefix, "wifi": {"ssid": "cardroom"},
            "broker": {"host": broker.host, "port": broker.port, "keepalive": 5},
            "backoff_ms": [100, 500], **extra}


def boot(micropython: MicroPython, flash: Path) -> subprocess.Popen:
    """Power the board up (virtual hardware and all: no board's heap, as USBBoard boots)."""
    return micropython.start("boot_run.py", str(flash), heap=BOOT_HEAP)


def output_of(proc: subprocess.Popen) -> str:
    if proc.poll() is None:
        proc.kill()
    out, err = proc.communicate(timeout=30)
    return out + err


HEAP_LOCKED = b"heap is locked"


def stopped_at_its_repl(flash: Path, micropython: MicroPython, host: HostSide) -> USBBoard:
    """The board powered up from ``flash``, online, then stopped by one Ctrl-C (setup's own
    Ctrl-Cs on a running board: the test before) and at its prompt: the tool's Ctrl-Cs then
    reach the REPL as keys. (Sent while a loaded board was still stopping, they were SIGINTs to
    the unix port, which once main.py has ended and before its REPL has the terminal exits on
    one: the raw REPL never answered.)

    The unix port raises a SIGINT's KeyboardInterrupt at once wherever the interpreter is; one
    that lands in a garbage collection leaves the heap locked and the process dies of it ("heap
    is locked", then a fatal uncaught NLR: once in a full run beside two CPU burners). A board
    raises a USB Ctrl-C between bytecodes, so that death is the fake's, not the firmware's:
    the board is powered up again, once."""
    for attempt in (1, 2):
        board = USBBoard(flash, booting=micropython)
        try:
            host.wait(lambda: host.statuses.get("north", {}).get("online"),
                      f"north online; it printed {bytes(board.output)!r}")
            board.type(b"\x03")
            eventually(lambda b=board: b.proc.poll() is not None or (
                b"tricktable: stopped" in b.output and bytes(b.output).endswith(b">>> ")),
                "the board stopped at its REPL")
        except AssertionError as exc:
            board.close()
            raise AssertionError(f"{exc}\n--- board ---\n"
                                 f"{bytes(board.output).decode(errors='replace')}") from None
        if board.proc.poll() is None:
            return board
        board.close()
        if HEAP_LOCKED not in board.output:
            break
        if attempt == 1:
            host.wait(lambda: host.statuses.get("north", {}).get("online") is False,
                      "north's last will, before it is powered up again")
    raise AssertionError(f"the board died of its Ctrl-C (exit {board.proc.poll()}):\n"
                         f"{bytes(board.output).decode(errors='replace')}")


def test_a_running_board_stopped_over_usb_keeps_its_watchdog_fed_at_the_repl(
        mpy_build, micropython, mqtt_broker, topic_prefix, tmp_path):
    """The watchdog cannot be stopped once the firmware started it, and ``tricktable board
    setup`` stops the firmware with Ctrl-C and works at the REPL for longer than that: the
    board feeds it from a timer until setup's soft reset, instead of resetting mid-setup."""
    flash = flash_with(mpy_build, tmp_path / "flash",
                       board_config(mqtt_broker, topic_prefix, pads=0, watchdog_ms=4000))
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    board = USBBoard(flash, booting=micropython)
    try:
        host.wait(lambda: host.statuses.get("north", {}).get("online"),
                  f"north online; it printed {bytes(board.output)!r}")
        with RawREPL(board.port) as repl:  # Ctrl-C, Ctrl-C, the raw REPL: as setup does

            def fed_at_the_repl() -> int:
                return int(repl.exec("import virtual\nprint(virtual.WDT.last.feeds)"))

            first = fed_at_the_repl()
            # the timer feeds once a second: 6 feeds outlast the 4 s watchdog half as long again
            eventually(lambda: fed_at_the_repl() >= first + 6, "the watchdog fed at the REPL",
                       every=0.25)
        assert b"watchdog reset" not in board.output, bytes(board.output)
        assert board.proc.poll() is None, bytes(board.output)
    finally:
        board.close()
        host.close()


def test_a_soft_reset_at_the_repl_never_lets_the_watchdog_bite(
        mpy_build, micropython, mqtt_broker, topic_prefix, tmp_path):
    """mpremote, Thonny and ``tricktable board setup`` soft-reset a running board on their
    first command: every timer stops (ports/rp2/main.c, ``soft_timer_deinit``) while the
    watchdog runs on, and the REPL runs no code of ours. boot.py, which the port runs after a
    soft reset in the raw REPL too, feeds it from a timer again (maintenance mode): the board
    stays up as long as the person or tool works, and its firmware runs again at the next
    power-up. Today's board reset itself about one watchdog period into the session."""
    flash = flash_with(mpy_build, tmp_path / "flash",
                       board_config(mqtt_broker, topic_prefix, pads=0, watchdog_ms=3000))
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    board = stopped_at_its_repl(flash, micropython, host)
    try:
        with RawREPL(board.port) as repl:
            repl.exec("import virtual\nvirtual.soft_reset()")  # as mpremote's Ctrl-D

            def fed() -> int:
                return int(repl.exec("import virtual\nprint(virtual.WDT.last.feeds)"))

            first = fed()
            # 4 feeds a second apart: past the 3 s watchdog with the timers of before gone
            eventually(lambda: fed() >= first + 4, "the watchdog fed after the soft reset",
                       every=0.25)
        assert b"watchdog reset" not in board.output, "the watchdog bit"
        assert board.proc.poll() is None, "the board's process ended"
    except (AssertionError, BoardError) as exc:
        raise AssertionError(f"{exc}\n--- board (exit {board.proc.poll()}) ---\n"
                             f"{bytes(board.output).decode(errors='replace')}") from None
    finally:
        board.close()
        host.close()


def test_a_new_bundle_that_refuses_the_boards_config_goes_back_to_the_one_before(
        mpy_build, micropython, mqtt_broker, topic_prefix, tmp_path):
    """A bundle on trial whose config check refuses the config.json the board runs cannot
    come online: rather than wait in setup mode, offline with no watchdog and no update
    guard, the board resets and the boot loader goes back to the bundle before, which
    comes online."""
    flash = flash_with(mpy_build, tmp_path / "flash", board_config(mqtt_broker, topic_prefix,
                                                                    pads=0))
    slot = flash / "fw" / "b"
    slot.mkdir(parents=True)
    for f in flash.glob("*.mpy"):
        shutil.copy(f, slot / f.name)
    stricter = tmp_path / "config.py"
    stricter.write_text((FIRMWARE / "config.py").read_text() + (
        "\n\ndef load(path='config.json'):\n"
        "    raise ValueError(\"config 'seat' is required from 0.2.0 on\")\n"))
    assert mpy_cross(stricter, slot / "config.mpy").returncode == 0
    (flash / "fw" / "boot.json").write_text(json.dumps(
        {"active": "b", "version": "0.2.0", "trial": 0, "previous": "",
         "previous_version": "0.1.0"}))
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    first = boot(micropython, flash)
    try:
        eventually(lambda: first.poll() is not None,
                   "the board resets instead of waiting in setup mode")
        said = output_of(first)
        assert "refuses config.json (config 'seat' is required" in said, said
        assert "setup mode" not in said, said
        again = boot(micropython, flash)
        try:
            host.wait(lambda: host.statuses.get("north", {}).get("online"),
                      "north online again on the bundle before")
            pointer = json.loads((flash / "fw" / "boot.json").read_text())
            assert pointer["active"] == "" and pointer["rolled_back"] == "0.2.0", pointer
        finally:
            output_of(again)
    finally:
        output_of(first)
        host.close()


def test_more_pads_than_the_bus_wires_run_the_wired_ones_and_the_status_says_why(
        mpy_build, micropython, mqtt_broker, topic_prefix, tmp_path):
    """One PN532 per I2C bus, two buses in the pin map: a config.json asking for three pads
    (written by hand: the host refuses it at setup) no longer raises IndexError at every
    boot; the board comes online with two and its status's ``config`` says what it refused
    (docs/protocol.md), which the fleet page flags."""
    flash = flash_with(mpy_build, tmp_path / "flash", board_config(
        mqtt_broker, topic_prefix, pads=3, reader_bus="i2c"))
    host = HostSide(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    proc = boot(micropython, flash)
    try:
        status = eventually(lambda: host.statuses.get("north", {}).get("config") and
                            host.statuses["north"], "north online, saying what it refused")
        assert status["config"] == "pads 3 refused: the pico_w map wires 2 i2c readers"
        assert len(status["faults"]) == 2, status  # no reader answers on the virtual buses
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n--- board ---\n{output_of(proc)}") from None
    finally:
        output_of(proc)
        host.close()

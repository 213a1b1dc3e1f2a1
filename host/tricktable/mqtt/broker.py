"""Start an MQTT broker for a table, a demo or a test: mosquitto when installed, else amqtt.

``start_broker()`` returns a :class:`BrokerHandle` bound to 127.0.0.1 (unless told otherwise)
on a free port (or the one asked for). Mosquitto runs as a child process from a generated
config in a temporary directory (with persistence, so a restart keeps retained messages and
persistent sessions); amqtt runs embedded in a background thread with its own event loop.
``restart()`` stops and starts the broker again on the same port, for fault tests.
Authentication (users, passwords, and an ACL) and TLS are only offered with mosquitto.
"""

from __future__ import annotations

import asyncio
import getpass
import logging
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

MOSQUITTO = "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd"
START_TIMEOUT = 10.0

BrokerKind = Literal["auto", "mosquitto", "amqtt"]


def _die_with_parent() -> None:
    """In the child before exec: ask Linux to SIGTERM the broker when its parent dies.

    So a demo or a host killed with SIGKILL leaves no mosquitto behind. Linux sends the
    signal when the *thread* that started the child ends, so it is only asked for brokers
    started from the main thread (a fault test restarting a broker from a worker thread gets
    none). Elsewhere than Linux this does nothing.
    """
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return
    pr_set_pdeathsig = 1
    libc.prctl(pr_set_pdeathsig, signal.SIGTERM)


class BrokerError(RuntimeError):
    """The broker could not be started, or was asked for something it cannot do."""


@dataclass(frozen=True)
class BrokerAuth:
    """Who may connect (``users``: name -> password) and, optionally, a mosquitto ACL text.

    With ``users`` set, anonymous clients are refused. ``password_file`` is an existing
    mosquitto password file (such as ``tricktable board setup`` keeps) used as it is, with
    ``users`` added to it. ``acl`` is the text of a mosquitto ``acl_file`` (see
    mqtt/mosquitto/acl.template); None means every user may do anything.
    """

    users: Mapping[str, str] = field(default_factory=dict)
    acl: str | None = None
    password_file: Path | None = None


@dataclass(frozen=True)
class BrokerTLS:
    """A TLS listener (mosquitto only): the broker's certificate and key (PEM files)."""

    certfile: Path
    keyfile: Path


class _Backend(Protocol):
    def start(self) -> None: ...
    def stop(self) -> None: ...


def mosquitto_available() -> bool:
    """True when the mosquitto binary is installed where we look for it."""
    return os.access(MOSQUITTO, os.X_OK)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free on ``host`` a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _wait_listening(host: str, port: int, alive: Callable[[], bool], timeout: float = START_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive():
            raise BrokerError(f"broker on {host}:{port} exited while starting")
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise BrokerError(f"broker on {host}:{port} did not start listening within {timeout}s")


class _Mosquitto:
    """A mosquitto child process with its config, passwords, ACL and persistence in ``workdir``."""

    def __init__(self, host: str, port: int, auth: BrokerAuth | None, tls: BrokerTLS | None,
                 workdir: Path, extra: str = "", whole: str | None = None) -> None:
        self.host, self.port, self.workdir = host, port, workdir
        self.proc: subprocess.Popen[bytes] | None = None
        self.config = workdir / "mosquitto.conf"
        self.config.write_text(whole if whole is not None else self._config_text(auth, tls) + extra)

    def _config_text(self, auth: BrokerAuth | None, tls: BrokerTLS | None) -> str:
        lines = [
            f"listener {self.port} {self.host}",
            *([f"certfile {tls.certfile}", f"keyfile {tls.keyfile}"] if tls else []),
            f"user {getpass.getuser()}",
            "persistence true",
            f"persistence_location {self.workdir}/",
            "log_dest none",
            "set_tcp_nodelay true",
            "max_queued_messages 100000",
        ]
        if auth is None or not (auth.users or auth.password_file):
            lines.append("allow_anonymous true")
        else:
            passwords = self.workdir / "passwd"
            passwords.write_text(auth.password_file.read_text() if auth.password_file else "")
            for user, password in auth.users.items():
                subprocess.run(
                    [MOSQUITTO_PASSWD, "-b", str(passwords), user, password],
                    check=True,
                    capture_output=True,
                )
            lines += ["allow_anonymous false", f"password_file {passwords}"]
            if auth.acl is not None:
                acl = self.workdir / "acl"
                acl.write_text(auth.acl)
                lines.append(f"acl_file {acl}")
        return "\n".join(lines) + "\n"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            # Linux ties the death signal to the starting thread, so only the main thread's.
            preexec_fn=_die_with_parent if threading.current_thread() is threading.main_thread() else None,
        )
        proc = self.proc
        try:
            _wait_listening(self.host, self.port, lambda: proc.poll() is None)
        except BrokerError as exc:
            if proc.poll() is None:
                proc.kill()
            said = proc.communicate()[1].decode(errors="replace")
            self.stop()
            raise BrokerError(f"{exc}: {said}") from exc

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None


class _Amqtt:
    """An amqtt broker embedded in a daemon thread running its own asyncio loop."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.broker: object | None = None

    def _config(self) -> dict[str, object]:
        return {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
        }

    def start(self) -> None:
        from amqtt.broker import Broker

        logging.getLogger("amqtt").setLevel(logging.CRITICAL)  # failures come back as BrokerError
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="amqtt", daemon=True)
        self.thread.start()

        async def boot() -> object:
            broker = Broker(self._config(), loop=asyncio.get_running_loop())
            await broker.start()
            return broker

        try:
            self.broker = asyncio.run_coroutine_threadsafe(boot(), self.loop).result(START_TIMEOUT)
        except Exception as exc:
            self._close_loop()
            raise BrokerError(f"amqtt could not start on {self.host}:{self.port}: {exc}") from exc

    def stop(self) -> None:
        if self.loop is None:
            return
        if self.broker is not None:
            try:
                asyncio.run_coroutine_threadsafe(self.broker.shutdown(), self.loop).result(START_TIMEOUT)
            finally:
                self.broker = None
        self._close_loop()

    def _close_loop(self) -> None:
        assert self.loop is not None and self.thread is not None
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        self.loop.close()
        self.loop = self.thread = None


class BrokerHandle:
    """A running broker: where it is (``host``, ``port``, ``url``) and how to stop or restart it."""

    def __init__(self, kind: str, host: str, port: int, backend: _Backend, workdir: Path | None,
                 tls: bool = False) -> None:
        self.kind, self.host, self.port, self.tls = kind, host, port, tls
        self._backend, self._workdir = backend, workdir
        self._running = True

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        return self._running

    @property
    def pid(self) -> int | None:
        """The mosquitto process's id while it runs (None for the embedded broker)."""
        proc = getattr(self._backend, "proc", None)
        return proc.pid if proc is not None else None

    def stop(self) -> None:
        """Stop the broker (idempotent) and remove its temporary directory."""
        if self._running:
            self._backend.stop()
            self._running = False
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None

    def halt(self) -> None:
        """Stop the broker but keep its files (sessions, queues): ``restart()`` starts it again."""
        if self._running:
            self._backend.stop()
            self._running = False

    def restart(self, down_for: float = 0.0) -> None:
        """Stop the broker, stay down ``down_for`` seconds, start it again on the same port."""
        if self._workdir is None and self.kind == "mosquitto":
            raise BrokerError("this broker was stopped for good; start a new one")
        if self._running:
            self._backend.stop()
            self._running = False
        time.sleep(down_for)
        self._backend.start()
        self._running = True

    def __enter__(self) -> BrokerHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<BrokerHandle {self.kind} {self.url} {'running' if self._running else 'stopped'}>"


def start_mosquitto(config: str, port: int, host: str = "127.0.0.1",
                    tls: bool = False) -> BrokerHandle:
    """Start mosquitto from a whole configuration of its own (such as
    provision.brokerconf.club_config makes) and wait until ``host:port`` accepts connections."""
    if not mosquitto_available():
        raise BrokerError(f"mosquitto is not installed at {MOSQUITTO}")
    workdir = Path(tempfile.mkdtemp(prefix="tricktable-broker-"))
    backend = _Mosquitto(host, port, None, None, workdir, whole=config)
    try:
        backend.start()
    except BrokerError:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    return BrokerHandle("mosquitto", host, port, backend, workdir, tls)


def start_broker(
    kind: BrokerKind = "auto",
    port: int = 0,
    auth: BrokerAuth | None = None,
    host: str = "127.0.0.1",
    tls: BrokerTLS | None = None,
    extra: str = "",
) -> BrokerHandle:
    """Start a broker and wait until it accepts connections.

    ``kind="auto"`` picks mosquitto when installed, else amqtt. ``port=0`` picks a free port.
    ``auth`` and ``tls`` need mosquitto: the embedded amqtt broker is for a local table or
    demo only. ``extra``: more mosquitto configuration, appended (a bridge section, say).
    """
    if kind not in ("auto", "mosquitto", "amqtt"):
        raise BrokerError(f"unknown broker kind {kind!r}: use 'auto', 'mosquitto' or 'amqtt'")
    if kind == "auto":
        kind = "mosquitto" if mosquitto_available() else "amqtt"
    if kind == "mosquitto" and not mosquitto_available():
        raise BrokerError(f"mosquitto is not installed at {MOSQUITTO}")
    if kind == "amqtt" and (auth is not None or tls is not None or extra):
        raise BrokerError("broker auth, ACLs and TLS need mosquitto; the embedded amqtt broker is open")
    attempts = 1 if port else 5
    for attempt in range(1, attempts + 1):
        chosen = port or free_port(host)
        workdir = Path(tempfile.mkdtemp(prefix="tricktable-broker-")) if kind == "mosquitto" else None
        backend: _Backend = (
            _Mosquitto(host, chosen, auth, tls, workdir, extra) if workdir is not None
            else _Amqtt(host, chosen)
        )
        try:
            backend.start()
        except BrokerError:
            if workdir is not None:
                shutil.rmtree(workdir, ignore_errors=True)
            if attempt == attempts:
                raise
            continue
        return BrokerHandle(kind, host, chosen, backend, workdir, tls is not None)
    raise BrokerError(f"no free port found for {kind} on {host}")


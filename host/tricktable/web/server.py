"""Run the scoreboard: an MQTT ``Feed``, the Starlette app and uvicorn, started and stopped as one.

``Scoreboard(broker_host, broker_port, ...)`` connects to the broker, binds the HTTP socket
(port 0 picks a free one; ``.url`` says where it is) and serves either in a background
thread (``start()``/``stop()``, for the demo and tests) or in the foreground until Ctrl-C
(``run()``, for ``tricktable web``). Stopping ends the open event streams first, so
nothing waits on a browser. A request must arrive whole within a deadline, and connections
are bounded (``web.slowclients``). It serves the director console the same way (``make_app``).

uvicorn is used through its programmatic API only (``Config``, ``Server(config).run``, and the
``started``/``should_exit`` flags its maintainers point to for a server run in a thread): it
always serves in a thread of its own, where it installs no signal handlers, and ``run()``
takes Ctrl-C and SIGTERM itself.
"""

from __future__ import annotations

import logging
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType

import uvicorn
from starlette.applications import Starlette

from tricktable import protocol
from tricktable.web.app import create_app
from tricktable.web.feed import Feed
from tricktable.web.journal_hands import HistoryFiles, JournalHands
from tricktable.web.night import NightFile
from tricktable.web.pairings import PairingStore
from tricktable.web.slowclients import server_options

log = logging.getLogger(__name__)


class Scoreboard:
    """The web scoreboard for one broker, on ``host:port``."""

    def __init__(self, broker_host: str, broker_port: int, *, host: str = "127.0.0.1",
                 port: int = 8080, prefix: str = protocol.DEFAULT_PREFIX,
                 admin_token: str | None = None, username: str | None = None,
                 password: str | None = None, tls: bool = False, ca_file: str | None = None,
                 journal: Path | None = None, night: Path | None = None,
                 histories: list[Path] | None = None, club_db: Path | None = None,
                 addresses: Path | None = None, pairings: Path | None = None,
                 https: tuple[Path, Path] | None = None, club_ca: Path | None = None,
                 standin: list[dict[str, str]] | None = None, registry: Path | None = None,
                 make_app: Callable[[Feed], Starlette] | None = None,
                 offline: bool = False) -> None:
        """``club_db``: the club database whose statistics the scoreboard serves too;
        ``addresses``: the file of addresses ``tricktable up`` shows on the TV;
        ``pairings``: the phones' pairings file (phones as seat readers, ``/pad``);
        ``https``: serve over TLS with this (certificate, key), PEM files (Web NFC needs a
        secure context); ``club_ca``: the club CA's certificate, for phones at ``/ca``;
        ``standin``: the tags the seat pages' "place card" stand-in offers (the demo);
        ``registry``: the host's deck registry, for tagging a deck by phone (``/enroll``);
        ``make_app``: serve this app of the feed instead of the scoreboard (the console);
        ``offline``: serve even when no broker answers (a night's pages from its files)."""
        self.offline = offline
        self.live = False  # the feed reached the broker
        self.without_broker = False  # none answered, and this serves without one
        self.feed = Feed(broker_host, broker_port, prefix, username=username, password=password,
                         tls=tls, ca_file=ca_file)
        if make_app is not None:
            self.app = make_app(self.feed)
        else:
            standings = NightFile(night) if night is not None else None
            hands = JournalHands(journal, standings.game_of if standings else None) \
                if journal is not None else None
            files = HistoryFiles(histories) if histories else None
            store = PairingStore(pairings) if pairings is not None else None
            self.app = create_app(self.feed, admin_token, hands, standings, files, club_db,
                                  addresses, store, club_ca, standin, registry)
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self._sock.bind((host, port))
        except OSError as exc:
            self._sock.close()
            raise OSError(f"cannot serve the scoreboard on {host}:{port}: {exc.strerror}") from exc
        self.host, self.port = self._sock.getsockname()[:2]
        self.https = https is not None
        self._exiting = threading.Event()
        config = uvicorn.Config(self.app, log_level="warning", timeout_graceful_shutdown=2,
                                lifespan="on", **server_options(),
                                ssl_certfile=str(https[0]) if https else None,
                                ssl_keyfile=str(https[1]) if https else None)
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None
        self._watcher = threading.Thread(target=self._close_streams_on_exit, daemon=True)

    @property
    def url(self) -> str:
        return f"{'https' if self.https else 'http'}://{self.host}:{self.port}"

    def start(self) -> None:
        """Serve in a background thread; return once the server accepts connections."""
        self._start_feed()
        self._watcher.start()
        self._thread = threading.Thread(target=self._serve, name="scoreboard", daemon=True)
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the scoreboard stopped while starting; see the log above")
            self._thread.join(0.02)

    def stop(self) -> None:
        self._exiting.set()
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)
        if self.live:
            self.feed.stop()

    def run(self) -> None:
        """Serve until Ctrl-C or SIGTERM (or until the server ends), then stop as ``stop()``
        does; the signal then takes its usual course (Ctrl-C: KeyboardInterrupt), as under
        uvicorn's own handlers."""
        signalled: list[int] = []

        def on_signal(sig: int, _frame: FrameType | None) -> None:
            signalled.append(sig)
            self._exiting.set()

        previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            self.start()
            self._exiting.wait()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self.stop()
        if signalled:
            signal.raise_signal(signalled[0])

    def _start_feed(self) -> None:
        if self.live or self.without_broker:  # connect() then start(): tried once, said once
            return
        try:
            self.feed.start()
            self.live = True
        except ConnectionError as exc:
            if self.offline:  # the files still have the night and its hands
                log.warning("serving without a broker: %s", exc)
                self.without_broker = True
                return
            self._sock.close()
            raise

    def connect(self) -> bool:
        """Reach the broker now (``ConnectionError`` unless ``offline``); True when it
        answered, False when serving without it."""
        self._start_feed()
        return self.live

    def _serve(self) -> None:
        try:
            self._server.run(sockets=[self._sock])
        finally:
            self._exiting.set()  # run() waits for this when the server ends by itself

    def _close_streams_on_exit(self) -> None:
        self._exiting.wait()
        hub = getattr(self.app.state, "hub", None)
        if hub is None:  # an app without event streams
            return
        loop = hub.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(hub.close_streams)

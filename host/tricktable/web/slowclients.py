"""The web server's HTTP protocol with a deadline for each request: a client that sends a
request's head or body more slowly than ``REQUEST_TIMEOUT_S`` allows is cut off, so that
half-sent requests cannot hold the scoreboard's or the console's connections for ever.

uvicorn times out only an idle keep-alive connection (``timeout_keep_alive``), and only after
a first answer: a request whose head never ends, or whose body stops half-way, is waited on
without end. ``TimedH11Protocol`` is uvicorn's h11 protocol with one more timer, armed at a
connection's first byte and at the first byte of each request after it, disarmed once the
request's body is whole (the app then answers; long answers such as event streams are not
timed), and on expiry the connection is closed. ``server_options()`` gives the uvicorn
settings that go with it: the protocol, the keep-alive timeout and a bound on connections.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT_S = 10.0  # a request's head and body must arrive within this
KEEP_ALIVE_S = 5  # an idle connection between requests (uvicorn's own timer)
MAX_CONNECTIONS = 200  # beyond this, uvicorn answers 503 at once


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request (see the module)."""

    request_timeout = REQUEST_TIMEOUT_S
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._between_requests() and self._deadline is None:
            self._arm()  # the first byte of the next request on a kept-alive connection
        super().data_received(data)
        if self.cycle is not None and not self.cycle.more_body:
            self._disarm()  # whole: the app answers it

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _between_requests(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def server_options() -> dict[str, Any]:
    """uvicorn.Config's settings for a request deadline and bounded connections."""
    return {"http": TimedH11Protocol, "timeout_keep_alive": KEEP_ALIVE_S,
            "limit_concurrency": MAX_CONNECTIONS}

"""Hidden players stay "Guest" on every public answer of the web app.

``PublicNames(ask)`` reads the club database (``ask`` runs a question on a read-only
``Stats``, ``web.stats.ClubReader``), at most once every ``REFRESH_SECONDS``: ``links`` maps
each name a visible player was known by (casefolded, as ``players.name_key`` keeps it) to
their public id (their current name's key: ids that count players would tell how many are
hidden), for the pages to link names to player pages; ``pattern`` matches every name a hidden
player was known by. ``Scrub(app, names)`` is the ASGI middleware that replaces those names
with "Guest" in every JSON answer, event stream and CSV file the app sends (live table views,
standings, results, statistics, replayed hands alike), so no page has to remember to.
The season report (HTML) scrubs itself with ``PublicNames.scrub``. ``NO_CLUB`` answers
``/api/players/names`` on a server without a club database: no names, ``"club": false``.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tricktable.players import GUEST
from tricktable.players.roster import name_key

NO_CLUB = Route("/api/players/names", lambda _r: JSONResponse({"players": {}, "club": False}))
"""The player names of a server without a club database: none, so the pages link nobody."""

REFRESH_SECONDS = 1.0
SCRUBBED_TYPES = ("application/json", "text/event-stream", "text/csv")

__all__ = ["PublicNames", "Scrub", "NO_CLUB"]


class PublicNames:
    """See the module docstring."""

    def __init__(self, ask: Callable[[Callable[[Any], Any]], Any]) -> None:
        self._ask = ask
        self._lock = threading.Lock()
        self._read_at = float("-inf")
        self._links: dict[str, str] = {}
        self._pattern: re.Pattern[str] | None = None

    def _refresh(self) -> None:
        with self._lock:
            if time.monotonic() - self._read_at < REFRESH_SECONDS:
                return
            rows = self._ask(lambda stats: stats.db.query(
                "SELECT n.key, n.name, p.name, p.hidden, p.merged_into FROM names n "
                "JOIN players p ON p.id = n.player"))
            hidden = sorted({name for _key, name, _pid, secret, _merged in rows if secret},
                            key=len, reverse=True)
            self._links = {key: name_key(current) for key, _name, current, secret, merged
                           in rows if not secret and merged is None}
            self._pattern = re.compile(r"\b(" + "|".join(map(re.escape, hidden)) + r")\b",
                                       re.IGNORECASE) if hidden else None
            self._read_at = time.monotonic()

    @property
    def links(self) -> dict[str, str]:
        self._refresh()
        return self._links

    @property
    def pattern(self) -> re.Pattern[str] | None:
        self._refresh()
        return self._pattern

    def hidden(self, name: str) -> bool:
        """True when ``name`` is a name a hidden player was known by."""
        pattern = self.pattern
        return pattern is not None and pattern.fullmatch(name.strip()) is not None

    def scrub(self, text: str) -> str:
        """``text`` with every hidden player's names replaced by "Guest"."""
        pattern = self.pattern
        return pattern.sub(GUEST, text) if pattern is not None else text


class Scrub:
    """ASGI middleware: ``PublicNames.scrub`` on the JSON, event-stream and CSV bodies."""

    def __init__(self, app: ASGIApp, names: PublicNames) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: list[Message] = []  # the start of a whole (sized) answer, then its body parts
        mode = "pass"

        def scrub(body: bytes) -> bytes:
            return self.names.scrub(body.decode("utf-8")).encode("utf-8")

        async def send_scrubbed(message: Message) -> None:
            nonlocal mode
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if not headers.get("content-type", "").startswith(SCRUBBED_TYPES):
                    await send(message)
                    return
                if "content-length" in headers:
                    mode = "whole"
                    held.append(message)
                    return
                mode = "stream"
                await send(message)
                return
            if message["type"] != "http.response.body" or mode == "pass":
                await send(message)
                return
            if mode == "stream":
                await send({**message, "body": scrub(message.get("body", b""))})
                return
            held.append(message)
            if message.get("more_body", False):
                return
            start, *parts = held
            body = scrub(b"".join(part.get("body", b"") for part in parts))
            MutableHeaders(scope=start)["content-length"] = str(len(body))
            await send(start)
            await send({"type": "http.response.body", "body": body, "more_body": False})

        await self.app(scope, receive, send_scrubbed)

"""Server-sent events for the scoreboard: ``Hub`` fans the feed's changes (on the MQTT thread)
out to each open stream (``Subscriber``) on the event loop, and re-reads the night file when it
changes. ``/api/stream`` (event ``table``: a table's summary, for the club page),
``/api/stream?table=T`` (event ``view``: the whole table view) and, with a club night,
event ``standings`` (``?only=standings``: the standings alone). Each stream coalesces: a slow
client gets the newest view, never a backlog.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tricktable.web.feed import Feed
from tricktable.web.night import NightFile
from tricktable.web.responses import error, event_stream

KEEPALIVE_SECONDS = 15.0
NIGHT_POLL_SECONDS = 0.5


class Subscriber:
    """One SSE client: the set of tables changed since its last send, and whether the
    standings changed (for a client that follows them)."""

    def __init__(self, table: str | None, *, tables: bool = True,
                 standings: bool = False) -> None:
        self.table = table
        self.tables = tables
        self.standings = standings
        self.dirty: set[str] = set()
        self.standings_dirty = False
        self.wake = asyncio.Event()

    def mark(self, table: str | None) -> None:
        if self.tables and table is not None and self.table in (None, table):
            self.dirty.add(table)
            self.wake.set()

    def mark_standings(self) -> None:
        if self.standings:
            self.standings_dirty = True
            self.wake.set()


class Hub:
    """Fans changes from the MQTT thread out to the SSE clients on the event loop."""

    def __init__(self, feed: Feed, night: NightFile | None = None) -> None:
        self.feed = feed
        self.night = night
        self.subscribers: set[Subscriber] = set()
        self.closing = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None

    def attach(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.feed.add_listener(self._changed)

    def close_streams(self) -> None:
        """End every open event stream (the server is stopping)."""
        self.closing.set()
        for sub in self.subscribers:
            sub.wake.set()

    def detach(self) -> None:
        self.close_streams()
        self.feed.remove_listener(self._changed)

    def _changed(self, table: str | None) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        for sub in list(self.subscribers):
            loop.call_soon_threadsafe(sub.mark, table)

    async def watch_night(self) -> None:
        """Re-read the night file when it changes and tell the standings clients."""
        night = self.night
        if night is None:
            return
        while not self.closing.is_set():
            await asyncio.sleep(NIGHT_POLL_SECONDS)
            if night.refresh():
                for sub in list(self.subscribers):
                    sub.mark_standings()

    async def stream(self, sub: Subscriber) -> AsyncIterator[str]:
        self.subscribers.add(sub)
        try:
            yield "retry: 2000\n\n"
            for table in self._initial(sub):
                yield self._message(sub, table)
            if sub.standings:
                yield self._standings()
            while not self.closing.is_set():
                try:
                    await asyncio.wait_for(sub.wake.wait(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield ": keepalive\n\n"
                    continue
                sub.wake.clear()
                tables, sub.dirty = sorted(sub.dirty), set()
                for table in tables:
                    yield self._message(sub, table)
                if sub.standings_dirty:
                    sub.standings_dirty = False
                    yield self._standings()
        finally:
            self.subscribers.discard(sub)

    def _initial(self, sub: Subscriber) -> list[str]:
        if not sub.tables:
            return []
        with self.feed.lock:
            names = list(self.feed.club.tables)
        return [sub.table] if sub.table is not None else names

    def _message(self, sub: Subscriber, table: str) -> str:
        with self.feed.lock:
            club = self.feed.club
            if sub.table is None:
                view = club.tables[table].summary(club.boards) if table in club.tables else None
                kind = "table"
            else:
                view, kind = club.view(table), "view"
        data = json.dumps(view if view is not None else {"table": table, "missing": True},
                          ensure_ascii=False)
        return f"event: {kind}\ndata: {data}\n\n"

    def _standings(self) -> str:
        view = self.night.view() if self.night is not None else {"missing": True}
        return f"event: standings\ndata: {json.dumps(view, ensure_ascii=False)}\n\n"


def stream_routes(hub: Hub) -> list[Route]:
    """``/api/stream`` on ``hub``."""
    async def api_stream(request: Request) -> Response:
        only = request.query_params.get("only")
        if only not in (None, "standings"):
            return error(400, f"only=standings is the one filter; got only={only!r}")
        if only == "standings" and hub.night is None:
            return error(404, "no club night: start the scoreboard with --night PATH")
        table = request.query_params.get("table")
        sub = Subscriber(table, tables=only is None,
                         standings=hub.night is not None and table is None)
        return event_stream(hub.stream(sub))

    return [Route("/api/stream", api_stream)]

"""The scoreboard web app: Starlette routes, JSON API and server-sent events.

Pages (static HTML + one script, no build step): ``/`` the club (every table),
``/table/{table}`` one table live, ``/replay/{table}`` step through a recorded hand.
JSON: ``/api/club`` (every table's summary; ``broker``: the scoreboard reaches the broker now,
false when it serves a night from its files; ``host.running``: the tables' host has said it
is online on the broker and not gone since), ``/api/table/{table}``, ``/api/table/{table}/hands``,
``/api/table/{table}/hands/{game}/{hand}`` (a hand as ``history.replay`` shows it: the
hands, bidding, contract, tricks, revokes with their cards, the score), and
``POST /api/replay/file?name=N`` (a hand-history or EGN file's text in the body: its hands,
nothing stored). Hand-history files given with ``--history`` are replayed as the tables
named by their file names. Live: ``/api/stream`` (event ``table``: a
table's summary, for the club page) and ``/api/stream?table=T`` (event ``view``: the whole
table view). Each stream coalesces: a slow client gets the newest view, never a backlog.
With a club night file (``tricktable.web.night``): ``/standings`` (the night's standings,
large type, printable), ``/api/standings``, event ``standings`` on ``/api/stream`` and
``/api/stream?only=standings`` (standings alone); the file is re-read when it changes.
``/tv`` is the TV mode (tables, standings and find-your-seat, rotating; round clock; bell and
revoke banners); ``/seat`` a player's phone: type your name, see your table and seat, live. The end of the night (``/results``, scorecards, CSV) is ``web.results``.
With a club database (``club_db``): the club's statistics on the same app (``web.stats``:
``/leaderboard``, ``/player/{id}``, ``/season/{id}`` and its report), a night's recorded hands
on the one replay page as ``/replay/{night}~{table}``, and every JSON answer, event stream and
CSV file with hidden players' names as "Guest" (``web.privacy``).
Every answer carries the security headers of ``tricktable.web.guard`` (a Content-Security-
Policy, no framing); an upload is refused at its first byte past the limit.
Admin: ``POST /api/table/{table}/control`` with ``Authorization: Bearer TOKEN`` and JSON
``{"cmd": "new_game" | "undo" | "void_hand"}``; off (404) unless a token is configured.
The fleet, behind the same token: ``/fleet`` (every board's health and flags, from
``tricktable.fleet.health``), ``GET /api/fleet`` and ``POST /api/fleet/{board}/blink`` (its
pads blink blue with a chirp, to find it under a table): ``tricktable.web.fleet_routes``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from tricktable.history import HistoryError
from tricktable.web.feed import Feed
from tricktable.web.fleet_routes import fleet_routes
from tricktable.web.guard import SecurityHeaders, bearer_ok, read_limited
from tricktable.web.journal_hands import MAX_UPLOAD, HistoryFiles, JournalHands, file_hands
from tricktable.web.night import NightFile
from tricktable.web.privacy import Scrub
from tricktable.web.responses import STATIC, error, event_stream, page
from tricktable.web.results import results_routes
from tricktable.web.stats import StatsPages

ADMIN_COMMANDS = ("new_game", "undo", "void_hand")
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


def create_app(feed: Feed, admin_token: str | None = None,
               journal: JournalHands | None = None, night: NightFile | None = None,
               files: HistoryFiles | None = None, club_db: Path | None = None,
               addresses: Path | None = None) -> Starlette:
    """The scoreboard for a started ``Feed``; admin actions only when ``admin_token`` is set;
    recorded hands from ``journal`` when given, else from what the feed has seen, and from
    the hand-history ``files``; the club night's standings when ``night`` is given; the
    club's statistics (and their nights' hands) from the club database ``club_db``; the
    addresses and QR codes ``tricktable up`` writes, for the TV's panel, from ``addresses``."""
    hub = Hub(feed, night)
    club = StatsPages(club_db) if club_db is not None else None

    def night_hands(key: str) -> tuple[JournalHands, str] | None:
        return club.night_hands(key) if club is not None and "~" in key else None

    async def api_addresses(_request: Request) -> Response:
        try:
            text = await asyncio.to_thread(addresses.read_text) if addresses else "[]"
        except OSError:
            text = "[]"
        return Response(text, media_type="application/json")

    async def api_club(_request: Request) -> Response:
        with feed.lock:
            host = feed.club.host
            return JSONResponse({"tables": feed.club.summary(), "admin": admin_token is not None,
                                 "broker": feed.connected,
                                 "host": {"running": host is not None and host.online}})

    async def api_table(request: Request) -> Response:
        table = request.path_params["table"]
        with feed.lock:
            view = feed.club.view(table)
        if view is None:
            return error(404, f"no table {table!r} has reported yet")
        return JSONResponse(dict(view, admin=admin_token is not None))

    async def api_hands(request: Request) -> Response:
        table = request.path_params["table"]
        if (recorded := await asyncio.to_thread(night_hands, table)) is not None:
            hands, name = recorded
            return JSONResponse({"table": table,
                                 "hands": await asyncio.to_thread(hands.hands, name)})
        if files is not None and table in files:
            return JSONResponse({"hands": await asyncio.to_thread(files.hands, table)})
        if journal is not None:
            return JSONResponse({"hands": await asyncio.to_thread(journal.hands, table)})
        with feed.lock:
            return JSONResponse({"hands": feed.club.hands(table)})

    async def api_hand(request: Request) -> Response:
        p = request.path_params
        if (recorded := await asyncio.to_thread(night_hands, p["table"])) is not None:
            hands, name = recorded
            hand = await asyncio.to_thread(hands.hand, name, p["game"], p["hand"])
        elif files is not None and p["table"] in files:
            hand = await asyncio.to_thread(files.hand, p["table"], p["game"], p["hand"])
        elif journal is not None:
            hand = await asyncio.to_thread(journal.hand, p["table"], p["game"], p["hand"])
        else:
            with feed.lock:
                hand = feed.club.hand(p["table"], p["game"], p["hand"])
        if hand is None:
            return error(404, f"table {p['table']!r} has no game {p['game']} hand {p['hand']}")
        return JSONResponse(hand)

    async def api_replay_file(request: Request) -> Response:
        name = request.query_params.get("name") or "upload"
        body = await read_limited(request, MAX_UPLOAD)
        if body is None:
            return error(413, f"{name}: larger than {MAX_UPLOAD} bytes")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return error(400, f"{name}: not UTF-8 text")
        try:
            hands = await asyncio.to_thread(file_hands, text, name)
        except HistoryError as exc:
            return error(400, str(exc))
        return JSONResponse({"name": name, "hands": hands})

    async def api_standings(_request: Request) -> Response:
        if night is None:
            return error(404, "no club night: start the scoreboard with --night PATH")
        return JSONResponse(night.view())

    async def api_stream(request: Request) -> Response:
        only = request.query_params.get("only")
        if only not in (None, "standings"):
            return error(400, f"only=standings is the one filter; got only={only!r}")
        if only == "standings" and night is None:
            return error(404, "no club night: start the scoreboard with --night PATH")
        table = request.query_params.get("table")
        sub = Subscriber(table, tables=only is None,
                         standings=night is not None and table is None)
        return event_stream(hub.stream(sub))

    def refused(request: Request) -> Response | None:
        """Why an admin call is refused (no admin token configured, or not this one), or None."""
        if admin_token is None:
            return error(404, "admin actions are off: start the scoreboard with an admin token")
        if not bearer_ok(request, admin_token):
            return error(403, "admin token missing or wrong")
        return None

    async def api_control(request: Request) -> Response:
        if (refusal := refused(request)) is not None:
            return refusal
        try:
            body = await request.json()
        except ValueError:
            return error(400, "body must be JSON: {\"cmd\": ...}")
        cmd = body.get("cmd") if isinstance(body, dict) else None
        if cmd not in ADMIN_COMMANDS:
            return error(400, f"cmd must be one of {', '.join(ADMIN_COMMANDS)}; got {cmd!r}")
        table = request.path_params["table"]
        with feed.lock:
            known = table in feed.club.tables
        if not known:
            return error(404, f"no table {table!r} has reported yet")
        await asyncio.to_thread(feed.publish_control, table, cmd, {})
        return JSONResponse({"ok": True, "table": table, "cmd": cmd})

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        hub.attach()
        watcher = asyncio.create_task(hub.watch_night())
        try:
            yield
        finally:
            hub.detach()
            watcher.cancel()

    routes: list[BaseRoute] = [
        Route("/", page("club.html")),
        Route("/table/{table}", page("table.html")),
        Route("/replay/{table}", page("replay.html")),
        Route("/standings", page("standings.html")),
        Route("/tv", page("tv.html")),
        Route("/seat", page("seat.html")),
        *results_routes(night, page, club.names.hidden if club is not None else None),
        Route("/api/club", api_club),
        Route("/api/addresses", api_addresses),
        Route("/api/standings", api_standings),
        Route("/api/stream", api_stream),
        Route("/api/table/{table}", api_table),
        Route("/api/table/{table}/hands", api_hands),
        Route("/api/table/{table}/hands/{game:int}/{hand:int}", api_hand),
        Route("/api/table/{table}/control", api_control, methods=["POST"]),
        *fleet_routes(feed, refused),
        Route("/api/replay/file", api_replay_file, methods=["POST"]),
        *(club.routes(hub.closing) if club is not None else []),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders),
                  *([Middleware(Scrub, names=club.names)] if club is not None else [])]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.hub = hub
    return app

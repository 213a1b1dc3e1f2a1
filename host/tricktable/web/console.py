"""The director console: the club night's corrections, on its own address, behind the admin token.

``create_console(feed, token, night, journal, link)`` is a Starlette app served by
``tricktable console`` (its own port, apart from the public scoreboard). ``/`` is the page
(``static/console.html``; it shows nothing until the token is given); every API call needs
``Authorization: Bearer TOKEN``:

- ``GET /api/console``: the night as the director corrects it: each table of this game (its
  seats, hands, score, whether it closed after the bell, whether it is tied, its live phase
  from the feed, and the round's actions from the journal for a mis-scan), the finished games'
  hands, the bell, and the audit log (newest first), read from the night file that
  ``serve --night`` keeps.
- ``POST /api/console/command`` ``{"cmd", "args", "by"}``: one correction, sent to the night
  over MQTT (``console_link.NightLink``) and answered with the night's verdict: 200 and the
  audit entry, or 400 and the reason (nothing changed).

The page asks for a confirmation before each command. Imports ``club`` (store, movement,
errors), ``journal``, ``protocol``, ``tricktable.web.feed``, ``tricktable.web.console_link``
and ``tricktable.web.fleet_routes`` (the fleet page, ``/fleet``: find a board by blinking it).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tricktable.club.errors import ClubError
from tricktable.club.movement import SEATS
from tricktable.club.store import night_from_json
from tricktable.journal import Journal
from tricktable.protocol import ProtocolError
from tricktable.textfiles import TextFileError, read_text
from tricktable.web.console_link import NightLink
from tricktable.web.feed import Feed
from tricktable.web.fleet_routes import fleet_routes
from tricktable.web.guard import SecurityHeaders, bearer_ok
from tricktable.web.responses import STATIC, error, page


def night_console(data: dict[str, Any], journal: Journal | None,
                  phases: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What the console shows of a night file's data (see the module docstring)."""
    night = night_from_json(data)
    live = data.get("live") or {}
    director = data.get("director") or {}
    ids = live.get("tables") or [f"table {n}" for n in range(1, night.tables + 1)]
    closed = live.get("closed", {})
    tables = []
    for number, table in enumerate(ids, 1):
        score = night.table_score(number) if not night.finished else (0, 0)
        actions = []
        if journal is not None and table in live.get("games", {}):
            record = next((g for g in journal.games(table) if g.game == live["games"][table]),
                          None)
            actions = record.actions if record is not None else []
        tables.append({
            "table": table, "number": number,
            "seats": dict(zip(SEATS, night.seating[number - 1], strict=True)),
            "hands": [list(h) for h in night.hands[number - 1]], "score": list(score),
            "closed": table in closed, "tied": score[0] == score[1],
            "settled": director.get("decided", {}).get(table),
            "phase": phases.get(table, {}).get("phase"), "actions": actions})
    games = [{"number": g.number,
              "tables": [{"table": t, "hands": [list(h) for h in hands]}
                         for t, hands in zip(ids, g.hands, strict=True)]}
             for g in night.games]
    return {"round": min(night.round, night.options.rounds), "rounds": night.options.rounds,
            "finished": night.finished, "bell": bool(live.get("bell")),
            "early": bool(director.get("early")),
            "hands_per_round": night.options.hands_per_round, "hands_left": night.hands_left(),
            "tables": tables, "games": games,
            "audit": list(reversed(director.get("audit", [])))}


def create_console(feed: Feed, token: str, night: Path, journal: Path | None,
                   link: NightLink) -> Starlette:
    """The console for the night file ``night`` (and the host's ``journal``, read-only)."""
    if not token:
        raise ValueError("the director console needs an admin token")

    def authorised(request: Request) -> bool:
        return bearer_ok(request, token)

    def refused(request: Request) -> Response | None:
        return None if authorised(request) else error(403, "admin token missing or wrong")

    def read_night() -> dict[str, Any]:
        data = json.loads(read_text(night, "club night file"))
        with feed.lock:
            phases = {t["table"]: t for t in feed.club.summary()}
        if journal is None:
            return night_console(data, None, phases)
        opened = Journal(journal, readonly=True)
        try:
            return night_console(data, opened, phases)
        finally:
            opened.close()

    async def api_console(request: Request) -> Response:
        if not authorised(request):
            return error(403, "admin token missing or wrong")
        try:
            return JSONResponse(await asyncio.to_thread(read_night))
        except (TextFileError, ValueError, ClubError) as exc:
            return error(500, f"cannot read the night {night}: {exc}")

    async def api_command(request: Request) -> Response:
        if not authorised(request):
            return error(403, "admin token missing or wrong")
        try:
            body = await request.json()
        except ValueError:
            return error(400, "body must be JSON: {\"cmd\": ..., \"args\": {...}, \"by\": ...}")
        if not isinstance(body, dict) or not isinstance(body.get("args", {}), dict):
            return error(400, "body must be {\"cmd\": ..., \"args\": {...}, \"by\": ...}")
        try:
            answer = await asyncio.to_thread(link.send, body.get("cmd"), body.get("args", {}),
                                             body.get("by"))
        except ProtocolError as exc:
            return error(400, str(exc))
        except TimeoutError as exc:
            return error(504, str(exc))
        if not answer.ok:
            return error(400, answer.reason)
        return JSONResponse({"ok": True, "entry": answer.entry})

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(link.start)
        try:
            yield
        finally:
            await asyncio.to_thread(link.stop)

    routes = [
        Route("/", page("console.html")),
        Route("/api/console", api_console),
        Route("/api/console/command", api_command, methods=["POST"]),
        *fleet_routes(feed, refused),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SecurityHeaders)])

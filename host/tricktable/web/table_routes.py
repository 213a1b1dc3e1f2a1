"""The live tables' JSON: ``/api/club`` (every table's summary; ``broker``: the scoreboard
reaches the broker now, false when it serves a night from its files; ``host.running``: the
tables' host has said it is online on the broker and not gone since; ``host.club``: the club's
name, as the host last said it), ``/api/table/{table}`` (one
table's whole view) and, for the admin, ``POST /api/table/{table}/control`` with JSON
``{"cmd": "new_game" | "undo" | "void_hand"}`` (published to the table's host).
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tricktable.web.feed import Feed
from tricktable.web.guard import admin_only
from tricktable.web.responses import error

ADMIN_COMMANDS = ("new_game", "undo", "void_hand")


def table_routes(feed: Feed) -> list[Route]:
    async def api_club(request: Request) -> Response:
        with feed.lock:
            host = feed.club.host
            return JSONResponse({"tables": feed.club.summary(), "admin": request.user.admin_on,
                                 "broker": feed.connected,
                                 "host": {"running": host is not None and host.online,
                                          "club": host.club if host is not None else ""}})

    async def api_table(request: Request) -> Response:
        table = request.path_params["table"]
        with feed.lock:
            view = feed.club.view(table)
        if view is None:
            return error(404, f"no table {table!r} has reported yet")
        return JSONResponse(dict(view, admin=request.user.admin_on))

    @admin_only
    async def api_control(request: Request) -> Response:
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

    return [Route("/api/club", api_club), Route("/api/table/{table}", api_table),
            Route("/api/table/{table}/control", api_control, methods=["POST"])]

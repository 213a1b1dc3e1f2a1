"""The fleet page's routes, served by the scoreboard and by the director console alike.

``fleet_routes(feed)``: ``/fleet`` (static/fleet.html), ``GET /api/fleet`` (every
board's health and flags, ``tricktable.fleet.health`` through the feed's model) and
``POST /api/fleet/{board}/blink`` (the board's pads blink blue, with a chirp, to find it),
the API for the admin alone (``web.guard.admin_only``).
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tricktable.web.feed import Feed
from tricktable.web.guard import admin_only
from tricktable.web.responses import error, page


def fleet_routes(feed: Feed) -> list[Route]:
    @admin_only
    async def api_fleet(request: Request) -> Response:
        with feed.lock:
            return JSONResponse({"boards": feed.club.fleet.rows()})

    @admin_only
    async def api_blink(request: Request) -> Response:
        board = request.path_params["board"]
        with feed.lock:
            row = next((r for r in feed.club.fleet.rows() if r["board"] == board), None)
        if row is None:
            return error(404, f"no board {board!r} has reported yet")
        pads = max(len(row["reader_errors"]), row["readers"] or 0, 1)
        await asyncio.to_thread(feed.blink, board, pads)
        return JSONResponse({"ok": True, "board": board, "pads": pads})

    return [Route("/fleet", page("fleet.html")), Route("/api/fleet", api_fleet),
            Route("/api/fleet/{board}/blink", api_blink, methods=["POST"])]

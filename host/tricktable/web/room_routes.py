"""The room's pages (static HTML + one script each, no build step) and what they read besides
the tables: ``/`` the club (every table), ``/table/{table}`` one table live, ``/replay/{table}``
a recorded hand step by step, ``/standings`` (large type, printable), ``/tv`` (tables,
standings and find-your-seat, rotating; round clock; bell and revoke banners), ``/seat`` (a
player's phone: type your name, see your table and seat, live); ``/api/standings`` (the club
night's standings, ``web.night``), ``/api/addresses`` (the addresses and QR codes ``tricktable
up`` writes, for the TV's panel); ``/ca`` and ``/ca.crt`` (the club CA and the steps to trust
it, for phones on the pages over HTTPS with the club's own certificate).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tricktable.web.night import NightFile
from tricktable.web.responses import error, page

PAGES = {"/": "club.html", "/table/{table}": "table.html", "/replay/{table}": "replay.html",
         "/standings": "standings.html", "/tv": "tv.html", "/seat": "seat.html", "/ca": "ca.html"}


def room_routes(night: NightFile | None, addresses: Path | None,
                club_ca: Path | None) -> list[Route]:
    async def api_addresses(_request: Request) -> Response:
        try:
            text = await asyncio.to_thread(addresses.read_text) if addresses else "[]"
        except OSError:
            text = "[]"
        return Response(text, media_type="application/json")

    async def ca_cert(_request: Request) -> Response:
        if club_ca is None:
            return error(404, "this scoreboard has no club CA to offer: its certificate is "
                              "one the phone trusts already")
        body = await asyncio.to_thread(club_ca.read_bytes)
        return Response(body, media_type="application/x-x509-ca-cert",
                        headers={"Content-Disposition": 'attachment; filename="club-ca.crt"'})

    async def api_standings(_request: Request) -> Response:
        if night is None:
            return error(404, "no club night: start the scoreboard with --night PATH")
        return JSONResponse(night.view())

    return [*(Route(path, page(name)) for path, name in PAGES.items()),
            Route("/ca.crt", ca_cert), Route("/api/addresses", api_addresses),
            Route("/api/standings", api_standings)]

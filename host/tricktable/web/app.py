"""The scoreboard web app: the routes of each area of the web package put together, behind the
security headers (``web.guard``: a Content-Security-Policy, no framing) and the one admin check
(``web.guard.admin_auth``/``admin_only``: ``Authorization: Bearer TOKEN``; admin actions off,
404, unless a token is configured).

The areas: the room's pages (``web.room_routes``), the live tables (``web.table_routes``),
recorded hands and the replay (``web.replay_routes``), the event streams (``web.stream``), the
end of the night (``web.results``: ``/results``, scorecards, CSV), the club's statistics with a
club database (``web.stats``: ``/leaderboard``, ``/player/{id}``, ``/season/{id}``; a night's
recorded hands as ``/replay/{night}~{table}``; hidden players as "Guest" everywhere,
``web.privacy``), phones as seat readers (``web.pad_routes``: ``/pad``, and pairing by QR code
for the admin; ``web.enroll_routes``: tagging a deck by phone) and the fleet (``web.fleet_routes``:
``/fleet`` and its API, for the admin). docs/web.md describes every page.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from tricktable.web.enroll_routes import enroll_routes
from tricktable.web.feed import Feed
from tricktable.web.fleet_routes import fleet_routes
from tricktable.web.guard import SecurityHeaders, admin_auth
from tricktable.web.journal_hands import HistoryFiles, JournalHands
from tricktable.web.night import NightFile
from tricktable.web.pad_relay import PadRelay
from tricktable.web.pad_routes import pairing_routes, seat_routes
from tricktable.web.pairings import PairingStore
from tricktable.web.privacy import NO_CLUB, Scrub
from tricktable.web.replay_routes import replay_routes
from tricktable.web.responses import STATIC, page
from tricktable.web.results import results_routes
from tricktable.web.room_routes import room_routes
from tricktable.web.stats import StatsPages
from tricktable.web.stream import Hub, stream_routes
from tricktable.web.table_routes import table_routes


def create_app(feed: Feed, admin_token: str | None = None,
               journal: JournalHands | None = None, night: NightFile | None = None,
               files: HistoryFiles | None = None, club_db: Path | None = None,
               addresses: Path | None = None,
               pairings: PairingStore | None = None,
               club_ca: Path | None = None,
               standin: list[dict[str, str]] | None = None,
               registry: Path | None = None) -> Starlette:
    """The scoreboard for a started ``Feed``; admin actions only when ``admin_token`` is set;
    recorded hands from ``journal`` when given, else from what the feed has seen, and from
    the hand-history ``files``; the club night's standings when ``night`` is given; the
    club's statistics (and their nights' hands) from the club database ``club_db``; the
    addresses and QR codes ``tricktable up`` writes, for the TV's panel, from ``addresses``;
    phones as seat readers (``/pad``, and pairing behind the admin token) with ``pairings``;
    the club CA's certificate for phones to trust (``/ca`` the steps, ``/ca.crt``) with
    ``club_ca``; the tags of the seat pages' "place card" stand-in (the demo) with ``standin``;
    with the admin token and the host's deck ``registry``, tagging a deck by phone."""
    hub = Hub(feed, night)
    relay = PadRelay(feed) if pairings is not None else None
    club = StatsPages(club_db) if club_db is not None else None

    def night_hands(key: str) -> tuple[JournalHands, str] | None:
        return club.night_hands(key) if club is not None and "~" in key else None

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
        *room_routes(night, addresses, club_ca),
        *results_routes(night, page, club.names.hidden if club is not None else None),
        *table_routes(feed),
        *replay_routes(feed, journal, files, night_hands),
        *stream_routes(hub),
        *fleet_routes(feed),
        *seat_routes(relay, pairings, standin),
        *(enroll_routes(registry) if registry is not None and admin_token else []),
        *(pairing_routes(feed, pairings, lambda r: str(r.base_url).rstrip("/") + "/pad",
                         relay.offline if relay is not None else None)
          if pairings is not None else []),
        *(club.routes(hub.closing) if club is not None else [NO_CLUB]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders), admin_auth(admin_token),
                  *([Middleware(Scrub, names=club.names)] if club is not None else [])]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.hub = hub
    return app

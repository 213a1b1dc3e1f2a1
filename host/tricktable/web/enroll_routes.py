"""Enrollment by phone: tag a deck card by card with a phone's NFC (docs/phones.md,
"Tagging a deck with a phone"), behind the admin token.

``enroll_routes(registry)``: ``/enroll`` (static/enroll.html: Web NFC reads each
tag's UID), ``GET /api/enroll/{deck}`` (the deck's kind, how many cards have a tag, the next
card to tap), ``POST /api/enroll`` (``{"deck", "kind", "name"}``: a new deck, or the one
there to go on with) and ``POST /api/enroll/{deck}/tag`` (``{"uid"}``: the tag becomes the
next card, ``deckkit.enroll.enroll_uid``; refused with the reason, nothing changed). The
registry is the host's deck registry, opened per call.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tricktable.deckkit.decks import CARD_DECKS, Registry, RegistryError
from tricktable.deckkit.enroll import EnrollError, enroll_uid, missing
from tricktable.web.guard import admin_only
from tricktable.web.responses import error, page

UID = re.compile(r"^(?:[0-9a-f]{2}){4,10}$")
KINDS = (*CARD_DECKS, "tokens")


def _progress(registry: Registry, deck_id: int) -> dict[str, Any]:
    deck = registry.deck(deck_id)
    if deck is None:
        raise EnrollError(f"deck {deck_id} does not exist")
    slots = registry.slots(deck_id)
    left = missing(registry, deck_id)
    return {"deck": deck_id, "kind": deck.kind, "name": deck.name, "total": len(slots),
            "done": len(slots) - len(left), "next": left[0].name if left else None}


def enroll_routes(registry: Path) -> list[Route]:
    def opened(work: Callable[[Registry], Any]) -> Any:
        with Registry(registry) as reg:
            return work(reg)

    async def run(request: Request, work: Callable[[Registry], Any]) -> Response:
        try:
            return JSONResponse(await asyncio.to_thread(opened, work))
        except (EnrollError, RegistryError) as exc:
            return JSONResponse({"error": str(exc), "refused": True}, status_code=409)

    async def body(request: Request) -> dict[str, Any]:
        try:
            got = await request.json()
        except ValueError:
            return {}
        return got if isinstance(got, dict) else {}

    @admin_only
    async def api_deck(request: Request) -> Response:
        deck = request.path_params["deck"]
        return await run(request, lambda reg: _progress(reg, deck))

    @admin_only
    async def api_start(request: Request) -> Response:
        got = await body(request)
        deck, kind, name = got.get("deck"), got.get("kind"), got.get("name", "")
        if not isinstance(deck, int) or isinstance(deck, bool) or not 1 <= deck <= 65535:
            return error(400, "\"deck\" must be a deck number, 1 to 65535")
        if kind not in KINDS:
            return error(400, f"\"kind\" must be one of {', '.join(KINDS)}")

        def start(reg: Registry) -> dict[str, Any]:
            found = reg.deck(deck)
            if found is None:
                reg.create_deck(deck, kind, str(name)[:60])
            elif found.kind != kind:
                raise EnrollError(f"deck {deck} is a {found.kind} deck, not {kind}")
            return _progress(reg, deck)

        return await run(request, start)

    @admin_only
    async def api_tag(request: Request) -> Response:
        deck = request.path_params["deck"]
        uid = str((await body(request)).get("uid", "")).replace(":", "").lower()
        if not UID.match(uid):
            return error(400, "\"uid\" must be the tag's UID in hex, 4 to 10 bytes")

        def tag(reg: Registry) -> dict[str, Any]:
            slot = enroll_uid(reg, deck, bytes.fromhex(uid))
            return dict(_progress(reg, deck), enrolled=slot.name, uid=uid)

        return await run(request, tag)

    return [Route("/enroll", page("enroll.html")),
            Route("/api/enroll", api_start, methods=["POST"]),
            Route("/api/enroll/{deck:int}", api_deck),
            Route("/api/enroll/{deck:int}/tag", api_tag, methods=["POST"])]

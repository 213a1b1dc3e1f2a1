"""Recorded hands for the replay page: ``/api/table/{table}/hands`` and
``/api/table/{table}/hands/{game}/{hand}`` (a hand as ``history.replay`` shows it: the hands,
bidding, contract, tricks, revokes with their cards, the score), from a club database's night
(``{night}~{table}``), the hand-history files given with ``--history`` (named by their file
names), the host's journal, or else what the feed has seen; and ``POST /api/replay/file?name=N``
(a hand-history or EGN file's text in the body: its hands, nothing stored; refused at its first
byte past the limit).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tricktable.history import HistoryError
from tricktable.web.feed import Feed
from tricktable.web.guard import read_limited
from tricktable.web.journal_hands import MAX_UPLOAD, HistoryFiles, JournalHands, file_hands
from tricktable.web.responses import error

NightHands = Callable[[str], "tuple[JournalHands, str] | None"]


def replay_routes(feed: Feed, journal: JournalHands | None, files: HistoryFiles | None,
                  night_hands: NightHands) -> list[Route]:
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

    return [Route("/api/table/{table}/hands", api_hands),
            Route("/api/table/{table}/hands/{game:int}/{hand:int}", api_hand),
            Route("/api/replay/file", api_replay_file, methods=["POST"])]

"""The director console: the club night's corrections, on its own address, behind the admin token.

``create_console(feed, token, night, journal, link)`` is a Starlette app served by
``tricktable console`` (its own port, apart from the public scoreboard). ``/`` is the page
(``static/console.html``; it shows nothing until the token is given); every API call needs
``Authorization: Bearer TOKEN``:

- ``GET /api/console``: the night as the director corrects it: each table of this game (its
  seats, hands, score, whether it closed after the bell, whether it is tied, its live phase
  from the feed (and in words), and the round's actions from the journal, each with its
  words, for a mis-scan), the finished games' hands, the bell (and when it rang), and the
  audit log (newest first, refusals too), read from the night file that
  ``serve --night`` keeps; ``host_running``: the tables' host has said it runs (the page
  says so when it does not); ``phones``: the console serves the phones page (its link shows). Once the night is over, each table as its last game left it.
- ``GET /api/console/choices/{table}/{at}``: what the ``at``-th action of the table's game
  this round could have been (same kind, same seat, allowed then), in words: the console's
  card and bid picker.
- ``GET /api/players/names``: ``privacy.NO_CLUB`` (the console links no player pages; ``app.js`` asks).
- ``POST /api/console/command`` ``{"cmd", "args", "by"}``: one correction, sent to the night
  over MQTT (``console_link.NightLink``) and answered with the night's verdict: 200 and the
  audit entry, or 400 and the reason (nothing changed).

The page asks for a confirmation before each command.
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
from tricktable.club.movement import SEATS, seat_labels
from tricktable.club.store import night_from_json
from tricktable.engine import Engine
from tricktable.engine.actions import action_from_json
from tricktable.history.words import action_words, phase_words
from tricktable.protocol import ProtocolError
from tricktable.serve.journal import GameRecord, Journal
from tricktable.textfiles import TextFileError, read_text
from tricktable.web.console_link import NightLink
from tricktable.web.feed import Feed
from tricktable.web.fleet_routes import fleet_routes
from tricktable.web.guard import SecurityHeaders, admin_auth, admin_only
from tricktable.web.pad_routes import pairing_routes
from tricktable.web.pairings import PairingStore
from tricktable.web.privacy import NO_CLUB
from tricktable.web.responses import STATIC, error, page


def game_in_play(journal: Journal, table: str, first: int) -> GameRecord | None:
    """The table's game in play this round: its first (journal game ``first``), or the
    newest fresh game after it (a game over before the bell: ``club.live``)."""
    return next((g for g in reversed(journal.games(table)) if g.game >= first), None)


def night_console(data: dict[str, Any], journal: Journal | None,
                  phases: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What the console shows of a night file's data (see the module docstring)."""
    night = night_from_json(data)
    live = data.get("live") or {}
    director = data.get("director") or {}
    ids = live.get("tables") or [f"table {n}" for n in range(1, night.tables + 1)]
    closed = live.get("closed", {})
    tables = []
    last = night.games[-1] if night.finished and night.games else None
    for number, table in enumerate(ids, 1):
        # once the night is over, each table as its last game left it: no game in play
        hands = list(last.hands[number - 1]) if last else night.hands[number - 1]
        seating = last.seating[number - 1] if last else night.seating[number - 1]
        score = (sum(h[0] for h in hands), sum(h[1] for h in hands)) if last \
            else night.table_score(number)
        actions, players = [], list(seating)
        if journal is not None and table in live.get("games", {}) and not last:
            record = game_in_play(journal, table, live["games"][table])
            actions = record.actions if record is not None else []
            players = record.setup.get("players") or players if record is not None else players
        phase = phases.get(table, {}).get("phase")
        tables.append({
            "table": table, "number": number,
            "seats": dict(zip(SEATS, seating, strict=True)),
            "hands": [] if last else [list(h) for h in hands], "score": list(score),
            "closed": table in closed, "tied": score[0] == score[1],
            "settled": director.get("decided", {}).get(table),
            "phase": phase, "phase_words": "the night is over" if last else
            phase_words(phase) if phase else "no game yet",
            "hand_number": phases.get(table, {}).get("hand_number"),
            "actions": [{**a, "words": action_words(a, seat_labels(players))}
                        for a in actions]})
    games = [{"number": g.number,
              "tables": [{"table": t, "hands": [list(h) for h in hands]}
                         for t, hands in zip(ids, g.hands, strict=True)]}
             for g in night.games]
    return {"round": min(night.round, night.last_round), "rounds": night.last_round,
            "finished": night.finished, "bell": bool(live.get("bell")),
            "early": bool(director.get("early")), "bell_at": live.get("bell_at"),
            "last_early": bool(night.games and night.games[-1].early),
            "hands_per_round": night.options.hands_per_round, "hands_left": night.hands_left(),
            "tables": tables, "games": games,
            "audit": list(reversed(director.get("audit", [])))}


FAMILIES = ({"play"}, {"bid", "pass"}, {"trump"}, {"scan"}, {"turn_up"}, {"exchange"},
            {"sit_out"}, {"call"})  # what a mis-scanned action may be put right as


def choices(record: GameRecord, at: int) -> list[dict[str, Any]]:
    """What the ``at``-th action of a journaled game could have been instead: the actions of
    the same kind the rules allowed its seat then (a card it held, a bid it could make), each
    with its words, for the console's picker."""
    if not 1 <= at <= len(record.actions):
        raise ValueError(f"the game has {len(record.actions)} actions; not {at}")
    done = record.actions[at - 1]
    family = next((f for f in FAMILIES if done["type"] in f), {done["type"]})
    engine = Engine.replay(record.setup, [action_from_json(a) for a in record.actions[:at - 1]])
    seats = seat_labels(record.setup.get("players") or [])
    out = []
    for action in engine.legal_actions():
        found = action.to_json()
        if found["type"] in family and found["seat"] == done["seat"] and found not in out:
            out.append(found)
    return [{"action": a, "words": action_words(a, seats), "now": a == done} for a in out]


def create_console(feed: Feed, token: str, night: Path, journal: Path | None,
                   link: NightLink, pairings: PairingStore | None = None,
                   pad_url: str | None = None) -> Starlette:
    """The console for the night file ``night`` (and the host's ``journal``, read-only);
    with ``pairings``, the phones page (``/phones``: a QR code per phone seat, opening the
    public scoreboard's seat page at ``pad_url``)."""
    if not token:
        raise ValueError("the director console needs an admin token")

    def read_night() -> dict[str, Any]:
        data = json.loads(read_text(night, "club night file"))
        with feed.lock:
            phases = {t["table"]: t for t in feed.club.summary()}
            host = feed.club.host
        running = {"host_running": host is not None and host.online,
                   "phones": pairings is not None}
        if journal is None:
            return night_console(data, None, phases) | running
        opened = Journal(journal, readonly=True)
        try:
            return night_console(data, opened, phases) | running
        finally:
            opened.close()

    @admin_only
    async def api_console(request: Request) -> Response:
        try:
            return JSONResponse(await asyncio.to_thread(read_night))
        except (TextFileError, ValueError, ClubError) as exc:
            return error(500, f"cannot read the night {night}: {exc}")

    @admin_only
    async def api_command(request: Request) -> Response:
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

    def read_choices(table: str, at: int) -> list[dict[str, Any]]:
        data = json.loads(read_text(night, "club night file"))
        game = (data.get("live") or {}).get("games", {}).get(table)
        if journal is None or game is None:
            raise ValueError(f"no game of this round at table {table!r}")
        opened = Journal(journal, readonly=True)
        try:
            record = game_in_play(opened, table, game)
        finally:
            opened.close()
        if record is None:
            raise ValueError(f"table {table} has not begun this round's game")
        return choices(record, at)

    @admin_only
    async def api_choices(request: Request) -> Response:
        try:
            found = await asyncio.to_thread(read_choices, request.path_params["table"],
                                            request.path_params["at"])
        except (TextFileError, ValueError, ClubError) as exc:
            return error(400, str(exc))
        return JSONResponse({"choices": found})

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
        Route("/api/console/choices/{table}/{at:int}", api_choices),
        NO_CLUB,
        *fleet_routes(feed),
        *(pairing_routes(feed, pairings, lambda _r: pad_url or "/pad")
          if pairings is not None else []),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(SecurityHeaders), admin_auth(token)])

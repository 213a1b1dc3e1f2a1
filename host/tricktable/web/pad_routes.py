"""The routes of phones as seat readers: the seat page's API and the director's pairing API.

``seat_routes(relay, store)`` (the public scoreboard): ``/pad`` (static/pad.html), and, for
a phone holding a pairing's credential (``Authorization: Bearer CREDENTIAL``, its device key
in the body): ``POST /api/pad/claim`` (bind the pairing to this phone; a second phone is
refused naming the first), ``POST /api/pad/play`` (``{"device","seq","t","uid","kept"}``: relayed
to the host as the seat reader's pad event, answered with the host's ack and verdict,
``web.pad_relay``) and ``POST /api/pad/status`` (battery and network, for the fleet page).
A refused pairing answers 403 with the reason in words; phones off (no pairings file) 404.
``GET /api/pad/standin``: in the demo only, the tags a desktop browser's labelled "place
card" stand-in offers in place of an NFC field.

``pairing_routes(feed, store, pad_url)`` (the console, and the scoreboard with an
admin token; the API for the admin alone, ``web.guard.admin_only``): ``/phones`` (static/phones.html: a QR
code per seat), ``GET /api/phones`` (every phone seat the host serves, from the readers'
retained config and status, each with its live pairing),
``POST /api/phones/pair`` (``{"table","seat","by"}``: a new pairing, its seat page address
with the credential after ``#``, and that address's QR code as an SVG data URI) and
``POST /api/phones/{id}/revoke``. ``pad_url(request)`` is the public seat page's address.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tricktable.protocol import ProtocolError, natural_key, phone_reader_seat, valid_id
from tricktable.web.feed import Feed
from tricktable.web.guard import admin_only
from tricktable.web.pad_relay import NotSeated, PadRelay
from tricktable.web.pairings import (
    Pairing,
    PairingRefused,
    PairingStore,
    seat_words,
    table_words,
)
from tricktable.web.responses import error, page

DEVICE = re.compile(r"^[0-9a-f]{32}$")  # the page's random device key, 128 bits in hex


def device_label(user_agent: str) -> str:
    """A phone as a director recognises it: "Android 14 · Chrome 120"."""
    system = next((m.group(0) for pattern in (r"Android [\d.]+", r"iPhone|iPad",
                                              r"Windows|Mac OS X|Linux")
                   if (m := re.search(pattern, user_agent))), "")
    browser = re.search(r"(Chrome|Firefox|Safari)/(\d+)", user_agent)
    parts = [system,
             f"{browser.group(1)} {browser.group(2)}" if browser else ""]
    return " · ".join(p for p in parts if p) or "a browser"


async def _body(request: Request) -> dict[str, Any] | None:
    try:
        body = await request.json()
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _credential(request: Request) -> str:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else ""


def seat_routes(relay: PadRelay | None, store: PairingStore | None,
                standin: list[dict[str, str]] | None = None) -> list[Route]:
    async def api_standin(_request: Request) -> Response:
        if standin is None:
            return error(404, "no stand-in here: a seat reads cards with the phone's NFC")
        return JSONResponse({"tags": standin})

    async def paired(request: Request, claim: bool = False) -> tuple[Pairing, dict] | Response:
        if store is None or relay is None:
            return error(404, "phones are off: the scoreboard was started without a pairings "
                              "file (--phones)")
        body = await _body(request)
        device = body.get("device") if body else None
        if not isinstance(device, str) or not DEVICE.match(device):
            return error(400, "body must be JSON with this phone's \"device\" key")
        try:
            if claim:
                label = device_label(request.headers.get("user-agent", ""))
                pairing = await asyncio.to_thread(store.claim, _credential(request), device,
                                                  label)
            else:
                pairing = await asyncio.to_thread(store.check, _credential(request), device)
        except PairingRefused as exc:
            return JSONResponse({"error": str(exc), "refused": True}, status_code=403)
        return pairing, body or {}

    async def api_claim(request: Request) -> Response:
        got = await paired(request, claim=True)
        if isinstance(got, Response):
            return got
        pairing, _ = got
        assert relay is not None
        try:
            relay.status(pairing, None, None, None)
        except NotSeated as exc:
            return JSONResponse({"error": str(exc), "refused": True}, status_code=409)
        return JSONResponse(dict(pairing.to_json(), phone=pairing.phone))

    async def api_play(request: Request) -> Response:
        got = await paired(request)
        if isinstance(got, Response):
            return got
        pairing, body = got
        seq, t, uid, kept = body.get("seq"), body.get("t", 0), body.get("uid"), \
            body.get("kept", False)
        if not isinstance(seq, int) or not isinstance(t, int) or not isinstance(uid, str) \
                or not isinstance(kept, bool):
            return error(400, "a play is {\"seq\": number, \"t\": ms, \"uid\": hex, "
                              "\"kept\": true when an earlier send got no answer}")
        assert relay is not None
        try:
            answer = await relay.play(pairing, seq, t, uid.replace(":", ""), kept)
        except NotSeated as exc:
            return JSONResponse({"error": str(exc), "refused": True}, status_code=409)
        except ProtocolError as exc:
            return error(400, f"not a play a reader could send: {exc}")
        return JSONResponse(answer)

    async def api_status(request: Request) -> Response:
        got = await paired(request)
        if isinstance(got, Response):
            return got
        pairing, body = got
        battery, charging, network = (body.get("battery"), body.get("charging"),
                                      body.get("network"))
        times = body.get("verdict_ms")
        times = [int(t) for t in times[-16:] if isinstance(t, int) and 0 <= t < 600_000] \
            if isinstance(times, list) else None
        assert relay is not None
        try:
            relay.status(pairing, battery if isinstance(battery, int | float) else None,
                         charging if isinstance(charging, bool) else None,
                         network[:16] if isinstance(network, str) else None, times)
        except NotSeated as exc:
            return JSONResponse({"error": str(exc), "refused": True}, status_code=409)
        return JSONResponse({"ok": True})

    return [Route("/pad", page("pad.html")),
            Route("/api/pad/claim", api_claim, methods=["POST"]),
            Route("/api/pad/play", api_play, methods=["POST"]),
            Route("/api/pad/status", api_status, methods=["POST"]),
            Route("/api/pad/standin", api_standin)]


def phone_seats(feed: Feed, live: list[Pairing]) -> list[dict[str, Any]]:
    """Every phone seat the host serves (a reader whose retained config the feed has seen),
    with its live pairing and the reader's last status, by table and seat."""
    by_seat = {(p.table, p.seat): p for p in live}
    seats = []
    with feed.lock:
        boards = {name: dict(info) for name, info in feed.club.boards.items()}
        statuses = {row["board"]: row for row in feed.club.fleet.rows()}
    for reader, info in boards.items():
        table = info.get("table")
        seat = phone_reader_seat(reader, table) if table is not None else None
        if table is None or seat is None:
            continue
        pairing = by_seat.get((table, seat))
        status = statuses.get(reader) or {}
        seats.append({"table": table, "seat": seat, "reader": reader,
                      "where": f"{seat_words(seat)} at {table_words(table)}",
                      "online": bool(status.get("online")), "battery": status.get("battery"),
                      "pairing": None if pairing is None else dict(
                          pairing.to_json(), phone=pairing.phone if pairing.device else None)})
    return sorted(seats, key=lambda s: (natural_key(s["table"]), s["seat"]))


def pairing_routes(feed: Feed, store: PairingStore,
                   pad_url: Callable[[Request], str],
                   on_revoke: Callable[[Pairing], None] | None = None) -> list[Route]:
    @admin_only
    async def api_list(request: Request) -> Response:
        live = await asyncio.to_thread(store.live)
        return JSONResponse({"seats": phone_seats(feed, live)})

    @admin_only
    async def api_pair(request: Request) -> Response:
        body = await _body(request) or {}
        table, seat, by = body.get("table"), body.get("seat"), body.get("by", "director")
        if not isinstance(table, str) or not valid_id(table):
            return error(400, "\"table\" must be a table id")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 7:
            return error(400, "\"seat\" must be a seat number, 0 (North) to 7")
        if not isinstance(by, str) or not 1 <= len(by) <= 32:
            return error(400, "\"by\" names the director (1-32 characters)")
        served = {(s["table"], s["seat"]) for s in phone_seats(feed, [])}
        if (table, seat) not in served:
            return JSONResponse({"error": f"{table_words(table)} has no phone seat "
                                          f"{seat_words(seat)}: give the table's 'phones' in "
                                          f"the club file (docs/phones.md)", "refused": True},
                                status_code=409)
        try:
            pairing = await asyncio.to_thread(store.pair, table, seat, by)
        except PairingRefused as exc:
            return JSONResponse({"error": str(exc), "refused": True}, status_code=409)
        url = f"{pad_url(request)}#pair={pairing.credential}"
        return JSONResponse(dict(pairing.to_json(), url=url,
                                 qr=segno.make(url, error="m").svg_data_uri(scale=5, border=2)))

    @admin_only
    async def api_revoke(request: Request) -> Response:
        try:
            pairing = await asyncio.to_thread(store.revoke, int(request.path_params["id"]))
        except KeyError as exc:
            return error(404, str(exc.args[0]))
        if on_revoke is not None:
            on_revoke(pairing)
        return JSONResponse(pairing.to_json())

    return [Route("/phones", page("phones.html")), Route("/api/phones", api_list),
            Route("/api/phones/pair", api_pair, methods=["POST"]),
            Route("/api/phones/{id:int}/revoke", api_revoke, methods=["POST"])]

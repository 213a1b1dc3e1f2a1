"""What every web app of tricktable (scoreboard, console) does to keep strangers out of its
pages and its memory.

``SecurityHeaders`` is ASGI middleware that puts on every answer a Content-Security-Policy
(scripts and everything else from the app itself only; no framing), ``X-Frame-Options: DENY``,
``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` and
``Cross-Origin-Opener-Policy: same-origin``. ``bearer_ok(request, token)`` checks an
``Authorization: Bearer TOKEN`` header (the scheme is required; compared in constant time).
``read_limited(request, limit)`` reads a request body and stops at the first byte past
``limit`` (None), so a huge upload costs no more memory than the limit.
"""

from __future__ import annotations

import hmac

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The pages load their scripts and styles from /static; the season report carries a small
# print stylesheet inline (web/stats.py), hence style-src 'unsafe-inline' (styles only).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
HEADERS = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}


class SecurityHeaders:
    """ASGI middleware: ``HEADERS`` on every HTTP answer (a header the app set is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


def bearer_ok(request: Request, token: str) -> bool:
    """True when the request carries ``Authorization: Bearer <token>``."""
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(),
                                                              token.encode())


async def read_limited(request: Request, limit: int) -> bytes | None:
    """The request's body, or None as soon as it is known to pass ``limit`` bytes (from its
    Content-Length, else while it streams in): the rest is never read into memory."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        parts.append(chunk)
    return b"".join(parts)

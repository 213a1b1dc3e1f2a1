"""What every web app of tricktable (scoreboard, console) does to keep strangers out of its
pages and its memory.

``SecurityHeaders`` is ASGI middleware that puts on every answer a Content-Security-Policy
(scripts and everything else from the app itself only; no framing), ``X-Frame-Options: DENY``,
``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` and
``Cross-Origin-Opener-Policy: same-origin``. ``bearer_ok(request, token)`` checks an
``Authorization: Bearer TOKEN`` header (the scheme is required; compared in constant time).
The admin check is done once for every app: ``admin_auth(token)`` is Starlette's
authentication middleware with the ``AdminToken`` backend (a request with the app's token has
the ``admin`` scope), and ``admin_only`` wraps an endpoint that needs it (404 when the app has
no admin token, so its admin actions are off; 403 without the token).
``read_limited(request, limit)`` reads a request body and stops at the first byte past
``limit`` (None), so a huge upload costs no more memory than the limit.
"""

from __future__ import annotations

import functools
import hmac

from starlette.authentication import AuthCredentials, AuthenticationBackend, BaseUser
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tricktable.web.responses import Endpoint, error

ADMIN = "admin"

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


def bearer_ok(request: HTTPConnection, token: str) -> bool:
    """True when the request carries ``Authorization: Bearer <token>``."""
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(),
                                                              token.encode())


class Visitor(BaseUser):
    """Whoever sent a request: the admin (with the app's token) or not, and whether the app
    takes admin actions at all."""

    def __init__(self, admin: bool, admin_on: bool) -> None:
        self.admin, self.admin_on = admin, admin_on

    @property
    def is_authenticated(self) -> bool:
        return self.admin

    @property
    def display_name(self) -> str:
        return ADMIN if self.admin else "visitor"


class AdminToken(AuthenticationBackend):
    """A request carrying the app's admin token (``Authorization: Bearer TOKEN``) is the
    admin's; ``token`` None: the app's admin actions are off."""

    def __init__(self, token: str | None) -> None:
        self.token = token

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser]:
        admin = self.token is not None and bearer_ok(conn, self.token)
        return AuthCredentials([ADMIN] if admin else []), Visitor(admin, self.token is not None)


def admin_auth(token: str | None) -> Middleware:
    """The middleware that tells the admin's requests apart (``request.auth.scopes``)."""
    return Middleware(AuthenticationMiddleware, backend=AdminToken(token))


def admin_only(endpoint: Endpoint) -> Endpoint:
    """``endpoint`` for the admin alone: 404 where the app has no admin token (its admin
    actions are off), 403 for a request without it."""
    @functools.wraps(endpoint)
    async def checked(request: Request) -> Response:
        if ADMIN in request.auth.scopes:
            return await endpoint(request)
        if not request.user.admin_on:
            return error(404, "admin actions are off: start the scoreboard with an admin token")
        return error(403, "admin token missing or wrong")

    return checked


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

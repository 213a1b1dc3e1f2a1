"""The answers every page of the web app gives the same way: a page file, a JSON error and a
server-sent event stream. Used by ``web.app``, ``web.results``, ``web.stats`` and the console."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse

STATIC = Path(__file__).parent / "static"
"""The one static directory: every page, script and style sheet of the web app."""

Endpoint = Callable[[Request], Awaitable[Response]]


def page(name: str) -> Endpoint:
    """An endpoint that serves the static page ``name`` (never cached: the pages are small)."""
    async def endpoint(_request: Request) -> Response:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    return endpoint


def error(status: int, message: str) -> JSONResponse:
    """A JSON error: ``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status)


def event_stream(events: AsyncIterator[str]) -> StreamingResponse:
    """Server-sent events, uncached and unbuffered by proxies."""
    return StreamingResponse(events, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

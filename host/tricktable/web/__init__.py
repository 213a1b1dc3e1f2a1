"""The web scoreboard: club, table and replay pages, live over server-sent events.

``model`` (what the scoreboard knows, pure), ``feed`` (MQTT -> model), ``app`` (Starlette
routes, JSON API, SSE), ``server`` (uvicorn + feed started and stopped as one), ``static``
(HTML, CSS, JS; no build step). Imports ``tricktable.protocol``. See docs/web.md.
"""

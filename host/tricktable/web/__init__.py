"""The web scoreboard: club, table, replay and standings pages, live over server-sent events.

``model`` (what the scoreboard knows, pure), ``feed`` (MQTT -> model), ``night`` (a club
night file's standings, re-read when it changes), ``app`` (Starlette routes, JSON API, SSE),
``server`` (uvicorn + feed started and stopped as one), ``static`` (HTML, CSS, JS; no build
step). See docs/web.md.
"""

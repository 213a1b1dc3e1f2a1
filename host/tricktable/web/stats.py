"""The club's statistics on the scoreboard: leaderboard, player pages, seasons and their report.

``StatsPages(db_path)`` answers, from the club database (opened read-only per question, so
the host keeps writing), on the scoreboard's own app (``web.app``, given ``club_db``):

- ``/leaderboard`` (``/api/leaderboard``): every player with a rating, by the cautious
  rating ``mu - 3 sigma``, with mu and sigma shown, hands and points per hand;
- ``/player/{id}`` (``/api/player/{id}``; the id is the player's name casefolded, so that ids
  say nothing of how many players are hidden; an older name of theirs finds them too): the statistics per family and partnership, the
  rating after each night (drawn as a chart), the recent hands each linking to its replay,
  the nights played; ``/api/player/{id}/decisions``: their costliest decisions at their
  latest night, as the single-dummy estimate has them (``web.costly_decisions``; games not
  yet estimated are worked out in the background, and the page asks again);
- ``/season/{id}`` (``/api/season/{id}``, ``/api/seasons``): the ladder; ``/season/{id}/report``
  the printable season report (also ``tricktable season report``);
- ``/api/players/names``: each public name (casefolded) and its player's id, for the live
  pages to link the names they show, and ``"club": true``; without a club database the
  scoreboard (and the console) answers it with none and ``"club": false`` (``privacy.NO_CLUB``):
  every page asks, and a page of a club-less scoreboard links no player and no leaderboard;
- ``/api/stats/stream``: server-sent event ``changed`` whenever the database changes (its
  ``serial``), so the open pages refresh themselves live.

A recent hand's replay is the scoreboard's one replay page, ``/replay/{night}~{table}``: the
app asks ``night_hands(key)`` for that night's journal (``web.journal_hands``).
Public pages never show a hidden player's name: they are "Guest", without a link, their own
page answers 404, and every answer has each name they were known by replaced with "Guest"
(``web.privacy``).
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tricktable.players import GUEST, ClubDB, PlayersError
from tricktable.players.roster import Player, name_key
from tricktable.stats import FAMILIES, Stats
from tricktable.stats.seasons import Season, Seasons
from tricktable.stats.store import Night
from tricktable.stats.words import summary
from tricktable.web.costly_decisions import Seat, night_decisions
from tricktable.web.journal_hands import JournalHands
from tricktable.web.privacy import PublicNames
from tricktable.web.responses import error, event_stream, page
from tricktable.web.single_dummy import ESTIMATES

__all__ = ["StatsPages", "ClubReader", "leaderboard_view", "player_view", "season_view",
           "season_report_html", "last_night_seats"]

POLL_SECONDS = 0.5
KEEPALIVE_SECONDS = 15.0


def public_id(name: str) -> str:
    """A player's id on the public pages: their name's key (casefolded), so that the ids say
    nothing the names do not (a database number would count the hidden players between)."""
    return name_key(name)


def public_player(stats: Stats, key: str) -> int | None:
    """The visible player known by the name ``key`` (their id on the public pages, or an older
    name of theirs), or None."""
    rows = stats.db.query("SELECT p.id FROM names n JOIN players p ON p.id = n.player "
                          "WHERE n.key = ? AND NOT p.hidden AND p.merged_into IS NULL",
                          (name_key(key),))
    return rows[0][0] if rows else None


def _name(stats: Stats, pid: int) -> tuple[str, str | None]:
    """(public name, id to link or None) of a player."""
    player = stats.players.get(pid)
    return (GUEST, None) if player.hidden else (player.name, public_id(player.name))


def leaderboard_view(stats: Stats) -> dict[str, Any]:
    """Every rated player, best cautious rating first (hidden players as Guest)."""
    rows = stats.db.query(
        "SELECT r.player, r.mu, r.sigma, r.games FROM ratings r WHERE r.night = "
        "(SELECT MAX(night) FROM ratings x WHERE x.player = r.player)")
    out = []
    for player, mu, sigma, games in rows:
        found = stats.players.get(player)
        counts = stats.counts(found)
        hands = sum(c.get("hands", 0) for c in counts.values())
        points = sum(c.get("points", 0) for c in counts.values())
        name, link = _name(stats, player)
        out.append({"player": link, "name": name, "mu": round(mu, 2), "sigma": round(sigma, 2),
                    "rating": round(mu - 3 * sigma, 2), "games": games, "hands": hands,
                    "points_per_hand": round(points / hands, 2) if hands else None})
    out.sort(key=lambda r: (-r["rating"], -r["mu"], r["name"].casefold()))
    for place, row in enumerate(out, 1):
        row["place"] = place
    return {"players": out, "nights": [n.to_json() for n in stats.nights()]}


def _public(stats: Stats, pid: int) -> Player | None:
    """The player ``pid`` when they have a public page (not hidden, not merged)."""
    try:
        player = stats.players.get(pid)
    except PlayersError:
        return None
    merged = stats.db.query("SELECT merged_into FROM players WHERE id = ?", (pid,))[0][0]
    return None if player.hidden or merged else player


def player_view(stats: Stats, pid: int) -> dict[str, Any] | None:
    """A player's page (None for a hidden or merged player, or no such player)."""
    player = _public(stats, pid)
    if player is None:
        return None
    families = [{"family": family, "title": FAMILIES[family],
                 "lines": summary(family, counts)}
                for family, counts in stats.counts(player).items()]
    partners = []
    for (partner, family), counts in stats.partnerships(player).items():
        name, link = _name(stats, partner)
        partners.append({"partner": link, "name": name, "family": FAMILIES[family],
                         "hands": counts.get("hands", 0), "points": counts.get("points", 0),
                         "lines": summary(family, counts, own=False)})
    partners.sort(key=lambda p: (-p["hands"], p["name"].casefold()))
    return {"player": public_id(player.name), "name": player.name, "nickname": player.nickname,
            "active": player.active, "families": families, "partners": partners,
            "ratings": stats.ratings(player), "recent": stats.recent_hands(player),
            "nights": stats.nights_played(player)}


def last_night_seats(stats: Stats, pid: int) -> tuple[Night, list[Seat]] | None:
    """The latest night the player ``pid`` sat at a hand and where they sat at each hand of
    it; None without a public page or a night played."""
    player = _public(stats, pid)
    if player is None:
        return None
    marks = ",".join("?" * len(player.names))
    rows = stats.db.query(
        f"SELECT night, table_id, game, hand, seat FROM seats WHERE name IN ({marks}) AND "
        f"night = (SELECT MAX(night) FROM seats WHERE name IN ({marks}))",
        (*player.names, *player.names))
    if not rows:
        return None
    return stats.night(rows[0][0]), [(t, g, h, s) for _, t, g, h, s in rows]


def season_view(stats: Stats, season: Season, public: bool = True) -> dict[str, Any]:
    seasons = Seasons(stats)
    nights = [stats.night(n).to_json() for n in season.nights]
    rows = [r.to_json(public) for r in seasons.ladder(season)]
    for row in rows:
        if row["player"] is not None:
            row["player"] = _name(stats, row["player"])[1]
    return {"season": season.id, "name": season.name, "ladder": season.ladder,
            "ladder_words": season.ladder_words, "nights": nights, "rows": rows}


def season_report_html(stats: Stats, season: Season, public: bool = False) -> str:
    """The printable season report: the ladder and every night, as one HTML page."""
    view = season_view(stats, season, public)
    e = html.escape
    rows = "".join(
        f"<tr><td>{r['place']}</td><td>{e(r['name'])}</td><td>{r['value']:g}</td>"
        f"<td>{r['won']}</td><td>{r['total']}</td><td>{r['nights']}</td></tr>"
        for r in view["rows"])
    nights = "".join(f"<li>{e(n['name'])} ({e(n['played'] or 'date unknown')})</li>"
                     for n in view["nights"])
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(season.name)} · season report</title>
<link rel="stylesheet" href="/static/stats.css"><style>{_PRINT_CSS}</style></head>
<body class="report"><h1>{e(season.name)}</h1>
<p>Ladder: {e(view['ladder_words'])}. Ties: more games won, then more total points, then fewer
nights played; players level on all of these share the place.</p>
<table id="report-ladder"><thead><tr><th>Place</th><th>Player</th><th>Ladder</th><th>Games won</th>
<th>Total points</th><th>Nights</th></tr></thead><tbody>{rows}</tbody></table>
<h2>Nights</h2><ol>{nights}</ol></body></html>
"""


_PRINT_CSS = """
body.report { background: #fff; color: #000; font: 11pt/1.3 system-ui, sans-serif; margin: 12mm; }
body.report table { border-collapse: collapse; width: 100%; }
body.report th, body.report td { border-bottom: 1px solid #999; padding: 2px 6px; text-align: left; }
@page { margin: 12mm; }
"""


class ClubReader:
    """Opens the club database read-only for each question (the host keeps writing)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        ClubDB(path).close()  # create or migrate it once, so readers find the latest schema

    def ask(self, question: Callable[[Stats], Any]) -> Any:
        with ClubDB(self.path, readonly=True) as db:
            return question(Stats(db))


class Closing(Protocol):
    def is_set(self) -> bool: ...


class StatsPages:
    """The statistics pages of the club database at ``db_path`` (see the module docstring)."""

    def __init__(self, db_path: Path) -> None:
        self.reader = ClubReader(db_path)
        self.names = PublicNames(self.reader.ask)

    async def _ask(self, question: Callable[[Stats], Any]) -> Any:
        return await asyncio.to_thread(self.reader.ask, question)

    def night_hands(self, key: str) -> tuple[JournalHands, str] | None:
        """The recorded hands of ``key`` (``NIGHT~TABLE``: a night's id, a table), or None."""
        night, _, table = key.partition("~")
        if not night.isdigit() or not table:
            return None
        try:
            found = self.reader.ask(lambda s: s.night(int(night)))
        except PlayersError:
            return None
        if not Path(found.journal).exists():
            return None
        return JournalHands(found.journal), table

    def routes(self, closing: Closing) -> list[BaseRoute]:
        """The pages and their JSON; the event stream ends once ``closing`` is set."""
        ask = self._ask

        async def api_leaderboard(_request: Request) -> Response:
            return JSONResponse(await ask(leaderboard_view))

        async def api_player(request: Request) -> Response:
            key = request.path_params["player"]
            view = await ask(lambda s: None if (pid := public_player(s, key)) is None
                             else player_view(s, pid))
            if view is None:
                return error(404, "no public page for that player")
            return JSONResponse(view)

        async def api_player_decisions(request: Request) -> Response:
            key = request.path_params["player"]
            found = await ask(lambda s: None if (pid := public_player(s, key)) is None
                              else (pid, last_night_seats(s, pid)))
            if found is None:
                return error(404, "no public page for that player")
            if found[1] is None or not Path(found[1][0].journal).exists():
                return JSONResponse({"night": None, "decisions": []})
            night, seats = found[1]
            view = await asyncio.to_thread(night_decisions, ESTIMATES, Path(night.journal),
                                           seats)
            return JSONResponse({"night": night.id, "night_name": night.name, **view})

        async def api_names(_request: Request) -> Response:
            return JSONResponse({"players": await asyncio.to_thread(lambda: self.names.links),
                                 "club": True})

        async def api_seasons(_request: Request) -> Response:
            return JSONResponse({"seasons": await ask(lambda s: [
                {"season": x.id, "name": x.name, "ladder_words": x.ladder_words,
                 "nights": len(x.nights)} for x in Seasons(s).all()])})

        def season_of(request: Request) -> Callable[[Stats], Season]:
            return lambda s: Seasons(s).get(request.path_params["season"])

        async def api_season(request: Request) -> Response:
            try:
                return JSONResponse(await ask(lambda s: season_view(s, season_of(request)(s))))
            except PlayersError as exc:
                return error(404, str(exc))

        async def season_report(request: Request) -> Response:
            try:
                text = await ask(lambda s: season_report_html(s, season_of(request)(s),
                                                              public=True))
            except PlayersError as exc:
                return error(404, str(exc))
            return HTMLResponse(self.names.scrub(text))

        async def stream() -> AsyncIterator[str]:
            last = await ask(lambda s: s.db.serial())
            yield f"event: changed\ndata: {last}\n\n"
            quiet = 0.0
            while not closing.is_set():
                await asyncio.sleep(POLL_SECONDS)
                now = await ask(lambda s: s.db.serial())
                if now != last:
                    last, quiet = now, 0.0
                    yield f"event: changed\ndata: {now}\n\n"
                else:
                    quiet += POLL_SECONDS
                    if quiet >= KEEPALIVE_SECONDS:
                        quiet = 0.0
                        yield ": keepalive\n\n"

        async def api_stream(_request: Request) -> Response:
            return event_stream(stream())

        return [
            Route("/leaderboard", page("leaderboard.html")),
            Route("/player/{player}", page("player.html")),
            Route("/season/{season:int}", page("season.html")),
            Route("/season/{season:int}/report", season_report),
            Route("/api/leaderboard", api_leaderboard),
            Route("/api/player/{player}", api_player),
            Route("/api/player/{player}/decisions", api_player_decisions),
            Route("/api/players/names", api_names),
            Route("/api/seasons", api_seasons),
            Route("/api/season/{season:int}", api_season),
            Route("/api/stats/stream", api_stream),
        ]

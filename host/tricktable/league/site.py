"""The league site (``tricktable league site``): Starlette pages read from the league database.

Pages (server-rendered HTML, no script): ``/`` the standings of a season across every club
(``?season=NAME``; the latest season, or every game when none is defined), ``/club/{club}``
a club's nights and its players' standings, ``/hands`` hand records searchable by player,
club and night (``?player=&club=&night=``). The same as JSON: ``/api/standings``,
``/api/clubs``, ``/api/club/{club}``, ``/api/hands``. PostgreSQL is read on every request:
what the league services stored is what the site shows. Player pages with ratings come with
the club players database (issue 13).
"""

from __future__ import annotations

from dataclasses import asdict
from html import escape
from typing import Any
from urllib.parse import quote, urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from tricktable.league.store import (
    EVERY_GAME,
    LeagueStore,
    LeagueStoreError,
    PlayerRating,
    PlayerStanding,
    Season,
)

PLAYER_HANDS = 20  # the latest hand records on a player's page
CHART_W, CHART_H = 600, 160  # the rating chart's size (px)

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 70rem;
       padding: 0 1rem; color: #111; background: #fff; }
nav a { margin-right: 1rem; } table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .6rem; border-bottom: 1px solid #ccc; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
form { margin: 1rem 0; } input { margin-right: .6rem; } a { color: #0645ad; }
svg.chart { max-width: 100%; } .band { fill: #cfe0ff; } .mu { fill: none; stroke: #0645ad; }
"""


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(status_code=status, content=
        f"<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<meta name=viewport content='width=device-width'><title>{escape(title)}</title>"
        f"<style>{STYLE}</style></head><body><nav><a href='/'>Standings</a>"
        f"<a href='/hands'>Hand records</a></nav><h1>{escape(title)}</h1>{body}</body></html>")


def _table(headings: list[str], rows: list[list[str]], numeric: set[int], label: str) -> str:
    head = "".join(f"<th{' class=n' if i in numeric else ''}>{escape(h)}</th>"
                   for i, h in enumerate(headings))
    body = "".join("<tr>" + "".join(f"<td{' class=n' if i in numeric else ''}>{cell}</td>"
                                    for i, cell in enumerate(row)) + "</tr>" for row in rows)
    return f"<table aria-label='{escape(label)}'><thead><tr>{head}</tr></thead>" \
           f"<tbody>{body}</tbody></table>"


def _club_link(club: str) -> str:
    return f"<a href='/club/{escape(club)}'>{escape(club)}</a>"


def _hands_link(text: str, **query: str) -> str:
    return f"<a href='/hands?{escape(urlencode(query))}'>{escape(text)}</a>"


def _player_link(club: str, player: str, name: str) -> str:
    return f"<a href='/player/{quote(club, safe='')}/{quote(player, safe='')}'>{escape(name)}</a>"


def _rating(mu: float | None, sigma: float | None) -> str:
    """A rating with its uncertainty: mu ± sigma."""
    return "–" if mu is None or sigma is None else f"{mu:.1f} ± {sigma:.1f}"


def _standings_table(rows: list[PlayerStanding]) -> str:
    return _table(["Rank", "Player", "Club", "Total", "Won", "Played", "Nights", "Rating"],
                  [[str(r.rank), _player_link(r.club, r.player, r.name),
                    _club_link(r.club), str(r.total), str(r.won), str(r.played), str(r.nights),
                    _rating(r.mu, r.sigma)]
                   for r in rows], {0, 3, 4, 5, 6, 7}, "standings")


def _chart(ratings: list[PlayerRating]) -> str:
    """The rating night by night: mu as a line in its band of mu ± 2 sigma."""
    if not ratings:
        return ""
    low = min(r.mu - 2 * r.sigma for r in ratings)
    high = max(r.mu + 2 * r.sigma for r in ratings)
    span, step = (high - low) or 1.0, CHART_W / max(1, len(ratings) - 1)

    def y(value: float) -> str:
        return f"{CHART_H - (value - low) / span * CHART_H:.1f}"

    xs = [f"{i * step:.1f}" for i in range(len(ratings))]
    upper = [f"{x},{y(r.mu + 2 * r.sigma)}" for x, r in zip(xs, ratings, strict=True)]
    lower = [f"{x},{y(r.mu - 2 * r.sigma)}" for x, r in zip(xs, ratings, strict=True)]
    line = [f"{x},{y(r.mu)}" for x, r in zip(xs, ratings, strict=True)]
    return (f"<svg class=chart role=img aria-label='rating chart' width={CHART_W} "
            f"height={CHART_H} viewBox='-4 -4 {CHART_W + 8} {CHART_H + 8}'>"
            f"<polygon class=band points='{' '.join(upper + lower[::-1])}'/>"
            f"<polyline class=mu points='{' '.join(line)}'/></svg>")


def _hands_table(found: list[dict[str, Any]]) -> str:
    rows = [[_club_link(h["club"]), escape(h["night"] or "–"), str(h["round"] or "–"),
             escape(h["table"]), f"{h['game']}.{h['hand']}", escape(h["variant"]),
             escape(", ".join(h["names"])), escape(" / ".join(map(str, h["deltas"]))),
             escape(" / ".join(map(str, h["scores"]))), escape(h["detail"])]
            for h in found]
    return _table(["Club", "Night", "Round", "Table", "Game.hand", "Variant", "Seats", "Points",
                   "Score", "Detail"], rows, set(), "hands")


def league_app(store: LeagueStore) -> Starlette:
    """The site over ``store``."""

    def season_of(request: Request) -> Season | None:
        return store.season(request.query_params.get("season") or None)

    def standings_page(request: Request) -> Response:
        try:
            season = season_of(request)
        except LeagueStoreError as exc:
            return _page("No such season", f"<p>{escape(str(exc))}</p>", 404)
        seasons = store.seasons()
        picker = " ".join(
            f"<a href='/?{escape(urlencode({'season': s.name}))}'>{escape(s.name)}</a>"
            for s in seasons)
        what = (f"Season {season.name}: {season.starts} to {season.ends}" if season
                else "Every game (no season defined)")
        clubs = _table(["Club", "Nights", "Games", "Hands", "Players"],
                       [[_club_link(c.club), str(c.nights), str(c.games), str(c.hands),
                         str(c.players)] for c in store.clubs()], {1, 2, 3, 4}, "clubs")
        return _page("League standings",
                     f"<p>{escape(what)}{' · seasons: ' + picker if picker else ''}</p>"
                     f"{_standings_table(store.standings(season))}<h2>Clubs</h2>{clubs}")

    def club_page(request: Request) -> Response:
        club = request.path_params["club"]
        if club not in {c.club for c in store.clubs()}:
            return _page("No such club", f"<p>The league has nothing from {escape(club)}.</p>",
                         404)
        nights = _table(["Night", "Date", "Games", "Finished"],
                        [[_hands_link(n["night"], club=club, night=n["night"]), n["date"],
                          str(n["games"]), "yes" if n["finished"] else "playing"]
                         for n in store.nights(club)], {2}, "nights")
        return _page(f"Club {club}", f"<h2>Nights</h2>{nights}<h2>Players</h2>"
                                     f"{_standings_table(store.standings(None, club))}")

    def hands_page(request: Request) -> Response:
        query = {k: request.query_params.get(k, "").strip() for k in ("player", "club", "night")}
        form = "<form method=get action='/hands'>" + "".join(
            f"<label>{k} <input name={k} value='{escape(v)}'></label>"
            for k, v in query.items()) + "<button>Search</button></form>"
        found = store.hands(**{k: v or None for k, v in query.items()})
        return _page("Hand records", form + f"<p>{len(found)} hands</p>" + _hands_table(found))

    def player_page(request: Request) -> Response:
        club, player = request.path_params["club"], request.path_params["player"]
        name = store.player_name(club, player)
        if name is None:
            return _page("No such player", f"<p>The league has no player {escape(player)} "
                                           f"of {escape(club)}.</p>", 404)
        seasons: dict[str, list[PlayerRating]] = {}
        for rating in store.player_ratings(club, player):
            seasons.setdefault(rating.season, []).append(rating)
        rated = "".join(
            f"<h3>{escape('Every game' if season == EVERY_GAME else 'Season ' + season)}</h3>"
            + _chart(ratings) + _table(
                ["Night", "Date", "Rating (mu ± sigma)", "Cautious (mu - 3 sigma)", "Games"],
                [[escape(r.night), r.date.isoformat(), _rating(r.mu, r.sigma),
                  f"{r.mu - 3 * r.sigma:.1f}", str(r.games)] for r in ratings],
                {2, 3, 4}, f"ratings {season or 'every game'}")
            for season, ratings in sorted(seasons.items(), key=lambda kv: kv[0] != EVERY_GAME))
        nights = _table(["Night", "Club", "Date", "Total", "Won", "Played"],
                        [[_hands_link(n["night"], player=player, club=n["club"],
                                      night=n["night"]), _club_link(n["club"]), n["date"],
                          str(n["total"]), str(n["won"]), str(n["played"])]
                         for n in store.player_nights(club, player)], {3, 4, 5}, "results")
        hands = store.hands(club=club, player=player, limit=PLAYER_HANDS)
        return _page(f"{name} ({club})",
                     f"<p>Club {_club_link(club)} · league id {escape(player)}</p>"
                     f"<h2>Rating</h2>{rated or '<p>Not rated yet (no finished night).</p>'}"
                     f"<h2>Results by night</h2>{nights}<h2>Hand records</h2>"
                     f"<p>{_hands_link('Search all their hands', player=player, club=club)}"
                     f"</p>{_hands_table(hands)}")

    def api_standings(request: Request) -> Response:
        try:
            season = season_of(request)
        except LeagueStoreError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        return JSONResponse({"season": season.name if season else None,
                             "standings": [asdict(r) for r in store.standings(season)]})

    def api_clubs(request: Request) -> Response:
        return JSONResponse([asdict(c) for c in store.clubs()])

    def api_club(request: Request) -> Response:
        club = request.path_params["club"]
        return JSONResponse({"club": club, "nights": store.nights(club),
                             "standings": [asdict(r) for r in store.standings(None, club)]})

    def api_player(request: Request) -> Response:
        club, player = request.path_params["club"], request.path_params["player"]
        name = store.player_name(club, player)
        if name is None:
            return JSONResponse({"error": f"no player {player!r} of {club!r}"}, status_code=404)
        return JSONResponse({
            "club": club, "player": player, "name": name,
            "ratings": [{**asdict(r), "date": r.date.isoformat()}
                        for r in store.player_ratings(club, player)],
            "nights": store.player_nights(club, player)})

    def api_hands(request: Request) -> Response:
        query: dict[str, Any] = {k: request.query_params.get(k) or None
                                 for k in ("player", "club", "night")}
        return JSONResponse(store.hands(**query))

    return Starlette(routes=[
        Route("/", standings_page), Route("/club/{club}", club_page),
        Route("/hands", hands_page), Route("/player/{club}/{player}", player_page),
        Route("/api/player/{club}/{player}", api_player), Route("/api/standings", api_standings),
        Route("/api/clubs", api_clubs), Route("/api/club/{club}", api_club),
        Route("/api/hands", api_hands)])

"""The end of the night on the scoreboard: the results, the personal scorecards and CSV.

Routes (only with a club night file, else 404 with how to get one): ``/results`` (the
printable results page), ``/scorecard/{player}`` (one player's scorecard, printable),
``/api/results`` (standings, every finished game table by table, each player's scorecard
link), ``/api/scorecard/{player}``, ``/results.csv`` (the standings, a column per game) and
``/scorecards.csv`` (every scorecard line), downloaded as ``NIGHT-results.csv`` and
``NIGHT-scorecards.csv`` after the night file's name. Everything is derived from the night file as it is
now (``NightFile.tournament()``), so the results can be served again any time later from the
file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tricktable.club import SEATS, ProgressiveTournament
from tricktable.club.scorecard import results_csv, scorecards, scorecards_csv
from tricktable.club.standings import unranked
from tricktable.web.night import NightFile, standing_rows
from tricktable.web.responses import Endpoint

__all__ = ["results_view", "scorecard_view", "results_routes"]


def results_view(night: ProgressiveTournament,
                 corrected: dict[tuple[int, int], list[str]] | None = None) -> dict[str, Any]:
    """The standings and every finished game (each table's seats, score and winner, and what
    the director ``corrected`` there: {(game, table number): words})."""
    corrected = corrected or {}
    games = [{"game": game.number,
              "tables": [{"table": number, "seats": dict(zip(SEATS, seats, strict=True)),
                          "score": [sum(h[0] for h in hands), sum(h[1] for h in hands)],
                          "hands": len(hands), "winner": winner,
                          "decided": number in game.decided,
                          "corrected": corrected.get((game.number, number), [])}
                         for number, (seats, hands, winner) in enumerate(
                             zip(game.seating, game.hands, game.winners, strict=True), 1)]}
             for game in night.games]
    return {"finished": night.finished, "games_played": len(night.games),
            "rounds": night.last_round, "standings": standing_rows(night),
            "unranked": unranked(night.tallies()), "games": games}


def scorecard_view(night: ProgressiveTournament, player: str) -> dict[str, Any] | None:
    """``player``'s scorecard and standing (the name matched case-insensitively), or None."""
    wanted = player.strip().casefold()
    name = next((p for p in night.players if p.casefold() == wanted), None)
    if name is None:
        return None
    lines = [{"game": line.game, "table": line.table, "seat": line.seat,
              "partner": line.partner, "opponents": list(line.opponents), "score": line.score,
              "against": line.against, "won": line.won,
              "settled": line.seat != "bye" and line.table in night.games[line.game - 1].decided}
             for line in scorecards(night)[name]]
    row = next(r for r in standing_rows(night) if r["name"] == name)
    return {"name": name, "standing": row, "lines": lines, "finished": night.finished,
            "games_played": len(night.games), "rounds": night.options.rounds}


def results_routes(night: NightFile | None, page: Callable[[str], Endpoint],
                   hidden: Callable[[str], bool] | None = None) -> list[Route]:
    """The routes above; ``page(name)`` serves a static HTML page; ``hidden(name)``: a hidden
    player's name, whose scorecard answers exactly as a name not on the roster does."""

    def tournament() -> ProgressiveTournament | Response:
        found = night.tournament() if night is not None else None
        if found is None:
            why = ("no club night: start the scoreboard with --night PATH" if night is None
                   else f"the night file cannot be read: {night.view()['error']}")
            return JSONResponse({"error": why}, status_code=404)
        return found

    async def api_results(_request: Request) -> Response:
        got = tournament()
        if isinstance(got, Response):
            return got
        assert night is not None
        return JSONResponse(results_view(got, night.corrections()))

    async def api_scorecard(request: Request) -> Response:
        got = tournament()
        if isinstance(got, Response):
            return got
        player = request.path_params["player"]
        view = None if hidden is not None and hidden(player) else scorecard_view(got, player)
        if view is None:  # the name is not echoed: the scrubbing of a hidden one would show
            return JSONResponse({"error": "no player of that name on tonight's roster"},
                                status_code=404)
        return JSONResponse(view)

    def download(make: Callable[[ProgressiveTournament], str], what: str) -> Endpoint:
        async def endpoint(_request: Request) -> Response:
            got = tournament()
            if isinstance(got, Response):
                return got
            filename = f"{night.path.stem if night else 'night'}-{what}.csv"
            return Response(make(got), media_type="text/csv; charset=utf-8", headers={
                "Content-Disposition": f'attachment; filename="{filename}"'})

        return endpoint

    return [
        Route("/results", page("results.html")),
        Route("/scorecard/{player}", page("scorecard.html")),
        Route("/api/results", api_results),
        Route("/api/scorecard/{player}", api_scorecard),
        Route("/results.csv", download(results_csv, "results")),
        Route("/scorecards.csv", download(scorecards_csv, "scorecards")),
    ]

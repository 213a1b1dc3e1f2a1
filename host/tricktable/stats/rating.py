"""Partnership ratings with openskill's Weng-Lin Bayesian model (Plackett-Luce).

Why openskill and not trueskill (docs/stats.md): it is MIT-licensed (TrueSkill is patented by
Microsoft and the ``trueskill`` package has not had a release since 2018), it is maintained,
it rates teams of any size natively, and it is fast enough to re-rate a whole season on every
night's close. Each player's skill is a normal belief: ``mu`` (the estimate) and ``sigma``
(its uncertainty); ``mu - 3 sigma`` is the cautious value a ladder can sort on.

``rate_games(games)`` walks the games in the order given (the store gives them night by
night, table by table, game by game, so the same games always give the same ratings) and
returns the rating of every player after each night they played. One game is one table's
game: its sides are the teams, ranked by their final scores (a tie is a draw).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

__all__ = ["RatedGame", "Rating", "rate_games", "MODEL"]

MODEL = PlackettLuce()


@dataclass(frozen=True)
class RatedGame:
    night: int
    teams: tuple[tuple[int, ...], ...]
    """Player ids of each side."""
    scores: tuple[int, ...]
    """Each side's final score."""


@dataclass(frozen=True)
class Rating:
    night: int
    player: int
    mu: float
    sigma: float
    games: int
    """Games rated so far."""

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate_games(games: Iterable[RatedGame]) -> list[Rating]:
    """Every player's rating at the end of each night they played (see the docstring)."""
    current: dict[int, Any] = {}
    snapshot: dict[int, dict[int, tuple[float, float, int]]] = {}
    played: dict[int, int] = {}
    tonight: dict[int, set[int]] = {}  # night -> the players it rated, in the order met
    for game in games:
        teams = [[current.get(p) or MODEL.rating(name=str(p)) for p in team]
                 for team in game.teams]
        rated = MODEL.rate(teams, scores=list(game.scores))
        for team, ratings in zip(game.teams, rated, strict=True):
            for player, rating in zip(team, ratings, strict=True):
                current[player] = rating
                played[player] = played.get(player, 0) + 1
                tonight.setdefault(game.night, set()).add(player)
        snapshot[game.night] = {p: (current[p].mu, current[p].sigma, played[p])
                                for p in tonight[game.night]}
    return [Rating(night, player, mu, sigma, count)
            for night, players in snapshot.items()
            for player, (mu, sigma, count) in sorted(players.items())]

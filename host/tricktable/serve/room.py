"""A table's state as the room sees it: the engine's, with what the night corrected laid over.

The engine of a table keeps the game as it was played; a club night (``club.live``) keeps what
counts, after the director's corrections. ``Service.overlay(table, room)`` hands the service the
night's word for a table, and ``in_the_room(state, room)`` lays it over the state the service
publishes (the retained ``table/+/state``) and shows on the table's display, so the TV, the pages,
the phones and the display read one truth:

- ``seats``: the night's players of the table, in seat order (after a swap or a substitute the
  game in play shows the new names at once, as the tally and the scorecards credit them);
- ``adjust``: what each team's score gains or loses by the director's fixes and voids (team A
  is the side holding seat 0), added to each side's score and to the scores of ``last_hand``;
- ``notes``: what the director changed, in words ("hand 1 voided by the director");
- ``final`` (once the night is over): each team's final tally of the table's last game of the
  night, shown as the sides' scores whatever game the engine was left in; ``night.over``.

A room applies only to the table's journal games from ``room["game"]`` on (the game of the night
in play): a state of an older game is published as it is. The engine's own seats and scores are
kept under ``night.engine_seats`` and ``night.engine_scores``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["in_the_room"]


def in_the_room(state: dict[str, Any], room: dict[str, Any] | None) -> dict[str, Any]:
    """``state`` (``TableSession.state()``) with ``room`` laid over it (see the module)."""
    game = state.get("game")
    if not room or not isinstance(game, int) or game < int(room.get("game") or 0):
        return state
    out = dict(state)
    if room.get("round") is not None:
        out["round"] = room["round"]  # the night's game number
    seats = room.get("seats")
    if seats and len(seats) == len(state.get("seats") or []):
        out["seats"] = list(seats)
    sides = state.get("sides") or []
    team_a = [0 in (side.get("seats") or []) for side in sides]
    scores = list(state.get("scores") or [])
    final, adjust = room.get("final"), room.get("adjust") or [0, 0]
    if final and len(team_a) == len(scores):
        out["scores"] = [final[0] if a else final[1] for a in team_a]
    elif any(adjust) and len(team_a) == len(scores):
        out["scores"] = [s + (adjust[0] if a else adjust[1]) for s, a in zip(scores, team_a,
                                                                            strict=True)]
    out["night"] = {"round": room.get("round"), "notes": list(room.get("notes") or []),
                    "over": bool(final), "engine_seats": state.get("seats"),
                    "engine_scores": state.get("scores")}
    return out

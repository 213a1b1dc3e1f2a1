"""A club night at club size for the TV and results tests: 30 tables, 120 players, written as
the night file the service keeps (with its ``live`` section), and the tables' states published
as the host publishes them (``web_script``), each table seated as the night says."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tricktable.club import ProgressiveOptions, ProgressiveTournament, night_to_json
from web_fixtures import Publisher
from web_script import game_states

FIRST = ["Ada", "Bea", "Cal", "Dot", "Eli", "Flo", "Gus", "Hal", "Ivy", "Jon", "Kit", "Lou"]
LAST = ["Abernathy", "Brown", "Castellanos", "Duval", "Eriksen", "Fontaine", "Gallagher",
        "Hughes", "Ishikawa", "Jones"]
PLAYERS = [f"{f} {s}" for s in LAST for f in FIRST]  # 120 names, some of them long


def club_night(tables: int = 30, games: int = 1, hands: int = 8,
               rounds: int | None = None) -> ProgressiveTournament:
    """``tables`` tables, ``games`` games played of ``rounds`` (every table's score different
    each game), and, unless that was the last, the head table two hands into the next game."""
    night = ProgressiveTournament.new(PLAYERS[:tables * 4],
                                      options=ProgressiveOptions(hands_per_round=hands,
                                                                 rounds=rounds or games + 2))
    for game in range(games):
        for number in range(1, tables + 1):
            for hand in range(hands if number == 1 else 1):
                a = (number + hand + game) % 7 - 2  # A wins at odd tables, B at even
                night.record_hand(number, a, a - 1 - number % 3 if number % 2 else a + 2)
        night.bell()
    if not night.finished:
        night.record_hand(1, 4, 1)
        night.record_hand(1, -2, 3)
    return night


def write_night(night: ProgressiveTournament, path: Path, **live: Any) -> None:
    """Save the night with a ``live`` section (``bell``, ``round_started`` ...) as
    ``tricktable serve --night`` keeps it (written whole, then renamed into place)."""
    data = night_to_json(night)
    data["live"] = live
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data), encoding="utf-8")
    temporary.replace(path)


def table_id(number: int) -> str:
    return f"t{number}"


def seated(state: dict[str, Any], seats: tuple[str, ...]) -> dict[str, Any]:
    """A scripted state with the night's players in its seats (N, E, S, W)."""
    out = copy.deepcopy(state)
    out["seats"] = list(seats)
    out["sides"] = [{"name": f"{seats[0]} & {seats[2]}", "seats": [0, 2]},
                    {"name": f"{seats[1]} & {seats[3]}", "seats": [1, 3]}]
    return out


def publish_tables(publisher: Publisher, night: ProgressiveTournament,
                   step: int = 20) -> dict[str, list[dict[str, Any]]]:
    """Every table of the night mid-hand (its ``step``-th state), published in reverse natural
    order, after the host's own retained status (online, as a running host says it);
    returns each table's whole scripted game (seated)."""
    publisher.send(f"{publisher.prefix}/v1/host/status", {"v": 1, "online": True}, retain=True)
    games = {}
    for number in range(night.tables, 0, -1):
        states = [seated(s, night.seating[number - 1]) for s in game_states(table_id(number), 2)]
        games[table_id(number)] = states
        publisher.state(states[step])
    return games

"""Simulated progressive nights for the club tests: random (seeded) hand scores at every table,
the head table exactly ``hands_per_round`` hands, the other tables finishing whatever hand
they were in (0 to 10 hands), ties settled for team A. Beside the night it keeps its own
ledger of what each player should have on their tally, computed from the scores it entered."""

from __future__ import annotations

import random

from tricktable.club import ProgressiveTournament


def play_game(night: ProgressiveTournament, rng: random.Random,
              ledger: dict[str, int]) -> None:
    """Record random hands at every table and ring the bell; add each team's score to the
    ledger of both its players."""
    decided = {}
    for number, table in enumerate(night.seating, 1):
        count = night.options.hands_per_round if number == 1 else rng.randint(0, 10)
        a = b = 0
        for _ in range(count):
            hand = (rng.randint(-5, 6), rng.randint(-5, 6))
            night.record_hand(number, *hand)
            a, b = a + hand[0], b + hand[1]
        for name, score in zip(table, (a, b, a, b), strict=True):
            ledger[name] += score
        if a == b:
            decided[number] = "A"
    night.bell(decided)


def play_night(players: int, seed: int) -> tuple[ProgressiveTournament, dict[str, int]]:
    """A whole night (default options: 10 games, 8 hands at the head table)."""
    night = ProgressiveTournament.new([f"P{i:02d}" for i in range(players)])
    rng = random.Random(seed)
    ledger = dict.fromkeys(night.players, 0)
    while not night.finished:
        play_game(night, rng, ledger)
    return night, ledger

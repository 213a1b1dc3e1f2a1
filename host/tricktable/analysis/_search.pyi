"""Types of the compiled search (``_search.c``); ``analysis/solver.py`` is its only user."""

from collections.abc import Callable, Sequence

class Rules:
    """One ordering of the rules as data (an ``Ordering``'s fields), built once per ordering."""

    def __init__(
        self,
        eff: Sequence[int],
        strength: Sequence[int],
        keys: Sequence[Sequence[int]],
        suit_masks: Sequence[int],
        trump_suit: int,
    ) -> None: ...

class Core:
    """The search of one side of one ``Solver``: its transposition table and lead memo."""

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[int],
        ours: Sequence[bool],
        hands: Sequence[int],
        trick: Sequence[tuple[int, int]],
        ask: Callable[[int, list[int], list[tuple[int, list[tuple[int, int]], int]]],
                      tuple[int, bool]] | None,
    ) -> None: ...
    def solve(self, hands: Sequence[int], trick: Sequence[tuple[int, int]],
              finished_before: int, seat: int, remaining: int, first: int,
              free: bool) -> int: ...
    def counters(self) -> tuple[int, int, int]: ...

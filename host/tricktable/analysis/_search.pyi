"""Types of the compiled search (``_search.c``); ``analysis/solver.py`` is its only user."""

from collections.abc import Callable, Sequence

class Core:
    """The search of one side of one ``Solver``: its transposition table and lead memo."""

    def __init__(
        self,
        seats: Sequence[int],
        ours: Sequence[bool],
        eff: Sequence[int],
        strength: Sequence[int],
        keys: Sequence[Sequence[int]],
        suit_masks: Sequence[int],
        suit_order: Sequence[Sequence[int]],
        key_order: Sequence[Sequence[tuple[int, int, int]]],
        trump_suit: int,
        ask: Callable[[int, list[int], list[tuple[int, list[tuple[int, int]], int]]],
                      tuple[int, bool]] | None,
    ) -> None: ...
    def set_position(self, hands: Sequence[int], trick: Sequence[tuple[int, int]],
                     finished_before: int) -> None: ...
    def test(self, need: int, present: int, seat: int, n: int, led: int, best: int,
             best_seat: int, gone: int) -> bool: ...
    def counters(self) -> tuple[int, int, int]: ...

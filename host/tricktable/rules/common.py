"""Helpers the catalogue's variants share: a seat's partner, and the score change when a
revoke is paid by the offending side. Imports ``rules.base`` only."""

from __future__ import annotations

from tricktable.rules.base import TableView

__all__ = ["partner_of", "offender_pays"]


def partner_of(st: TableView, seat: int) -> int:
    """The partner of ``seat`` at a four-player partnership table."""
    return next(s for s in st.sides[st.side_of[seat]] if s != seat)


def offender_pays(st: TableView, seat: int, points: int) -> tuple[int, ...]:
    """The side of ``seat`` loses ``points`` (gains them in a game that counts down)."""
    deltas = [0] * len(st.sides)
    deltas[st.side_of[seat]] = points if st.variant.low_score_wins else -points
    return tuple(deltas)

"""The live terminal view of tables (rich): seats, trick, bids, contract, trump, tricks, score.

``table_panel(view)`` draws one table from a scoreboard view (``tricktable.web.model``,
``Club.view(table)``); ``club_view(views)`` lays several side by side. ``watch(feed, ...)``
keeps a rich ``Live`` display current from a started ``tricktable.web.feed.Feed`` until
told to stop (Ctrl-C in ``tricktable watch``; the demo's own stop event).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tricktable.protocol import natural_key
from tricktable.web.feed import Feed

SUITS = {"S": ("♠", "white"), "H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "white")}
TRUMPS = {"NT": "no trump", "HIGH": "high", "LOW": "low"}


def card_text(card: str) -> Text:
    """``10H`` -> ``10♥`` in red; ``AS'`` (second copy) keeps its mark; ``JOKER`` stays."""
    core, mark = (card[:-1], "'") if card.endswith("'") else (card, "")
    if core == "JOKER":
        return Text(core + mark, style="bold magenta")
    symbol, colour = SUITS.get(core[-1:], (core[-1:], "white"))
    return Text(core[:-1] + symbol + mark, style=f"bold {colour}")


def trump_text(trump: str | None) -> Text:
    if not trump:
        return Text("–")
    if trump in SUITS:
        symbol, colour = SUITS[trump]
        return Text(symbol, style=f"bold {colour}")
    return Text(TRUMPS.get(trump, trump))


def _name(state: dict[str, Any], seat: Any) -> str:
    seats = state.get("seats") or []
    return seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else "–"


def _bid(value: Any) -> str:
    return str(value.get("bid")) if isinstance(value, dict) else str(value)


def table_panel(view: dict[str, Any]) -> Panel:
    """One table: a row per seat (trick card, tricks taken, bid), then contract and score."""
    state = view.get("state") or {}
    summary = view.get("summary") or {}
    trick = {c["seat"]: c["card"] for c in (state.get("trick") or {}).get("cards", [])}
    bids: dict[int, str] = {}
    for entry in state.get("bids") or []:
        bids[entry["seat"]] = _bid(entry.get("bid"))
    seats = Table.grid(padding=(0, 2))
    for heading in ("seat", "trick", "tricks", "bid"):
        seats.add_column(heading)
    for seat, name in enumerate(state.get("seats") or []):
        marks = ("▶ " if state.get("to_act") == seat else "  ") + name
        if state.get("dealer") == seat:
            marks += " (D)"
        seats.add_row(
            Text(marks, style="bold green" if state.get("to_act") == seat else ""),
            card_text(trick[seat]) if seat in trick else Text("·", style="dim"),
            str((state.get("tricks_won") or [0] * 8)[seat]),
            bids.get(seat, ""),
        )
    contract = state.get("contract")
    line = Text(f"hand {state.get('hand_number', '–')} · {_phase(summary)}  ")
    if contract:
        line.append(f"contract {_name(state, contract.get('seat'))} {_bid(contract)}"
                    f"{' alone' if contract.get('alone') else ''}  trump ")
        line.append_text(trump_text(state.get("trump")))
    score = Table.grid(padding=(0, 2))
    score.add_column()
    score.add_column(justify="right")
    score.add_column(justify="right")
    won = state.get("tricks_won") or []
    for i, side in enumerate(state.get("sides") or []):
        taken = sum(won[s] for s in side.get("seats", []) if s < len(won))
        score.add_row(side.get("name", f"side {i}"), f"{taken} tricks",
                      Text(str((state.get("scores") or [0] * 8)[i]), style="bold"))
    parts: list[RenderableType] = [seats, line, score]
    for alert in summary.get("alerts") or []:
        parts.append(Text(f"! {alert['text']}", style="bold white on red"))
    title = f"table {view.get('table')} · {state.get('variant') or '–'}"
    return Panel(Group(*parts), title=title, title_align="left", expand=True)


def _phase(summary: dict[str, Any]) -> str:
    if summary.get("game_over"):
        return "game over"
    return str(summary.get("phase") or "–").replace("_", " ")


def club_view(views: list[dict[str, Any]]) -> RenderableType:
    """Every table, two to a row."""
    if not views:
        return Text("waiting for a table to report …", style="dim")
    grid = Table.grid(expand=True, padding=(0, 1))
    columns = min(2, len(views))
    for _ in range(columns):
        grid.add_column(ratio=1)
    panels = [table_panel(v) for v in views]
    for i in range(0, len(panels), columns):
        row = panels[i : i + columns]
        grid.add_row(*row, *([""] * (columns - len(row))))
    return grid


def watch(feed: Feed, tables: list[str] | None, stop: threading.Event,
          console: Console | None = None, footer: Callable[[], RenderableType] | None = None,
          ) -> None:
    """Redraw on every change (at most 8 times a second) until ``stop`` is set.

    ``tables`` None shows every table the feed has seen; ``footer`` adds a line below.
    """
    changed = threading.Event()

    def listener(_table: str | None) -> None:
        changed.set()

    def render() -> RenderableType:
        with feed.lock:
            names = tables if tables is not None else sorted(feed.club.tables, key=natural_key)
            views = [v for v in (feed.club.view(t) for t in names) if v is not None]
        body = club_view(views)
        return Group(body, footer()) if footer else body

    feed.add_listener(listener)
    try:
        with Live(render(), console=console, auto_refresh=False, transient=False) as live:
            while not stop.is_set():
                if changed.wait(0.125):
                    changed.clear()
                    live.update(render(), refresh=True)
                    stop.wait(0.125)
                elif footer:
                    live.update(render(), refresh=True)
    finally:
        feed.remove_listener(listener)

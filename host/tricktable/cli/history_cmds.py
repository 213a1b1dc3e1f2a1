"""``tricktable replay FILE`` and ``tricktable verify FILE``: hand histories at the terminal.

``replay`` prints a game hand by hand and trick by trick (who led, the cards, who won, the
running score) as the rules compute it; ``verify`` recomputes every claim of the file (dealt
hands, contract, trick winners, revokes, results, scores, the winner) and names each
difference, exiting with status 1 when there is one. Both read the text or JSON form and
refuse a malformed file with a message naming the line (status 1, like a difference).
Imports ``history`` and click/rich.
"""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from tricktable.engine import EngineError
from tricktable.history import HistoryError, load, verify
from tricktable.history.replay import HandView, replay

__all__ = ["replay_command", "verify_command"]


def _load(path: str):  # type: ignore[no-untyped-def]
    try:
        return load(path)
    except (HistoryError, EngineError) as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"{path}: {exc.strerror}") from None


def _hand_table(view: HandView, players: list[str]) -> Table:
    table = Table(show_lines=False)
    table.add_column("trick", justify="right")
    table.add_column("led by")
    table.add_column("cards")
    table.add_column("won by")
    for t in view.tricks:
        cards = "  ".join(f"{players[s]} {c}" for s, c in t.cards)
        table.add_row(str(t.number), players[t.leader], cards, f"[bold]{players[t.winner]}[/]")
    return table


@click.command("replay")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--hand", "only", type=int, default=None, help="Print this hand only.")
def replay_command(path: str, only: int | None) -> None:
    """Print the game in PATH trick by trick, with the running score."""
    record = _load(path)
    try:
        eng, views = replay(record)
    except EngineError as exc:
        raise click.ClickException(str(exc)) from None
    if only is not None and only not in [view.number for view in views]:
        raise click.ClickException(f"{path} has no hand {only}: its hands are 1 to "
                                   f"{len(views)}" if views else f"{path} has no hand")
    st = eng.state
    players = st.players
    sides = [st.side_name(i) for i in range(len(st.sides))]
    console = Console(highlight=False)
    head = "; ".join(f"{k} {v}" for k, v in record.tags.items())
    console.print(f"[bold]{st.variant.title}[/]: {', '.join(players)}")
    if head:
        console.print(head)
    for view in views:
        if only is not None and view.number != only:
            continue
        console.print(f"\n[bold]Hand {view.number}[/]: {players[view.dealer]} deals "
                      f"({view.deal})")
        if view.hands:
            for seat, cards in view.hands.items():
                console.print(f"  {players[seat]:>10}: {cards}")
        if view.bids:
            console.print("  auction: " + ", ".join(f"{players[s]} {b}" for s, b in view.bids))
        if view.contract:
            console.print(f"  contract: {view.contract}")
        if view.tricks:
            console.print(_hand_table(view, players))
        for r in view.revokes:
            console.print(f"  [red]revoke:[/] {r}")
        if view.totals:
            running = ", ".join(f"{name} {total} ({delta:+d})"
                                for name, total, delta in zip(sides, view.totals, view.deltas, strict=True))
            console.print(f"  {view.result}\n  score: {running}")
        elif view.result:
            console.print(f"  {view.result}")
    if st.game_over:
        winner = "nobody" if st.winner is None else sides[st.winner]
        console.print(f"\n[bold]game over[/]: {winner} wins")


@click.command("verify")
@click.argument("path", type=click.Path(dir_okay=False))
def verify_command(path: str) -> None:
    """Recompute every score and claim in PATH; list each difference (exit status 1)."""
    record = _load(path)
    diffs = verify(record)
    hands = len(record.hands)
    if not diffs:
        click.echo(f"{path}: {hands} hand(s) verified, no differences")
        return
    for diff in diffs:
        click.echo(f"{path}: {diff}")
    click.echo(f"{path}: {len(diffs)} difference(s)")
    raise SystemExit(1)

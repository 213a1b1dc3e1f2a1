"""``tricktable replay FILE`` and ``tricktable verify FILE``: hand histories at the terminal.

``replay`` prints a game hand by hand and trick by trick as the rules compute it: the hands
(as dealt, or as the play showed them), the up-card, the bidding and contract in words, who
led, the cards, who won (the revoking card and the card that proved it marked), the score; ``verify`` recomputes every claim of the file (dealt
hands, contract, trick winners, revokes, results, scores, the winner) and names each
difference, exiting with status 1 when there is one. Both read the text or JSON form, EGN, or
an EMN match (every game in turn, each under a line naming it) and refuse a malformed file
with a message naming the line (status 1, like a difference).
"""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from tricktable.engine import EngineError
from tricktable.history import GameRecord, HistoryError, verify
from tricktable.history.egn import HOUSE_RULE_TAG
from tricktable.history.replay import HandView, RevokeView, replay
from tricktable.history.verify import load_games
from tricktable.history.words import bid_words, contract_words, event_words, trump_words

__all__ = ["replay_command", "verify_command"]


def _load(path: str) -> list[tuple[str, GameRecord]]:
    try:
        return load_games(path)
    except (HistoryError, EngineError) as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"{path}: {exc.strerror}") from None


def _hand_table(view: HandView, players: list[str]) -> Table:
    """The tricks: the revoking card in red, the card that proved it in yellow."""
    marks: dict[tuple[int, str | None, int], list[str]] = {}
    for r in view.revokes:
        marks.setdefault((r.seat, r.card, r.trick), []).append("revoke")
        if r.proof:
            marks.setdefault((r.seat, r.proof, r.proven_in), []).append("proof")
    table = Table(show_lines=False)
    table.add_column("trick", justify="right")
    table.add_column("led by")
    table.add_column("cards")
    table.add_column("won by")
    for t in view.tricks:
        cards = "  ".join(_card(players[s], c, marks.get((s, c, t.number))) for s, c in t.cards)
        winner = "-" if t.winner is None else f"[bold]{players[t.winner]}[/]"
        table.add_row(str(t.number), players[t.leader], cards, winner)
    return table


def _card(who: str, card: str, marks: list[str] | None) -> str:
    if not marks:
        return f"{who} {card}"
    colour = "red" if "revoke" in marks else "yellow"
    return f"{who} [bold {colour}]{card}[/] ({', '.join(marks)})"


def _print_hand(console: Console, view: HandView, players: list[str], sides: list[str]) -> None:
    console.print(f"\n[bold]Hand {view.number}[/]: {players[view.dealer]} deals")
    source, hands = view.known_hands()
    if hands:
        label = {"deal": "as dealt", "scan": "as scanned", "play": "as played"}[source]
        console.print(f"  hands ({label}):")
        for seat, cards in hands.items():
            console.print(f"  {players[seat]:>10}: {' '.join(cards)}")
    if view.up_card:
        console.print(f"  up-card: {view.up_card}")
    if view.bids:
        console.print("  bidding: " + ", ".join(f"{players[s]} {bid_words(b)}"
                                                for s, b in view.bids))
    if view.contract:
        console.print(f"  contract: {contract_words(players, view.contract)}; "
                      f"trump {trump_words(view.trump)}")
    for e in view.exchanges:
        console.print(f"  {event_words(e, players)}")
    if view.tricks:
        console.print(_hand_table(view, players))
    for r in view.revokes:
        proof = f"; the proof: {r.proof}" if r.proof else ""
        console.print(f"  [red]revoke:[/] {players[r.seat]} played {r.card} in trick {r.trick} "
                      f"and did not follow {r.suit} ({_how(r)}){proof}")
    if view.totals:
        running = ", ".join(f"{name} {total} ({delta:+d})"
                            for name, total, delta in zip(sides, view.totals, view.deltas, strict=True))
        console.print(f"  {view.result}\n  score: {running}")
    elif view.result:
        console.print(f"  {view.result}")


def _how(r: RevokeView) -> str:
    if r.how == "hand":
        return "the hand held the suit"
    return f"showed out, then played {r.suit} in trick {r.proven_in}"


@click.command("replay")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--hand", "only", type=int, default=None, help="Print this hand only.")
def replay_command(path: str, only: int | None) -> None:
    """Print the game in PATH (a hand history, an EGN file, or each game of an EMN match)
    trick by trick."""
    console = Console(highlight=False)
    for label, record in _load(path):
        if label:
            console.print(f"\n[bold]== {label}[/]")
        _replay_game(console, path, record, only)


def _replay_game(console: Console, path: str, record: GameRecord, only: int | None) -> None:
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
    head = "; ".join(f"{k} {v}" for k, v in record.tags.items())
    console.print(f"[bold]{st.variant.title}[/]: {', '.join(players)}")
    if head:
        console.print(head)
    for view in views:
        if only is None or view.number == only:
            _print_hand(console, view, players, sides)
    if st.game_over:
        winner = "nobody" if st.winner is None else sides[st.winner]
        console.print(f"\n[bold]game over[/]: won by {winner}")  # "Bob & Di" is two people


@click.command("verify")
@click.argument("path", type=click.Path(dir_okay=False))
def verify_command(path: str) -> None:
    """Recompute every score and claim in PATH; list each difference (exit status 1)."""
    games = _load(path)
    found = 0
    for label, record in games:
        where = f"{path}: {label}" if label else path
        diffs = verify(record)
        found += len(diffs)
        if rule := record.tags.get(HOUSE_RULE_TAG):  # the file's play needed a house rule
            click.echo(f"{where}: read with the house rule {rule}")
        played = sum(1 for hand in record.hands if hand.actions)  # a hand only dealt to: none
        if not diffs:
            click.echo(f"{where}: {played} hand(s) verified, no differences" if played
                       else f"{where}: no hand was played, nothing to verify")
        for diff in diffs:
            click.echo(f"{where}: {diff}")
    if len(games) > 1:
        click.echo(f"{path}: {len(games)} games, {found} difference(s)")
    if found:
        if len(games) == 1:
            click.echo(f"{path}: {found} difference(s)")
        raise SystemExit(1)

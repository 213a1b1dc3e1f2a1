"""What a first night needs, made in one folder (``tricktable club init DIR``).

A club file like ``examples/club.toml`` (two Bid Euchre tables, their boards and pads) with its
``[host]`` section (docs/appliance.md), a deck registry holding one card deck (deck 1) and one
token set (deck 100) enrolled with the demo's virtual tags (``sim.kit.Kit``: the UIDs the demo's
boards read; a real deck is enrolled at the USB reader with ``tricktable enroll`` into the same
registry), a players file of eight and a night file for them: ``tricktable up --club
DIR/club.toml`` then starts a night whose host runs. Nothing is overwritten: a folder that
already holds one of these files is refused, naming it.
"""

from __future__ import annotations

from pathlib import Path

from tricktable.club.store import save_night
from tricktable.club.tournament import ProgressiveTournament
from tricktable.deckkit.decks import Registry
from tricktable.sim.kit import Kit
from tricktable.sim.table_sim import deck_cards

__all__ = ["FirstNightError", "make_first_night", "FILES"]

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
FILES = ("club.toml", "decks.sqlite", "players.txt", "night.json")
CARD_DECK, TOKEN_DECK = 1, 100


class FirstNightError(ValueError):
    """The folder cannot take a first night (a file would be overwritten)."""


def club_text(broker: str, web: str, console: str, tls_port: int) -> str:
    """The club file: the example's two tables and a ``[host]`` section."""
    return f"""# A first night's club file, made by `tricktable club init` (keys: docs/operations.md,
# docs/appliance.md). Start the night with: tricktable up --club club.toml

[club]
name = "Riverside Euchre Club"
prefix = "tricktable"          # MQTT topic prefix
registry = "decks.sqlite"      # enrolled decks (deck {CARD_DECK}: cards, deck {TOKEN_DECK}: tokens)
journal = "journal.sqlite"     # every play, journaled before it is applied

[host]
night = "night.json"           # tricktable club --night night.json new --players players.txt
broker = "{broker}"
tls_port = {tls_port}                # the boards' TLS port on the broker up starts
web = "{web}"                  # the TV and the phones: "0.0.0.0:8080" to reach them on the network
console = "{console}"          # the director console

[tables.t1]
variant = "bid-euchre"
players = ["Ann", "Bob", "Cy", "Di"]
deck = {CARD_DECK}
token_decks = [{TOKEN_DECK}]
displays = ["t1-score"]
[tables.t1.pads]                # "board:pad" = seat (0 = North, then East, South, West)
"t1-north:0" = 0
"t1-east:0" = 1
"t1-south:0" = 2
"t1-west:0" = 3

[tables.t2]
variant = "bid-euchre"
players = ["Eve", "Fay", "Gus", "Hal"]
deck = {CARD_DECK}
token_decks = [{TOKEN_DECK}]
[tables.t2.pads]
"t2-a:0" = 0
"t2-a:1" = 1
"t2-b:0" = 2
"t2-b:1" = 3
"""


def make_first_night(folder: Path, broker: str = "mqtt://127.0.0.1:1883",
                     web: str = "127.0.0.1:8080", console: str = "127.0.0.1:8081",
                     tls_port: int = 8883) -> list[Path]:
    """Write the first night's files into ``folder`` (made if need be); the files made."""
    folder.mkdir(parents=True, exist_ok=True)
    there = [name for name in FILES if (folder / name).exists()]
    if there:
        raise FirstNightError(f"{folder} already holds {', '.join(there)}: choose an empty "
                              "folder (nothing is overwritten)")
    (folder / "club.toml").write_text(club_text(broker, web, console, tls_port), encoding="utf-8")
    registry = Registry(folder / "decks.sqlite")
    try:
        Kit.enroll(registry, 0, deck_cards({"variant": "bid-euchre", "players": PLAYERS[:4]}),
                   card_deck=CARD_DECK, token_deck=TOKEN_DECK)
    finally:
        registry.close()
    (folder / "players.txt").write_text("".join(f"{p}\n" for p in PLAYERS), encoding="utf-8")
    save_night(ProgressiveTournament.new(PLAYERS, 2), folder / "night.json")
    return [folder / name for name in FILES]

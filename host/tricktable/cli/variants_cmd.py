"""``tricktable variants [NAME]``: the games the engine plays and their house-rule options.

Without a name, one line per variant (players, deck, options with their defaults); with a
name (or alias), the variant in full: players, deck per player count, cards, partnerships,
bids, trumps, and every option with its type, default and the seed passage behind it.
``--json`` prints the same as JSON.
"""

from __future__ import annotations

import json
import typing
from typing import Any

import click

from tricktable.rules import UnknownVariant, get_variant, list_variants
from tricktable.rules.base import CommonOptions, Variant, option_docs

__all__ = ["variants", "describe"]


def _type_name(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return " | ".join(repr(a) for a in typing.get_args(hint))
    if origin is not None and type(None) in typing.get_args(hint):
        inner = [h for h in typing.get_args(hint) if h is not type(None)]
        return " | ".join(_type_name(h) for h in inner) + " | null"
    return getattr(hint, "__name__", str(hint))


def describe(variant: Variant) -> dict[str, Any]:
    """Everything ``tricktable variants NAME`` shows, as JSON-able data."""
    hints = typing.get_type_hints(variant.Options)
    defaults = variant.Options()
    return {
        "name": variant.name,
        "title": variant.title,
        "aliases": list(variant.aliases),
        "players": sorted(variant.seat_counts),
        "decks": {n: variant.deck(n, defaults).size for n in sorted(variant.seat_counts)},
        "cards_per_hand": {n: variant.hand_size(n, defaults) for n in sorted(variant.seat_counts)},
        "partnerships": variant.partnerships,
        "bids": list(variant.bid_ladder),
        "trumps": list(variant.trump_names),
        "options": [{"name": name, "type": _type_name(hints[name]), "default": default,
                     "doc": doc} for name, default, doc in option_docs(variant.Options)],
    }


COMMON = tuple(name for name, _, _ in option_docs(CommonOptions))


def _summary(info: dict[str, Any]) -> str:
    """Two lines; the options every variant shares are left to the full view."""
    players = "/".join(map(str, info["players"]))
    decks = "/".join(str(s) for s in dict.fromkeys(info["decks"].values()))
    opts = ", ".join(f"{o['name']}={json.dumps(o['default'])}" for o in info["options"]
                     if o["name"] not in COMMON)
    return (f"{info['name']:<22} {info['title']}\n{'':<22} players {players}, "
            f"{decks} cards; options: {opts}")


def _full(info: dict[str, Any]) -> str:
    lines = [f"{info['name']}: {info['title']}"]
    if info["aliases"]:
        lines.append(f"aliases: {', '.join(info['aliases'])}")
    lines += [f"{n} players: {info['decks'][n]} cards, {info['cards_per_hand'][n]} each"
              for n in info["players"]]
    lines += ["partnerships" if info["partnerships"] else "each player for themselves",
              f"bids: {' '.join(info['bids'])}",
              f"trumps: {' '.join(info['trumps'])}",
              "options:"]
    lines.append(f"  (every variant also has: {', '.join(COMMON)})")
    for o in info["options"]:
        lines.append(f"  {o['name']} ({o['type']}) = {json.dumps(o['default'])}")
        lines.append(f"      {o['doc']}")
    return "\n".join(lines)


@click.command("variants")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def variants(name: str | None, as_json: bool) -> None:
    """List the variants and their options, or show one variant in full."""
    try:
        chosen = [get_variant(name)] if name else [get_variant(v) for v in list_variants()]
    except UnknownVariant as exc:
        raise click.BadParameter(str(exc), param_hint="NAME") from None
    infos = [describe(v) for v in chosen]
    if as_json:
        click.echo(json.dumps(infos[0] if name else infos, indent=2))
    elif name:
        click.echo(_full(infos[0]))
    else:
        click.echo("\n".join(_summary(i) for i in infos))

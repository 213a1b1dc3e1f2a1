"""The statistics in the club's words, for pages, reports and the CLI (docs/stats.md has the
exact definitions). ``summary(family, counts)`` turns a player's (or partnership's) counters
into the lines a page shows: counts and the rates worked out from them.
"""

from __future__ import annotations

__all__ = ["summary", "bid_words"]

def _rate(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "–"


def _per(total: int, hands: int) -> str:
    return f"{total / hands:.2f}" if hands else "–"


def bid_words(family: str, level: str) -> str:
    """A bid level as the club says it."""
    if family == "euchre":
        return {"order_up": "Ordered up", "call": "Called in round two"}.get(level, level)
    if family == "spades":
        return f"Bid {level}"
    return {"PEPPER:SMALL": "Small pepper", "PEPPER:BIG": "Big pepper"}.get(level, f"Bid {level}")


def summary(family: str, c: dict[str, int], own: bool = True) -> list[tuple[str, str]]:
    """(label, value) lines for one family's counters: a player's (``own``) or a
    partnership's (no bidding lines of one player: tricks of their own, revokes)."""
    hands = c.get("hands", 0)
    lines = [("Hands played", str(hands)),
             ("Points per hand", _per(c.get("points", 0), hands)),
             ("Tricks per hand (own)", _per(c.get("tricks", 0), hands)) if own else ("", ""),
             ("Tricks per hand (side)", _per(c.get("side_tricks", 0), hands))]
    if family == "spades":
        lines += [("Contracts made", _rate(c.get("made", 0), c.get("contracts", 0))),
                  ("Sets suffered", str(c.get("set_suffered", 0))),
                  ("Sets inflicted", str(c.get("set_inflicted", 0))),
                  ("Bags", str(c.get("bags", 0))),
                  ("Nil made", _rate(c.get("nil:made", 0), c.get("nil", 0))),
                  ("Blind nil made", _rate(c.get("blind_nil:made", 0), c.get("blind_nil", 0)))]
    else:
        euchred = "Euchred" if family == "euchre" else "Sets suffered"
        lines += [("Contracts won at auction", str(c.get("declared", 0))),
                  ("Made as bidder", _rate(c.get("declared:made", 0), c.get("declared", 0))),
                  ("Side contracts made", _rate(c.get("made", 0), c.get("contracts", 0))),
                  (euchred, str(c.get("set_suffered", 0))),
                  ("Euchres inflicted" if family == "euchre" else "Sets inflicted",
                   str(c.get("set_inflicted", 0))),
                  ("Loners made", _rate(c.get("alone:made", 0), c.get("alone", 0))),
                  ("Tricks per hand as bidder", _per(c.get("bidder_tricks", 0),
                                                     c.get("bidder_hands", 0))),
                  ("Tricks per hand as defender", _per(c.get("defender_tricks", 0),
                                                       c.get("defender_hands", 0)))]
        if family == "euchre":
            lines.append(("Marches", str(c.get("march", 0))))
        else:
            lines += [("Pepper made", _rate(c.get("pepper:made", 0), c.get("pepper", 0))),
                      ("No trump made", _rate(c.get("notrump:made", 0), c.get("notrump", 0)))]
    levels = sorted({k.split(":")[1] for k in c if k.startswith("bid:")},
                    key=lambda x: (not x.isdigit(), int(x) if x.isdigit() else 0, x))
    for level in levels:
        lines.append((f"{bid_words(family, level)}: made", _rate(
            c.get(f"bid:{level}:made", 0), c.get(f"bid:{level}", 0))))
    trumps = sorted(k for k in c if k.startswith("trump:"))
    if trumps:
        lines.append(("Trump called", ", ".join(f"{k[6:]} {c[k]}" for k in trumps)))
    if own:
        lines.append(("Revokes", str(c.get("revokes", 0))))
    return [line for line in lines if line[0]]

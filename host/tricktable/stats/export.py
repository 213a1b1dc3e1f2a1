"""CSV exports of every table of the club database, and a night's hand records as one file.

``csv_exports(stats)`` gives ``{file name: CSV text}``: ``players.csv``, ``nights.csv``,
``hands.csv``, ``stats.csv`` (each player's counters per family, gathered over their names),
``partnerships.csv``, ``revokes.csv``, ``night_results.csv``, ``ratings.csv``,
``seasons.csv``. Rows are sorted by their keys and numbers are written the same way every
time, so two databases holding the same statistics give byte-identical files: that is how a
rebuild is checked against the incremental path. Exports are the club's own: hidden players
appear by name (the ``hidden`` column says so). A text cell a spreadsheet would run as a
formula gets a leading apostrophe, as in the night's CSV (``club.scorecard``). ``night_hand_records(night)`` writes every
game of a night's journal in the hand-history text form, one after another (each begins with
its ``% tricktable hand history 1`` line; ``split_records`` reads them apart).
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from tricktable.club.scorecard import spreadsheet_cell
from tricktable.history import write_text
from tricktable.protocol import natural_key
from tricktable.serve.journal import Journal
from tricktable.stats.store import Night, Stats

__all__ = ["csv_exports", "write_exports", "night_hand_records", "split_records", "HEADER"]

HEADER = "% tricktable hand history 1"


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([spreadsheet_cell(c) for c in row] for row in rows)
    return out.getvalue()


def csv_exports(stats: Stats) -> dict[str, str]:
    """Every table as CSV text (see the module docstring)."""
    q = stats.db.query
    players = stats.players.all(merged=True)
    owner = stats.players.key_owners()
    files = {"players.csv": _csv(
        ("id", "name", "nickname", "active", "hidden", "merged_into", "names", "tags"),
        [(p.id, p.name, p.nickname, int(p.active), int(p.hidden),
          q("SELECT merged_into FROM players WHERE id = ?", (p.id,))[0][0] or "",
          " | ".join(p.names), " ".join(p.tags)) for p in sorted(players, key=lambda p: p.id)])}
    files["nights.csv"] = _csv(("id", "name", "played", "closed"),
                               q("SELECT id, name, played, closed FROM nights ORDER BY id"))
    hands = q("SELECT night, table_id, game, hand, variant, family, players, contract, bids, "
              "tricks, deltas, scores, detail FROM hands")
    hands.sort(key=lambda r: (r[0], natural_key(r[1]), r[2], r[3]))
    files["hands.csv"] = _csv(
        ("night", "table", "game", "hand", "variant", "family", "players", "contract", "bids",
         "tricks", "points", "scores", "result"),
        [(*r[:6], " | ".join(json.loads(r[6])), _contract(r[7]),
          " ".join(f"{s}:{b}" for s, b in json.loads(r[8])),
          " ".join(map(str, json.loads(r[9]))), " ".join(map(str, json.loads(r[10]))),
          " ".join(map(str, json.loads(r[11]))), r[12]) for r in hands])
    own: dict[tuple[int, str, str], int] = defaultdict(int)
    pairs: dict[tuple[int, int, str, str], int] = defaultdict(int)
    for name, partner, family, stat, value in q("SELECT * FROM counts"):
        if partner:
            a, b = sorted((owner.get(name, 0), owner.get(partner, 0)))
            pairs[(a, b, family, stat)] += value
        else:
            own[(owner.get(name, 0), family, stat)] += value
    files["stats.csv"] = _csv(("player", "family", "stat", "value"),
                              [(*k, v) for k, v in sorted(own.items())])
    files["partnerships.csv"] = _csv(("player", "partner", "family", "stat", "value"),
                                     [(*k, v) for k, v in sorted(pairs.items())])
    revokes = q("SELECT night, table_id, game, hand, seat, name, trick, suit, proof, proven_in "
                "FROM revokes")
    revokes.sort(key=lambda r: (r[0], natural_key(r[1]), *r[2:5], *r[6:]))
    files["revokes.csv"] = _csv(("night", "table", "game", "hand", "seat", "player", "trick",
                                 "suit", "proof", "proven_in"),
                                [(*r[:5], owner.get(r[5], 0), *r[6:]) for r in revokes])
    results: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for night, name, points, won, played in q("SELECT * FROM night_results"):
        row = results[(night, owner.get(name, 0))]
        row[0], row[1], row[2] = row[0] + points, row[1] + won, row[2] + played
    files["night_results.csv"] = _csv(("night", "player", "points", "won", "played"),
                                      [(*k, *v) for k, v in sorted(results.items())])
    files["ratings.csv"] = _csv(("night", "player", "mu", "sigma", "games"),
                                [(n, p, f"{mu:.6f}", f"{sigma:.6f}", g) for n, p, mu, sigma, g in
                                 q("SELECT * FROM ratings ORDER BY night, player")])
    files["seasons.csv"] = _csv(("season", "name", "ladder", "best", "night"), q(
        "SELECT s.id, s.name, s.ladder, s.best, COALESCE(n.night, '') FROM seasons s "
        "LEFT JOIN season_nights n ON n.season = s.id ORDER BY s.id, n.night"))
    return files


def _contract(text: str) -> str:
    contract = json.loads(text)
    if not contract:
        return ""
    return " ".join(str(x) for x in (contract["bid"], contract["trump"], f"by seat {contract['seat']}",
                                     "alone" if contract.get("alone") else "") if x)


def write_exports(stats: Stats, directory: Path) -> list[Path]:
    """Write ``csv_exports`` into ``directory``; returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in csv_exports(stats).items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def night_hand_records(night: Night) -> str:
    """Every game of the night's journal with a scored hand, as hand-history text, table by
    table and game by game, in one file."""
    texts = []
    with Journal(night.journal, readonly=True) as journal:
        for table in sorted(journal.tables(), key=natural_key):
            for record in journal.games(table):
                if not record.actions:
                    continue
                history = journal.history(table, record.game)
                if any(("score",) in hand.claims for hand in history.hands):
                    history.tags["Event"] = night.name
                    texts.append(write_text(history))
    return "\n".join(texts)


def split_records(text: str) -> list[str]:
    """The games of a file written by ``night_hand_records``, each as its own text."""
    parts = text.split(HEADER)
    return [HEADER + part.rstrip("\n") + "\n" for part in parts[1:]]

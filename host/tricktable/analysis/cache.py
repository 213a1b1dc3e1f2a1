"""The analysis cache: a game's analysis kept as JSON beside its hand history or journal.

``cached_analysis(record, cache)`` reads the analysis of ``record`` from the file ``cache``
when it is of this record (the SHA-256 of its JSON hand history) and of the current format,
else works it out with ``analysis.hand.analyse_game`` and writes it there. With
``single_dummy`` (``analysis.decisions.Settings``: a seed and samples a decision) the
analysis also holds single dummy (``with_single_dummy``: each hand's ``decisions`` and the
top-level ``single_dummy``), kept beside the double dummy in the same file: a cache with
single dummy of other settings (or none) has it worked out again, its double dummy kept. Where the files
go: ``file_cache(path)`` (``FILE.analysis.json``) and ``journal_cache(path, table, game)``
(``JOURNAL.analysis/{table}-game{n}.json``); ``kept_analysis`` only reads. Used by ``tricktable analyse`` and the replay
page.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tricktable.analysis.decisions import FORMAT as SD_FORMAT
from tricktable.analysis.decisions import Cancel, Memo, Progress, Settings, analyse_decisions
from tricktable.analysis.hand import FORMAT, analyse_game
from tricktable.history import GameRecord, write_json

__all__ = ["cached_analysis", "kept_analysis", "file_cache", "journal_cache",
           "with_single_dummy", "holds_single_dummy"]

_log = logging.getLogger(__name__)


def file_cache(path: Path) -> Path:
    """Where the analysis of the hand-history file ``path`` is kept."""
    return path.with_name(path.name + ".analysis.json")


def journal_cache(path: Path, table: str, game: int) -> Path:
    """Where the analysis of game ``game`` of ``table`` in the journal ``path`` is kept."""
    return path.with_name(path.name + ".analysis") / f"{table}-game{game}.json"


def kept_analysis(record: GameRecord, cache: Path,
                  single_dummy: Settings | None = None) -> dict[str, Any] | None:
    """The analysis in ``cache`` when it is of ``record`` and of this format (and, with
    ``single_dummy``, holds single dummy by those settings), else None."""
    kept = _kept(record, cache)
    if kept is None or (single_dummy is not None and not holds_single_dummy(kept, single_dummy)):
        return None
    return kept


def _kept(record: GameRecord, cache: Path) -> dict[str, Any] | None:
    return _of_record(_read(cache), record)


def _of_record(kept: dict[str, Any] | None, record: GameRecord) -> dict[str, Any] | None:
    return kept if kept is not None and kept.get("record_sha256") == _digest(record) else None


def _read(cache: Path) -> dict[str, Any] | None:
    """The analysis in ``cache`` when it is of this format, of whatever record."""
    try:
        kept = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return kept if isinstance(kept, dict) and kept.get("format") == FORMAT else None


def _weighed(kept: dict[str, Any] | None, settings: Settings) -> Memo:
    """The decisions ``kept`` holds weighed with ``settings``, by hand key and index (a
    game's earlier analysis: the hands it shares with the game now are not weighed again)."""
    if kept is None or not holds_single_dummy(kept, settings):
        return {}
    return {(hand["decisions_key"], i): decision
            for hand in [*kept["hands"], *kept.get("hands_not_played", [])]
            if "decisions_key" in hand
            for i, decision in enumerate(hand["decisions"])}


def holds_single_dummy(kept: dict[str, Any], settings: Settings) -> bool:
    """Whether ``kept`` holds single dummy worked out with ``settings``."""
    sd = kept.get("single_dummy")
    return isinstance(sd, dict) and sd.get("format") == SD_FORMAT \
        and sd.get("seed") == settings.seed and sd.get("samples") == settings.samples


def with_single_dummy(analysis: dict[str, Any], record: GameRecord, settings: Settings,
                      cancel: Cancel | None = None, progress: Progress | None = None,
                      memo: Memo | None = None) -> dict[str, Any]:
    """``analysis`` (``analysis.hand``'s, of ``record``) with single dummy added: each hand's
    ``decisions`` (``analysis.decisions``; and ``decisions_none``, why a hand has none) and
    ``decisions_key`` (the hand's key, ``analysis.decisions.Memo``), the hands passed out (no
    play, so not in ``hands``) with their auction's decisions in ``hands_not_played``, and
    the top-level ``single_dummy``: the settings and ``method``, ``exact`` when every
    decision counted every layout. ``memo``: decisions weighed before (taken, and added to)."""
    found = analyse_decisions(record, seed=settings.seed, samples=settings.samples,
                              cancel=cancel, progress=progress, memo=memo)
    by_number = {h["hand_number"]: h for h in found}
    hands = []
    exact = True
    for hand in analysis["hands"]:
        sd = by_number.get(hand["hand_number"], {"decisions": []})
        hand = {k: v for k, v in hand.items()
                if k not in ("decisions", "decisions_none", "decisions_key")}
        hand["decisions"] = sd["decisions"]
        if "key" in sd:
            hand["decisions_key"] = sd["key"]
        if "none" in sd:
            hand["decisions_none"] = sd["none"]
        exact = exact and all(d["exact"] for d in sd["decisions"])
        hands.append(hand)
    numbers = {h["hand_number"] for h in hands}
    unplayed = [{"hand_number": h["hand_number"], "decisions_key": h["key"],
                 "decisions": h["decisions"]}
                for h in found if h["hand_number"] not in numbers and h["decisions"]]
    exact = exact and all(d["exact"] for h in unplayed for d in h["decisions"])
    return analysis | {"hands": hands, "hands_not_played": unplayed,
                       "single_dummy": settings.to_json("exact" if exact else "sampled")}


def cached_analysis(record: GameRecord, cache: Path,
                    warn: Callable[[str], None] = _log.warning,
                    single_dummy: Settings | None = None,
                    progress: Progress | None = None,
                    cancel: Cancel | None = None,
                    memo: Memo | None = None) -> dict[str, Any]:
    """The analysis of ``record``, read from ``cache`` when it is of this record and format
    (and holds single dummy by ``single_dummy``'s settings when asked for), else computed
    (the double dummy kept when only the single dummy is missing) and written there;
    ``cancel``, ``progress(done, total)`` and ``memo`` go to single dummy
    (``analysis.decisions``: cancelled, it raises ``Cancelled`` and nothing is written; the
    decisions weighed so far are in ``memo``), which takes the decisions of the hands the
    game shared with the cache's earlier analysis (a game still in play) from there. A cache
    that cannot be written is said with ``warn`` and the analysis returned all the same."""
    earlier = _read(cache)
    kept = _of_record(earlier, record)
    if kept is not None and (single_dummy is None or holds_single_dummy(kept, single_dummy)):
        return kept
    result = kept or analyse_game(record) | {"record_sha256": _digest(record)}
    if single_dummy is not None:
        memo = {} if memo is None else memo
        for key, decision in _weighed(earlier, single_dummy).items():
            memo.setdefault(key, decision)
        result = with_single_dummy(result, record, single_dummy, cancel=cancel,
                                   progress=progress, memo=memo)
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(cache.name + ".tmp")
        tmp.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        tmp.replace(cache)
    except OSError as exc:
        warn(f"note: the analysis is not cached: {cache}: {exc.strerror}")
    return result


def _digest(record: GameRecord) -> str:
    return hashlib.sha256(write_json(record).encode()).hexdigest()

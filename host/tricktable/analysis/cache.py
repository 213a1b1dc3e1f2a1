"""The analysis cache: a game's analysis kept as JSON beside its hand history or journal.

``cached_analysis(record, cache)`` reads the analysis of ``record`` from the file ``cache``
when it is of this record (the SHA-256 of its JSON hand history) and of the current format,
else works it out with ``analysis.hand.analyse_game`` and writes it there. Where the files
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

from tricktable.analysis.hand import FORMAT, analyse_game
from tricktable.history import GameRecord, write_json

__all__ = ["cached_analysis", "kept_analysis", "file_cache", "journal_cache"]

_log = logging.getLogger(__name__)


def file_cache(path: Path) -> Path:
    """Where the analysis of the hand-history file ``path`` is kept."""
    return path.with_name(path.name + ".analysis.json")


def journal_cache(path: Path, table: str, game: int) -> Path:
    """Where the analysis of game ``game`` of ``table`` in the journal ``path`` is kept."""
    return path.with_name(path.name + ".analysis") / f"{table}-game{game}.json"


def kept_analysis(record: GameRecord, cache: Path) -> dict[str, Any] | None:
    """The analysis in ``cache`` when it is of ``record`` and of this format, else None."""
    try:
        kept = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(kept, dict) and kept.get("record_sha256") == _digest(record) \
            and kept.get("format") == FORMAT:
        return kept
    return None


def cached_analysis(record: GameRecord, cache: Path,
                    warn: Callable[[str], None] = _log.warning) -> dict[str, Any]:
    """The analysis of ``record``, read from ``cache`` when it is of this record and format,
    else computed and written there; a cache that cannot be written is said with ``warn``
    and the analysis returned all the same."""
    kept = kept_analysis(record, cache)
    if kept is not None:
        return kept
    result = analyse_game(record) | {"record_sha256": _digest(record)}
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

"""The seasoned club the statistics tests share (``conftest.seasoned`` plays it): what it is
and where its files are."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

VARIANTS = ("bid-euchre", "euchre", "spades")
TABLES, ROUNDS, HANDS = 2, 2, 2


@dataclass(frozen=True)
class SeasonedClub:
    db: Path
    nights: dict[str, tuple[Path, Path]]
    """variant -> (journal, night file); each night is named after its variant."""

    def copy_db(self, to: Path) -> Path:
        target = to / "club.sqlite"
        shutil.copyfile(self.db, target)
        return target

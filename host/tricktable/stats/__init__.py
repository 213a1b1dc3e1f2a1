"""Statistics, ratings and seasons from the journals (docs/stats.md).

``facts`` reads what each scored hand was from a journaled game; ``counting`` turns a hand
into per-player and per-partnership counters; ``store`` keeps them in the club database
(incremental, or rebuilt from the journals); ``follow`` keeps them as a service scores hands;
``rating`` rates partnership play with openskill; ``seasons`` ranks a set of nights;
``export`` writes CSV and a night's hand records. The journal stays the one source of truth.
"""

from tricktable.stats.facts import FAMILIES, HandFacts, family_of, game_facts
from tricktable.stats.store import Night, Stats

__all__ = ["FAMILIES", "HandFacts", "family_of", "game_facts", "Night", "Stats"]

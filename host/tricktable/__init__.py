"""tricktable: an instrumented card table for Bid Euchre, Euchre and Spades.

The host package. Each submodule holds one idea (see docs/architecture.md):
``cards`` (suits, ranks, decks), ``rules`` (one declared variant per game family),
``engine`` (the pure state machine of one table), ``history`` (hand-history format),
``protocol``/``journal``/``table``/``service`` (the MQTT host), ``club``, ``web``,
``sim`` and ``cli``. Importing the package imports nothing else.
"""

__version__ = "0.1.0"

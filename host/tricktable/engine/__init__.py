"""The rules engine: the pure, deterministic state machine of one table.

``Engine.new(variant, options=..., seed=..., dealer=..., players=...)`` builds a table;
``legal_actions()`` lists what may be done; ``apply(action) -> Outcome`` does it or refuses it
with a stable code (``engine.refusals``) and a reason, changing nothing. ``engine.actions``/
``engine.events`` hold the serialisable actions and events; ``engine.state`` the data,
``engine.cardplay`` the hot path, ``engine.core`` the phases (``rules.base.Phase``). See docs/architecture.md, "The engine contract".
"""

from tricktable.engine.core import Engine, EngineError, Outcome

__all__ = ["Engine", "EngineError", "Outcome"]

"""The variant registry: every game the engine plays, by name.

``get_variant(name)`` returns the declared ``Variant`` (aliases accepted, case-insensitive),
``list_variants()`` their names. A variant module registers itself by being listed in
``_MODULES``; modules are imported on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from tricktable.rules.base import Variant

__all__ = ["get_variant", "list_variants", "recorded_options", "UnknownVariant", "Variant"]

_MODULES = (
    "tricktable.rules.bid_euchre",
    "tricktable.rules.euchre",
    "tricktable.rules.spades",
    "tricktable.rules.pepper",
    "tricktable.rules.buck_euchre",
    "tricktable.rules.eau_claire",
    "tricktable.rules.pfeffer",
    "tricktable.rules.hasenpfeffer",
    "tricktable.rules.double_deck",
    "tricktable.rules.double_hasenpfeffer",
    "tricktable.rules.jucker",
)
"""Variant modules; each defines ``VARIANTS``, a tuple of ``Variant`` instances."""

_REGISTRY: dict[str, Variant] = {}
_ALIASES: dict[str, str] = {}


class UnknownVariant(KeyError):
    """No variant by that name."""

    def __str__(self) -> str:
        return str(self.args[0])


def _load() -> None:
    if _REGISTRY:
        return
    for module_name in _MODULES:
        module = importlib.import_module(module_name)
        for variant in module.VARIANTS:
            _REGISTRY[variant.name] = variant
            for alias in (variant.name, *variant.aliases):
                _ALIASES[alias.lower()] = variant.name


def get_variant(name: str) -> Variant:
    """The variant called ``name`` or one of its aliases."""
    _load()
    key = _ALIASES.get(name.lower())
    if key is None:
        raise UnknownVariant(f"unknown variant {name!r}; known: {', '.join(list_variants())}")
    return _REGISTRY[key]


def list_variants() -> list[str]:
    """Every variant name, sorted."""
    _load()
    return sorted(_REGISTRY)


def recorded_options(variant: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The house rules of a stored game (a journal's setup, a hand history, an EGN file):
    ``options`` with each option the variant's setups always state (``Variant.stated_options``)
    that this record does not state set to the rule played before the option existed, so an
    old record replays under the rules it was played by. An unknown variant: unchanged (the
    engine says why when it is built)."""
    out = dict(options or {})
    try:
        stated = get_variant(variant).stated_options
    except UnknownVariant:
        return out
    for name, before in stated:
        out.setdefault(name, before)
    return out

"""The EGN project's published schemas, as its own validator reads them, for the suite.

``egn_errors(doc)`` and ``emn_errors(doc)`` list what the JSON Schema validator (PyPI
``jsonschema``, Draft 7 as the schemas declare, with format checks as the project's Ajv with
ajv-formats makes them) finds wrong in an EGN or EMN document, against the schema files kept
as test data in ``tests/data/egn`` (Apache-2.0, their source named in its README). The EMN
schema's ``$ref`` to ``../egn-schema-v1.json`` is resolved to the EGN schema, as the EMN
specification's games are "inline embedding of sub-EGN games"; ``emn_errors`` also checks
what the specification says in words: "Every game in games contains an array of exactly 4
player ID strings matching master IDs in metadata.players", and each ``gameData`` is EGN.
An empty list means the document validates.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator, FormatChecker
from referencing import Registry, Resource

DATA = Path(__file__).parent / "data" / "egn"
EGN_SCHEMA = json.loads((DATA / "schemas" / "egn-schema-v1.json").read_text())
EMN_SCHEMA = json.loads((DATA / "schemas" / "emn" / "emn-schema-v1.json").read_text())
_EGN = Draft7Validator(EGN_SCHEMA, format_checker=FormatChecker())
_EMN = Draft7Validator(EMN_SCHEMA, format_checker=FormatChecker(), registry=Registry().with_resource(
    "../egn-schema-v1.json", Resource.from_contents(EGN_SCHEMA)))


def _messages(validator: Draft7Validator, doc: Any, where: str = "") -> list[str]:
    return [f"{where}/{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in sorted(validator.iter_errors(doc), key=str)]


def egn_errors(doc: Any) -> list[str]:
    """What the EGN schema refuses in ``doc`` (empty: it validates)."""
    return _messages(_EGN, doc)


def emn_errors(doc: Any) -> list[str]:
    """What the EMN schema and specification refuse in ``doc`` (empty: it validates)."""
    errors = _messages(_EMN, doc)
    if errors:
        return errors
    ids = [p["id"] for p in doc["metadata"]["players"]]
    if len(set(ids)) != len(ids):
        errors.append("/metadata/players: the player ids are not unique")
    for i, game in enumerate(doc["games"]):
        unknown = set(game["players"]) - set(ids)
        if unknown:
            errors.append(f"/games/{i}/players: {sorted(unknown)} not in metadata.players")
        errors += _messages(_EGN, game["gameData"], f"/games/{i}/gameData")
    return errors

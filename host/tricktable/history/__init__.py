"""Hand histories: the game record, its text and JSON forms, replay and verify.

``record_from_engine(engine)`` captures a game; ``write_text``/``read_text`` and
``write_json``/``read_json`` store it (docs/hand-history.md); ``verify(record)`` replays it
and names every recorded claim the rules do not reproduce; ``load(path)`` reads either form.
"""

from tricktable.history.jsonfmt import read_json, write_json
from tricktable.history.record import GameRecord, HandRecord, capture, record_from_engine
from tricktable.history.text import HistoryError, read_text, write_text
from tricktable.history.verify import Difference, load, verify

__all__ = [
    "GameRecord", "HandRecord", "capture", "record_from_engine", "read_text", "write_text",
    "read_json", "write_json", "HistoryError", "Difference", "verify", "load",
]

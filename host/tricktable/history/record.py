"""The game record: a game's setup, its actions grouped by hand, and what each hand claims.

A ``GameRecord`` is what both formats (text and JSON) hold: ``tags`` (event, date, table
...), ``config`` (variant, options, seed, first dealer, players: what ``Engine.new`` takes)
and ``hands``. A ``HandRecord`` holds the hand's actions in order and its *claims*: facts a
reader can check (the dealt hands, the up-card, the contract, each trick's winner, revokes,
the result and the score), keyed so that the recorded and the recomputed claims of a hand
can be compared (``history.verify``). ``capture(config, actions)`` replays actions on an
engine and records the claims as the engine computes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tricktable.engine import Engine, EngineError
from tricktable.engine.actions import Action, Deal

__all__ = ["GameRecord", "HandRecord", "Claim", "ClaimKey", "capture", "record_from_engine",
           "contract_text", "score_text", "trimmed", "EngineError"]

ClaimKey = tuple[Any, ...]
"""("dealt", seat) ("up_card",) ("contract",) ("trick", n) ("revoke", i) ("result",)
("score",) ("game_over",)."""


@dataclass
class Claim:
    """One checkable fact about a hand; ``line`` is where a text file stated it."""

    value: Any
    line: int | None = None


@dataclass
class HandRecord:
    number: int
    dealer: int
    actions: list[Action] = field(default_factory=list)
    lines: list[int | None] = field(default_factory=list)
    """The text line of each action (None when it came from JSON or an engine)."""
    claims: dict[ClaimKey, Claim] = field(default_factory=dict)
    line: int | None = None
    trick_ends: set[int] = field(default_factory=set)
    """Indexes into ``actions`` of the plays that completed a trick (for the text writer)."""


@dataclass
class GameRecord:
    tags: dict[str, str]
    config: dict[str, Any]
    hands: list[HandRecord]
    game_claims: dict[ClaimKey, Claim] = field(default_factory=dict)

    def actions(self) -> list[Action]:
        return [a for h in self.hands for a in h.actions]

    @property
    def players(self) -> list[str]:
        return list(self.config["players"])


def record_from_engine(engine: Engine, tags: Mapping[str, str] | None = None) -> GameRecord:
    """The record of everything ``engine`` has accepted so far."""
    return capture(engine.config, engine.actions, tags)


def capture(config: Mapping[str, Any], actions: Iterable[Action],
            tags: Mapping[str, str] | None = None,
            lines: Iterable[int | None] | None = None) -> GameRecord:
    """Replay ``actions`` from ``config`` and record each hand's claims as computed.

    Raises ``EngineError`` naming the action (and its line, when ``lines`` are given) if
    one is refused."""
    eng = Engine.new(config["variant"], config.get("options"), config.get("seed", 0),
                     config.get("dealer", 0), config.get("players"))
    st = eng.state
    record = GameRecord(dict(tags or {}), dict(eng.config), [HandRecord(1, st.dealer)])
    line_iter = iter(lines) if lines is not None else None
    for i, action in enumerate(actions):
        line = next(line_iter, None) if line_iter is not None else None
        hand = record.hands[-1]
        out = eng.apply(action)
        if not out.ok:
            where = f"line {line}" if line else f"action {i + 1}"
            raise EngineError(f"{where}: {out.reason or out.code} ({out.code})")
        hand.actions.append(action)
        hand.lines.append(line)
        if isinstance(action, Deal):
            for seat in range(st.n):
                hand.claims[("dealt", seat)] = Claim(" ".join(eng.known_hand(seat)))
        for event in out.events:
            if event.TYPE == "trick_won":
                hand.trick_ends.add(len(hand.actions) - 1)
            _claim(eng, record, event.to_json())
    return record


def _claim(eng: Engine, record: GameRecord, e: dict[str, Any]) -> None:
    st = eng.state
    hand = record.hands[-1]
    names = st.players
    kind = e["type"]
    if kind == "up_card":
        hand.claims[("up_card",)] = Claim(e["card"])
    elif kind == "trump":
        c = st.contract
        assert c is not None
        hand.claims[("contract",)] = Claim(contract_text(names, c.to_json()))
    elif kind == "trick_won":
        hand.claims[("trick", e["trick"])] = Claim(names[e["winner"]])
    elif kind == "revoke":
        n = sum(1 for k in hand.claims if k[0] == "revoke")
        hand.claims[("revoke", n + 1)] = Claim(
            f"{names[e['seat']]} {e['trick']} {e['suit']} {e['proof']} {e['proven_in']}")
    elif kind == "hand_scored":
        hand.claims[("result",)] = Claim(e["detail"])
        hand.claims[("score",)] = Claim(score_text(e["deltas"], e["scores"]))
    elif kind == "passed_out":
        hand.claims[("result",)] = Claim("passed out")
    elif kind == "hand_started":
        record.hands.append(HandRecord(e["hand_number"], e["dealer"]))
    elif kind == "game_over":
        winner = e["winner"]
        record.game_claims[("game_over",)] = Claim(
            "none" if winner is None else st.side_name(winner))


def contract_text(names: list[str], c: Mapping[str, Any]) -> str:
    """``4 NT by Bob`` (``alone``/``forced`` appended when so)."""
    extra = (" alone" if c["alone"] else "") + (" forced" if c["forced"] else "")
    return f"{c['bid']} {c['trump'] or '-'} by {names[c['seat']]}{extra}"


def score_text(deltas: Iterable[int], totals: Iterable[int]) -> str:
    """``+5 -6 / 12 -3``: the change per side, then the running totals."""
    return " ".join(f"{d:+d}" for d in deltas) + " / " + " ".join(str(t) for t in totals)


def trimmed(record: GameRecord) -> GameRecord:
    """The record without a trailing empty hand (the one a finished hand opens)."""
    hands = [h for h in record.hands if h.actions or h.claims]
    return GameRecord(record.tags, record.config, hands or record.hands[:1], record.game_claims)


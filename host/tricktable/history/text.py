"""The hand-history text format (docs/hand-history.md): read, write, round-trip.

PBN-style tag pairs (``[Name "value"]``) and move lines, one game per file. The header gives
the event, the variant and its house rules, the seed, the seats and the first dealer; each
``[Hand "n"]`` then gives the deal (``seed``, ``scan`` with ``-`` for unknown cards, or
``unknown``), the auction, trump, exchanges, sit-outs and the play one trick per line, and
the claims a reader can check (contract, trick winners after ``=>``, revokes, result,
score). ``write_text`` renders a ``GameRecord``; ``read_text`` parses one, replaying moves
on an engine to learn whose turn each move is, and raises ``HistoryError`` naming the line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from tricktable.cards import CardError, format_card, parse_card_copy
from tricktable.engine import Engine, EngineError
from tricktable.engine.actions import (
    Action,
    Bid,
    Call,
    Deal,
    DeclareTrump,
    Exchange,
    Pass,
    Play,
    ScanCard,
    SitOut,
    TurnUp,
)
from tricktable.history.record import Claim, GameRecord, HandRecord, capture, trimmed
from tricktable.rules import recorded_options
from tricktable.rules.base import OptionError

__all__ = ["read_text", "write_text", "HistoryError", "HEADER_TAGS"]

MAGIC = "% tricktable hand history 1"
HEADER_TAGS = ("Event", "Site", "Date", "Round", "Table", "Scorer", "Annotator")
"""Free-form tags written first, in this order, when present (others follow, sorted)."""
_SETUP_TAGS = ("Variant", "Seed", "Seats", "Dealer")
_TAG = re.compile(r'^\[(\w+)(?:\s+"((?:[^"\\]|\\.)*)")?\]$')
_NAME = re.compile(r"^[A-Za-z][\w.'-]*$")


class HistoryError(ValueError):
    """A hand-history file that cannot be read; the message names the line."""


# -- writing ---------------------------------------------------------------------------------

def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _option_text(value: Any) -> str:
    """JSON, except that a string that reads back as itself is written bare (record)."""
    if isinstance(value, str):
        try:
            json.loads(value)
        except json.JSONDecodeError:
            return value
    return json.dumps(value)


def _seat_refs(players: list[str]) -> list[str]:
    """How move lines name each seat: the name when it is one word and unique, else @n."""
    return [p if _NAME.match(p) and players.count(p) == 1 and p.lower() not in _WORDS
            else f"@{i + 1}" for i, p in enumerate(players)]


_WORDS = {"pass", "p", "out", "play"}


def write_text(record: GameRecord) -> str:
    """The text of a game record (every hand, its moves and its claims)."""
    rec = trimmed(record)
    cfg = rec.config
    players = list(cfg["players"])
    refs = _seat_refs(players)
    out = [MAGIC]
    tags = dict(rec.tags)
    for name in [t for t in HEADER_TAGS if t in tags] + sorted(set(tags) - set(HEADER_TAGS)):
        out.append(f"[{name} {_quote(tags[name])}]")
    out.append(f"[Variant {_quote(cfg['variant'])}]")
    for name, value in sorted(cfg.get("options", {}).items()):
        out.append(f"[Option {_quote(name + '=' + _option_text(value))}]")
    out.append(f"[Seed {_quote(str(cfg.get('seed', 0)))}]")
    out.append(f"[Seats {_quote(' | '.join(players))}]")
    out.append(f"[Dealer {_quote(players[cfg.get('dealer', 0)])}]")
    try:
        replayed = capture(cfg, rec.actions())
    except EngineError as exc:
        raise HistoryError(f"cannot write a record the rules refuse: {exc}") from None
    table = Engine.new(cfg["variant"], cfg.get("options"), n_players=len(players)).state
    for hand, again in zip(rec.hands, replayed.hands, strict=False):
        out.append("")
        out += _write_hand(hand, again.trick_ends, players, refs, table.deck.copies,
                           table.hand_size)
    for key, claim in rec.game_claims.items():
        if key == ("game_over",):
            out.append("")
            out.append(f"[GameOver {_quote(claim.value)}]")
    return "\n".join(out) + "\n"


def _write_hand(hand: HandRecord, trick_ends: set[int], players: list[str], refs: list[str],
                copies: int, hand_size: int) -> list[str]:
    out = [f'[Hand "{hand.number}"]', f"[Dealer {_quote(players[hand.dealer])}]"]
    acts = hand.actions

    def card(c: Any, copy: int | None) -> str:
        return format_card(c, copy) if copies > 1 else str(c)

    scans: dict[int, list[str]] = {}
    for a in acts:
        if isinstance(a, ScanCard):
            scans.setdefault(a.seat, []).append(card(a.card, a.copy))
    dealt = any(isinstance(a, Deal) for a in acts)
    if dealt:
        out.append('[Deal "seed"]')
        out += [f"{refs[s]}: {hand.claims[('dealt', s)].value}" for s in range(len(players))
                if ("dealt", s) in hand.claims]
        if ("up_card",) in hand.claims:
            out.append(f"[UpCard {_quote(hand.claims[('up_card',)].value)}]")
    elif scans:
        out.append('[Deal "scan"]')
        for seat in range(len(players)):
            cards = scans.get(seat, [])
            out.append(f"{refs[seat]}: {' '.join(cards + ['-'] * (hand_size - len(cards)))}")
    elif acts:
        out.append('[Deal "unknown"]')
    section = ""
    line: list[str] = []

    def flush() -> None:
        if line:
            out.append(" ".join(line))
            line.clear()

    def open_section(name: str, tag: str) -> None:
        nonlocal section
        if section != name:
            flush()
            out.append(tag)
            section = name

    for i, a in enumerate(acts):
        who = refs[a.seat]
        if isinstance(a, Bid | Pass):
            open_section("auction", f"[Auction {_quote(players[a.seat])}]")
            line.append("Pass" if isinstance(a, Pass) else a.bid)
        elif isinstance(a, Call):
            if section not in ("auction", "play", "exchange", "sitout"):
                open_section("calls", "[Calls]")
            line.append(f"{who}:!{a.call}")
        elif isinstance(a, TurnUp):
            flush()
            section = ""
            out.append(f"[UpCard {_quote(card(a.card, a.copy))}]")
        elif isinstance(a, DeclareTrump):
            flush()
            section = ""
            out.append(f"[Trump {_quote(a.trump)}]")
        elif isinstance(a, Exchange):
            open_section("exchange", "[Exchange]")
            flush()
            line.append(f"{who}: {'-' if a.card is None else card(a.card, a.copy)}")
            flush()
        elif isinstance(a, SitOut):
            open_section("sitout", "[SitOut]")
            line.append(f"{who}: {'out' if a.out else 'play'}")
            flush()
        elif isinstance(a, Play):
            open_section("play", f"[Play {_quote(players[a.seat])}]")
            line.append(card(a.card, a.copy))
            if i in trick_ends:
                n = sum(1 for j in trick_ends if j <= i)
                winner = hand.claims.get(("trick", n))
                if winner is not None:
                    name = winner.value
                    line.append(f"=> {refs[players.index(name)] if name in players else name}")
                flush()
    flush()
    for key in (("contract",),):
        if key in hand.claims:
            out.append(f"[Contract {_quote(hand.claims[key].value)}]")
    revokes = sorted(k for k in hand.claims if k[0] == "revoke")
    out += [f"[Revoke {_quote(hand.claims[k].value)}]" for k in revokes]
    for tag, key in (("Result", ("result",)), ("Score", ("score",))):
        if key in hand.claims:
            out.append(f"[{tag} {_quote(hand.claims[key].value)}]")
    return out


# -- reading ---------------------------------------------------------------------------------

class _Reader:
    """Parses a file top to bottom, replaying each move so that seats can be implied."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.tags: dict[str, str] = {}
        self.setup: dict[str, str] = {}
        self.options: dict[str, Any] = {}
        self.eng: Engine | None = None
        self.hands: list[HandRecord] = []
        self.game_claims: dict[tuple[Any, ...], Claim] = {}
        self.section = ""
        self.deal_kind = ""
        self.line = 0
        self.tricks_in_hand = 0

    def fail(self, message: str) -> HistoryError:
        return HistoryError(f"{self.source}:{self.line}: {message}")

    # the header
    def start_game(self) -> Engine:
        t = self.setup
        if "Variant" not in t or "Seats" not in t:
            raise self.fail("the header needs [Variant] and [Seats] before the first [Hand]")
        players = [p.strip() for p in t["Seats"].split("|")]
        try:
            seed = int(t.get("Seed", "0"))
        except ValueError:
            raise self.fail(f"[Seed] must be an integer, got {t['Seed']!r}") from None
        dealer = self.seat_of(t.get("Dealer", players[0]), players)
        try:
            return Engine.new(t["Variant"], recorded_options(t["Variant"], self.options), seed,
                              dealer, players)
        except (EngineError, OptionError, KeyError) as exc:
            raise self.fail(str(exc).strip('"')) from None

    def seat_of(self, ref: str, players: list[str] | None = None) -> int:
        names = players if players is not None else self.engine.state.players
        ref = ref.strip()
        if ref.startswith("@") and ref[1:].isdigit() and 1 <= int(ref[1:]) <= len(names):
            return int(ref[1:]) - 1
        if ref in names:
            return names.index(ref)
        raise self.fail(f"no seat called {ref!r} (seats: {', '.join(names)})")

    @property
    def engine(self) -> Engine:
        if self.eng is None:
            raise self.fail("moves before the first [Hand]")
        return self.eng

    @property
    def hand(self) -> HandRecord:
        if not self.hands:
            raise self.fail("moves before the first [Hand]")
        return self.hands[-1]

    def apply(self, action: Action) -> None:
        out = self.engine.apply(action)
        if not out.ok:
            raise self.fail(f"{out.reason or out.code} ({out.code})")
        self.hand.actions.append(action)
        self.hand.lines.append(self.line)

    def card(self, token: str) -> tuple[Any, int | None]:
        try:
            card, copy = parse_card_copy(token)
        except CardError as exc:
            raise self.fail(str(exc)) from None
        return card, copy if self.engine.state.deck.copies > 1 else 0

    def claim(self, key: tuple[Any, ...], value: str) -> None:
        self.hand.claims[key] = Claim(value, self.line)

    # tags
    def tag(self, name: str, value: str) -> None:
        if self.eng is None and name != "Hand":
            self.header_tag(name, value)
            return
        handler = _BODY_TAGS.get(name)
        if handler is None:
            raise self.fail(f"unknown tag [{name}] inside a hand")
        handler(self, value)

    def header_tag(self, name: str, value: str) -> None:
        if name == "Option":
            key, sep, raw = value.partition("=")
            if not sep or not key.strip():
                raise self.fail(f"[Option] must be name=value, got {value!r}")
            try:
                self.options[key.strip()] = json.loads(raw)
            except (ValueError, RecursionError):  # not JSON (or too deep): the text itself
                self.options[key.strip()] = raw.strip()
            return
        if name in _SETUP_TAGS:
            self.setup[name] = value
        else:
            self.tags[name] = value

    def t_hand(self, value: str) -> None:
        if self.eng is None:
            self.eng = self.start_game()
        st = self.engine.state
        if self.hands and (st.phase != "deal" or any(st.count)) and not st.game_over:
            raise self.fail(f"[Hand {value!r}] begins but hand {self.hand.number} is not "
                            f"finished (the table is in the {st.phase} phase)")
        if st.game_over:
            raise self.fail(f"[Hand {value!r}] after the game is over")
        self.hands.append(HandRecord(st.hand_number, st.dealer, line=self.line))
        self.section = self.deal_kind = ""
        self.tricks_in_hand = 0

    def t_dealer(self, value: str) -> None:
        seat = self.seat_of(value)
        if seat != self.hand.dealer:
            raise self.fail(f"[Dealer {value!r}]: the deal is {self.engine.state.players[self.hand.dealer]}'s")

    def t_deal(self, value: str) -> None:
        if value not in ("seed", "scan", "unknown"):
            raise self.fail(f"[Deal] is seed, scan or unknown, got {value!r}")
        self.deal_kind = self.section = value
        if value == "seed":
            self.apply(Deal(self.engine.state.dealer))

    def t_up_card(self, value: str) -> None:
        if self.deal_kind == "seed":
            self.claim(("up_card",), value)
        else:
            card, copy = self.card(value)
            self.apply(TurnUp(self.engine.state.dealer, card, copy))
        self.section = ""

    def t_trump(self, value: str) -> None:
        self.apply(DeclareTrump(self.to_act(), value))
        self.section = ""

    def t_game_over(self, value: str) -> None:
        self.game_claims[("game_over",)] = Claim(value, self.line)

    # move lines
    def to_act(self) -> int:
        st = self.engine.state
        if st.phase == "deal" and self.section == "auction":
            return st.variant.first_bidder(st)  # the first bid starts a hand nobody dealt
        seat = self.engine.to_act
        if seat is None:
            raise self.fail("no seat is to act: the game is over")
        return seat

    def moves(self, text: str) -> None:
        if not self.section:
            raise self.fail(f"a move line outside a section: {text!r}")
        if self.section in ("seed", "scan", "unknown", "exchange", "sitout"):
            ref, sep, rest = text.partition(":")
            if not sep:
                raise self.fail(f"expected 'Seat: ...', got {text!r}")
            self.seat_line(self.seat_of(ref), rest.split())
            return
        tokens = text.split()
        winner = None
        if "=>" in tokens:
            at = tokens.index("=>")
            if self.section != "play" or at != len(tokens) - 2:
                raise self.fail("'=> Winner' ends a trick line in [Play]")
            winner, tokens = tokens[-1], tokens[:at]
        for token in tokens:
            self.token(token)
        if self.section == "play":
            self.tricks_in_hand += 1
            if winner is not None:
                name = self.engine.state.players[self.seat_of(winner)]
                self.claim(("trick", self.tricks_in_hand), name)

    def seat_line(self, seat: int, tokens: list[str]) -> None:
        kind = self.section
        if kind == "seed":
            self.claim(("dealt", seat), " ".join(tokens))
        elif kind == "scan":
            for token in tokens:
                if token != "-":
                    card, copy = self.card(token)
                    self.apply(ScanCard(seat, card, copy))
        elif kind == "unknown":
            if any(t != "-" for t in tokens):
                raise self.fail("an unknown deal lists only '-'")
        elif kind == "exchange":
            if len(tokens) != 1:
                raise self.fail("one card (or '-') per exchange line")
            card, copy = (None, None) if tokens[0] == "-" else self.card(tokens[0])
            self.apply(Exchange(seat, card, copy))
        elif tokens in (["out"], ["play"]):
            self.apply(SitOut(seat, tokens[0] == "out"))
        else:
            raise self.fail("a sit-out line is 'Seat: out' or 'Seat: play'")

    def token(self, token: str) -> None:
        ref, sep, rest = token.partition(":")
        seat = None
        if sep and (ref.startswith("@") or ref in self.engine.state.players):
            seat, token = self.seat_of(ref), rest
        if token.startswith("!"):
            self.apply(Call(self.to_act() if seat is None else seat, token[1:]))
            return
        who = self.to_act() if seat is None else seat
        if self.section == "auction":
            self.apply(Pass(who) if token.upper() in ("PASS", "P") else Bid(who, token))
        elif self.section == "play":
            card, copy = self.card(token)
            self.apply(Play(who, card, copy))
        else:
            raise self.fail(f"only calls (!NAME) belong in [Calls], got {token!r}")


def _opens(section: str) -> Callable[[_Reader, str], None]:
    """A tag that opens a section of move lines."""
    def open_section(reader: _Reader, value: str) -> None:
        reader.section = section
    return open_section


def _claims(key: str) -> Callable[[_Reader, str], None]:
    """A tag that states a claim of the hand (revokes are numbered in order)."""
    def claim(reader: _Reader, value: str) -> None:
        if key == "revoke":
            n = sum(1 for k in reader.hand.claims if k[0] == "revoke")
            reader.claim(("revoke", n + 1), value)
        else:
            reader.claim((key,), value)
        reader.section = ""
    return claim


_BODY_TAGS: dict[str, Callable[[_Reader, str], None]] = {
    "Hand": _Reader.t_hand, "Dealer": _Reader.t_dealer, "Deal": _Reader.t_deal,
    "UpCard": _Reader.t_up_card, "Trump": _Reader.t_trump, "GameOver": _Reader.t_game_over,
}
for _name, _section in (("Auction", "auction"), ("Play", "play"), ("Exchange", "exchange"),
                        ("SitOut", "sitout"), ("Calls", "calls")):
    _BODY_TAGS[_name] = _opens(_section)
for _name, _key in (("Contract", "contract"), ("Revoke", "revoke"), ("Result", "result"),
                    ("Score", "score")):
    _BODY_TAGS[_name] = _claims(_key)


def read_text(text: str, source: str = "<text>") -> GameRecord:
    """Parse a hand-history text; ``HistoryError`` names ``source:line`` of the problem."""
    reader = _Reader(source)
    lines = text.splitlines()
    if not lines or not lines[0].startswith("% tricktable hand history"):
        reader.line = 1
        raise reader.fail(f"not a tricktable hand history (the first line must be {MAGIC!r})")
    for number, raw in enumerate(lines, start=1):
        reader.line = number
        stripped = raw.strip()
        if not stripped or stripped.startswith("%"):
            continue
        if stripped.startswith("["):
            m = _TAG.match(stripped)
            if m is None:
                raise reader.fail(f'a tag is [Name "value"], got {stripped!r}')
            value = re.sub(r"\\(.)", r"\1", m.group(2) or "")
            reader.tag(m.group(1), value)
            continue
        body = stripped.split(";", 1)[0].strip()
        if body:
            reader.moves(body)
    if reader.eng is None:
        reader.line = len(lines)
        raise reader.fail("no [Hand] in the file")
    return GameRecord(dict(reader.tags), dict(reader.engine.config), reader.hands,
                      reader.game_claims)

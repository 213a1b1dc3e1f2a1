"""Euchre Game Notation (EGN): read and write the open JSON format for Euchre games.

EGN is NextSuit Labs' format (github.com/NextSuit-Labs/euchre-game-notation: the README,
``schemas/egn-schema-v1.json`` and ``docs/replayer-logic.md``). A file holds ``metadata``
(players clockwise from seat 0, ``initialScore``, ``ruleset``) and ``deals``; each deal has
``initialState`` (``dealer``, ``upCard``, optional ``playerCards``), a ``EUCHRE_BIDDING``
phase (``calls`` clockwise from the dealer's left: ``Pass``, ``Order``, or a suit letter in
round two; ``isAlone``; the dealer's ``discard``) and a ``TRICK_PLAY`` phase (``tricks``, the
cards in the order they fell; who led follows from the rules). Cards are ``9c Tc Jd Qh Kc
As``; ``N`` is read as a nine and ``R``/``L`` as the right and left bowers.

``read_egn(text, source)`` replays every deal on the engine's Euchre and returns a
``GameRecord``; a file that is malformed, uses a rule this table does not play, or that the
rules refuse is refused with ``HistoryError`` naming the deal and trick. ``write_egn(record)``
writes a Euchre record as EGN 1.4 (the dealt hands when the table knew them), field by field
as the specification says (docs/hand-history.md, "EGN"): ``version`` "1.4"; each phase its
``phaseNumber`` (0 the bidding, 1 the trick play); ``metadata.finalScore`` once the last deal
is scored; the ruleset's one completion condition, ``winning_score`` (the target) or
``num_deals`` (a hand limit, or, for a game with neither, a club night's game ended by the
bell, the deals played: "ideal for progressive Euchre"); ``std`` (stick the dealer) and
``min_rank`` (the deck); a revoke kept in record mode as a ``playAnnotations`` line, since
EGN has no revokes (its ``finalScore`` is the table's, penalty included). A game EGN cannot
hold (a call, a target and a hand limit at once, more than 100 deals) is refused with one
line. The project's own
hand history (``history.text``/``history.jsonfmt``) stays the native form: EGN is for
interchange.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tricktable.cards import CardError, parse_card
from tricktable.engine import Engine
from tricktable.engine.actions import Action, Bid, Exchange, Pass, Play, ScanCard, TurnUp
from tricktable.history.jsonfmt import load_json
from tricktable.history.record import GameRecord, capture, trimmed
from tricktable.history.text import HistoryError
from tricktable.rules import recorded_options
from tricktable.rules.base import STOCK

__all__ = ["FILE_TYPE", "HOUSE_RULE_TAG", "VERSION", "is_egn", "read_egn", "from_egn", "to_egn",
           "write_egn"]

HOUSE_RULE_TAG = "HouseRule"
"""The record's tag that says which house rule its play needed (``tricktable verify`` says it)."""

FILE_TYPE = "Euchre Game Notation"
VERSION = "1.4"
"""The version written: EGN 1.4, the newest release (the schema's pattern is
``^1\\.[234](?:\\.\\d+)?$``; any 1.x is read)."""
MAX_DEALS = 100  # the schema's deals.maxItems
_LIMITS = {"title": 128, "description": 1024, "gameId": 64}  # the schema's maxLength
VARIANTS = ("euchre", "euchre-1844")
_DECKS = {9: 24, 8: 28, 7: 32}
"""``ruleset.min_rank`` to the Euchre deck option (9 up: 24 cards; 8 up: 28; 7 up: 32)."""
_RULES_OFF = ("defend_alone", "farmers", "partners_best", "go_under",
              "joker", "allow_no_trump", "fast_break", "four_trick_tokens")
_SCORES = {"loner_march_score": 4, "loner_euchred_score": 2}
_SUITS = {"s": "S", "h": "H", "d": "D", "c": "C"}
_PARTNER_SUIT = {"S": "C", "C": "S", "H": "D", "D": "H"}
_ALONE = ":ALONE"
_ORDER_UP = "ORDER_UP"
_TAGS = {"title": "Event", "date": "Date", "description": "Description", "gameId": "GameId"}
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$")
"""The schema's timezone-less ``date`` (a date alone is not one: it is left out)."""


def is_egn(data: Any) -> bool:
    """True for a parsed JSON document that says it is EGN."""
    return isinstance(data, dict) and data.get("fileType") == FILE_TYPE


# -- reading ---------------------------------------------------------------------------------

def read_egn(text: str, source: str = "<egn>") -> GameRecord:
    """Parse an EGN file; ``HistoryError`` names ``source``, the deal and the trick at fault."""
    data = load_json(text, source)
    return from_egn(data, source)


def from_egn(data: Any, source: str = "<egn>") -> GameRecord:
    """A ``GameRecord`` from a parsed EGN document (see ``read_egn``)."""
    if not is_egn(data):
        raise HistoryError(f"{source}: not EGN (fileType must be {FILE_TYPE!r})")
    version = data.get("version")
    if not isinstance(version, str) or not version.startswith("1."):
        raise HistoryError(f"{source}: unsupported EGN version {version!r} (1.x is read)")
    meta = _obj(data.get("metadata"), f"{source}: metadata")
    players = _players(meta.get("players"), source)
    if meta.get("initialScore", [0, 0]) != [0, 0]:
        raise HistoryError(f"{source}: metadata.initialScore {meta['initialScore']!r}: only "
                           "whole games from 0-0 can be replayed here")
    rules = _obj(meta.get("ruleset", {}), f"{source}: metadata.ruleset")
    deals = data.get("deals")
    if not isinstance(deals, list) or not deals:
        raise HistoryError(f"{source}: deals: expected a list of deals")
    # the up-card stays on the table until played (the seed's rule), unless the play shows
    # a dealer who discarded it: then the file is read with the house rule that allows it
    discarded = _up_card_discards(deals)
    options = recorded_options("euchre", {**_options(rules, source),
                                          "discard_up_card": bool(discarded)})
    first = _obj(deals[0], f"{source}: deal 0").get("initialState")
    dealer = _obj(first, f"{source}: deal 0: initialState").get("dealer")
    if type(dealer) is not int or not 0 <= dealer < 4:
        raise HistoryError(f"{source}: deal 0: initialState.dealer must be a seat 0..3")
    config = {"variant": "euchre", "options": options, "seed": 0, "dealer": dealer,
              "players": players}
    eng = Engine.new("euchre", options, 0, dealer, players)
    reader = _DealReader(eng, source, rules.get("loner_lead", "LEFT_OF_DEALER"), discarded)
    actions: list[Action] = []
    for i, deal in enumerate(deals):
        actions += reader.deal(i, deal, last=i == len(deals) - 1)
    tags = {tag: meta[key] for key, tag in _TAGS.items() if isinstance(meta.get(key), str)}
    if discarded:
        tags[HOUSE_RULE_TAG] = (f"discard_up_card: the dealer discarded the up-card in deal"
                                f"{'s' if len(discarded) > 1 else ''} "
                                f"{', '.join(map(str, discarded))}")
    record = capture(config, actions, tags)
    final = meta.get("finalScore")
    if final is not None and final != list(eng.state.scores):
        raise HistoryError(f"{source}: metadata.finalScore {final!r}, but the deals score "
                           f"{list(eng.state.scores)!r}")
    return trimmed(record)


def _up_card_discards(deals: list[Any]) -> list[int]:
    """The deals whose dealer discarded the up-card they took up: the discard names it, or,
    the discard not recorded, every trick is there and nobody played it (the seed's rule
    leaves it on the table until played, so it was the discard)."""
    out = []
    for i, deal in enumerate(deals):
        if not isinstance(deal, dict) or not isinstance(deal.get("initialState"), dict):
            continue
        up = deal["initialState"].get("upCard")
        phases = [p for p in deal.get("phases") or [] if isinstance(p, dict)]
        bidding = next((p for p in phases if p.get("type") == "EUCHRE_BIDDING"), {})
        play = next((p for p in phases if p.get("type") == "TRICK_PLAY"), {})
        calls = bidding.get("calls") if isinstance(bidding.get("calls"), list) else []
        if not isinstance(up, str) or "Order" not in calls:
            continue  # nobody took the up-card up
        discard = bidding.get("discard")
        tricks = play.get("tricks") if isinstance(play.get("tricks"), list) else []
        played = {_same_card(c, up) for t in tricks if isinstance(t, list) for c in t}
        whole = len(tricks) == 5 and all(isinstance(t, list) and len(t) >= 3 for t in tricks)
        if _same_card(discard, up) or (discard is None and whole and True not in played):
            out.append(i)
    return out


def _same_card(text: Any, up: str) -> bool:
    """``text`` (an EGN card) is the up-card ``up``: ``N`` is a nine, and once it is ordered
    up the up-card's suit is trump, so a jack up-card is played as ``R``, the right bower."""
    if not isinstance(text, str):
        return False
    if text == "R":
        return up[:1] == "J"
    norm = {"N": "9"}
    return (norm.get(text[:1], text[:1]) + text[1:].lower()) == \
        (norm.get(up[:1], up[:1]) + up[1:].lower())


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise HistoryError(f"{where}: expected a JSON object")
    return value


def _players(value: Any, source: str) -> list[str]:
    if not isinstance(value, list) or len(value) != 4:
        raise HistoryError(f"{source}: metadata.players: EGN Euchre needs four players")
    names = [p.get("name") if isinstance(p, dict) else p for p in value]
    if not all(isinstance(n, str) and n.strip() for n in names):
        raise HistoryError(f"{source}: metadata.players: each player is a name or "
                           "{\"name\": ...}")
    return [n.strip() for n in names]


def _options(rules: dict[str, Any], source: str) -> dict[str, Any]:
    """The engine's Euchre options for an EGN ruleset; a rule the table does not play is
    refused by name."""
    where = f"{source}: metadata.ruleset"
    for name in _RULES_OFF:
        if rules.get(name):
            raise HistoryError(f"{where}: {name} is not a rule this table plays")
    for name, usual in _SCORES.items():
        if rules.get(name, usual) != usual:
            raise HistoryError(f"{where}: {name} {rules[name]!r}: this table scores {usual}")
    if rules.get("num_players", 4) != 4:
        raise HistoryError(f"{where}: num_players must be 4")
    min_rank = rules.get("min_rank", 9)
    if min_rank not in _DECKS:
        raise HistoryError(f"{where}: min_rank {min_rank!r}: the decks are 9, 8 or 7 up")
    options: dict[str, Any] = {"revoke_mode": "record",
                               "stick_the_dealer": bool(rules.get("std", True)),
                               "deck": _DECKS[min_rank]}
    deals = rules.get("num_deals", 0)
    # "For fixed-hand games (e.g., progressive Euchre), omit winning_score (or set
    # winning_score to 0) and set num_deals": its default 10 is for a game without num_deals
    target = rules.get("winning_score", 0 if deals else 10)
    if type(target) is not int or target < 0 or type(deals) is not int or deals < 0:
        raise HistoryError(f"{where}: winning_score and num_deals are whole numbers")
    options["target"] = target or None
    if deals:
        options["hand_limit"] = deals
    if not target and not deals:
        raise HistoryError(f"{where}: a game needs a winning_score or a num_deals")
    if rules.get("loner_lead", "LEFT_OF_DEALER") not in ("LEFT_OF_DEALER", "LEFT_OF_LONER"):
        raise HistoryError(f"{where}: loner_lead {rules['loner_lead']!r}")
    return options


class _DealReader:
    """Turns EGN deals into engine actions, applying each so that seats and refusals are
    the rules' own."""

    def __init__(self, eng: Engine, source: str, loner_lead: str,
                 discards: list[int] | None = None) -> None:
        self.loner_lead = loner_lead
        self.discards = discards or []  # the deals whose dealer discarded the up-card
        self.up_card: Any = None
        self.up_discarded = False
        self.eng = eng
        self.source = source
        self.where = source
        self.actions: list[Action] = []

    def fail(self, message: str) -> HistoryError:
        return HistoryError(f"{self.where}: {message}")

    def apply(self, action: Action) -> None:
        out = self.eng.apply(action)
        if not out.ok:
            raise self.fail(f"{out.reason or out.code} ({out.code})")
        self.actions.append(action)

    def card(self, text: Any, trump: str | None = None) -> Any:
        if not isinstance(text, str) or len(text) not in (1, 2):
            raise self.fail(f"not an EGN card: {text!r}")
        if text in ("R", "L"):
            if trump is None:
                raise self.fail(f"{text!r} (a bower) before trump is made")
            return parse_card("J" + (trump if text == "R" else _PARTNER_SUIT[trump]))
        if len(text) != 2 or text[0] == "X" or text[1].lower() not in _SUITS:
            raise self.fail(f"{text!r}: an unknown card cannot be replayed")
        rank = {"T": "10", "N": "9"}.get(text[0], text[0])
        try:
            return parse_card(rank + _SUITS[text[1].lower()])
        except CardError:
            raise self.fail(f"not an EGN card: {text!r}") from None

    def deal(self, i: int, deal: Any, last: bool) -> list[Action]:
        self.actions = []
        self.where = f"{self.source}: deal {i}"
        if isinstance(deal, str):
            raise self.fail("a deal in the binary (base64) form cannot be read; convert the "
                            "file to JSON with egn-convert first")
        deal = _obj(deal, self.where)
        if deal.get("dealNumber", i) != i:
            raise self.fail(f"dealNumber is {deal.get('dealNumber')!r}, expected {i}")
        st = self.eng.state
        if st.game_over:
            raise self.fail("the game is already over")
        init = _obj(deal.get("initialState"), f"{self.where}: initialState")
        if init.get("dealer") != st.dealer:
            raise self.fail(f"initialState.dealer is {init.get('dealer')!r}, but the deal "
                            f"passes left: seat {st.dealer} ({st.players[st.dealer]}) deals")
        phases = deal.get("phases")
        if not isinstance(phases, list):
            raise self.fail("phases: expected a list")
        bidding = [p for p in phases if isinstance(p, dict) and p.get("type") == "EUCHRE_BIDDING"]
        play = [p for p in phases if isinstance(p, dict) and p.get("type") == "TRICK_PLAY"]
        if len(bidding) + len(play) != len(phases) or len(bidding) > 1 or len(play) > 1:
            raise self.fail("phases: one EUCHRE_BIDDING and at most one TRICK_PLAY")
        self.scan(init.get("playerCards"))
        self.up_card, self.up_discarded = init.get("upCard"), i in self.discards
        self.apply(TurnUp(st.dealer, self.card(init.get("upCard"))))
        if bidding:
            alone = any(bool(p.get("isAlone")) for p in bidding + play)
            self.bidding(bidding[0], alone)
        if play:
            self.tricks(play[0], last)
        elif st.phase != "deal" and not last:
            raise self.fail("trump was made but the deal has no TRICK_PLAY phase")
        return self.actions

    def scan(self, hands: Any) -> None:
        if hands in (None, []):
            return
        if not isinstance(hands, list) or len(hands) > 4:
            raise self.fail("initialState.playerCards: one list of cards per seat")
        for seat, cards in enumerate(hands):
            if not isinstance(cards, list):
                raise self.fail(f"initialState.playerCards[{seat}]: expected a list of cards")
            for text in cards:
                if isinstance(text, str) and text.startswith("X"):
                    continue  # a card nobody saw
                self.apply(ScanCard(seat, self.card(text)))

    def bidding(self, phase: dict[str, Any], alone: bool) -> None:
        calls = phase.get("calls")
        if not isinstance(calls, list):
            raise self.fail("EUCHRE_BIDDING.calls: expected a list")
        st = self.eng.state
        where = self.where
        for k, call in enumerate(calls):
            self.where = f"{where}, call {k + 1} ({call!r})"
            if st.phase == "deal":  # the first call starts a hand nobody dealt
                seat: int | None = st.variant.first_bidder(st)
            else:
                seat = self.eng.to_act if st.phase == "bidding" else None
            if seat is None:
                raise self.fail("the bidding is already over")
            if call == "Pass":
                self.apply(Pass(seat))
            elif call == "Order" or call in _SUITS:
                bid = _ORDER_UP if call == "Order" else _SUITS[call]
                self.apply(Bid(seat, bid + (_ALONE if alone else "")))
            else:
                raise self.fail("not a call this table plays (Pass, Order, s h d c)")
        self.where = where
        if phase.get("cardExchanges"):
            raise self.fail("cardExchanges are not a rule this table plays")
        if st.phase == "exchange":
            discard = phase.get("discard")
            if discard is None and st.options.discard_up_card and self.up_discarded:
                discard = self.up_card  # nobody played it: the dealer discarded it
            self.apply(Exchange(st.dealer, None if discard is None
                                else self.card(discard, st.contract.trump if st.contract else None)))
        elif phase.get("discard") is not None:
            raise self.fail("a discard, but nobody took up the up-card")
        self.check_loner_lead()

    def check_loner_lead(self) -> None:
        st = self.eng.state
        c = st.contract
        if c is None or not c.alone or self.loner_lead != "LEFT_OF_LONER":
            return
        if st.to_act != (c.seat + 1) % st.n:
            raise self.fail("loner_lead LEFT_OF_LONER: here the player left of the dealer "
                            "leads against a lone hand (LEFT_OF_DEALER)")

    def tricks(self, phase: dict[str, Any], last: bool) -> None:
        tricks = phase.get("tricks")
        if not isinstance(tricks, list):
            raise self.fail("TRICK_PLAY.tricks: expected a list of tricks")
        st = self.eng.state
        where = self.where
        trump = st.contract.trump if st.contract else None
        for t, trick in enumerate(tricks):
            self.where = f"{where}, trick {t + 1}"
            if st.phase != "play":
                raise self.fail("more tricks than the hand has")
            if not isinstance(trick, list):
                raise self.fail("expected a list of cards")
            partial = last and t == len(tricks) - 1
            if len(trick) != st.active and not (partial and len(trick) < st.active):
                raise self.fail(f"{len(trick)} cards, but {st.active} players play to a trick")
            for k, text in enumerate(trick):
                self.where = f"{where}, trick {t + 1}, card {k + 1} ({text!r})"
                self.apply(Play(self.eng.to_act, self.card(text, trump)))  # type: ignore[arg-type]
        self.where = where
        if st.phase == "play" and not last:
            raise self.fail(f"{len(tricks)} tricks, but the hand has {st.hand_size}")


# -- writing ---------------------------------------------------------------------------------

def to_egn(record: GameRecord) -> dict[str, Any]:
    """The EGN document of a Euchre record; ``HistoryError`` for any other game."""
    cfg = record.config
    if cfg["variant"] not in VARIANTS:
        raise HistoryError(f"EGN holds Euchre games only; this is {cfg['variant']!r}")
    eng = Engine.new(cfg["variant"], cfg.get("options"), cfg.get("seed", 0),
                     cfg.get("dealer", 0), cfg.get("players"))
    opts = eng.state.options
    rules: dict[str, Any] = {"std": bool(opts.stick_the_dealer),  # type: ignore[attr-defined]
                             "loner_lead": "LEFT_OF_DEALER"}
    deck = opts.deck  # type: ignore[attr-defined]
    if deck != 24:
        rules["min_rank"] = {v: k for k, v in _DECKS.items()}[deck]
    writer = _DealWriter(eng)
    for i, action in enumerate(record.actions()):
        writer.apply(action, i)
    deals = [d.to_json(n) for n, d in enumerate(writer.deals) if d.up_card]
    if len(deals) > MAX_DEALS:
        raise HistoryError(f"EGN holds at most {MAX_DEALS} deals; this game has {len(deals)}")
    rules.update(_limit(opts.target, opts.hand_limit, len(deals)))  # type: ignore[attr-defined]
    tags = record.tags
    meta: dict[str, Any] = {key: tags[tag][:_LIMITS[key]] for key, tag in _TAGS.items()
                            if tag in tags and key != "date"}
    if _DATE.match(tags.get("Date", "")):
        meta["date"] = tags["Date"]
    meta.update({"players": list(cfg["players"]), "initialScore": [0, 0], "ruleset": rules})
    if eng.state.game_over or (writer.deals and writer.deals[-1].done):
        meta["finalScore"] = list(eng.state.scores)
    return {"fileType": FILE_TYPE, "version": VERSION, "metadata": meta, "deals": deals}


def _limit(target: int | None, hand_limit: int | None, deals: int) -> dict[str, int]:
    """The ruleset's one completion condition ("A ruleset enforces either a target score
    (winning_score) OR a fixed deal count (num_deals), but not both"; "A game must have a
    single defined completion condition")."""
    if hand_limit and target:
        raise HistoryError("EGN cannot hold both a target score and a hand limit")
    if hand_limit:
        return {"num_deals": hand_limit}
    if target:
        return {} if target == 10 else {"winning_score": target}
    return {"num_deals": max(deals, 1)}  # no target, no limit: the bell ended it


def write_egn(record: GameRecord) -> str:
    """The EGN text of a Euchre record."""
    return json.dumps(to_egn(record), indent=2, ensure_ascii=False) + "\n"


def _egn_card(name: str) -> str:
    rank, suit = name[:-1], name[-1].lower()
    return {"10": "T"}.get(rank, rank) + suit


class _Deal:
    def __init__(self, dealer: int) -> None:
        self.dealer = dealer
        self.up_card: str | None = None
        self.hands: list[list[str]] = []
        self.calls: list[str] = []
        self.alone = False
        self.discard: str | None = None
        self.tricks: list[list[str]] = []
        self.trick: list[str] = []
        self.notes: dict[str, list[str]] = {}  # trick index -> annotations (revokes)
        self.done = False

    def to_json(self, number: int) -> dict[str, Any]:
        state: dict[str, Any] = {"dealer": self.dealer, "upCard": self.up_card}
        if self.hands:
            state["playerCards"] = self.hands
        bidding: dict[str, Any] = {"phaseNumber": 0, "type": "EUCHRE_BIDDING",
                                   "calls": self.calls, "isAlone": self.alone}
        if self.discard:
            bidding["discard"] = self.discard
        phases: list[dict[str, Any]] = [bidding]
        tricks = self.tricks + ([self.trick] if self.trick else [])
        if tricks:
            play: dict[str, Any] = {"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": tricks}
            if self.notes:
                play["playAnnotations"] = self.notes
            phases.append(play)
        return {"dealNumber": number, "initialState": state, "phases": phases}


class _DealWriter:
    """Replays a record and keeps what EGN records of each deal."""

    def __init__(self, eng: Engine) -> None:
        self.eng = eng
        self.deals = [_Deal(eng.state.dealer)]

    def apply(self, action: Action, i: int) -> None:
        eng = self.eng
        out = eng.apply(action)
        if not out.ok:
            raise HistoryError(f"cannot write a record the rules refuse: action {i + 1}: "
                               f"{out.reason or out.code}")
        deal = self.deals[-1]
        if action.TYPE == "call":
            raise HistoryError(f"hand {eng.state.hand_number}: EGN has no calls "
                               f"({action.call!r})")  # type: ignore[attr-defined]
        for event in out.events:
            e = event.to_json()
            kind = e["type"]
            if kind in ("dealt", "card_scanned") and not deal.hands:
                deal.hands = [[] for _ in range(eng.state.n)]
            if kind == "dealt":
                deal.hands = [[_egn_card(c) for c in eng.known_hand(s)]
                              for s in range(eng.state.n)]
            elif kind == "card_scanned":
                deal.hands[e["seat"]].append(_egn_card(e["card"]))
            elif kind == "up_card":
                deal.up_card = _egn_card(e["card"])
            elif kind == "pass":
                deal.calls.append("Pass")
            elif kind == "bid":
                base = e["bid"].removesuffix(_ALONE)
                deal.calls.append("Order" if base == _ORDER_UP else base.lower())
                deal.alone = e["bid"].endswith(_ALONE)
            elif kind == "exchange" and e["receiver"] == STOCK and e["card"]:
                deal.discard = _egn_card(e["card"])
            elif kind == "revoke":
                # keyed by "the 0-based index into each play across all tricks": the play
                # that revoked, or that proved an earlier revoke (it comes before the card)
                at = sum(len(t) for t in deal.tricks) + len(deal.trick)
                deal.notes.setdefault(str(at), []).append(
                    f"[??]Revoke: {eng.state.players[e['seat']]} did not follow "
                    f"{e['suit']} in trick {e['trick']} (the penalty is in the score)")
            elif kind == "card_played":
                deal.trick.append(_egn_card(e["card"]))
            elif kind == "trick_won":
                deal.tricks.append(deal.trick)
                deal.trick = []
            elif kind in ("hand_scored", "passed_out"):
                deal.done = True
            elif kind == "hand_started":
                self.deals.append(_Deal(e["dealer"]))
                deal = self.deals[-1]

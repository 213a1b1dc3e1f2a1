"""One physical table: pad events and admin commands in, engine actions and verdicts out.

A :class:`TableSession` knows which board pad is which seat (from the club file), asks the
deck registry what a tag is (``decks.Registry.resolve``), turns cards and tokens into engine
actions according to the phase (a card is a hand scan during the deal, but the dealer's
first card is the up-card in a game that turns one; an exchange during the exchange, a play
otherwise), applies them, and answers with a :class:`Result`: the
verdict, the engine's events, LED feedback for the boards and the steps the journal
records. Every refusal has a specific code and reason and changes nothing.

Tokens are read in one place: ``action_token`` spells every non-card engine action as the
token that makes it (``Bid("S:ALONE")`` is ``TRUMP:S:ALONE``, ``Bid("1")`` is ``BID:1``,
``DeclareTrump("S")`` is ``TRUMP:S``), ``token_actions`` lists what a token can stand for,
and ``token_tries`` puts first the one ``engine.legal_actions()`` offers the tapping seat
now, so ``TRUMP:S`` names a suit in Euchre's second round and declares trump in Bid
Euchre. A token the rules do not offer now is tried as each thing it can stand for (a call
some variants allow out of turn); the refusal reported is the engine's for the kind of
action the table expects, followed by what the seat may tap (docs/rules/tokens.md).
``NEW_GAME`` and ``UNDO`` are table controls. Undo and void are done by rebuilding the
engine from the game's setup and its action list (the engine is deterministic).

A member tag (a player's own tag, ``decks.Resolved.player``) tapped on a seat's pad seats that
player there: during the deal (the game in play then shows the name, and so does the next game)
or between games (the next game). A player already seated at another seat of the table swaps
seats with whoever sat here. The answer carries a ``seated`` event (seat, player); the journal
keeps the tap itself, so a replay seats them again. During the play of a hand it is refused.

The session is pure: no MQTT, no journal, no clock; the service feeds it and publishes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from tricktable.clubfile import TableConfig
from tricktable.deckkit.decks import BadRecord, Misread, Registry, Resolved, UnknownTag
from tricktable.deckkit.tags import TOKENS
from tricktable.engine import Engine
from tricktable.engine.actions import (
    Action,
    ActionError,
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
    action_from_json,
)
from tricktable.history.words import action_words
from tricktable.protocol import Control, Display, Feedback
from tricktable.rules.base import PHASES, Phase

# an action that carries a word is spelt as the first of these prefixes + word that is a token
# (no engine word starts with a prefix: ``BID:3HC`` is the 3HC bid, never a bid "BID:3HC";
# and the table controls are no engine word)
_PREFIXES = ("BID:", "TRUMP:")
_CONTROLS = {"NEW_GAME", "UNDO"}
_SPELLINGS: dict[type[Bid | DeclareTrump | Call], tuple[str, ...]] = {
    Bid: ("", *_PREFIXES), DeclareTrump: ("", "TRUMP:"), Call: ("",)}
# the actions without a word, as made by seat 0
_PLAIN: dict[str, Action] = {
    "PASS": Pass(0), "DEAL": Deal(0), "SIT_OUT": SitOut(0, True), "PLAY": SitOut(0, False)}
_PLAIN_TOKEN = {action: token for token, action in _PLAIN.items()}
# a second chip for the same token: the dealer "takes up" the card the others "order up"
_SAME = {"PICK_UP": "ORDER_UP"}
# what a card tap is in each phase, tried in order (the first refusal is the one reported)
_CARD_ACTIONS: dict[Phase, tuple[type[Action], ...]] = {
    "deal": (ScanCard, TurnUp), "exchange": (Exchange,)}

SETUP_KEYS = {"variant", "options", "players", "dealer", "seed", "round"}
# "round": a club night's game number, for the display (the host's game number is its own)
SEAT_LETTERS = "NESW"  # seat 0 of a four-seat table is North (docs/club.md)
DISPLAY_VERBS: dict[Phase, str] = {
    "deal": "DEAL", "bidding": "BID", "trump": "NAME TRUMP", "exchange": "PASS",
    "sitout": "SIT OUT", "play": "PLAY", "game_over": "GAME OVER"}

OK_FEEDBACK = {"led": "green", "pattern": "solid", "ms": 1500, "buzz": "ok"}
REFUSED_FEEDBACK = {"led": "red", "pattern": "blink", "ms": 2500, "buzz": "error"}
REVOKE_FEEDBACK = {"led": "amber", "pattern": "pulse", "ms": 4000, "buzz": "revoke"}
TURN_FEEDBACK = {"led": "blue", "pattern": "solid", "ms": 0, "buzz": "none"}
# the board's own "read again" light (firmware/feedback.py SIGNALS): lift the card, place it again
READ_AGAIN_FEEDBACK = {"led": "white", "pattern": "blink", "ms": 2000, "buzz": "error"}


@dataclass
class Result:
    """What one pad event or control command did.

    ``ok`` and ``code``/``reason`` are the verdict; ``action`` the engine action it became
    (JSON); ``events`` the engine's events; ``feedback`` the LED/buzzer messages per board;
    ``steps`` what the journal records about the game's action list (see journal.py);
    ``game_started`` the new game's number and setup when one was started.
    """

    ok: bool
    seat: int | None = None
    code: str = ""
    reason: str = ""
    action: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    feedback: list[tuple[str, Feedback]] = field(default_factory=list)
    steps: list[tuple[int, dict[str, Any] | None]] = field(default_factory=list)
    game_started: tuple[int, dict[str, Any]] | None = None
    changed: bool = False  # the table state changed (republish state and display)


class TableSession:
    """The live game of one table, rebuilt from its journal at start."""

    def __init__(self, config: TableConfig, registry: Registry | None,
                 recorded_setups: dict[int, dict[str, Any]] | None = None) -> None:
        self.config = config
        self.registry = registry
        self.defaults: dict[str, Any] = config.setup()
        self.recorded_setups = dict(recorded_setups or {})
        self.game = 0
        self.setup: dict[str, Any] | None = None
        self.engine: Engine | None = None
        self.actions: list[Action] = []
        self.hand_starts: list[int] = [0]  # len(actions) when each hand of this game began

    # --- game lifecycle ----------------------------------------------------------------

    @staticmethod
    def _new_engine(setup: dict[str, Any]) -> Engine:
        return Engine.replay(setup, [])

    def start_game(self, overrides: dict[str, Any] | None = None) -> Result:
        """Start the next game from the defaults (club file, set_variant, seat) and overrides.

        When the journal already recorded this game's setup, that setup is used, so a
        replay gives the same game even if the club file changed since.
        """
        number = self.game + 1
        unknown = set(overrides or {}) - SETUP_KEYS
        if unknown:
            return self._refuse(None, "bad_args", f"new_game takes {', '.join(sorted(SETUP_KEYS))};"
                                f" not {', '.join(sorted(unknown))}")
        setup = self.recorded_setups.get(number) or {**self.defaults, **(overrides or {})}
        try:
            engine = self._new_engine(setup)
        except (ValueError, KeyError, TypeError, LookupError) as exc:
            return self._refuse(None, "bad_setup", f"cannot start a game: {exc}")
        setup = {**setup, "options": engine.config["options"]}  # the rules it states (Engine.new)
        self.game, self.setup, self.engine = number, setup, engine
        self.actions, self.hand_starts = [], [0]
        return Result(ok=True, game_started=(number, setup), changed=True,
                      reason=f"game {number} started: {setup['variant']}")

    def _rebuild(self, actions: list[Action]) -> None:
        """The engine as it was after ``actions`` (undo, void)."""
        assert self.setup is not None
        self.engine = Engine.replay(self.setup, actions)
        self.actions = list(actions)
        self.hand_starts = [h for h in self.hand_starts if h <= len(actions)]

    # --- pad events ------------------------------------------------------------------

    def on_pad(self, board: str, pad: int, uid: bytes, record: bytes | None) -> Result:
        """A tag placed on ``pad`` of ``board``: resolve it, turn it into an action, apply it."""
        seat = self.config.seat_of(board, pad)
        if seat is None:
            return self._refuse(None, "unseated_pad",
                                f"pad {pad} of board {board} is not a seat at table {self.config.id}",
                                board, pad)
        resolved = self._resolve(seat, uid, record, board, pad)
        if isinstance(resolved, Result):
            return resolved
        if resolved.player is not None:
            return self._seat_member(seat, resolved.player, board, pad)
        if resolved.token is not None:
            return self._token(seat, resolved.token, board, pad)
        if self.engine is None:
            return self._no_game(seat, board, pad)
        assert resolved.card is not None
        kinds = _CARD_ACTIONS.get(self.engine.phase, (Play,))
        if self.engine.awaits_up_card() and seat == self.engine.state.dealer:
            kinds = (TurnUp, ScanCard)  # the dealer's first card is the one turned up
        return self._first_accepted(
            [kind(seat=seat, card=resolved.card, copy=resolved.copy) for kind in kinds], board, pad)

    def _resolve(self, seat: int, uid: bytes, record: bytes | None,
                 board: str, pad: int) -> Resolved | Result:
        if self.registry is None:
            return self._refuse(seat, "unknown_tag",
                                f"tag {uid.hex()}: no deck registry is configured", board, pad)
        try:
            resolved = self.registry.resolve(uid, record)
        except UnknownTag as exc:
            return self._refuse(seat, "unknown_tag", str(exc), board, pad)
        except Misread as exc:
            return self._refuse(seat, "misread", str(exc), board, pad, READ_AGAIN_FEEDBACK)
        except BadRecord as exc:
            return self._refuse(seat, "bad_record", str(exc), board, pad)
        cfg = self.config
        if resolved.player is not None:
            return resolved  # a member tag: the player's own, from no table's deck
        if resolved.is_token:
            if cfg.token_decks and resolved.deck_id not in cfg.token_decks:
                return self._refuse(seat, "other_deck", f"token {resolved.token} is from deck "
                                    f"{resolved.deck_id}, not used at table {cfg.id}", board, pad)
        elif cfg.deck is not None and resolved.deck_id != cfg.deck:
            return self._refuse(seat, "other_deck", f"{resolved.card} is from deck {resolved.deck_id};"
                                f" table {cfg.id} plays deck {cfg.deck}", board, pad)
        return resolved

    def _seat_member(self, seat: int, player: str, board: str, pad: int) -> Result:
        """Seat ``player`` (tapped their member tag) at ``seat``; see the module docstring."""
        dealing = self.engine is not None and self.engine.phase == "deal"
        if self.engine is not None and not dealing and not self.engine.public_state().get(
                "game_over"):
            return self._refuse(seat, "hand_in_play", f"{player}'s member tag seats a player "
                                "during the deal or between games; this hand is in play",
                                board, pad)
        self.defaults = {**self.defaults,
                         "players": _seat_player(list(self.defaults["players"]), seat, player)}
        if dealing and self.setup is not None:
            self.setup = {**self.setup,
                          "players": _seat_player(list(self.setup["players"]), seat, player)}
            self._rebuild(self.actions)
        event = {"type": "seated", "seat": seat, "player": player,
                 "game": self.game if dealing else self.game + 1}
        return self._with_feedback(Result(ok=True, events=[event], changed=True,
                                          reason=f"{player} sits at seat {seat}"),
                                   seat, board, pad)

    def _token(self, seat: int, token: str, board: str | None, pad: int | None) -> Result:
        if token == "NEW_GAME":
            if self.engine is not None and not self.engine.public_state().get("game_over"):
                return self._refuse(seat, "game_in_progress", "NEW_GAME is refused while game "
                                    f"{self.game} is in progress; an admin can start one", board, pad)
            return self._with_feedback(self.start_game(), seat, board, pad)
        if self.engine is None:
            return self._no_game(seat, board, pad)
        if token == "UNDO":
            if not self.actions or self.actions[-1].seat != seat:
                return self._refuse(seat, "undo_not_yours", "a player may take back only their "
                                    "own last action; ask the admin to undo", board, pad)
            return self._with_feedback(self.undo(), seat, board, pad)
        tries = token_tries(token, seat, self.engine.legal_actions())
        if not tries:
            return self._refuse(seat, "token_not_usable", f"token {token} has no use at the table",
                                board, pad)
        result = self._first_accepted(tries, board, pad)
        if not result.ok:
            result.reason = f"token {token}: {result.reason}{self._taps_now(seat)}"
        return result

    def _taps_now(self, seat: int) -> str:
        """What ``seat`` may tap now, for a refusal (empty when only cards or nothing)."""
        assert self.engine is not None
        taps = dict.fromkeys(t for a in self.engine.legal_actions()
                             if a.seat == seat and (t := action_token(a)) is not None)
        if not taps:
            return ""
        return f"; {self.engine.public_state()['seats'][seat]} may tap {', '.join(taps)}"

    # --- applying --------------------------------------------------------------------

    def _first_accepted(self, tries: list[Action], board: str, pad: int) -> Result:
        """Apply the first of ``tries`` the engine accepts; else the first refusal (or a call's
        own reason, ``_says_more``). A refused try changes nothing, so the next may be tried."""
        first = None
        for action in tries:
            result = self._apply(action, board, pad)
            if result.ok:
                return result
            if first is None or _says_more(action, result):
                first = result
        assert first is not None
        return first

    def _apply(self, action: Action, board: str | None = None, pad: int | None = None) -> Result:
        assert self.engine is not None
        outcome = self.engine.apply(action)
        if not outcome.ok:
            reason = outcome.reason
            if outcome.code == "up_card_first":
                dealer = self.engine.public_state()["seats"][self.engine.state.dealer]
                reason = (f"tap the turned-up card on the dealer's pad first ({dealer} deals); "
                          f"{reason}")
            result = self._refuse(action.seat, outcome.code, reason, board, pad)
            result.action = action.to_json()
            return result
        self.actions.append(action)
        events = [e.to_json() for e in outcome.events]
        if any(e["type"] == "hand_started" for e in events):
            self.hand_starts.append(len(self.actions))
        result = Result(ok=True, seat=action.seat, action=action.to_json(), events=events,
                        steps=[(len(self.actions), action.to_json())], changed=True)
        revoke = any(e["type"] == "revoke" for e in events)
        if board is not None and pad is not None:
            look = REVOKE_FEEDBACK if revoke else OK_FEEDBACK
            result.feedback.append((board, Feedback(pad=pad, **look)))
        next_seat = self.engine.to_act
        if next_seat is not None and next_seat != action.seat:
            result.feedback += [(b, Feedback(pad=p, **TURN_FEEDBACK))
                                for (b, p), s in self.config.pads.items() if s == next_seat]
        return result

    def _refuse(self, seat: int | None, code: str, reason: str,
                board: str | None = None, pad: int | None = None,
                light: dict[str, Any] = REFUSED_FEEDBACK) -> Result:
        result = Result(ok=False, seat=seat, code=code or "refused", reason=reason)
        if board is not None and pad is not None:
            result.feedback.append((board, Feedback(pad=pad, **light)))
        return result

    def _no_game(self, seat: int, board: str | None, pad: int | None) -> Result:
        return self._refuse(seat, "no_game", f"no game on table {self.config.id}: tap NEW_GAME "
                            "or send the new_game command", board, pad)

    def _with_feedback(self, result: Result, seat: int, board: str | None,
                       pad: int | None) -> Result:
        result.seat = seat
        if result.ok and board is not None and pad is not None:
            result.feedback.append((board, Feedback(pad=pad, **OK_FEEDBACK)))
        return result

    # --- admin -----------------------------------------------------------------------

    def undo(self) -> Result:
        """Take back the last applied action of the current game."""
        if self.engine is None or not self.actions:
            return self._refuse(None, "nothing_to_undo", "there is no action to undo")
        undone = self.actions[-1]
        self._rebuild(self.actions[:-1])
        return Result(ok=True, seat=undone.seat, action=undone.to_json(), changed=True,
                      steps=[(len(self.actions), None)], reason=f"undid {undone.to_json()}")

    def void_hand(self) -> Result:
        """Throw the current hand in: back to the state at the start of this hand."""
        if self.engine is None:
            return self._refuse(None, "no_game", f"no game on table {self.config.id}")
        start = self.hand_starts[-1]
        self._rebuild(self.actions[:start])
        return Result(ok=True, changed=True, steps=[(start, None)],
                      reason=f"hand voided: back to action {start} of game {self.game}")

    def replace(self, at: object, action: object) -> Result:
        """Put ``action`` (JSON) in place of the game's ``at``-th action (1-based; a mis-scan)
        and apply every later action again after it; refused, changing nothing, when a later
        action no longer fits."""
        if self.engine is None:
            return self._refuse(None, "no_game", f"no game on table {self.config.id}")
        if isinstance(at, bool) or not isinstance(at, int) or not 1 <= at <= len(self.actions):
            return self._refuse(None, "bad_args", f"replace: args.at must be the number of an "
                                f"action of this game, 1 to {len(self.actions)}; not {at!r}")
        try:
            new = action_from_json(action)
        except ActionError as exc:
            return self._refuse(None, "bad_action", f"replace: {exc}")
        old, starts, rest = list(self.actions), list(self.hand_starts), self.actions[at:]
        self._rebuild(old[:at - 1])
        for n, step in enumerate([new, *rest], at):
            applied = self._apply(step)
            if not applied.ok:
                self._rebuild(old)
                self.hand_starts = starts
                names = self.engine.public_state()["seats"] if self.engine else []
                return self._refuse(None, "replace_refused", f"the correction would not fit: "
                                    f"action {n} ({action_words(step.to_json(), names)}) "
                                    f"could no longer be played after it: {applied.reason}")
        return Result(ok=True, seat=new.seat, action=new.to_json(), changed=True,
                      steps=[(at - 1, None)] + [(n, a.to_json()) for n, a in
                                                enumerate(self.actions[at - 1:], at)],
                      reason=f"action {at} is now {new.to_json()} (was {old[at - 1].to_json()})")

    def on_control(self, control: Control) -> Result:
        """An admin command (docs/protocol.md, Control)."""
        args = control.args
        if control.cmd == "new_game":
            return self.start_game(args)
        if control.cmd == "set_variant":
            if not isinstance(args.get("variant"), str):
                return self._refuse(None, "bad_args", "set_variant needs args.variant (a string)")
            trial = {**self.defaults, "variant": args["variant"], "options": args.get("options", {})}
            try:
                self._new_engine(trial)
            except (ValueError, KeyError, TypeError, LookupError) as exc:
                return self._refuse(None, "bad_setup", f"set_variant refused: {exc}")
            self.defaults = trial
            return Result(ok=True, reason=f"next game: {trial['variant']} {trial['options']}")
        if control.cmd == "seat":
            players = args.get("players")
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                return self._refuse(None, "bad_args", "seat needs args.players (a list of names)")
            self.defaults = {**self.defaults, "players": players}
            return Result(ok=True, reason=f"next game seats: {', '.join(players)}")
        if control.cmd == "undo":
            return self.undo()
        if control.cmd == "void_hand":
            return self.void_hand()
        if control.cmd == "replace":
            return self.replace(args.get("at"), args.get("action"))
        # "action": enter an action as if tapped (web page, CLI)
        if self.engine is None:
            return self._refuse(None, "no_game", f"no game on table {self.config.id}")
        try:
            action = action_from_json(args.get("action"))
        except ActionError as exc:
            return self._refuse(None, "bad_action", str(exc))
        return self._apply(action)

    # --- what the service publishes -----------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The retained table state: ``engine.public_state()`` plus table and game number (and
        ``round``, a club night's game number, or None)."""
        base: dict[str, Any] = self.engine.public_state() if self.engine else {"phase": None}
        return {**base, "table": self.config.id, "game": self.game,
                "round": (self.setup or {}).get("round"), "actions": len(self.actions)}

    @staticmethod
    def _who(st: dict[str, Any], seat: int) -> str:
        """A seat on the display: its player's name (7 letters), else N/E/S/W."""
        seats = st.get("seats") or []
        name = str(seats[seat]) if 0 <= seat < len(seats) else ""
        if name and not name.startswith("Seat "):
            return name.upper()[:7]
        return SEAT_LETTERS[seat] if len(seats) == 4 else f"P{seat + 1}"

    @staticmethod
    def _side(side: dict[str, Any], index: int) -> str:
        """A side on the display: NS and EW for the partnerships of a four-seat table."""
        letters = "".join(SEAT_LETTERS[s] for s in side.get("seats") or [] if 0 <= s < 4)
        return letters if len(letters) == 2 else f"S{index + 1}"

    def display(self, state: dict[str, Any] | None = None) -> Display:
        """The 8-character and 4-line summary for a score display, in the players' words:
        ``T7 GAME 2 HAND 1`` (a club night's game number when the night gave one), whose
        turn (``BOB TO PLAY``), the contract (``ANN BID 4 HEARTS``), the sides' scores; from
        ``state`` when given (the published state: a night's names and corrected scores)."""
        if self.engine is None:
            return Display(text8="NO GAME", lines=[self.config.id[:16], "no game"])
        st = state if state is not None else self.engine.public_state()
        scores = [int(s) for s in st.get("scores") or []]
        text8 = (f"{scores[0]:>3}  {scores[1]:>3}" if len(scores) == 2
                 else " ".join(str(s) for s in scores))[-8:]
        contract = st.get("contract")
        game = (self.setup or {}).get("round", self.game)
        table = self.config.id.upper()
        top = f"{table} GAME {game} HAND {st.get('hand_number', 0)}"
        phase, to_act = str(st.get("phase")), st.get("to_act")
        verb = DISPLAY_VERBS[phase] if phase in PHASES else phase.upper()
        sides = st.get("sides") or []
        lines = [
            (top if len(top) <= 16 else f"{table} G{game} H{st.get('hand_number', 0)}")[:16],
            _fits(self._who(st, to_act), f"TO {verb}", verb) if to_act is not None
            else verb[:16],
            _fits(self._who(st, contract["seat"]), f"BID {_contract_text(contract)}",
                  _contract_text(contract)) if contract else "NO BID YET",
            ("  ".join(f"{self._side(side, i)} {sc}" for i, (side, sc) in
                       enumerate(zip(sides, scores, strict=False))))[:16],
        ]
        return Display(text8=text8, lines=lines)


DISPLAY_TRUMPS = {"S": "SPADES", "H": "HEARTS", "D": "DIAMONDS", "C": "CLUBS",
                  "NT": "NO TRUMP"}
"""Trump on the display in words: ``CY BID 5 S`` would read as South as easily as spades."""


def _contract_text(contract: dict[str, Any]) -> str:
    """The contract's bid and trump as the display says them: ``5 SPADES``."""
    trump = str(contract.get("trump") or "")
    bid = str(contract["bid"])
    words = DISPLAY_TRUMPS.get(trump, trump)
    if bid[:1].isdigit() or not words:  # a number of tricks (Bid Euchre, Spades): 5 SPADES
        return f"{bid.replace('_', ' ').replace(':', ' ')} {words}".strip()
    return words + (" ALONE" if "ALONE" in bid else "")  # ordered up: the suit is the news


def _fits(who: str, long: str, short: str) -> str:
    """A display line of 16 characters that never cuts a word: ``EVE TO NAME TRUMP`` becomes
    ``EVE NAME TRUMP``, and a name is shortened before the words after it are."""
    for line in (f"{who} {long}", f"{who} {short}"):
        if len(line) <= 16:
            return line
    return f"{who[:max(1, 15 - len(short))]} {short}"[:16]


def action_token(action: Action) -> str | None:
    """The token a player taps to make ``action``; None for a card action or a word no token
    spells (docs/rules/tokens.md lists them per variant)."""
    plain = _PLAIN_TOKEN.get(replace(action, seat=0))
    if plain is not None:
        return plain
    prefixes = _SPELLINGS.get(type(action))  # type: ignore[arg-type]
    if prefixes is None:
        return None
    word = _word(action)
    if word.startswith(_PREFIXES) or word in _CONTROLS:
        return None
    return next((p + word for p in prefixes if p + word in TOKENS), None)


def token_actions(token: str, seat: int) -> list[Action]:
    """Every action ``token`` tapped at ``seat`` can stand for (the game picks one); empty for
    the table controls and unknown strings."""
    token = _SAME.get(token, token)
    plain = _PLAIN.get(token)
    if plain is not None:
        return [replace(plain, seat=seat)]
    out: list[Action] = []
    for kind, prefixes in _SPELLINGS.items():
        for prefix in prefixes:
            if token.startswith(prefix) and len(token) > len(prefix):
                action = kind(seat, token[len(prefix):])
                if action_token(action) == token:
                    out.append(action)
    return out


def _seat_player(players: list[str], seat: int, player: str) -> list[str]:
    """``players`` with ``player`` at ``seat``; if they sat elsewhere, the two swap seats."""
    if player in players:
        players[players.index(player)] = players[seat]
    players[seat] = player
    return players


def _says_more(action: Action, refused: Result) -> bool:
    """A call the variant refuses with its own reason (``Variant.call_refusal``: Eau Claire's
    Bottoms before the hand was shown) tells the player more than the same token read as a
    bid ("the bidding begins with ...")."""
    return isinstance(action, Call) and not refused.reason.endswith("cannot be called now")


def token_tries(token: str, seat: int, legal: list[Action]) -> list[Action]:
    """What ``token`` tapped at ``seat`` may stand for when the rules offer ``legal``
    (``engine.legal_actions()``), in the order the table tries them: the action offered
    (never more than one), then those of a kind offered now (whose refusal is the one
    reported), then the rest (a call a variant allows out of turn). Empty: no action."""
    kinds = {type(a) for a in legal}
    return sorted(token_actions(token, seat), key=lambda a: (a not in legal, type(a) not in kinds))


def _word(action: Action) -> str:
    if isinstance(action, Bid):
        return action.bid
    if isinstance(action, DeclareTrump):
        return action.trump
    assert isinstance(action, Call)
    return action.call

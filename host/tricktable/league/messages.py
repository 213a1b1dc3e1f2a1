"""What a club sends the league: versioned messages on the ``league/v1/{club}/...`` topics.

Four kinds, each a msgspec Struct with ``"v": 1`` and a stable ``id`` built from the club and
its journal (or night), so a message sent twice, or by a club that resends everything after a
restart, is stored once (docs/protocol.md, "League messages"):

- ``LeagueHand`` on ``league/v1/{club}/hand``: one scored hand of a journal game (its table,
  game and hand number, the players by seat, the hand's points and the running score per side).
- ``LeagueGame`` on ``league/v1/{club}/game``: one finished game (round) of a club night: each
  player's line on the tally (table, seat, score, won, bye), as the club's own results show it.
- ``LeagueNight`` on ``league/v1/{club}/night``: a finished night: its date, games and the
  club's own standings.
- ``LeaguePlayer`` on ``league/v1/{club}/player``: a player's league id and the name the
  player lets the league show ("Guest" for a player the club hides), sent again whenever that
  name changes (its id carries the name; the league keeps the newest).

The league answers with ``LeagueReceipt`` on ``league/v1/{club}/receipt``: the ids it has
stored, after the commit. A club sends a message again until it is receipted (end to end, as a
board's play is acknowledged only once journaled): a broker that drops a message on the way
costs a resend, never the message.

Never the raw taps: only what the club's results already make public. A player is named by
a league player id (``league_player_id``: the club's id and the player's number in the club
players database, ``league.club_players``), never by name; a club without a players database
sends the names its nights seat instead (``league_player``). ``sent`` is the club's clock when the message
was published (seconds since the epoch), for the league's lag figures.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from msgspec import Meta, Struct

from tricktable.protocol import ProtocolError, TableId, decode, encode, valid_id

__all__ = ["ROOT", "LeagueHand", "LeagueGame", "LeagueNight", "LeagueMessage", "TallyLine",
           "Standing", "league_player", "topic_for", "parse_topic", "decode_league",
           "encode", "MAX_LEAGUE_MESSAGE", "SHARED_SUBSCRIPTIONS", "KINDS", "check_ids",
           "LeagueReceipt", "receipt_topic", "decode_receipt", "MAX_RECEIPT_IDS", "LeaguePlayer",
           "league_player_id"]

ROOT = "league/v1"
MAX_LEAGUE_MESSAGE = 65536  # bytes: a night's standings for a large club fit easily
KINDS = ("hand", "game", "night", "player")  # what clubs send; the league answers on .../receipt
SHARED_SUBSCRIPTIONS = tuple(f"$share/league/{ROOT}/+/{kind}" for kind in KINDS)  # the services'
MAX_RECEIPT_IDS = 500  # ids in one receipt

ClubId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$", max_length=32)]
NightId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$", max_length=64)]
# (the same patterns as check_ids, which a sender runs before it sends anything)
JournalId = Annotated[str, Meta(pattern=r"^[0-9a-f]{1,32}$")]
Player = Annotated[str, Meta(min_length=1, max_length=64)]
Date = Annotated[str, Meta(pattern=r"^\d{4}-\d{2}-\d{2}$")]
Count = Annotated[int, Meta(ge=0, le=100_000)]
Number = Annotated[int, Meta(ge=1, le=100_000)]
Points = Annotated[int, Meta(ge=-100_000, le=100_000)]
Kind = Literal["hand", "game", "night", "player"]


_CLUB_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
_NIGHT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def check_ids(club: str, night: str | None) -> None:
    """ProtocolError unless ``club`` and ``night`` can name a club and a night in the league."""
    if not _CLUB_RE.match(club):
        raise ProtocolError(f"bad club id {club!r}: 1-32 letters, digits, _ . - "
                            "(starting with a letter or digit)", "club")
    if night is not None and not _NIGHT_RE.match(night):
        raise ProtocolError(f"bad night id {night!r}: 1-64 letters, digits, _ . - "
                            "(starting with a letter or digit)", "night")


def league_player(name: str) -> str:
    """How the league knows the player of a club without a players database: the name the
    club night seats (a member's tag fills the seat with it), unique within the club."""
    return name


def league_player_id(club: str, player: int) -> str:
    """The league's id of player number ``player`` of the club's players database: stable for
    as long as the club keeps its database, unique across the league, and no private data."""
    return f"{club}.{player}"


class _LeagueMessage(Struct, kw_only=True, omit_defaults=False):
    v: Literal[1] = 1
    club: ClubId
    sent: float = 0.0


class LeagueHand(_LeagueMessage, kw_only=True, tag="hand", tag_field="kind"):
    """One scored hand; unique by (club, journal, table, game, hand)."""

    journal: JournalId  # which journal of the club (its first entry's time, in hex ms)
    table: TableId
    game: Number  # the journal's game number on that table
    hand: Number  # the hand's number in that game
    night: NightId | None = None  # the club night the game belongs to, if any
    round: Number | None = None  # the night's game (round) it belongs to, if any
    variant: Annotated[str, Meta(max_length=32)]
    seats: list[Player]  # by seat, as the table's game seated them
    sides: list[list[Annotated[int, Meta(ge=0, le=7)]]]  # the seats of each side
    deltas: list[Points]  # the hand's points per side
    scores: list[Points]  # each side's score after it
    detail: Annotated[str, Meta(max_length=300)] = ""

    @property
    def id(self) -> str:
        return f"{self.club}/{self.journal}/{self.table}/{self.game}/{self.hand}"


class TallyLine(Struct, kw_only=True):
    """One player's line on the tally for one game of a night."""

    player: Player
    table: Count  # 0 for a bye
    seat: Annotated[str, Meta(max_length=8)]
    score: Points
    won: bool
    bye: bool = False


class LeagueGame(_LeagueMessage, kw_only=True, tag="game", tag_field="kind"):
    """One finished game (round) of a club night; unique by (club, night, round)."""

    night: NightId
    date: Date  # the night's date: which league season the game counts in
    round: Number
    lines: list[TallyLine]

    @property
    def id(self) -> str:
        return f"{self.club}/{self.night}/{self.round}"


class Standing(Struct, kw_only=True):
    rank: Number
    player: Player
    total: Points
    won: Count
    played: Count


class LeagueNight(_LeagueMessage, kw_only=True, tag="night", tag_field="kind"):
    """A finished club night; unique by (club, night)."""

    night: NightId
    date: Date
    games: Count
    standings: list[Standing]

    @property
    def id(self) -> str:
        return f"{self.club}/{self.night}"


class LeaguePlayer(_LeagueMessage, kw_only=True, tag="player", tag_field="kind"):
    """A club's player as the league may show them; unique by (club, player, name): a new
    name (a rename, or hidden as "Guest") is a new message, and the league keeps the one the
    club sent last."""

    player: Player  # the league player id (league_player_id)
    name: Player  # the player's public name: "Guest" when the club hides them

    @property
    def id(self) -> str:
        return f"{self.club}/player/{self.player}/{self.name}"


LeagueMessage = LeagueHand | LeagueGame | LeagueNight | LeaguePlayer
_KINDS: dict[str, type[LeagueMessage]] = {
    "hand": LeagueHand, "game": LeagueGame, "night": LeagueNight, "player": LeaguePlayer}


class LeagueReceipt(Struct, kw_only=True):
    """league -> club on ``league/v1/{club}/receipt``: these messages are stored (or were
    refused for good): the club's sender stops sending them again."""

    v: Literal[1] = 1
    club: ClubId
    ids: Annotated[list[Annotated[str, Meta(max_length=200)]], Meta(max_length=MAX_RECEIPT_IDS)]


def receipt_topic(club: str) -> str:
    return f"{ROOT}/{club}/receipt"


def decode_receipt(payload: bytes) -> LeagueReceipt:
    return decode(LeagueReceipt, payload, MAX_LEAGUE_MESSAGE)


def topic_for(message: LeagueMessage) -> str:
    """``league/v1/{club}/{kind}``."""
    kind = type(message).__struct_config__.tag
    return f"{ROOT}/{message.club}/{kind}"


def parse_topic(topic: str) -> tuple[str, Kind]:
    """(club, kind) of a league topic; ProtocolError when it is not one."""
    parts = topic.split("/")
    if len(parts) != 4 or "/".join(parts[:2]) != ROOT or parts[3] not in _KINDS \
            or not valid_id(parts[2]):
        raise ProtocolError(f"not a league topic: {topic!r} (want {ROOT}/CLUB/hand|game|night|player)",
                            "topic")
    return parts[2], parts[3]  # type: ignore[return-value]


def decode_league(topic: str, payload: bytes) -> LeagueMessage:
    """The message on a league topic, checked: its kind is the topic's, and so is its club."""
    club, kind = parse_topic(topic)
    message = decode(_KINDS[kind], payload, MAX_LEAGUE_MESSAGE)
    if message.club != club:
        raise ProtocolError(f"a message of club {message.club!r} on club {club!r}'s topic",
                            "club")
    return message

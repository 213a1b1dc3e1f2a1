"""A progressive night kept by the live tables ("Bid Euchre", section "Bid euchre variations",
"Progressive"), through the real service on mosquitto, with no score typed: the tables start
the night's seating, every scored hand goes on the tally, the head table rings the bell after
its hands, a table in a hand finishes it ("players at each table finish their current hand"),
then the players move and every table starts its next game with its new players. A restart
of the service counts nothing twice.
"""

from __future__ import annotations

import json
import random
import tomllib

import pytest
from hostkit import SEATS, Board, Observer, bot_choice, club_toml, make_registry, tap_for
from tricktable.club.journal_hands import hands_from_game
from tricktable.club.live import LiveNight
from tricktable.club.store import load_night, save_night
from tricktable.club.tournament import ProgressiveOptions, ProgressiveTournament
from tricktable.clubfile import parse_club
from tricktable.deckkit.decks import Registry
from tricktable.engine import Engine
from tricktable.serve.journal import Journal
from tricktable.serve.service import BrokerURL, Service
from waiting import eventually

ROSTER = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
TABLES = ("t1", "t2")


class Room:
    """Two tables of four raw boards, the service and the night, and a shadow engine a table."""

    def __init__(self, port: int, prefix: str, tmp_path) -> None:
        self.port, self.prefix, self.tmp = port, prefix, tmp_path
        self.club = parse_club(tomllib.loads(club_toml(prefix, TABLES)))
        make_registry(tmp_path / "decks.sqlite").close()
        self.registry = Registry(tmp_path / "decks.sqlite")
        self.observer = Observer(port, prefix)
        self.boards = {t: [Board(port, prefix, f"{t}-{s}") for s in SEATS] for t in TABLES}
        self.shadows: dict[str, Engine] = {}
        # the bots' choices at each table; these seeds give hands that are not tied (a tied
        # table waits for the director before the players can move)
        self.rngs = {"t1": random.Random(3), "t2": random.Random(2)}
        self.start()

    def start(self) -> None:
        self.journal = Journal(self.tmp / "journal.sqlite")
        self.service = Service(self.club, self.journal, self.registry,
                               BrokerURL("127.0.0.1", self.port), client_id=f"h-{self.prefix}")
        self.service.start()
        assert self.service.connected.wait(10)
        self.night = LiveNight(self.tmp / "night.json", self.club, self.journal)
        self.night.start(self.service)

    def stop(self) -> None:
        self.night.stop()
        self.service.stop()
        self.journal.close()

    def seated(self, table: str, game: int, players: list[str]) -> None:
        """Wait until ``table`` plays ``game`` with ``players``; follow it with a shadow."""
        eventually(lambda: self.service.state(table)["game"] == game, f"{table} game {game}")
        assert self.service.state(table)["seats"] == players
        self.shadows[table] = Engine.new("bid-euchre", seed=1, dealer=0, players=players)

    def tap(self, table: str) -> None:
        shadow = self.shadows[table]
        action = bot_choice(shadow, self.rngs[table])
        assert shadow.apply(action).ok
        mark = self.observer.mark()
        self.boards[table][action.seat].tap(tap_for(action))
        _, verdict = self.observer.verdict(table, mark)
        assert (verdict.kind, verdict.action) == ("accepted", action.to_json()), verdict

    def play_until(self, table: str, done) -> None:
        while not done(self.shadows[table]):
            self.tap(table)

    def close(self) -> None:
        for boards in self.boards.values():
            for board in boards:
                board.close()
        self.observer.close()
        self.registry.close()


def hands_scored(shadow: Engine) -> list[tuple[int, int]]:
    """(N/S, E/W) per scored hand of a shadow game, as a tally sheet takes them."""
    setup = {"variant": "bid-euchre", "seed": 1, "dealer": 0, "players": shadow.state.players}
    return hands_from_game(setup, shadow.actions)


def moved(first: list[list[str]], shadows: dict[str, Engine]) -> list[tuple[str, ...]]:
    """The seating the rules give after the first game, from the hands the shadows scored."""
    expected = ProgressiveTournament(first, ProgressiveOptions(hands_per_round=1, rounds=2))
    for number, table in enumerate(TABLES, 1):
        expected.set_hands(number, hands_scored(shadows[table]))
    expected.bell()
    return expected.seating


def live(tmp_path) -> dict:
    """The live section of the night file: the round's games, the bell, the closed tables."""
    return json.loads((tmp_path / "night.json").read_text())["live"]


@pytest.fixture
def room(mqtt_broker, topic_prefix, tmp_path):
    night = ProgressiveTournament.new(ROSTER, 2, ProgressiveOptions(hands_per_round=1, rounds=2))
    save_night(night, tmp_path / "night.json")
    r = Room(mqtt_broker.port, topic_prefix, tmp_path)
    yield r
    r.stop()
    r.close()


def test_the_tables_keep_the_tally_ring_the_bell_and_seat_the_next_game(room, tmp_path):
    first = [list(t) for t in load_night(tmp_path / "night.json").seating]
    for table, players in zip(TABLES, first, strict=True):
        room.seated(table, 2, players)  # game 1 was the club file's; the night starts game 2
    # table 2 is in the middle of a hand when the head table finishes its one hand
    room.play_until("t2", lambda s: s.phase == "play" and s.public_state()["tricks"])
    room.play_until("t1", lambda s: s.public_state()["hand_number"] == 2)
    eventually(lambda: live(tmp_path)["bell"], "the head table's bell")
    assert live(tmp_path)["closed"] == {"t1": 1}  # table 2 finishes its hand first
    room.play_until("t2", lambda s: s.public_state()["hand_number"] == 2)
    eventually(lambda: load_night(tmp_path / "night.json").games, "the players moving")
    night = load_night(tmp_path / "night.json")
    [game] = night.games
    assert [list(h) for h in game.hands] == [hands_scored(room.shadows[t]) for t in TABLES]
    expected = moved(first, room.shadows)
    assert night.seating == expected
    for table, players in zip(TABLES, expected, strict=True):
        room.seated(table, 3, list(players))


def test_a_restart_counts_nothing_twice(room, tmp_path):
    first = [list(t) for t in load_night(tmp_path / "night.json").seating]
    room.seated("t2", 2, first[1])
    room.play_until("t2", lambda s: s.public_state()["hand_number"] == 2)
    eventually(lambda: load_night(tmp_path / "night.json").hands[1]
               == hands_scored(room.shadows["t2"]), "table 2's hand on the tally")
    before = (tmp_path / "night.json").read_text()
    room.stop()
    room.start()
    assert (tmp_path / "night.json").read_text() == before
    assert room.service.state("t2")["game"] == 2  # no second new game either


def test_the_tables_show_the_seating_until_every_seat_is_filled(room, tmp_path):
    """Each table's display lists who sits where ("ANN -> T1 N") and every seat's pad blinks
    blue until that seat's player acts; then the table shows its game again."""
    first = [list(t) for t in load_night(tmp_path / "night.json").seating]
    topics = room.observer.topics

    def display(table, payload_test):
        return room.observer.wait_for(lambda t, p: t == topics.display(table)
                                      and payload_test(json.loads(p)))

    for number, (table, players) in enumerate(zip(TABLES, first, strict=True), 1):
        display(table, lambda d, number=number, players=players: d["lines"] == [
            f"{p.upper()} -> T{number} {s}" for p, s in zip(players, "NESW", strict=True)])
        for seat in SEATS:
            room.observer.wait_for(lambda t, p, seat=seat, table=table: t == topics.feedback(
                f"{table}-{seat}") and json.loads(p)["led"] == "blue"
                and json.loads(p)["pattern"] == "blink")
    room.seated("t1", 2, first[0])
    room.play_until("t1", lambda s: len({a.seat for a in s.actions}) == 4)
    display("t1", lambda d: d["lines"][0] == "T1 GAME 1 HAND 1")  # the night's game 1
    assert room.service._displays["t2"] != room.service._displays["t1"]  # t2 still waits
    assert b"-> T2" in room.service._displays["t2"]


def test_the_bell_and_the_moves_reach_the_displays(room, tmp_path):
    first = [list(t) for t in load_night(tmp_path / "night.json").seating]
    for table, players in zip(TABLES, first, strict=True):
        room.seated(table, 2, players)
    room.play_until("t2", lambda s: s.phase == "play")  # in a hand when the bell rings
    room.play_until("t1", lambda s: s.public_state()["hand_number"] == 2)
    topics = room.observer.topics
    room.observer.wait_for(lambda t, p: t == topics.display("t2")
                           and json.loads(p)["lines"][:2] == ["BELL", "FINISH HAND"])
    room.observer.wait_for(lambda t, p: t == topics.display("t1")
                           and json.loads(p)["lines"][:2] == ["BELL", "HAND DONE"])
    room.play_until("t2", lambda s: s.public_state()["hand_number"] == 2)
    eventually(lambda: load_night(tmp_path / "night.json").games, "the players moving")
    night = load_night(tmp_path / "night.json")
    for number, table in enumerate(TABLES, 1):
        expected = []
        for name in first[number - 1]:
            to, seats = next((n, t) for n, t in enumerate(night.seating, 1) if name in t)
            expected.append(f"{name.upper()} -> T{to} {'NESW'[seats.index(name)]}")
        room.observer.wait_for(lambda t, p, table=table, expected=expected: t == topics.display(
            table) and json.loads(p)["lines"] == expected)


def test_a_table_between_hands_at_the_bell_keeps_every_hand_it_scored(room, tmp_path):
    """The head table's last hand and table 2's hand are scored before the night has taken
    either (a busy host): the bell finds table 2 between hands, and its hand counts ("players
    at each table finish their current hand": that hand was finished before the bell)."""
    first = [list(t) for t in load_night(tmp_path / "night.json").seating]
    for table, players in zip(TABLES, first, strict=True):
        room.seated(table, 2, players)
    with room.night._lock:  # the night's thread is busy: the scored hands wait their turn
        room.play_until("t1", lambda s: s.public_state()["hand_number"] == 2)
        room.play_until("t2", lambda s: s.public_state()["hand_number"] == 2)
    eventually(lambda: load_night(tmp_path / "night.json").games, "the players moving")
    [game] = load_night(tmp_path / "night.json").games
    assert [list(h) for h in game.hands] == [hands_scored(room.shadows[t]) for t in TABLES]

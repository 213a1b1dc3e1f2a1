"""The director's corrections, one by one, on a night kept by a real service and journal (no
broker needed: actions are entered as the web's ``action`` control). A correction that does
not fit is refused with a clear reason and changes nothing: not the night file, not a table.
The night is a progressive one ("Bid Euchre", section "Bid euchre variations", "Progressive").
"""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest
import tricktable.club.night_commands as night_commands
from hostkit import bot_choice, make_club
from tricktable.club.errors import ClubError
from tricktable.club.live import LiveNight
from tricktable.club.store import load_night, save_night
from tricktable.club.tournament import ProgressiveOptions, ProgressiveTournament
from tricktable.engine import Engine
from tricktable.engine.actions import Play
from tricktable.protocol import Control, NightAnswer, NightCommand, decode, encode
from tricktable.serve.journal import Journal
from tricktable.serve.service import BrokerURL, Service
from waiting import eventually

ROSTER = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
TABLES = ("t1", "t2")


class Night:
    """A service (not connected: nothing here needs the broker) keeping a two-table night."""

    def __init__(self, tmp_path, hands_per_round: int) -> None:
        self.path, self.tmp = tmp_path / "night.json", tmp_path
        save_night(ProgressiveTournament.new(ROSTER, 2, ProgressiveOptions(
            hands_per_round=hands_per_round, rounds=3)), self.path)
        self.club = make_club("cons", TABLES)
        self.answers: list[NightAnswer] = []
        self.start()
        self.count = 0
        self.shadows = {t: Engine.new("bid-euchre", seed=1, dealer=0,
                                      players=self.service.state(t)["seats"]) for t in TABLES}
        self.rng = random.Random(3)

    def start(self) -> None:
        self.journal = Journal(self.tmp / "journal.sqlite")
        self.service = Service(self.club, self.journal, None, BrokerURL("127.0.0.1", 1))
        self.service.listen(lambda topic, payload: topic.endswith("/night/events") and
                            self.answers.append(decode(NightAnswer, payload, 1 << 16)))
        self.live = LiveNight(self.path, self.club, self.journal)
        self.live.start(self.service)

    def send(self, cmd: str, args: dict, command_id: str | None = None) -> NightAnswer:
        self.count += 1
        command = NightCommand(cmd=cmd, args=args, by="Dana", id=command_id or f"c{self.count}")  # type: ignore[arg-type]
        self.live.command("night/control", encode(command))
        return self.answers[-1]

    def refused(self, cmd: str, args: dict, reason: str) -> None:
        """``cmd`` is refused saying ``reason``, and nothing changes but the audit log, which
        keeps the refusal."""
        night = json.loads(self.path.read_text())
        tables = [self.service.state(t) for t in TABLES]
        answer = self.send(cmd, args)
        assert not answer.ok and reason in answer.reason, answer
        after = json.loads(self.path.read_text())
        refusal = after["director"]["audit"].pop()
        assert refusal["cmd"] == cmd and reason in refusal["refused"], refusal
        assert after == night
        assert [self.service.state(t) for t in TABLES] == tables

    def act(self, table: str, stop) -> None:
        """Enter bot actions at ``table`` until ``stop(shadow)``."""
        shadow = self.shadows[table]
        while not stop(shadow):
            action = bot_choice(shadow, self.rng)
            assert shadow.apply(action).ok
            result = self.service.control(table, Control(cmd="action",
                                                         args={"action": action.to_json()}))
            assert result is not None and result.ok, result

    def tally(self) -> ProgressiveTournament:
        return load_night(self.path)

    def audit(self) -> list[dict]:
        """The commands done (the log keeps the refused ones too)."""
        return [e for e in json.loads(self.path.read_text())["director"]["audit"]
                if not e.get("refused")]

    def close(self) -> None:
        self.live.stop()
        self.journal.close()


@pytest.fixture
def night(tmp_path):
    n = Night(tmp_path, hands_per_round=2)
    yield n
    n.close()


def test_a_mis_scanned_card_is_replaced_and_the_later_plays_are_played_again(night):
    night.act("t1", lambda s: s.phase == "play" and len(s.public_state()["trick"]["cards"]) == 2)
    actions = night.journal.games("t1")[-1].actions
    lead = len(actions) - 1  # the lead is action `lead`, the second card follows it
    before = Engine.replay(night.service.tables["t1"].setup,
                           night.service.tables["t1"].actions[:lead - 1])
    follow = night.service.tables["t1"].actions[-1]
    fits = []
    for other in [a for a in before.legal_actions() if isinstance(a, Play)]:
        trial = Engine.replay(night.service.tables["t1"].setup,
                              night.service.tables["t1"].actions[:lead - 1])
        if other.to_json() != actions[lead - 1] and trial.apply(other).ok:
            (fits if trial.apply(follow).ok else []).append(other)
    right = fits[0]
    night.refused("replace_action", {"table": "t1", "at": 0, "action": right.to_json()},
                  "Table 1's game has")
    night.refused("replace_action", {"table": "t1", "at": lead, "action": {"type": "fly"}},
                  "action:")
    night.refused("replace_action", {"table": "t1", "at": lead,
                                     "action": dict(right.to_json(), seat=(right.seat + 2) % 4)},
                  f"action {lead}")
    answer = night.send("replace_action", {"table": "t1", "at": lead, "action": right.to_json()})
    assert answer.ok, answer.reason
    replaced = night.journal.games("t1")[-1].actions
    assert replaced[lead - 1] == right.to_json() and replaced[lead] == actions[lead]
    assert replaced[:lead - 1] == actions[:lead - 1]
    assert answer.entry["what"] == f"Table 1, action {lead}"


def test_a_hand_score_is_fixed_and_voided_on_the_tally_and_kept_over_a_restart(night, tmp_path):
    night.act("t2", lambda s: s.public_state()["hand_number"] == 2)
    [hand] = eventually(lambda: night.tally().hands[1], "table 2's hand on the tally")
    night.refused("fix_hand", {"table": "t2", "hand": 1, "score": ["a", 1]},
                  "a hand's score is two whole numbers")
    night.refused("fix_hand", {"table": "t2", "hand": 2, "score": [1, 1]},
                  "Table 2 has 1 hands in game 1: pick one of 1 to 1, not 2")
    night.refused("void_hand", {"table": "t7", "hand": 1},
                  "there is no table 't7' tonight: the night's tables are Table 1 to Table 2 (t1, t2)")
    night.refused("fix_hand", {"table": "t2", "hand": 1, "score": [1, 1], "game": 2},
                  "there is no game 2 to correct: the games of the night so far are 1 to 1")
    answer = night.send("fix_hand", {"table": "t2", "hand": 1, "score": [hand[0] + 5, hand[1]]})
    assert answer.ok and answer.entry["before"] == f"N/S {hand[0]}, E/W {hand[1]}"
    assert night.tally().hands[1] == [(hand[0] + 5, hand[1])]
    night.close()  # a restart reads the journal again; the fix stays on top of it
    night.start()
    assert night.tally().hands[1] == [(hand[0] + 5, hand[1])]
    assert night.send("void_hand", {"table": "t2", "hand": 1}).ok
    assert night.tally().hands[1] == [(0, 0)]
    assert [e["cmd"] for e in night.audit()] == ["fix_hand", "void_hand"]


def test_a_finished_game_is_fixed_only_if_its_winners_stay_the_winners(tmp_path):
    night = Night(tmp_path, hands_per_round=1)
    try:
        night.act("t1", lambda s: s.public_state()["hand_number"] == 2)
        eventually(lambda: "tied" in night.live.bell_blocked, "the bell waiting on the tie")
        assert night.send("settle", {"winners": {"t2": "A"}}).ok  # t2 closed at 0-0
        [game] = night.tally().games
        [(a, b)] = game.hands[0]
        won = game.winners[0]
        night.refused("void_hand", {"table": "t1", "hand": 1, "game": 1},
                      f"would be tied 0-0 in game 1; its winners (team {won}) have moved on")
        night.refused("fix_hand", {"table": "t1", "hand": 1, "game": 1, "score": [b, a]},
                      "would change the winner: not changed")
        night.refused("void_hand", {"table": "t2", "hand": 1, "game": 1},
                      "Table 2 has 0 hands in game 1")
        bigger = [a + 10, b] if won == "A" else [a, b + 10]
        assert night.send("fix_hand", {"table": "t1", "hand": 1, "game": 1,
                                       "score": bigger}).ok
        assert night.tally().games[0].hands[0] == ((bigger[0], bigger[1]),)
        assert [e.score for e in night.tally().tallies()["Ann"]] == [bigger[0]]  # t1 N, team A
    finally:
        night.close()


def test_players_are_swapped_and_a_table_not_yet_playing_starts_again_with_them(night):
    night.act("t1", lambda s: s.phase == "play")
    seating = [list(t) for t in night.tally().seating]
    night.refused("swap", {"a": {"table": "t1", "seat": "X"}, "b": {"table": "t2", "seat": "E"}},
                  "the first seat of the swap must be North, East, South or West, not 'X'")
    night.refused("swap", {"a": {"table": "t1", "seat": "N"}, "b": {"table": "t1", "seat": "N"}},
                  "is picked twice: a swap takes two different seats")
    night.refused("swap", {"a": {"table": "t1", "seat": "N"}}, "pick the second seat of the swap")
    game = night.service.state("t2")["game"]
    answer = night.send("swap", {"a": {"table": "t1", "seat": "N"},
                                 "b": {"table": "t2", "seat": "E"}})
    assert answer.ok, answer.reason
    assert answer.entry["after"] == f"Table 1 North: {seating[1][1]}, Table 2 East: {seating[0][0]}"
    moved = [list(t) for t in night.tally().seating]
    assert moved[0][0] == seating[1][1] and moved[1][1] == seating[0][0]
    assert night.service.state("t2")["game"] == game + 1  # it had not begun: new names now
    assert night.service.state("t2")["seats"] == moved[1]
    assert night.service.state("t1")["seats"] == seating[0]  # in play: names from its next game


def test_the_bell_by_hand_settles_and_undo_refuse_what_the_rules_do_not_allow(night):
    night.refused("settle", {"winners": {"t2": "A"}}, "the bell has not rung")
    night.refused("settle", {}, "winners must name each tied table's winning team")
    assert night.send("ring", {}).ok
    night.refused("ring", {}, "the bell has already rung in this game")
    night.refused("settle", {"winners": {"t2": "C"}}, "the winner is team A (N/S) or B (E/W), not 'C'")
    assert night.send("undo_bell", {}).ok  # rung by hand, taken back before anyone moved
    assert not json.loads(night.path.read_text())["live"]["bell"]
    assert [e["cmd"] for e in night.audit()] == ["ring", "undo_bell"]


def test_a_command_seen_twice_is_done_once_and_a_malformed_one_is_refused(night):
    first = night.send("ring", {}, command_id="same")
    again = night.send("ring", {}, command_id="same")
    assert first.ok and again.ok and again.entry == first.entry
    assert len(night.audit()) == 1
    night.live.command("night/control", b'{"v": 1, "cmd": "explode", "id": "x", "by": "D"}')
    assert not night.answers[-1].ok and night.answers[-1].code == "malformed"
    assert "cmd" in night.answers[-1].reason


def test_a_hand_edited_director_section_that_cannot_be_read_is_refused(night):
    data = json.loads(night.path.read_text())
    data["director"]["fixes"] = {"t1": {"1": [1, "x"]}}
    night.path.write_text(json.dumps(data))
    with pytest.raises(ClubError, match="director section cannot be read: the fix of t1 hand 1"):
        LiveNight(night.path, night.club, night.journal)


def test_a_late_arrival_a_substitute_and_an_early_end_are_done_from_the_console(night):
    night.act("t1", lambda s: s.phase == "play")
    night.refused("arrive", {"name": ""}, "type the name of the player who arrives")
    night.refused("arrive", {"name": "ann"}, "already at the night")
    answer = night.send("arrive", {"name": "Ivy"})
    assert answer.ok and answer.entry["after"] == "plays from game 2", answer
    assert "Ivy" in night.tally().arriving
    night.refused("substitute", {"out": "Zed", "in": "Jo"}, "'Zed' is not at the night")
    seated_t2 = night.service.state("t2")["seats"]
    game = night.service.state("t2")["game"]
    answer = night.send("substitute", {"out": seated_t2[0], "in": "Jo"})
    assert answer.ok, answer.reason
    after = night.tally()
    assert after.seating[1][0] == "Jo" and seated_t2[0] in after.left
    # t2 had not begun its game: it starts again with the substitute's name
    assert night.service.state("t2")["game"] == game + 1
    assert night.service.state("t2")["seats"][0] == "Jo"
    night.refused("end", {}, "no hand has been played tonight")
    hand = night.shadows["t1"].public_state()["hand_number"]
    night.act("t1", lambda s: s.public_state()["hand_number"] > hand)  # a hand is scored
    answer = night.send("end", {})
    assert answer.ok and answer.entry["after"] == "1 game", answer
    assert night.tally().last_round == 1
    assert [e["cmd"] for e in night.audit()] == ["arrive", "substitute", "end"]


def test_the_directors_commands_do_not_import_the_live_night() -> None:
    """``club.live`` imports ``club.night_commands``; the commands reach the live night only
    through their ``LiveState`` protocol, so the two modules never import each other."""
    tree = ast.parse(Path(night_commands.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "tricktable.club.live" not in imported

"""A night kept by ``tricktable serve --night`` survives the service SIGKILLed during a hand
and during the bell ("Bid Euchre", section "Bid euchre variations", "Progressive"): the
boards' plays wait on the broker for the host's persistent session, the restarted service
rebuilds the tables and the night from the journal, the bell is still rung, the hand in play
is still finished, nothing is counted twice, and the players move as the rules say.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys

from hostkit import SEATS, Board, Observer, bot_choice, club_toml, make_registry, tap_for
from test_live_night import ROSTER, TABLES, hands_scored, moved
from tricktable.club.store import load_night, save_night
from tricktable.club.tournament import ProgressiveOptions, ProgressiveTournament
from tricktable.engine import Engine
from tricktable.protocol import TableEvent, decode
from waiting import eventually

OPTIONS = ProgressiveOptions(hands_per_round=1, rounds=2)  # as in test_live_night


class Night:
    """``tricktable serve --night`` in a child process, raw boards and a shadow per table."""

    def __init__(self, port: int, prefix: str, tmp) -> None:
        self.port, self.prefix, self.tmp = port, prefix, tmp
        (tmp / "club.toml").write_text(club_toml(prefix, TABLES))
        make_registry(tmp / "decks.sqlite").close()
        self.observer = Observer(port, prefix)
        self.boards = {t: [Board(port, prefix, f"{t}-{s}") for s in SEATS] for t in TABLES}
        self.shadows: dict[str, Engine] = {}
        self.rngs = {"t1": random.Random(3), "t2": random.Random(2)}  # no tied table
        self.host: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        t = self.tmp
        self.host = subprocess.Popen(
            [sys.executable, "-c", "from tricktable.cli import main; main()", "serve",
             "--club", str(t / "club.toml"), "--night", str(t / "night.json"),
             "--journal", str(t / "journal.sqlite"), "--registry", str(t / "decks.sqlite"),
             "--broker", f"mqtt://127.0.0.1:{self.port}", "--client-id", f"h-{self.prefix}"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = self.host.stdout.readline()
        assert "serving 2 table(s)" in first, first + self.host.stderr.read()

    def kill(self) -> None:
        assert self.host is not None
        self.host.send_signal(signal.SIGKILL)
        self.host.wait(15)
        self.host.communicate()

    def stop(self) -> None:
        if self.host is not None and self.host.poll() is None:
            self.host.send_signal(signal.SIGTERM)
            self.host.wait(15)
            self.host.communicate()
        for boards in self.boards.values():
            for board in boards:
                board.close()
        self.observer.close()

    def seated(self, table: str, game: int, players: list[str]) -> None:
        state = self.observer.topics.state(table)
        self.observer.wait_for(lambda t, p: t == state and json.loads(p)["game"] == game
                               and json.loads(p)["seats"] == players)
        self.shadows[table] = Engine.new("bid-euchre", seed=1, dealer=0, players=players)

    def tap(self, table: str, meanwhile=lambda: None) -> None:
        """The next play at ``table``; ``meanwhile`` runs after the tag is down and before
        the verdict is awaited (e.g. the host starting again)."""
        shadow = self.shadows[table]
        action = bot_choice(shadow, self.rngs[table])
        assert shadow.apply(action).ok
        mark = self.observer.mark()
        board = self.boards[table][action.seat]
        event = board.tap(tap_for(action))
        meanwhile()
        events = self.observer.topics.events(table)

        def mine(topic: str, payload: bytes) -> bool:  # this tap's verdict (a resend is not)
            if topic != events or b'"board"' not in payload:
                return False
            verdict = decode(TableEvent, payload, 1 << 16)
            return verdict.board == board.board and verdict.kind in ("accepted", "refused")

        _, _, payload = self.observer.wait_for(mine, mark)
        verdict = decode(TableEvent, payload, 1 << 16)
        assert (verdict.kind, verdict.action) == ("accepted", action.to_json()), (event, verdict)

    def play_until(self, table: str, done) -> None:
        while not done(self.shadows[table]):
            self.tap(table)


def test_the_night_survives_sigkill_during_a_hand_and_during_the_bell(mqtt_broker,
                                                                     topic_prefix, tmp_path):
    save_night(ProgressiveTournament.new(ROSTER, 2, OPTIONS), tmp_path / "night.json")
    first = [list(t) for t in load_night(tmp_path / "night.json").seating]
    room = Night(mqtt_broker.port, topic_prefix, tmp_path)
    try:
        for table, players in zip(TABLES, first, strict=True):
            room.seated(table, 2, players)
        room.play_until("t2", lambda s: s.phase == "play" and s.public_state()["tricks"])
        room.kill()  # during a hand; the next play waits on the broker for the host
        room.tap("t2", meanwhile=room.start)
        room.play_until("t2", lambda s: len(s.public_state()["tricks"]) >= 3)
        room.play_until("t1", lambda s: s.public_state()["hand_number"] == 2)

        def live() -> dict:
            return json.loads((tmp_path / "night.json").read_text())["live"]

        eventually(lambda: live()["bell"] and live()["closed"] == {"t1": 1}, "the bell")
        room.kill()  # during the bell: table 2 is still in its hand
        room.tap("t2", meanwhile=room.start)
        room.play_until("t2", lambda s: s.public_state()["hand_number"] == 2)
        eventually(lambda: load_night(tmp_path / "night.json").games, "the players moving")
        night = load_night(tmp_path / "night.json")
        [game] = night.games
        assert [list(h) for h in game.hands] == [hands_scored(room.shadows[t]) for t in TABLES]
        expected = moved(first, room.shadows)  # the movement the rules give
        assert night.seating == expected
        for table, players in zip(TABLES, expected, strict=True):
            room.seated(table, 3, list(players))
    finally:
        room.stop()

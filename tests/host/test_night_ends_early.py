"""A night ended early reads as final everywhere (docs/club.md, "Ending early"): when no table
has a hand of the game in play, the night ends at the last bell and there is no phantom next
game: the standings say final after that game, the console shows that game's tables and no
action to correct, and every table's published state (the TV, the pages, the display) shows
its last game of the night, its players and its final score. A player who arrived for the
game that never came is listed apart from the standings, never ranked above those who played.
"""

from __future__ import annotations

import json

from test_night_commands import Night
from tricktable.club.store import load_night
from tricktable.serve.room import in_the_room
from tricktable.web.console import night_console
from tricktable.web.night import night_view
from waiting import eventually


def test_a_night_ended_before_its_next_game_is_final_after_the_last_bell(tmp_path):
    night = Night(tmp_path, hands_per_round=1)
    try:
        assert night.send("arrive", {"name": "Zoe"}).ok  # for game 2, which never comes
        night.act("t1", lambda s: s.public_state()["hand_number"] == 2)
        eventually(lambda: "tied" in night.live.bell_blocked, "the bell waiting on the tie")
        assert night.send("settle", {"winners": {"t2": "A"}}).ok
        eventually(lambda: night.tally().games, "the players moving")
        assert night.service.state("t1")["round"] == 2  # the tables began game 2
        answer = night.send("end", {})
        assert answer.ok and answer.entry["after"] == "1 game", answer

        tournament = load_night(night.path)
        [game] = tournament.games
        view = night_view(tournament)
        assert view["finished"] and (view["round"], view["rounds"]) == (1, 1)
        assert view["unranked"] == ["Zoe"]
        assert "Zoe" not in [row["name"] for row in view["standings"]]
        assert len(view["standings"]) == 8

        console = night_console(json.loads(night.path.read_text()), night.journal, {})
        assert (console["round"], console["rounds"]) == (1, 1)
        for number, table in enumerate(console["tables"]):
            assert table["phase_words"] == "the night is over"
            assert table["actions"] == [] and table["hands"] == []
            assert list(table["seats"].values()) == list(game.seating[number])

        for number, table in enumerate(("t1", "t2")):
            state = in_the_room(night.service.state(table), night.live.rooms[table])
            hands = game.hands[number]
            final = [sum(h[0] for h in hands), sum(h[1] for h in hands)]
            assert state["night"]["over"] and state["round"] == 1
            assert state["seats"] == list(game.seating[number])
            team_a = [0 in side["seats"] for side in state["sides"]]
            assert state["scores"] == [final[0] if a else final[1] for a in team_a]
    finally:
        night.close()
